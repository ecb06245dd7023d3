/* iv_util.h - shared by the interval family (intervals.c, priority.c, interval_join.c).
 *
 * Owns: how a SQL value becomes an integer nanosecond time (pq_iv_value_ns), the error text that
 * names the function and the argument (pq_iv_arg_ns), 64-bit overflow checks, and a stable LSD
 * radix sort on a signed 64-bit key that the interval algorithms use to "sort once, then sweep".
 * The registration functions of the family's other files are declared here and called from
 * pq_ext_intervals_init() in intervals.c.
 */
#ifndef PQ_IV_UTIL_H
#define PQ_IV_UTIL_H

#include "ext.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Result of reading one argument. */
#define PQ_IV_OK 1
#define PQ_IV_NULL 0
#define PQ_IV_ERR (-1)

/* Reads v as an integer number of nanoseconds into *out.
 * INTEGER: as is. REAL: finite values are rounded to the nearest integer (halves away from zero)
 * and must fit in 64 bits. TEXT: must be a decimal integer literal (surrounding blanks allowed).
 * Returns NULL on success (also for SQL NULL: check sqlite3_value_type first), otherwise a static
 * English fragment saying what was wrong ("got a blob", ...). */
const char *pq_iv_value_ns(sqlite3_value *v, sqlite3_int64 *out);

/* Reads argv[i] of a SQL function named func; argname is the argument's documented name.
 * Returns PQ_IV_OK, PQ_IV_NULL (SQL NULL), or PQ_IV_ERR after setting the error on ctx:
 * "<func>: argument <i+1> (<argname>) must be an integer number of ns, <what was wrong>". */
int pq_iv_arg_ns(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *func,
		 const char *argname, sqlite3_int64 *out);

/* b - a, or -1 after setting "<func>: interval length overflows a 64-bit integer" when it does
 * not fit. Callers only use it with b > a, so -1 is never a valid answer. */
sqlite3_int64 pq_iv_len(sqlite3_context *ctx, const char *func, sqlite3_int64 a, sqlite3_int64 b);

/* Registration of the other files of the family (called by pq_ext_intervals_init). */
int pq_ext_priority_init(sqlite3 *db);
int pq_ext_interval_join_init(sqlite3 *db);
int pq_ext_interval_merge_init(sqlite3 *db);
int pq_ext_interval_weighted_init(sqlite3 *db);
int pq_ext_nest_init(sqlite3 *db);

/* Reads two INTEGER arguments without the general path; returns 0 when either is not an INTEGER
 * (then the caller uses pq_iv_arg_ns, which also produces the errors). */
static inline int pq_iv_fast_ints(sqlite3_value **argv, sqlite3_int64 *a, sqlite3_int64 *b)
{
	if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER || sqlite3_value_type(argv[1]) != SQLITE_INTEGER)
		return 0;
	*a = sqlite3_value_int64(argv[0]);
	*b = sqlite3_value_int64(argv[1]);
	return 1;
}

/* PQ_RADIX_SORT(name, T, KEY): defines `static int name(T *a, size_t n)`, a stable ascending sort of
 * a[0..n) on the signed 64-bit key KEY(elem). LSD radix sort on key - min(key) with 12-bit digits, so
 * only as many passes as the key range needs (a 10 s span in ns: 3); one counting pass for all
 * digits; digits that are the same for every element are skipped; an already sorted input costs
 * one scan, small inputs use insertion sort. Returns SQLITE_OK or SQLITE_NOMEM (then a[] is
 * unchanged). Scratch: n elements plus the counters, freed before returning. */
#define PQ_RADIX_DIGIT 12
#define PQ_RADIX_SORT(name, T, KEY)                                                              \
	static int name(T *a, size_t n)                                                          \
	{                                                                                        \
		size_t *cnt;                                                                     \
		size_t i, b, passes = 0;                                                         \
		uint64_t lo, hi, range;                                                          \
		int sorted = 1;                                                                  \
		T *src, *dst, *tmp;                                                              \
		if (n < 2)                                                                       \
			return SQLITE_OK;                                                        \
		lo = hi = (uint64_t)KEY(a[0]) ^ ((uint64_t)1 << 63);                             \
		for (i = 1; i < n; i++) {                                                        \
			uint64_t k = (uint64_t)KEY(a[i]) ^ ((uint64_t)1 << 63);                  \
			if (KEY(a[i]) < KEY(a[i - 1]))                                           \
				sorted = 0;                                                      \
			if (k < lo)                                                              \
				lo = k;                                                          \
			if (k > hi)                                                              \
				hi = k;                                                          \
		}                                                                                \
		if (sorted)                                                                      \
			return SQLITE_OK;                                                        \
		if (n < 64) { /* insertion sort: stable, no scratch */                          \
			for (i = 1; i < n; i++) {                                                \
				T x = a[i];                                                      \
				size_t j = i;                                                    \
				while (j > 0 && KEY(a[j - 1]) > KEY(x)) {                        \
					a[j] = a[j - 1];                                         \
					j--;                                                     \
				}                                                                \
				a[j] = x;                                                        \
			}                                                                        \
			return SQLITE_OK;                                                        \
		}                                                                                \
		for (range = hi - lo; range != 0; range >>= PQ_RADIX_DIGIT)                      \
			passes++;                                                                \
		cnt = sqlite3_malloc64(((sqlite3_uint64)passes << PQ_RADIX_DIGIT) * sizeof(size_t));         \
		tmp = sqlite3_malloc64((sqlite3_uint64)n * sizeof(T));                           \
		if (cnt == NULL || tmp == NULL) {                                                \
			sqlite3_free(cnt);                                                       \
			sqlite3_free(tmp);                                                       \
			return SQLITE_NOMEM;                                                     \
		}                                                                                \
		memset(cnt, 0, (passes << PQ_RADIX_DIGIT) * sizeof(size_t));                     \
		for (i = 0; i < n; i++) {                                                        \
			uint64_t k = ((uint64_t)KEY(a[i]) ^ ((uint64_t)1 << 63)) - lo;           \
			for (b = 0; b < passes; b++)                                             \
				cnt[(b << PQ_RADIX_DIGIT) +                                      \
				    ((k >> (PQ_RADIX_DIGIT * b)) & ((1u << PQ_RADIX_DIGIT) - 1))]++; \
		}                                                                                \
		src = a;                                                                         \
		dst = tmp;                                                                       \
		for (b = 0; b < passes; b++) {                                                   \
			size_t *c = cnt + (b << PQ_RADIX_DIGIT);                                 \
			unsigned sh = (unsigned)(PQ_RADIX_DIGIT * b);                            \
			uint64_t mask = (1u << PQ_RADIX_DIGIT) - 1;                              \
			uint64_t k0 = ((uint64_t)KEY(a[0]) ^ ((uint64_t)1 << 63)) - lo;          \
			size_t sum = 0, d;                                                       \
			if (c[(k0 >> sh) & mask] == n)                                           \
				continue;                                                        \
			for (d = 0; d <= mask; d++) {                                            \
				size_t cd = c[d];                                                \
				c[d] = sum;                                                      \
				sum += cd;                                                       \
			}                                                                        \
			for (i = 0; i < n; i++) {                                                \
				uint64_t k = ((uint64_t)KEY(src[i]) ^ ((uint64_t)1 << 63)) - lo; \
				dst[c[(k >> sh) & mask]++] = src[i];                             \
			}                                                                        \
			{                                                                        \
				T *t = src;                                                      \
				src = dst;                                                       \
				dst = t;                                                         \
			}                                                                        \
		}                                                                                \
		if (src != a)                                                                    \
			memcpy(a, src, n * sizeof(T));                                           \
		sqlite3_free(tmp);                                                               \
		sqlite3_free(cnt);                                                               \
		return SQLITE_OK;                                                                \
	}

#endif
