/* derive.h - shared by the files that write the derived tables (db_derive.c, derive_*.c). */
#ifndef PQ_DERIVE_H
#define PQ_DERIVE_H

#include <pthread.h>

#include "db.h"

/* Derived tables whose views are too slow, evaluated in C: compute holds their rows for the runs
 * the query runs selects, from a connection's committed data; insert writes table's rows of the
 * runs the query runs selects, possibly on another connection; release frees them. tb_op_sums
 * (derive_ops.c), tb_steps and tb_step_times (derive_steps.c), tb_gpu_metrics (derive_gpu.c), and
 * hta_idle_breakdown, hta_temporal_breakdown and hta_comm_overlap for their default options
 * (derive_hta.c). */
typedef struct pq_host_handoff pq_host_handoff;
typedef struct {
	/* hosts: where host ranges read by one derivation wait for the next (NULL: none). */
	int (*compute)(sqlite3 *db, const char *runs, pq_host_handoff *hosts, void **rows,
		       pq_error *err);
	int (*insert)(sqlite3 *db, const char *table, const char *runs, void *rows, pq_error *err);
	void (*release)(void *rows);
} pq_deriver;
extern const pq_deriver pq_op_sums_deriver, pq_hta_deriver, pq_steps_deriver,
	pq_gpu_metrics_deriver;

/* The HTA tables' shared part (derive_hta.c computes the three from one read of a run's GPU events
 * and API calls; derive_idle.c, derive_temporal.c and derive_overlap.c each sort the kept events
 * their way and add them up). An event on a run's clock (HTA's whole µs for a Kineto run), src its
 * table: 0 kernels, 1 memcpys, 2 memsets, 3 synchronizations (those on a stream with a correlation
 * id: HTA's); comp / comm: a COMPUTATION / COMMUNICATION kernel by HTA's name classes. */
typedef struct {
	sqlite3_int64 device, stream, ts, e, start, id, rt; /* rt: the launching call's start */
	unsigned char src, comp, comm, has_device, has_stream, has_ts, has_e, has_rt;
} pq_hta_event;
typedef struct {
	sqlite3_int64 run, stream, host, kernel, other;
} pq_idle_row;
typedef struct {
	sqlite3_int64 run, device, idle, compute, non_compute, kernel;
	int has_device, has_kernel; /* else NULL */
} pq_temporal_row;
typedef struct {
	sqlite3_int64 run, comm, overlap;
	int has_comm; /* else NULL: no communication kernel */
} pq_overlap_row;
typedef struct {
	pq_idle_row *idle;
	pq_temporal_row *temporal;
	pq_overlap_row *overlap;
	size_t nidle, ntemporal, noverlap, idle_cap, temporal_cap, overlap_cap;
} pq_hta_rows;
/* The rows of one run from its kept events (reordered in place): -1 when out of memory. */
int pq_hta_idle(pq_hta_rows *out, sqlite3_int64 run, pq_hta_event *ev, size_t n);
int pq_hta_temporal(pq_hta_rows *out, sqlite3_int64 run, pq_hta_event *ev, size_t n);
int pq_hta_overlap(pq_hta_rows *out, sqlite3_int64 run, const pq_hta_event *ev, size_t n);

/* The rows of a query (derive_rows.c), held to be inserted into a table of the same columns,
 * possibly on another connection. Owned by the caller: pq_rows_free. */
typedef struct pq_held_rows pq_held_rows;
int pq_rows_hold(sqlite3 *db, const char *sql, pq_held_rows **out, pq_error *err);
int pq_rows_insert(sqlite3 *db, const char *table, const pq_held_rows *r, pq_error *err);
void pq_rows_free(pq_held_rows *r);

/* Inserts n rows with fmt, an INSERT with one %s where the query runs goes (?1 the row's run, so
 * that the rows of runs it does not select are left out); bind(st, rows, i) binds row i. */
int pq_derive_insert(sqlite3 *db, const char *fmt, const char *runs, size_t n,
		     void (*bind)(sqlite3_stmt *st, const void *rows, size_t i), const void *rows,
		     pq_error *err);

/* Room in *buf (an array of *cap elements of size bytes) for element n: doubled when full.
 * -1 when out of memory (*buf unchanged). */
int pq_derive_grow(void **buf, size_t *cap, size_t n, size_t size);
/* The derived tables' error for db's last failure: always -1. */
int pq_derive_fail(sqlite3 *db, pq_error *err);

/* -1, 0, 1 as a < b, a == b, a > b: the sorts' comparisons. */
static inline int pq_derive_cmp(sqlite3_int64 a, sqlite3_int64 b)
{
	return a < b ? -1 : a > b;
}

/* Reading (derive_read.c). ids sorted without repeats: their new count. */
size_t pq_derive_distinct(sqlite3_int64 *ids, size_t n);
/* The index of id in the sorted ids, or n. */
size_t pq_derive_find(const sqlite3_int64 *ids, size_t n, sqlite3_int64 id);
/* Of n elements of size bytes that begin with two sqlite3_int64 keys and are sorted by them, the
 * first whose keys are not below (a, b), or n. */
size_t pq_derive_lower_bound(const void *base, size_t n, size_t size, sqlite3_int64 a,
			     sqlite3_int64 b);
/* fmt (with one %s, where the query runs goes) prepared into *st: 0, or -1 with err set. */
int pq_derive_prepare(sqlite3 *db, const char *fmt, const char *runs, sqlite3_stmt **st,
		      pq_error *err);
/* Finalizes st after its rows, rc the last sqlite3_step's: 0 when that was SQLITE_DONE, else -1
 * with err set. */
int pq_derive_finish(sqlite3 *db, sqlite3_stmt *st, int rc, pq_error *err);
/* For each of the n ids, what sql (its one parameter the id, a primary key) says: says[i] has bit
 * 0 when it gives a row, bit c + 1 when that row's column c is true. */
int pq_derive_ask(sqlite3 *db, const char *sql, const sqlite3_int64 *ids, size_t n,
		  unsigned *says, pq_error *err);

/* A host range tb_plugin's parsers look at (derive_host.c): a cpu_op, user_annotation or python
 * range (kinds 2, 3, 5) that ended, with what v_tb_host_names says of its name (known: there is
 * such a string) and whether its category is "python" in any case (lower(), as the views ask). */
enum { PQ_TB_ROLE_NONE, PQ_TB_ROLE_COMM, PQ_TB_ROLE_DL, PQ_TB_ROLE_STEP };
typedef struct {
	sqlite3_int64 run, id, thread, start, end, name, category, ext, step_number;
	int kind, has_thread, has_category, has_ext, has_step_number;
	unsigned char known, annot, listed, step, tcl, python, role;
} pq_host_range;
/* The host ranges of the runs the query runs selects, in no order (*out malloc'd). */
int pq_host_ranges_load(sqlite3 *db, const char *runs, pq_host_range **out, size_t *n,
			pq_error *err);

/* Host ranges one derivation read, left for the next that derives the same runs (db_derive.c:
 * the steps job's, for a large run's operator sums, which start once the steps are written), so
 * that they are read once: ~0.2 s of the 500 MB bench trace's derive. */
struct pq_host_handoff {
	pthread_mutex_t lock;
	char *runs;            /* the ids of the runs they are of, "1,2" */
	pq_host_range *r;
	size_t n;
};
void pq_host_handoff_init(pq_host_handoff *h);
void pq_host_handoff_free(pq_host_handoff *h);
/* pq_host_ranges_load's, taken from h (may be NULL) when they were left there for the runs the
 * query runs selects (the caller owns them then), else read. */
int pq_host_ranges_take(sqlite3 *db, const char *runs, pq_host_handoff *h, pq_host_range **out,
			size_t *n, pq_error *err);
/* Leaves r, the host ranges of the runs the query runs selects (in any order), in h for the next
 * derivation, or frees them when h is NULL. */
void pq_host_ranges_leave(sqlite3 *db, const char *runs, pq_host_handoff *h, pq_host_range *r,
			  size_t n);

/* Whether the query runs selects any row (db_derive.c): a derived table with no run to compute
 * skips its definition, whose preparation and scans cost even for no run. */
int pq_derive_any_run(sqlite3 *db, const char *runs);

#endif
