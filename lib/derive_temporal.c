/* derive_temporal.c - hta_temporal_breakdown for finished runs: v_hta_temporal_breakdown with its
 * default options (mode hta, last step left out), the merges in C.
 *
 * The view (made from queries/temporal-breakdown.sql) is the definition and computes any run the
 * table does not hold; on an nsys export of 400 k GPU events SQLite takes ~0.7 s. Here SQL reads
 * each run's kernels (with the view's kernel classes, a CASE of GLOBs once a name), memcpys,
 * memsets and stream synchronizations with the view's clock expressions; C keeps those launched
 * before the cut (derive_hta.c) and does per GPU what interval_merge_ns / interval_merge_end do
 * (ext/interval_merge.c: HTA's merge_kernel_intervals, rows in (ts, table, id) order):
 * kernel_ns = the last merged group's end - the first ts, busy = the merged length of all, compute
 * = of the COMPUTATION kernels; idle = kernel - busy, non-compute = busy - compute.
 * tests/reports/derived.t checks it gives the view's rows exactly.
 */
#include "derive.h"

#include <stdlib.h>

typedef struct {
	sqlite3_int64 device, ts, e, id;
	unsigned char src, comp, has_device, has_ts, has_e;
} tevent;

typedef struct {
	sqlite3_int64 run, device, idle, compute, non_compute, kernel;
	int has_device, has_kernel;
} trow;

typedef struct {
	trow *r;
	size_t n, cap;
} temporal_rows;

static void temporal_free(void *rows)
{
	temporal_rows *r = rows;

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

/* By device (the GROUP BY's groups), then the merges' order: ts, table, id. */
static int cmp_event(const void *pa, const void *pb)
{
	const tevent *a = pa, *b = pb;

	if (a->has_device != b->has_device)
		return a->has_device - b->has_device;
	if (a->has_device && a->device != b->device)
		return cmp_i64(a->device, b->device);
	if (a->has_ts != b->has_ts)
		return a->has_ts - b->has_ts;
	if (a->has_ts && a->ts != b->ts)
		return cmp_i64(a->ts, b->ts);
	if (a->src != b->src)
		return a->src - b->src;
	return cmp_i64(a->id, b->id);
}

static int same_device(const tevent *a, const tevent *b)
{
	return a->has_device == b->has_device && (!a->has_device || a->device == b->device);
}

/* The run's GPU events on its clock, launched before its cut (all without one). */
static int load_events(sqlite3 *db, const pq_hta_run *run, tevent **out, size_t *n,
		       pq_error *err)
{
	sqlite3_stmt *st = pq_hta_query(db,
		"WITH ktype AS MATERIALIZED (SELECT n.id, CASE "
		"WHEN n.value GLOB 'nccl*' OR n.value GLOB 'hip*' OR n.value GLOB 'hccl*' "
		"  OR n.value GLOB '*ncclKernel*' THEN 'COMMUNICATION' "
		"WHEN n.value GLOB 'Memcpy*' OR n.value GLOB 'hipMemcpy*' OR n.value GLOB 'Memset*' "
		"  OR n.value GLOB 'hipMemset*' OR n.value GLOB 'dma*' THEN 'MEMORY' "
		"WHEN NOT (n.value GLOB '*Memcpy*' OR n.value GLOB '*Memset*' OR n.value GLOB '*dma*' "
		"  OR n.value GLOB '*Sync*' OR n.value GLOB 'Stream Wait Event*' "
		"  OR n.value GLOB 'cuda*LaunchKernel*' OR n.value GLOB 'runFunction*' "
		"  OR n.value GLOB 'job_exe*' OR n.value GLOB 'packet*' OR n.value GLOB 'pe_exe*' "
		"  OR n.value GLOB 'cpum_exe_subgraph*' "
		"  OR n.value GLOB 'collective_subgraph_execution*') THEN 'COMPUTATION' "
		"ELSE 'OTHER' END = 'COMPUTATION' AS comp "
		"FROM strings n WHERE n.id IN (SELECT name_id FROM kernels WHERE run_id = ?1)) "
		"SELECT device_id, src, id, "
		"CASE WHEN ?2 THEN hta_start_ns(start_ns, ?3) ELSE start_ns END, "
		"CASE WHEN ?2 THEN hta_end_ns(start_ns, end_ns, ?3) ELSE end_ns END, "
		"process_id, correlation_id, comp FROM ("
		"SELECT k.device_id, 0 AS src, k.id, k.start_ns, k.end_ns, k.process_id, "
		"k.correlation_id, t.comp FROM kernels k CROSS JOIN ktype t ON t.id = k.name_id "
		"WHERE k.run_id = ?1 UNION ALL "
		"SELECT device_id, 1, id, start_ns, end_ns, process_id, correlation_id, 0 "
		"FROM memcpys WHERE run_id = ?1 UNION ALL "
		"SELECT device_id, 2, id, start_ns, end_ns, process_id, correlation_id, 0 "
		"FROM memsets WHERE run_id = ?1 UNION ALL "
		"SELECT device_id, 3, id, start_ns, end_ns, process_id, correlation_id, 0 "
		"FROM synchronizations WHERE run_id = ?1 AND stream_id IS NOT NULL "
		"AND correlation_id IS NOT NULL)", run);
	tevent *a = NULL;
	size_t cap = 0;
	int rc;

	*n = 0;
	if (st == NULL)
		return fail_db(db, err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_int64 rt;

		if (run->has_bound &&
		    !(pq_hta_launch(run, sqlite3_column_type(st, 5) != SQLITE_NULL,
				    sqlite3_column_int64(st, 5), sqlite3_column_type(st, 6) != SQLITE_NULL,
				    sqlite3_column_int64(st, 6), &rt) && rt < run->bound))
			continue;
		if (*n == cap) {
			size_t nc = cap ? cap * 2 : 4096;
			tevent *na = realloc(a, nc * sizeof(tevent));

			if (na == NULL) {
				rc = SQLITE_NOMEM;
				break;
			}
			a = na;
			cap = nc;
		}
		a[(*n)++] = (tevent){ .device = sqlite3_column_int64(st, 0),
				      .has_device = sqlite3_column_type(st, 0) != SQLITE_NULL,
				      .src = (unsigned char)sqlite3_column_int(st, 1),
				      .id = sqlite3_column_int64(st, 2), .ts = sqlite3_column_int64(st, 3),
				      .has_ts = sqlite3_column_type(st, 3) != SQLITE_NULL,
				      .e = sqlite3_column_int64(st, 4),
				      .has_e = sqlite3_column_type(st, 4) != SQLITE_NULL,
				      .comp = (unsigned char)sqlite3_column_int(st, 7) };
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(a);
		return rc == SQLITE_NOMEM ? pq_fail(err, "out of memory") : fail_db(db, err);
	}
	*out = a;
	return 0;
}

/* interval_merge_ns over a[0..n) (sorted) taking only the computation events when comp_only;
 * *end the last group's end (interval_merge_end). 0 when no event counts (*has_end 0). */
static sqlite3_int64 merge(const tevent *a, size_t n, int comp_only, sqlite3_int64 *end,
			   int *has_end)
{
	sqlite3_int64 total = 0, gs = 0, gm = 0, reach = 0;
	int open = 0;

	for (size_t i = 0; i < n; i++) {
		const tevent *x = &a[i];

		if (!x->has_ts || !x->has_e || (comp_only && !x->comp))
			continue;
		if (open && x->ts <= reach) {
			gm = x->e > gm ? x->e : gm;
			reach = x->e > reach ? x->e : reach;
			continue;
		}
		if (open)
			total += gm - gs;
		gs = x->ts;
		gm = x->e;
		reach = open && reach > x->e ? reach : x->e;
		open = 1;
	}
	if (open)
		total += gm - gs;
	*end = gm;
	*has_end = open;
	return total;
}

/* A row per device of the run's kept events, sorted. */
static int merge_devices(temporal_rows *r, sqlite3_int64 run, const tevent *a, size_t n,
			 pq_error *err)
{
	for (size_t i = 0, j; i < n; i = j) {
		sqlite3_int64 end, unused, busy, compute, first = 0;
		int has_end, has_first = 0;
		trow *row;

		for (j = i; j < n && same_device(&a[i], &a[j]); j++)
			if (a[j].has_ts && (!has_first || a[j].ts < first)) {
				first = a[j].ts;
				has_first = 1;
			}
		busy = merge(a + i, j - i, 0, &end, &has_end);
		compute = merge(a + i, j - i, 1, &unused, &(int){ 0 });
		if (r->n == r->cap) {
			size_t nc = r->cap ? r->cap * 2 : 16;
			trow *na = realloc(r->r, nc * sizeof(trow));

			if (na == NULL)
				return pq_fail(err, "out of memory");
			r->r = na;
			r->cap = nc;
		}
		row = &r->r[r->n++];
		*row = (trow){ .run = run, .device = a[i].device, .has_device = a[i].has_device,
			       .compute = compute, .non_compute = busy - compute,
			       .has_kernel = has_end && has_first };
		if (row->has_kernel) {
			row->kernel = end - first;
			row->idle = row->kernel - busy;
		}
	}
	return 0;
}

static int compute_run(sqlite3 *db, const pq_hta_run *run, void *arg, pq_error *err)
{
	tevent *ev = NULL;
	size_t n = 0;
	int rc;

	if (load_events(db, run, &ev, &n, err) != 0)
		return -1;
	qsort(ev, n, sizeof(tevent), cmp_event);
	rc = merge_devices(arg, run->id, ev, n, err);
	free(ev);
	return rc;
}

static int temporal_compute(sqlite3 *db, const char *runs, void **out, pq_error *err)
{
	temporal_rows *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (r == NULL)
		return pq_fail(err, "out of memory");
	if (pq_hta_each_run(db, runs, compute_run, r, err) != 0) {
		temporal_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

static int temporal_insert(sqlite3 *db, void *rows, pq_error *err)
{
	const temporal_rows *r = rows;
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (r->n == 0)
		return 0;
	if (sqlite3_prepare_v2(db, "INSERT INTO hta_temporal_breakdown (run_id, device_id, idle_ns, "
			       "compute_ns, non_compute_ns, kernel_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
			       -1, &st, NULL) != SQLITE_OK)
		return fail_db(db, err);
	for (size_t i = 0; i < r->n && rc == 0; i++) {
		const trow *x = &r->r[i];

		sqlite3_bind_int64(st, 1, x->run);
		if (x->has_device)
			sqlite3_bind_int64(st, 2, x->device);
		else
			sqlite3_bind_null(st, 2);
		if (x->has_kernel) {
			sqlite3_bind_int64(st, 3, x->idle);
			sqlite3_bind_int64(st, 6, x->kernel);
		} else {
			sqlite3_bind_null(st, 3);
			sqlite3_bind_null(st, 6);
		}
		sqlite3_bind_int64(st, 4, x->compute);
		sqlite3_bind_int64(st, 5, x->non_compute);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = fail_db(db, err);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

const pq_deriver pq_temporal_deriver = { temporal_compute, temporal_insert, temporal_free };
