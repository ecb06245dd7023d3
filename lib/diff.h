/* diff.h - comparing two profiles: per kernel (or operator) name, counts and total times before
 * and after, and their difference, with the total GPU busy time and step time first.
 *
 * The comparison is one SQL statement over two databases attached read-only: `before` as
 * schema "a", `after` as "b". Parameters: :by ('kernel', the default, or 'op'), :run_a and :run_b
 * (one run of each side; NULL: all of its runs), :limit.
 * Columns: count_before, count_after, total_ns_before, total_ns_after, delta_ns, delta_pct, name.
 */
#ifndef PQ_DIFF_H
#define PQ_DIFF_H

#include <sqlite3.h>

#include "error.h"

/* The statement's text (static). */
const char *pq_diff_sql(void);

/* Attaches the profq databases before and after to db (opened with SQLITE_OPEN_URI; an
 * in-memory one will do) as schemas "a" and "b", read-only (pq_db_attach_readonly). */
int pq_diff_attach(sqlite3 *db, const char *before, const char *after, pq_error *err);

#endif
