/* derive.h - shared by the files that write the derived tables (db_derive.c, derive_*.c). */
#ifndef PQ_DERIVE_H
#define PQ_DERIVE_H

#include "db.h"

/* A derived table whose view is too slow, evaluated in C: compute holds its rows for the runs
 * the query runs selects, from a connection's committed data; insert writes them, possibly on
 * another connection; release frees them. tb_op_sums (derive_ops.c), hta_idle_breakdown
 * (derive_idle.c) and hta_temporal_breakdown (derive_temporal.c) for their default options. */
typedef struct {
	int (*compute)(sqlite3 *db, const char *runs, void **rows, pq_error *err);
	int (*insert)(sqlite3 *db, void *rows, pq_error *err);
	void (*release)(void *rows);
} pq_deriver;
extern const pq_deriver pq_op_sums_deriver, pq_idle_deriver, pq_temporal_deriver;

/* What they share (derive_hta.c): a run to compute, with HTA's clock (us: a Kineto run, whose
 * times HTA rounds to whole µs of its origin off), the bound on launch times (the last
 * ProfilerStep#N start, with two or more such names) and its API calls with a correlation id. */
typedef struct {
	sqlite3_int64 pid, corr, t; /* t: the start on the run's clock */
	int has_pid;
} pq_hta_call;
typedef struct {
	sqlite3_int64 id, off, bound;
	int us, has_bound;
	pq_hta_call *calls;
	size_t ncalls;
} pq_hta_run;
/* fn for each run of the query runs, with its bound and calls loaded. */
int pq_hta_each_run(sqlite3 *db, const char *runs,
		    int (*fn)(sqlite3 *db, const pq_hta_run *run, void *arg, pq_error *err),
		    void *arg, pq_error *err);
/* The SQL sql prepared with ?1 the run, ?2 its µs flag, ?3 its clock's origin; NULL on errors. */
sqlite3_stmt *pq_hta_query(sqlite3 *db, const char *sql, const pq_hta_run *run);
/* The first start *t of a call with that process (IS: NULL matches NULL) and correlation id: 1,
 * or 0 when none (or no correlation id). */
int pq_hta_launch(const pq_hta_run *run, int has_pid, sqlite3_int64 pid, int has_corr,
		  sqlite3_int64 corr, sqlite3_int64 *t);

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
