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

/* PQ_RADIX_SORT(name, T, KEY): defines `static int name(T *a, size_t n)`, a stable ascending sort of
 * a[0..n) on the signed 64-bit key KEY(elem). 8-bit digits, one counting pass for all eight digits,
 * digits that are the same for every element are skipped, and an already sorted input costs one
 * scan. Returns SQLITE_OK or SQLITE_NOMEM (then a[] is unchanged). Scratch: n elements, freed. */
#define PQ_RADIX_SORT(name, T, KEY)                                                              \
	static int name(T *a, size_t n)                                                          \
	{                                                                                        \
		size_t cnt[8][256];                                                              \
		size_t i, b;                                                                     \
		T *src, *dst, *tmp;                                                              \
		for (i = 1; i < n; i++)                                                          \
			if (KEY(a[i]) < KEY(a[i - 1]))                                           \
				break;                                                           \
		if (i >= n)                                                                      \
			return SQLITE_OK;                                                        \
		if (n < 32) { /* insertion sort: stable, no scratch */                          \
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
		tmp = sqlite3_malloc64((sqlite3_uint64)n * sizeof(T));                           \
		if (tmp == NULL)                                                                 \
			return SQLITE_NOMEM;                                                     \
		memset(cnt, 0, sizeof cnt);                                                      \
		for (i = 0; i < n; i++) {                                                        \
			uint64_t k = (uint64_t)KEY(a[i]) ^ ((uint64_t)1 << 63);                  \
			for (b = 0; b < 8; b++)                                                  \
				cnt[b][(k >> (8 * b)) & 255]++;                                  \
		}                                                                                \
		src = a;                                                                         \
		dst = tmp;                                                                       \
		for (b = 0; b < 8; b++) {                                                        \
			uint64_t k0 = (uint64_t)KEY(a[0]) ^ ((uint64_t)1 << 63);                 \
			size_t sum = 0, d;                                                       \
			if (cnt[b][(k0 >> (8 * b)) & 255] == n)                                  \
				continue;                                                        \
			for (d = 0; d < 256; d++) {                                              \
				size_t c = cnt[b][d];                                            \
				cnt[b][d] = sum;                                                 \
				sum += c;                                                        \
			}                                                                        \
			for (i = 0; i < n; i++) {                                                \
				uint64_t k = (uint64_t)KEY(src[i]) ^ ((uint64_t)1 << 63);        \
				dst[cnt[b][(k >> (8 * b)) & 255]++] = src[i];                    \
			}                                                                        \
			{                                                                        \
				T *t = src;                                                      \
				src = dst;                                                       \
				dst = t;                                                         \
			}                                                                        \
		}                                                                                \
		if (src != a)                                                                    \
			memcpy(a, src, n * sizeof(T));                                          \
		sqlite3_free(tmp);                                                               \
		return SQLITE_OK;                                                                \
	}

#endif
