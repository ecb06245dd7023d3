/* derive_gpu.c - tb_gpu_metrics for finished runs: v_tb_gpu_metrics with its Tensor Core part in C.
 *
 * The view (schema/views.sql) is the definition and computes every other run. Its per-device part
 * (utilization, SM efficiency, occupancy: aggregates over the run's kernels in the steps span) is
 * asked here as the view asks it, the same query shape over the same rows, so the doubles come out
 * the same. Its Tensor Core part joined every kernel to its launching runtime call and probed the
 * host ranges for that call's external id, half of the view's ~43 ms on the ResNet50 sample: here
 * the run's runtime calls are read once and matched in C against the external ids of the host
 * ranges the steps job read (handed on by db_derive.c; a large run's are read here instead), and
 * each kernel name is asked once whether it is a Tensor Core one. Kept as the view has it: a
 * kernel counts once per runtime call (api_kind 0) of its process and correlation id whose
 * external id is 0 or that of an ended cpu_op / user_annotation / "python" range of the run.
 * tests/reports/derived.t checks the table against the view.
 */
#include "derive.h"

#include <stdlib.h>
#include <string.h>

typedef struct { /* a runtime call: its keys first (pq_derive_lower_bound) */
	sqlite3_int64 process, corr, ext;
	int has_ext;
} gcall;

typedef struct {
	sqlite3_int64 device, dur, name;
	int has_device;
	size_t call; /* the first of its calls in the sorted calls, or ncalls */
} gkern;

typedef struct {
	sqlite3_int64 run, device, tc_ns, all_ns;
	int has_device, has_tc; /* has_tc: the device's kernels reach an operator */
	double v[3];            /* utilization, SM efficiency, occupancy (rounded) */
	int has_v[3];
} gpu_row;

typedef struct {
	gpu_row *rows;
	size_t n, cap;
} gpu_rows;

static int cmp_call(const void *pa, const void *pb)
{
	const gcall *a = pa, *b = pb;

	if (a->process != b->process)
		return pq_derive_cmp(a->process, b->process);
	return pq_derive_cmp(a->corr, b->corr);
}

/* The view's per-device aggregates for run (?1), in its group order: a row per device. */
static const char per_device_sql[] =
	"WITH sp AS MATERIALIZED (SELECT run_id, min(start_ns) AS s0, max(end_ns) AS s1 "
	"FROM v_tb_steps WHERE run_id = ?1 GROUP BY run_id), "
	"kern AS MATERIALIZED (SELECT k.run_id, k.device_id, k.start_ns, k.end_ns, k.blocks_per_sm, "
	"k.est_occupancy_pct, sp.s0, sp.s1 FROM sp CROSS JOIN kernels k ON k.run_id = sp.run_id), "
	"per_device AS (SELECT run_id, device_id, s0, s1, "
	"interval_union_ns(max(start_ns, s0), min(end_ns, s1)) AS busy, "
	"interval_weighted_ns(start_ns, end_ns, blocks_per_sm, 1.0, s0, s1) AS sm_w, "
	"total(CASE WHEN est_occupancy_pct >= 0 THEN est_occupancy_pct * "
	"overlap_ns(start_ns, end_ns, s0, s1) END) AS occ_w, "
	"sum(CASE WHEN est_occupancy_pct >= 0 THEN overlap_ns(start_ns, end_ns, s0, s1) END) AS occ_t "
	"FROM kern GROUP BY device_id) "
	"SELECT device_id, round(100.0 * busy / (s1 - s0), 2), round(100.0 * sm_w / (s1 - s0), 2), "
	"CASE WHEN occ_t > 0 THEN round(occ_w / occ_t, 2) END FROM per_device";

static int per_device(sqlite3 *db, sqlite3_int64 run, gpu_rows *out, size_t *first,
		      pq_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*first = out->n;
	if (sqlite3_prepare_v2(db, per_device_sql, -1, &st, NULL) != SQLITE_OK)
		return pq_derive_fail(db, err);
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		gpu_row *r;

		if (pq_derive_grow((void **)&out->rows, &out->cap, out->n, sizeof(*out->rows)) != 0) {
			sqlite3_finalize(st);
			return pq_fail(err, "out of memory");
		}
		r = &out->rows[out->n++];
		memset(r, 0, sizeof(*r));
		r->run = run;
		r->device = sqlite3_column_int64(st, 0);
		r->has_device = sqlite3_column_type(st, 0) != SQLITE_NULL;
		for (int c = 0; c < 3; c++) {
			r->v[c] = sqlite3_column_double(st, 1 + c);
			r->has_v[c] = sqlite3_column_type(st, 1 + c) != SQLITE_NULL;
		}
	}
	return pq_derive_finish(db, st, rc, err);
}

/* The external ids of the run's ended cpu_op, user_annotation and "python" ranges, sorted, once:
 * from the host ranges h when the steps job handed them on, else read. */
static int host_ids(sqlite3 *db, const pq_host_range *h, size_t nh, sqlite3_int64 run,
		    sqlite3_int64 **ids, size_t *n, pq_error *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc;

	*ids = NULL;
	*n = 0;
	if (h != NULL) {
		if ((*ids = malloc((nh > 0 ? nh : 1) * sizeof(**ids))) == NULL)
			return pq_fail(err, "out of memory");
		for (size_t i = 0; i < nh; i++)
			if (h[i].run == run && h[i].has_ext &&
			    (h[i].kind == 2 || h[i].kind == 3 || (h[i].kind == 5 && h[i].python)))
				(*ids)[(*n)++] = h[i].ext;
		*n = pq_derive_distinct(*ids, *n);
		return 0;
	}
	if (sqlite3_prepare_v2(db, "SELECT h.external_id FROM ranges h "
			       "LEFT JOIN strings c ON c.id = h.category_id WHERE h.run_id = ?1 "
			       "AND h.external_id IS NOT NULL AND h.end_ns IS NOT NULL "
			       "AND (h.kind IN (2, 3) OR (h.kind = 5 AND lower(c.value) = 'python'))",
			       -1, &st, NULL) != SQLITE_OK)
		return pq_derive_fail(db, err);
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (pq_derive_grow((void **)ids, &cap, *n, sizeof(**ids)) != 0) {
			sqlite3_finalize(st);
			return pq_fail(err, "out of memory");
		}
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	if (pq_derive_finish(db, st, rc, err) != 0)
		return -1;
	*n = pq_derive_distinct(*ids, *n);
	return 0;
}

/* The run's runtime calls that a kernel can join (process and correlation id known), sorted. */
static int runtime_calls(sqlite3 *db, sqlite3_int64 run, gcall **calls, size_t *n,
			 pq_error *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc;

	*calls = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT process_id, correlation_id, external_id FROM api_calls "
			       "WHERE run_id = ?1 AND api_kind = 0 AND process_id IS NOT NULL "
			       "AND correlation_id IS NOT NULL", -1, &st, NULL) != SQLITE_OK)
		return pq_derive_fail(db, err);
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (pq_derive_grow((void **)calls, &cap, *n, sizeof(**calls)) != 0) {
			sqlite3_finalize(st);
			return pq_fail(err, "out of memory");
		}
		(*calls)[(*n)++] = (gcall){ .process = sqlite3_column_int64(st, 0),
					    .corr = sqlite3_column_int64(st, 1),
					    .ext = sqlite3_column_int64(st, 2),
					    .has_ext = sqlite3_column_type(st, 2) != SQLITE_NULL };
	}
	if (pq_derive_finish(db, st, rc, err) != 0)
		return -1;
	if (*n > 0)
		qsort(*calls, *n, sizeof(**calls), cmp_call);
	return 0;
}

/* The run's kernels that have a runtime call (kern's: the run has a steps span), each with the
 * first of its calls. */
static int call_kernels(sqlite3 *db, sqlite3_int64 run, const gcall *calls, size_t ncalls,
			gkern **out, size_t *n, pq_error *err)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT device_id, end_ns - start_ns, name_id, process_id, "
			       "correlation_id FROM kernels WHERE run_id = ?1 "
			       "AND process_id IS NOT NULL AND correlation_id IS NOT NULL",
			       -1, &st, NULL) != SQLITE_OK)
		return pq_derive_fail(db, err);
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_int64 process = sqlite3_column_int64(st, 3), corr = sqlite3_column_int64(st, 4);
		size_t c = pq_derive_lower_bound(calls, ncalls, sizeof(*calls), process, corr);

		if (c == ncalls || calls[c].process != process || calls[c].corr != corr)
			continue;
		if (pq_derive_grow((void **)out, &cap, *n, sizeof(**out)) != 0) {
			sqlite3_finalize(st);
			return pq_fail(err, "out of memory");
		}
		(*out)[(*n)++] = (gkern){ .device = sqlite3_column_int64(st, 0),
					  .has_device = sqlite3_column_type(st, 0) != SQLITE_NULL,
					  .dur = sqlite3_column_int64(st, 1),
					  .name = sqlite3_column_int64(st, 2), .call = c };
	}
	return pq_derive_finish(db, st, rc, err);
}

/* The Tensor Core sums of the run's devices (its rows): tc's of the view; h: the host ranges
 * handed on, or NULL. */
static int tensor_cores(sqlite3 *db, sqlite3_int64 run, const pq_host_range *h, size_t nh,
			gpu_row *rows, size_t nrows, pq_error *err)
{
	sqlite3_int64 *hosts = NULL, *names = NULL;
	gcall *calls = NULL;
	gkern *k = NULL;
	unsigned *tc = NULL;
	size_t nhosts = 0, ncalls = 0, nk = 0, nnames = 0;
	int rc = host_ids(db, h, nh, run, &hosts, &nhosts, err);

	if (rc == 0)
		rc = runtime_calls(db, run, &calls, &ncalls, err);
	if (rc == 0)
		rc = call_kernels(db, run, calls, ncalls, &k, &nk, err);
	if (rc == 0 && ((names = malloc((nk > 0 ? nk : 1) * sizeof(*names))) == NULL ||
			(tc = malloc((nk > 0 ? nk : 1) * sizeof(*tc))) == NULL))
		rc = pq_fail(err, "out of memory");
	if (rc == 0) {
		for (size_t i = 0; i < nk; i++)
			names[i] = k[i].name;
		nnames = pq_derive_distinct(names, nk);
		rc = pq_derive_ask(db, "SELECT 1 FROM v_tb_tc_names WHERE id = ?1", names, nnames,
				   tc, err);
	}
	for (size_t i = 0; i < nk && rc == 0; i++) {
		int is_tc = tc[pq_derive_find(names, nnames, k[i].name)] & 1;
		gpu_row *r = NULL;

		/* kern GROUP BY device_id, joined on device_id: no row for a NULL device */
		for (size_t j = 0; j < nrows && r == NULL && k[i].has_device; j++)
			if (rows[j].has_device && rows[j].device == k[i].device)
				r = &rows[j];
		for (size_t c = k[i].call; c < ncalls && r != NULL &&
		     calls[c].process == calls[k[i].call].process &&
		     calls[c].corr == calls[k[i].call].corr; c++) {
			if (!calls[c].has_ext || (calls[c].ext != 0 &&
			    pq_derive_find(hosts, nhosts, calls[c].ext) == nhosts))
				continue;
			r->has_tc = 1;
			r->tc_ns += is_tc ? k[i].dur : 0;
			r->all_ns += k[i].dur;
		}
	}
	free(hosts);
	free(calls);
	free(k);
	free(names);
	free(tc);
	return rc;
}

static void gpu_free(void *rows)
{
	gpu_rows *r = rows;

	if (r != NULL)
		free(r->rows);
	free(r);
}

static int compute(sqlite3 *db, const char *runs, pq_host_handoff *hosts, void **rows,
		   pq_error *err)
{
	char *sql = sqlite3_mprintf("SELECT id FROM runs WHERE id IN (%s) ORDER BY id", runs);
	gpu_rows *out = calloc(1, sizeof(*out));
	pq_host_range *h = NULL;
	sqlite3_stmt *st = NULL;
	size_t nh = 0;
	int rc = 0;

	*rows = NULL;
	if (sql == NULL || out == NULL) {
		sqlite3_free(sql);
		free(out);
		return pq_fail(err, "out of memory");
	}
	/* the steps job's, when db_derive.c hands them on (a large run's go to the operator sums:
	 * the external ids are read instead of a second copy of the ranges) */
	if (hosts != NULL && pq_host_ranges_take(db, runs, hosts, &h, &nh, err) != 0) {
		sqlite3_free(sql);
		free(out);
		return -1;
	}
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		rc = pq_derive_fail(db, err);
	sqlite3_free(sql);
	while (rc == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_int64 run = sqlite3_column_int64(st, 0);
		size_t first;

		rc = per_device(db, run, out, &first, err);
		if (rc == 0 && out->n > first)
			rc = tensor_cores(db, run, h, nh, out->rows + first, out->n - first, err);
	}
	if (rc == SQLITE_DONE)
		rc = 0;
	else if (rc > 0)
		rc = pq_derive_fail(db, err);
	sqlite3_finalize(st);
	free(h);
	if (rc != 0) {
		gpu_free(out);
		return -1;
	}
	*rows = out;
	return 0;
}

static void bind_row(sqlite3_stmt *st, const void *rows, size_t i)
{
	const gpu_row *x = &((const gpu_rows *)rows)->rows[i];

	sqlite3_bind_int64(st, 1, x->run);
	if (x->has_device)
		sqlite3_bind_int64(st, 2, x->device);
	else
		sqlite3_bind_null(st, 2);
	for (int c = 0; c < 3; c++)
		if (x->has_v[c])
			sqlite3_bind_double(st, 3 + c, x->v[c]);
		else
			sqlite3_bind_null(st, 3 + c);
	if (x->has_tc) {
		sqlite3_bind_int64(st, 6, x->tc_ns);
		sqlite3_bind_int64(st, 7, x->all_ns);
	} else {
		sqlite3_bind_null(st, 6);
		sqlite3_bind_null(st, 7);
	}
}

/* The rows for the runs the query runs selects; tensor_core_pct as the view rounds it. */
static int insert(sqlite3 *db, const char *table, const char *runs, void *rows, pq_error *err)
{
	const gpu_rows *r = rows;

	(void)table;
	return pq_derive_insert(db, "INSERT INTO tb_gpu_metrics (run_id, device_id, "
				"gpu_utilization_pct, sm_efficiency_pct, achieved_occupancy_pct, "
				"tensor_core_pct) SELECT ?1, ?2, ?3, ?4, ?5, "
				"round(100.0 * ?6 / nullif(?7, 0), 2) WHERE ?1 IN (%s)", runs, r->n,
				bind_row, r, err);
}

const pq_deriver pq_gpu_metrics_deriver = { compute, insert, gpu_free };
