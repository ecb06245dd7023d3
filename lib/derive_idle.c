/* derive_idle.c - hta_idle_breakdown for finished runs: v_hta_idle_breakdown with its default
 * options (mode hta, last step left out, 30 µs kernel delay), the sort and the sums in C.
 *
 * The view (made from queries/idle-breakdown.sql) is the definition and computes any run the table
 * does not hold. On an nsys export of 400 k GPU events it takes SQLite ~1.5 s, most of it the
 * window sort of the events per stream (~0.7 s) and the launching-call subquery (~0.4 s). Here
 * SQL reads each run's events with the view's clock expressions; C finds each one's launching
 * call (derive_hta.c), keeps those launched before the cut, orders them per stream (ts, exact
 * start, table, id) and sums each gap into host wait (the call started after the previous event
 * ended), kernel wait (gap < 30 µs) or other, negative gaps too. tests/reports/derived.t checks
 * it gives the view's rows exactly, tests/reports/hta_rules.t the ties.
 */
#include "derive.h"

#include <stdlib.h>

#define KERNEL_DELAY_NS (30 * 1000) /* the report's consecutive-kernel-delay-us default */

typedef struct {
	sqlite3_int64 stream, ts, e, start, id, rt;
	unsigned char src, has_ts, has_e, has_rt;
} ievent;

typedef struct {
	sqlite3_int64 run, stream, host, kernel, other;
} irow;

typedef struct {
	irow *r;
	size_t n, cap;
} idle_rows;

static void idle_free(void *rows)
{
	idle_rows *r = rows;

	if (r != NULL)
		free(r->r);
	free(r);
}

static int fail_db(sqlite3 *db, pq_error *err)
{
	return pq_fail(err, "cannot write the derived tables: %s", sqlite3_errmsg(db));
}

static int cmp_i64(sqlite3_int64 a, sqlite3_int64 b)
{
	return a < b ? -1 : a > b;
}

/* The view's window order: stream, then ts (NULL first, as SQL sorts), start, table, id. */
static int cmp_event(const void *pa, const void *pb)
{
	const ievent *a = pa, *b = pb;

	if (a->stream != b->stream)
		return cmp_i64(a->stream, b->stream);
	if (a->has_ts != b->has_ts)
		return a->has_ts - b->has_ts;
	if (a->has_ts && a->ts != b->ts)
		return cmp_i64(a->ts, b->ts);
	if (a->start != b->start)
		return cmp_i64(a->start, b->start);
	if (a->src != b->src)
		return a->src - b->src;
	return cmp_i64(a->id, b->id);
}

/* The run's kernels, memcpys and memsets on a stream, on its clock, that were launched before
 * its cut (all of them without one). */
static int load_events(sqlite3 *db, const pq_hta_run *run, ievent **out, size_t *n,
		       pq_error *err)
{
	sqlite3_stmt *st = pq_hta_query(db,
		"SELECT stream_id, src, id, start_ns, "
		"CASE WHEN ?2 THEN hta_start_ns(start_ns, ?3) ELSE start_ns END, "
		"CASE WHEN ?2 THEN hta_end_ns(start_ns, end_ns, ?3) ELSE end_ns END, "
		"process_id, correlation_id FROM ("
		"SELECT stream_id, 0 AS src, id, start_ns, end_ns, process_id, correlation_id "
		"FROM kernels WHERE run_id = ?1 AND stream_id IS NOT NULL UNION ALL "
		"SELECT stream_id, 1, id, start_ns, end_ns, process_id, correlation_id "
		"FROM memcpys WHERE run_id = ?1 AND stream_id IS NOT NULL UNION ALL "
		"SELECT stream_id, 2, id, start_ns, end_ns, process_id, correlation_id "
		"FROM memsets WHERE run_id = ?1 AND stream_id IS NOT NULL)", run);
	ievent *a = NULL;
	size_t cap = 0;
	int rc;

	*n = 0;
	if (st == NULL)
		return fail_db(db, err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ievent x = { .stream = sqlite3_column_int64(st, 0),
			     .src = (unsigned char)sqlite3_column_int(st, 1),
			     .id = sqlite3_column_int64(st, 2), .start = sqlite3_column_int64(st, 3),
			     .ts = sqlite3_column_int64(st, 4),
			     .has_ts = sqlite3_column_type(st, 4) != SQLITE_NULL,
			     .e = sqlite3_column_int64(st, 5),
			     .has_e = sqlite3_column_type(st, 5) != SQLITE_NULL };

		x.has_rt = (unsigned char)pq_hta_launch(
			run, sqlite3_column_type(st, 6) != SQLITE_NULL, sqlite3_column_int64(st, 6),
			sqlite3_column_type(st, 7) != SQLITE_NULL, sqlite3_column_int64(st, 7), &x.rt);
		if (run->has_bound && !(x.has_rt && x.rt < run->bound))
			continue;
		if (*n == cap) {
			size_t nc = cap ? cap * 2 : 4096;
			ievent *na = realloc(a, nc * sizeof(ievent));

			if (na == NULL) {
				rc = SQLITE_NOMEM;
				break;
			}
			a = na;
			cap = nc;
		}
		a[(*n)++] = x;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(a);
		return rc == SQLITE_NOMEM ? pq_fail(err, "out of memory") : fail_db(db, err);
	}
	*out = a;
	return 0;
}

/* A row per stream of the run's kept events, sorted, with its gaps summed. */
static int sum_gaps(idle_rows *r, sqlite3_int64 run, const ievent *a, size_t n, pq_error *err)
{
	for (size_t i = 0, j; i < n; i = j) {
		irow *row;

		if (r->n == r->cap) {
			size_t nc = r->cap ? r->cap * 2 : 16;
			irow *na = realloc(r->r, nc * sizeof(irow));

			if (na == NULL)
				return pq_fail(err, "out of memory");
			r->r = na;
			r->cap = nc;
		}
		row = &r->r[r->n++];
		*row = (irow){ .run = run, .stream = a[i].stream };
		for (j = i + 1; j < n && a[j].stream == a[i].stream; j++) {
			const ievent *p = &a[j - 1], *x = &a[j];
			sqlite3_int64 gap;

			if (!p->has_e || !x->has_ts)
				continue; /* the gap is NULL: no category */
			gap = x->ts - p->e;
			if (x->has_rt && x->rt > p->e)
				row->host += gap;
			else if (gap < KERNEL_DELAY_NS)
				row->kernel += gap;
			else
				row->other += gap;
		}
	}
	return 0;
}

static int compute_run(sqlite3 *db, const pq_hta_run *run, void *arg, pq_error *err)
{
	ievent *ev = NULL;
	size_t n = 0;
	int rc;

	if (load_events(db, run, &ev, &n, err) != 0)
		return -1;
	qsort(ev, n, sizeof(ievent), cmp_event);
	rc = sum_gaps(arg, run->id, ev, n, err);
	free(ev);
	return rc;
}

static int idle_compute(sqlite3 *db, const char *runs, void **out, pq_error *err)
{
	idle_rows *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (r == NULL)
		return pq_fail(err, "out of memory");
	if (pq_hta_each_run(db, runs, compute_run, r, err) != 0) {
		idle_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

static int idle_insert(sqlite3 *db, void *rows, pq_error *err)
{
	const idle_rows *r = rows;
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (r->n == 0)
		return 0;
	if (sqlite3_prepare_v2(db, "INSERT INTO hta_idle_breakdown (run_id, stream_id, host_wait_ns, "
			       "kernel_wait_ns, other_ns) VALUES (?1, ?2, ?3, ?4, ?5)", -1, &st,
			       NULL) != SQLITE_OK)
		return fail_db(db, err);
	for (size_t i = 0; i < r->n && rc == 0; i++) {
		sqlite3_bind_int64(st, 1, r->r[i].run);
		sqlite3_bind_int64(st, 2, r->r[i].stream);
		sqlite3_bind_int64(st, 3, r->r[i].host);
		sqlite3_bind_int64(st, 4, r->r[i].kernel);
		sqlite3_bind_int64(st, 5, r->r[i].other);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = fail_db(db, err);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

const pq_deriver pq_idle_deriver = { idle_compute, idle_insert, idle_free };
