/* derive.h - shared by the files that write the derived tables (db_derive.c, derive_ops.c). */
#ifndef PQ_DERIVE_H
#define PQ_DERIVE_H

#include "db.h"

/* tb_op_sums rows computed from a connection's committed data (derive_ops.c), for the runs the
 * query pending selects; written by pq_op_sums_insert, possibly on another connection. Owned by
 * the caller: pq_op_sums_free. */
typedef struct pq_op_sums pq_op_sums;
int pq_op_sums_compute(sqlite3 *db, const char *pending, pq_op_sums **out, pq_error *err);
int pq_op_sums_insert(sqlite3 *db, pq_op_sums *r, pq_error *err);
void pq_op_sums_free(pq_op_sums *r);

/* The rows of a query (derive_rows.c), held to be inserted into a table of the same columns,
 * possibly on another connection. Owned by the caller: pq_rows_free. */
typedef struct pq_held_rows pq_held_rows;
int pq_rows_hold(sqlite3 *db, const char *sql, pq_held_rows **out, pq_error *err);
int pq_rows_insert(sqlite3 *db, const char *table, const pq_held_rows *r, pq_error *err);
void pq_rows_free(pq_held_rows *r);

/* Whether the query runs selects any row (db_derive.c): a derived table with no run to compute
 * skips its definition, whose preparation and scans cost even for no run. */
int pq_derive_any_run(sqlite3 *db, const char *runs);

#endif
