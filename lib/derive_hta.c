/* derive_hta.c - hta_idle_breakdown, hta_temporal_breakdown and hta_comm_overlap for finished
 * runs, with their default options: all three from one read of each run's GPU events and API calls.
 *
 * Their views (made from queries/idle-breakdown.sql, temporal-breakdown.sql and comm-overlap.sql)
 * are the definitions and compute any run the tables do not hold; on an nsys export of 400 k GPU
 * events SQLite takes ~1.5 s and ~0.7 s for the first two, mostly sorting. Here SQL reads the
 * events and calls with the views' own expressions (hta_start_ns, hta_end_ns: HTA's whole-µs
 * clock for Kineto runs; the kernel classes, a CASE of GLOBs asked once a name); C finds each event's
 * launching call (the first with its process and correlation id: rounding keeps order, so the
 * first rounded start is the rounded first start), keeps those launched before the cut (the last
 * ProfilerStep#N start, with two or more such names), and derive_idle.c, derive_temporal.c and
 * derive_overlap.c add them up. Memory: ~64 bytes a GPU event and ~32 an API call of the run,
 * while it is computed.
 */
#include "derive.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "radix_sort.h"

typedef struct {
	sqlite3_int64 pid, corr, t; /* t: the start on the run's clock */
	int has_pid;
} hta_call;

/* A run to compute: us for a Kineto run (HTA's clock, from origin off), its cut and calls. */
typedef struct {
	sqlite3_int64 id, off, bound;
	int us, has_bound;
	hta_call *calls;
	size_t ncalls;
} hta_run;

/* sql prepared with ?1 the run, ?2 its µs flag, ?3 its clock's origin; NULL on errors. */
static sqlite3_stmt *run_query(sqlite3 *db, const char *sql, const hta_run *run)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, run->id);
	sqlite3_bind_int(st, 2, run->us);
	sqlite3_bind_int64(st, 3, run->off);
	return st;
}

/* The last ProfilerStep#N start (any kind of range) when two or more such names exist. */
static int load_bound(sqlite3 *db, hta_run *run, pq_error *err)
{
	sqlite3_stmt *st = run_query(db,
		"SELECT CASE WHEN count(DISTINCT n.value) >= 2 THEN max(CASE WHEN ?2 THEN "
		"hta_start_ns(r.start_ns, ?3) ELSE r.start_ns END) END "
		"FROM strings n CROSS JOIN ranges r ON r.name_id = n.id "
		"WHERE n.value GLOB 'ProfilerStep#[0-9]*' AND r.run_id = ?1", run);
	int rc;

	if (st == NULL)
		return pq_derive_fail(db, err);
	rc = sqlite3_step(st);
	run->has_bound = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL;
	run->bound = run->has_bound ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : pq_derive_fail(db, err);
}

/* Calls by process (NULL first: the views match with IS), then correlation id. */
static int cmp_call(const hta_call *a, const hta_call *b)
{
	if (a->has_pid != b->has_pid)
		return a->has_pid - b->has_pid;
	if (a->has_pid && a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return pq_derive_cmp(a->corr, b->corr);
}

/* That order by stable radix passes, the last key first (qsort's comparisons were a third of the
 * HTA tables' time on an nsys export of 533 k calls). */
#define CALL_CORR(c) ((c).corr)
#define CALL_PID(c) ((c).has_pid ? (c).pid : 0)
#define CALL_HAS_PID(c) ((sqlite3_int64)(c).has_pid)
PQ_RADIX_SORT(calls_by_corr, hta_call, CALL_CORR)
PQ_RADIX_SORT(calls_by_pid, hta_call, CALL_PID)
PQ_RADIX_SORT(calls_by_has_pid, hta_call, CALL_HAS_PID)

/* Sorts the run's calls and keeps one of each process and correlation id: the first start. */
static int index_calls(hta_run *run)
{
	size_t kept = 0;

	if (calls_by_corr(run->calls, run->ncalls) != 0 ||
	    calls_by_pid(run->calls, run->ncalls) != 0 ||
	    calls_by_has_pid(run->calls, run->ncalls) != 0)
		return -1;
	for (size_t i = 0; i < run->ncalls; i++) {
		if (kept > 0 && cmp_call(&run->calls[kept - 1], &run->calls[i]) == 0) {
			if (run->calls[i].t < run->calls[kept - 1].t)
				run->calls[kept - 1].t = run->calls[i].t;
			continue;
		}
		run->calls[kept++] = run->calls[i];
	}
	run->ncalls = kept;
	return 0;
}

/* Every API call of the run with a correlation id (any API: HTA's), its start on the clock. */
static int load_calls(sqlite3 *db, hta_run *run, pq_error *err)
{
	sqlite3_stmt *st = run_query(db,
		"SELECT process_id, correlation_id, CASE WHEN ?2 THEN hta_start_ns(start_ns, ?3) "
		"ELSE start_ns END FROM api_calls WHERE run_id = ?1 AND correlation_id IS NOT NULL",
		run);
	size_t cap = 0;
	int rc;

	if (st == NULL)
		return pq_derive_fail(db, err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 2) == SQLITE_NULL)
			continue; /* min() leaves it out */
		if (pq_derive_grow((void **)&run->calls, &cap, run->ncalls, sizeof(hta_call)) != 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		run->calls[run->ncalls++] = (hta_call){
			.pid = sqlite3_column_int64(st, 0),
			.has_pid = sqlite3_column_type(st, 0) != SQLITE_NULL,
			.corr = sqlite3_column_int64(st, 1), .t = sqlite3_column_int64(st, 2) };
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE && index_calls(run) != 0)
		rc = SQLITE_NOMEM;
	if (rc != SQLITE_DONE)
		return rc == SQLITE_NOMEM ? pq_fail(err, "out of memory") : pq_derive_fail(db, err);
	return 0;
}

/* The first start *t of a call with that process (IS: NULL matches NULL) and correlation id: 1,
 * or 0 when none (or no correlation id). */
static int find_launch(const hta_run *run, int has_pid, sqlite3_int64 pid, int has_corr,
		       sqlite3_int64 corr, sqlite3_int64 *t)
{
	hta_call key = { .pid = pid, .corr = corr, .has_pid = has_pid };
	size_t lo = 0, hi = run->ncalls;

	if (!has_corr)
		return 0;
	while (lo < hi) { /* the first call not before key: the one of its key, if any */
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_call(&run->calls[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == run->ncalls || cmp_call(&run->calls[lo], &key) != 0)
		return 0;
	*t = run->calls[lo].t;
	return 1;
}

/* HTA's kernel classes (the views' CASE of GLOBs) of a name: columns COMPUTATION, COMMUNICATION. */
#define KERNEL_CLASS \
	"SELECT class = 'COMPUTATION', class = 'COMMUNICATION' FROM (SELECT CASE " \
	"WHEN n.value GLOB 'nccl*' OR n.value GLOB 'hip*' OR n.value GLOB 'hccl*' " \
	"  OR n.value GLOB '*ncclKernel*' THEN 'COMMUNICATION' " \
	"WHEN n.value GLOB 'Memcpy*' OR n.value GLOB 'hipMemcpy*' OR n.value GLOB 'Memset*' " \
	"  OR n.value GLOB 'hipMemset*' OR n.value GLOB 'dma*' THEN 'MEMORY' " \
	"WHEN NOT (n.value GLOB '*Memcpy*' OR n.value GLOB '*Memset*' OR n.value GLOB '*dma*' " \
	"  OR n.value GLOB '*Sync*' OR n.value GLOB 'Stream Wait Event*' " \
	"  OR n.value GLOB 'cuda*LaunchKernel*' OR n.value GLOB 'runFunction*' " \
	"  OR n.value GLOB 'job_exe*' OR n.value GLOB 'packet*' OR n.value GLOB 'pe_exe*' " \
	"  OR n.value GLOB 'cpum_exe_subgraph*' " \
	"  OR n.value GLOB 'collective_subgraph_execution*') THEN 'COMPUTATION' " \
	"ELSE 'OTHER' END AS class FROM strings n WHERE n.id = ?1)"

/* The kernels' classes (names[i] the name of a[i], a kernel: src 0) asked once a name, not joined
 * a kernel: the join was ~0.2 s of 317 k kernels. A kernel whose name is not a string is left out,
 * as by the join. */
static int classify(sqlite3 *db, pq_hta_event *a, const sqlite3_int64 *names, size_t *n,
		    pq_error *err)
{
	sqlite3_int64 *ids = malloc((*n > 0 ? *n : 1) * sizeof(*ids));
	unsigned *says = NULL;
	size_t nids = 0, kept = 0;

	if (ids == NULL)
		return pq_fail(err, "out of memory");
	for (size_t i = 0; i < *n; i++)
		if (a[i].src == 0)
			ids[nids++] = names[i];
	nids = pq_derive_distinct(ids, nids);
	if ((says = malloc((nids > 0 ? nids : 1) * sizeof(*says))) == NULL) {
		free(ids);
		return pq_fail(err, "out of memory");
	}
	if (pq_derive_ask(db, KERNEL_CLASS, ids, nids, says, err) != 0) {
		free(ids);
		free(says);
		return -1;
	}
	for (size_t i = 0; i < *n; i++) {
		if (a[i].src == 0) {
			unsigned x = says[pq_derive_find(ids, nids, names[i])];

			if (!(x & 1))
				continue;
			a[i].comp = (x & 2) != 0;
			a[i].comm = (x & 4) != 0;
		}
		a[kept++] = a[i];
	}
	*n = kept;
	free(ids);
	free(says);
	return 0;
}

/* The run's GPU events on its clock that were launched before its cut (all without one). */
static int load_events(sqlite3 *db, const hta_run *run, pq_hta_event **out, size_t *n,
		       pq_error *err)
{
	sqlite3_stmt *st = run_query(db,
		"SELECT device_id, stream_id, src, id, start_ns, "
		"CASE WHEN ?2 THEN hta_start_ns(start_ns, ?3) ELSE start_ns END, "
		"CASE WHEN ?2 THEN hta_end_ns(start_ns, end_ns, ?3) ELSE end_ns END, "
		"process_id, correlation_id, name_id FROM ("
		"SELECT device_id, stream_id, 0 AS src, id, start_ns, end_ns, process_id, "
		"correlation_id, name_id FROM kernels WHERE run_id = ?1 UNION ALL "
		"SELECT device_id, stream_id, 1, id, start_ns, end_ns, process_id, correlation_id, 0 "
		"FROM memcpys WHERE run_id = ?1 UNION ALL "
		"SELECT device_id, stream_id, 2, id, start_ns, end_ns, process_id, correlation_id, 0 "
		"FROM memsets WHERE run_id = ?1 UNION ALL "
		"SELECT device_id, stream_id, 3, id, start_ns, end_ns, process_id, correlation_id, 0 "
		"FROM synchronizations WHERE run_id = ?1 AND stream_id IS NOT NULL "
		"AND correlation_id IS NOT NULL)", run);
	pq_hta_event *a = NULL;
	sqlite3_int64 *names = NULL;
	size_t cap = 0, names_cap = 0;
	int rc;

	*n = 0;
	if (st == NULL)
		return pq_derive_fail(db, err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pq_hta_event x = {
			.device = sqlite3_column_int64(st, 0),
			.has_device = sqlite3_column_type(st, 0) != SQLITE_NULL,
			.stream = sqlite3_column_int64(st, 1),
			.has_stream = sqlite3_column_type(st, 1) != SQLITE_NULL,
			.src = (unsigned char)sqlite3_column_int(st, 2), .id = sqlite3_column_int64(st, 3),
			.start = sqlite3_column_int64(st, 4), .ts = sqlite3_column_int64(st, 5),
			.has_ts = sqlite3_column_type(st, 5) != SQLITE_NULL,
			.e = sqlite3_column_int64(st, 6), .has_e = sqlite3_column_type(st, 6) != SQLITE_NULL };

		x.has_rt = (unsigned char)find_launch(
			run, sqlite3_column_type(st, 7) != SQLITE_NULL, sqlite3_column_int64(st, 7),
			sqlite3_column_type(st, 8) != SQLITE_NULL, sqlite3_column_int64(st, 8), &x.rt);
		if (run->has_bound && !(x.has_rt && x.rt < run->bound))
			continue;
		if (pq_derive_grow((void **)&a, &cap, *n, sizeof(*a)) != 0 ||
		    pq_derive_grow((void **)&names, &names_cap, *n, sizeof(*names)) != 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		names[*n] = sqlite3_column_int64(st, 9);
		a[(*n)++] = x;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(a);
		free(names);
		return rc == SQLITE_NOMEM ? pq_fail(err, "out of memory") : pq_derive_fail(db, err);
	}
	rc = classify(db, a, names, n, err);
	free(names);
	if (rc != 0) {
		free(a);
		return -1;
	}
	*out = a;
	return 0;
}

static int compute_run(sqlite3 *db, hta_run *run, pq_hta_rows *out, pq_error *err)
{
	pq_hta_event *ev = NULL;
	size_t n = 0;
	int rc = load_bound(db, run, err);

	if (rc == 0)
		rc = load_calls(db, run, err);
	if (rc == 0)
		rc = load_events(db, run, &ev, &n, err);
	free(run->calls); /* the events have their launches */
	run->calls = NULL;
	if (rc == 0 && (pq_hta_overlap(out, run->id, ev, n) != 0 ||
			pq_hta_temporal(out, run->id, ev, n) != 0 ||
			pq_hta_idle(out, run->id, ev, n) != 0))
		rc = pq_fail(err, "out of memory");
	free(ev);
	return rc;
}

static void release(void *rows)
{
	pq_hta_rows *r = rows;

	if (r != NULL) {
		free(r->idle);
		free(r->temporal);
		free(r->overlap);
	}
	free(r);
}

static int compute(sqlite3 *db, const char *runs, pq_host_handoff *hosts, void **rows,
		   pq_error *err)
{
	(void)hosts; /* reads no host ranges */
	char *sql = sqlite3_mprintf("SELECT id, source = 'chrome-json', coalesce(time_offset_ns, 0) "
				    "FROM runs WHERE id IN (%s) ORDER BY id", runs);
	pq_hta_rows *out = calloc(1, sizeof(*out));
	sqlite3_stmt *st = NULL;
	int rc = 0;

	*rows = NULL;
	if (sql == NULL || out == NULL) {
		sqlite3_free(sql);
		free(out);
		return pq_fail(err, "out of memory");
	}
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		rc = pq_derive_fail(db, err);
	sqlite3_free(sql);
	while (rc == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		hta_run run = { .id = sqlite3_column_int64(st, 0), .us = sqlite3_column_int(st, 1),
				   .off = sqlite3_column_int64(st, 2) };

		rc = compute_run(db, &run, out, err);
	}
	if (rc == SQLITE_DONE)
		rc = 0;
	else if (rc > 0)
		rc = pq_derive_fail(db, err);
	sqlite3_finalize(st);
	if (rc != 0) {
		release(out);
		return -1;
	}
	*rows = out;
	return 0;
}

static void bind_or_null(sqlite3_stmt *st, int i, int has, sqlite3_int64 v)
{
	if (has)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* Binds row i of each table's rows to st's parameters 1.. (?1 the run). */
static void bind_idle(sqlite3_stmt *st, const void *rows, size_t i)
{
	const pq_idle_row *x = &((const pq_hta_rows *)rows)->idle[i];

	sqlite3_bind_int64(st, 1, x->run);
	sqlite3_bind_int64(st, 2, x->stream);
	sqlite3_bind_int64(st, 3, x->host);
	sqlite3_bind_int64(st, 4, x->kernel);
	sqlite3_bind_int64(st, 5, x->other);
}

static void bind_temporal(sqlite3_stmt *st, const void *rows, size_t i)
{
	const pq_temporal_row *x = &((const pq_hta_rows *)rows)->temporal[i];

	sqlite3_bind_int64(st, 1, x->run);
	bind_or_null(st, 2, x->has_device, x->device);
	bind_or_null(st, 3, x->has_kernel, x->idle);
	sqlite3_bind_int64(st, 4, x->compute);
	sqlite3_bind_int64(st, 5, x->non_compute);
	bind_or_null(st, 6, x->has_kernel, x->kernel);
}

static void bind_overlap(sqlite3_stmt *st, const void *rows, size_t i)
{
	const pq_overlap_row *x = &((const pq_hta_rows *)rows)->overlap[i];

	sqlite3_bind_int64(st, 1, x->run);
	bind_or_null(st, 2, x->has_comm, x->comm);
	sqlite3_bind_int64(st, 3, x->overlap);
}

/* The rows of table for the runs the query runs selects (the one computed may have listed more). */
static int insert(sqlite3 *db, const char *table, const char *runs, void *rows, pq_error *err)
{
	const pq_hta_rows *r = rows;

	if (strcmp(table, "hta_idle_breakdown") == 0)
		return pq_derive_insert(db, "INSERT INTO hta_idle_breakdown (run_id, stream_id, "
					"host_wait_ns, kernel_wait_ns, other_ns) SELECT ?1, ?2, ?3, ?4, ?5 "
					"WHERE ?1 IN (%s)", runs, r->nidle, bind_idle, r, err);
	if (strcmp(table, "hta_temporal_breakdown") == 0)
		return pq_derive_insert(db, "INSERT INTO hta_temporal_breakdown (run_id, device_id, "
					"idle_ns, compute_ns, non_compute_ns, kernel_ns) SELECT ?1, ?2, ?3, "
					"?4, ?5, ?6 WHERE ?1 IN (%s)", runs, r->ntemporal, bind_temporal, r,
					err);
	return pq_derive_insert(db, "INSERT INTO hta_comm_overlap (run_id, comm_ns, overlap_ns) "
				"SELECT ?1, ?2, ?3 WHERE ?1 IN (%s)", runs, r->noverlap, bind_overlap, r,
				err);
}

const pq_deriver pq_hta_deriver = { compute, insert, release };
