/* iv_util.h - shared by the interval family (intervals.c, priority.c, interval_join.c).
 *
 * Owns: how a SQL value becomes an integer nanosecond time (pq_iv_value_ns), the error text that
 * names the function and the argument (pq_iv_arg_ns), 64-bit overflow checks, and the stable LSD
 * radix sort (lib/radix_sort.h) the interval algorithms use to "sort once, then sweep".
 * The registration functions of the family's other files are declared here and called from
 * pq_ext_intervals_init() in intervals.c.
 */
#ifndef PQ_IV_UTIL_H
#define PQ_IV_UTIL_H

#include "ext.h"

#define PQ_RADIX_MALLOC(size) sqlite3_malloc64(size)
#define PQ_RADIX_FREE(p) sqlite3_free(p)
#include "radix_sort.h"

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

/* PQ_RADIX_SORT(name, T, KEY): the stable radix sort on a signed 64-bit key (lib/radix_sort.h);
 * `name` returns 0 (SQLITE_OK) or -1 when out of memory. */

#endif
