/* export_chrome.c - a profile as Chrome trace-event JSON (Perfetto UI, chrome://tracing).
 *
 * The document: {"displayTimeUnit":"ns", "baseTimeNanoseconds":B, "deviceProperties":[...],
 * "distributedInfo":{"rank":R}, "otherData":{...}, "traceEvents":[...]}. Every ts is
 * (time - B) in microseconds, written from the integer nanoseconds as a decimal with up to three
 * fractional digits, so no precision is lost (a double holds such a value exactly enough for
 * Perfetto only when it is small: hence relative to B, the earliest event, as Kineto does).
 * `profq import` reads baseTimeNanoseconds back and restores every time to the ns. A file of runs
 * on a relative clock has no base and its ts are the stored times.
 *
 * One run after another; with several runs, each is its own group of processes ("run N, rank R:"
 * before every process name, synthetic pids, sort indexes keeping a run's processes together) and
 * deviceProperties / distributedInfo are left out (they describe one run).
 *
 * Per run: the CPU slices (ranges and API calls, nested per thread), the GPU slices (kernels,
 * memcpys, memsets, GPU ranges and synchronizations per device and stream), async ranges, marks,
 * allocations, counters, GPU utilization, then the flow arrows: each API call's end point and
 * each GPU operation's are kept in a temporary table (on disk, like SQLite's sorter), joined by
 * correlation id at the end of the run.
 */
#include "export_chrome.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"

void pq_export_options_init(pq_export_options *o)
{
	o->run_id = PQ_NULL;
	o->from_ns = PQ_NULL;
	o->to_ns = PQ_NULL;
	o->gzip = 0;
}

/* Columns and statements --------------------------------------------------------------------- */

int64_t xp_int(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? PQ_NULL : sqlite3_column_int64(st, i);
}

double xp_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

const char *xp_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

int xp_sql_error(xp_ctx *x)
{
	return pq_fail(x->err, "%s", sqlite3_errmsg(x->db));
}

int xp_prepare(xp_ctx *x, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(x->db, sql, -1, st, NULL) != SQLITE_OK) {
		*st = NULL;
		return xp_sql_error(x);
	}
	return 0;
}

int xp_exec(xp_ctx *x, const char *sql)
{
	if (sqlite3_exec(x->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return xp_sql_error(x);
	return 0;
}

void xp_bind_run(xp_ctx *x, sqlite3_stmt *st)
{
	sqlite3_bind_int64(st, 1, x->run_id);
	if (sqlite3_bind_parameter_count(st) >= 2)
		sqlite3_bind_int64(st, 2, x->from);
	if (sqlite3_bind_parameter_count(st) >= 3)
		sqlite3_bind_int64(st, 3, x->to);
}

/* Events ----------------------------------------------------------------------------------- */

void xp_event_begin(xp_ctx *x, const char *ph, int64_t pid, int64_t tid, const char *name,
		    const char *cat)
{
	pq_jw *w = x->w;

	pq_jw_lit(w, x->any_event ? ",\n{\"ph\":\"" : "\n{\"ph\":\"");
	x->any_event = 1;
	pq_jw_lit(w, ph);
	pq_jw_lit(w, "\",\"pid\":");
	pq_jw_int(w, pid);
	if (tid >= 0) {
		pq_jw_lit(w, ",\"tid\":");
		pq_jw_int(w, tid);
	}
	if (name != NULL) {
		pq_jw_lit(w, ",\"name\":");
		pq_jw_str(w, name);
	}
	if (cat != NULL) {
		pq_jw_lit(w, ",\"cat\":");
		pq_jw_str(w, cat);
	}
	x->stats->events++;
}

void xp_event_ts(xp_ctx *x, const char *key, int64_t ns)
{
	pq_jw_lit(x->w, ",\"");
	pq_jw_lit(x->w, key);
	pq_jw_lit(x->w, "\":");
	/* Both are int64: the difference of times a few centuries apart still fits. */
	pq_jw_us(x->w, ns - x->base_ns);
}

void xp_event_dur(xp_ctx *x, int64_t ns)
{
	pq_jw_lit(x->w, ",\"dur\":");
	/* An end before the start (a broken row) would make the file unreadable: 0 instead. */
	pq_jw_us(x->w, ns < 0 ? 0 : ns);
}

void xp_event_end(xp_ctx *x)
{
	pq_jw_lit(x->w, "}");
}

void xp_args_begin(xp_ctx *x)
{
	pq_jw_lit(x->w, ",\"args\":{");
	x->args_open = 0;
}

void xp_arg_key(xp_ctx *x, const char *key)
{
	if (x->args_open++)
		pq_jw_lit(x->w, ",");
	pq_jw_str(x->w, key);
	pq_jw_lit(x->w, ":");
}

void xp_arg_int(xp_ctx *x, const char *key, int64_t v)
{
	if (v == PQ_NULL)
		return;
	xp_arg_key(x, key);
	pq_jw_int(x->w, v);
}

void xp_arg_real(xp_ctx *x, const char *key, double v)
{
	if (!isfinite(v))
		return;
	xp_arg_key(x, key);
	pq_jw_real(x->w, v);
}

void xp_arg_str(xp_ctx *x, const char *key, const char *v)
{
	if (v == NULL)
		return;
	xp_arg_key(x, key);
	pq_jw_str(x->w, v);
}

void xp_arg_stored(xp_ctx *x, const char *json)
{
	const char *s, *e;

	if (json == NULL)
		return;
	/* An object json_valid() accepted: its members are the text between the outer braces. */
	s = strchr(json, '{');
	e = strrchr(json, '}');
	if (s == NULL || e == NULL || e <= s)
		return;
	s++;
	while (s < e && (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r'))
		s++;
	if (s == e)
		return;
	if (x->args_open++)
		pq_jw_lit(x->w, ",");
	pq_jw_raw(x->w, s, (size_t)(e - s));
}

void xp_args_end(xp_ctx *x)
{
	pq_jw_lit(x->w, "}");
}

/* The document ------------------------------------------------------------------------------ */

typedef struct run_row {
	int64_t id, rank;
	int relative;
} run_row;

/* The earliest time of a run's events (or its start), PQ_NULL when it has none. */
static int run_first(xp_ctx *x, int64_t run_id, int64_t *first)
{
	static const char sql[] =
		"SELECT min(t) FROM ("
		" SELECT start_ns AS t FROM runs WHERE id = ?1"
		" UNION ALL SELECT min(start_ns) FROM kernels WHERE run_id = ?1"
		" UNION ALL SELECT min(start_ns) FROM memcpys WHERE run_id = ?1"
		" UNION ALL SELECT min(start_ns) FROM memsets WHERE run_id = ?1"
		" UNION ALL SELECT min(start_ns) FROM api_calls WHERE run_id = ?1"
		" UNION ALL SELECT min(start_ns) FROM ranges WHERE run_id = ?1"
		" UNION ALL SELECT min(start_ns) FROM synchronizations WHERE run_id = ?1"
		" UNION ALL SELECT min(ts_ns) FROM marks WHERE run_id = ?1"
		" UNION ALL SELECT min(ts_ns) FROM memory_events WHERE run_id = ?1"
		" UNION ALL SELECT min(ts_ns) FROM counters WHERE run_id = ?1)";
	sqlite3_stmt *st;
	int rc;

	if (xp_prepare(x, sql, &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	*first = rc == SQLITE_ROW ? xp_int(st, 0) : PQ_NULL;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : xp_sql_error(x);
}

/* deviceProperties as Kineto writes them (cudaDeviceProp names, clocks in kHz). */
static int write_devices(xp_ctx *x, int64_t run_id)
{
	static const char sql[] =
		"SELECT ordinal, name, uuid, compute_major, compute_minor, sm_count, warp_size,"
		" max_threads_per_block, max_threads_per_sm, max_blocks_per_sm, max_registers_per_block,"
		" max_registers_per_sm, max_shared_memory_per_block, max_shared_memory_per_sm,"
		" shared_memory_per_block_optin, l2_cache_bytes, global_memory_bytes, core_clock_hz,"
		" memory_clock_hz, memory_bus_width_bits FROM devices WHERE run_id = ?1 ORDER BY ordinal";
	static const char *const keys[] = {
		"id", NULL, NULL, "computeMajor", "computeMinor", "numSms", "warpSize",
		"maxThreadsPerBlock", "maxThreadsPerMultiprocessor", "maxBlocksPerMultiprocessor",
		"regsPerBlock", "regsPerMultiprocessor", "sharedMemPerBlock",
		"sharedMemPerMultiprocessor", "sharedMemPerBlockOptin", "l2CacheSize", "totalGlobalMem",
		"clockRate", "memoryClockRate", "memoryBusWidth",
	};
	sqlite3_stmt *st;
	int rc, n = 0;

	if (xp_prepare(x, sql, &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	pq_jw_lit(x->w, "\"deviceProperties\":[");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pq_jw_lit(x->w, n++ ? ",\n {" : "\n {");
		x->args_open = 0;
		for (int i = 0; i < (int)(sizeof(keys) / sizeof(keys[0])); i++) {
			int64_t v = xp_int(st, i);

			if (i == 1 || i == 2) {
				xp_arg_str(x, i == 1 ? "name" : "uuid", xp_text(st, i));
				continue;
			}
			if ((i == 17 || i == 18) && v != PQ_NULL)
				v /= 1000; /* Hz -> kHz */
			xp_arg_int(x, keys[i], v);
		}
		pq_jw_lit(x->w, "}");
	}
	pq_jw_lit(x->w, "],\n");
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : xp_sql_error(x);
}

static int export_run(xp_ctx *x, const run_row *r)
{
	int (*const parts[])(xp_ctx *) = {
		xp_cpu_slices, xp_gpu_slices, xp_async_ranges, xp_marks, xp_memory, xp_counters,
		xp_utilization, xp_flows,
	};

	x->run_id = r->id;
	x->rank = r->rank;
	if (xp_exec(x, "DROP INDEX IF EXISTS temp.xp_points_key; DELETE FROM temp.xp_points") ||
	    xp_tracks_load(x) != 0)
		return -1;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (parts[i](x) != 0)
			return -1;
		if (pq_jw_failed(x->w))
			return pq_fail(x->err, "%s", x->w->why);
	}
	x->stats->runs++;
	return 0;
}

static int load_runs(xp_ctx *x, run_row **out, size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (xp_prepare(x, "SELECT id, rank, time_base = 'relative' FROM runs"
			  " WHERE ?1 IS NULL OR id = ?1 ORDER BY id", &st))
		return -1;
	if (x->opt->run_id != PQ_NULL)
		sqlite3_bind_int64(st, 1, x->opt->run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			run_row *v = realloc(*out, (cap = cap ? cap * 2 : 8) * sizeof(*v));

			if (v == NULL) {
				sqlite3_finalize(st);
				return pq_fail(x->err, "out of memory");
			}
			*out = v;
		}
		(*out)[*n].id = sqlite3_column_int64(st, 0);
		(*out)[*n].rank = xp_int(st, 1);
		(*out)[*n].relative = sqlite3_column_int(st, 2);
		(*n)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return xp_sql_error(x);
	if (*n == 0)
		return x->opt->run_id != PQ_NULL
			       ? pq_fail(x->err, "no run %" PRId64 " in the database", x->opt->run_id)
			       : pq_fail(x->err, "nothing to export: the database has no runs");
	return 0;
}

static int document(xp_ctx *x, const run_row *runs, size_t n)
{
	int relative = 0;
	int64_t base = PQ_NULL;

	for (size_t i = 0; i < n; i++) {
		int64_t first;

		relative |= runs[i].relative;
		if (run_first(x, runs[i].id, &first) != 0)
			return -1;
		if (first != PQ_NULL && (base == PQ_NULL || first < base))
			base = first;
	}
	/* Relative clocks keep their own times; epoch times are written after a base. */
	x->base_ns = !relative && base != PQ_NULL && base > 0 ? base : 0;
	pq_jw_lit(x->w, "{\"displayTimeUnit\":\"ns\",\n");
	if (x->base_ns > 0) {
		pq_jw_lit(x->w, "\"baseTimeNanoseconds\":");
		pq_jw_int(x->w, x->base_ns);
		pq_jw_lit(x->w, ",\n");
	}
	if (n == 1 && write_devices(x, runs[0].id) != 0)
		return -1;
	if (n == 1 && runs[0].rank != PQ_NULL) {
		pq_jw_lit(x->w, "\"distributedInfo\":{\"rank\":");
		pq_jw_int(x->w, runs[0].rank);
		pq_jw_lit(x->w, "},\n");
	}
	pq_jw_lit(x->w, "\"otherData\":{\"exporter\":\"profq " PROFQ_VERSION "\",\"runs\":[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			pq_jw_lit(x->w, ",");
		pq_jw_int(x->w, runs[i].id);
	}
	pq_jw_lit(x->w, "]},\n\"traceEvents\":[");
	for (size_t i = 0; i < n; i++) {
		x->run_index = (int64_t)i;
		if (export_run(x, &runs[i]) != 0)
			return -1;
	}
	pq_jw_lit(x->w, "\n]}\n");
	return 0;
}

int pq_export_chrome(sqlite3 *db, const char *path, const pq_export_options *opt,
		     pq_export_stats *stats, pq_error *err)
{
	xp_ctx x;
	pq_jw *w;
	run_row *runs = NULL;
	size_t n = 0;
	int rc = -1;

	memset(stats, 0, sizeof(*stats));
	memset(&x, 0, sizeof(x));
	x.db = db;
	x.err = err;
	x.opt = opt;
	x.stats = stats;
	x.from = opt->from_ns == PQ_NULL ? XP_MIN : opt->from_ns;
	x.to = opt->to_ns == PQ_NULL ? XP_MAX : opt->to_ns;
	x.next_pid = XP_SYNTHETIC;
	x.next_flow = 1;
	x.next_async = 1;
	if (x.from >= x.to)
		return pq_fail(err, "empty time window: --from must be before --to");
	if (load_runs(&x, &runs, &n) != 0)
		return -1;
	x.multi = n > 1;
	/* Flow end points spill to a temporary file, never to memory. */
	if (xp_exec(&x, "PRAGMA temp_store = FILE;"
			"CREATE TEMP TABLE IF NOT EXISTS xp_points (proc INTEGER, corr INTEGER,"
			" side INTEGER, pid INTEGER, tid INTEGER, ts INTEGER)") ||
	    xp_prepare(&x, "INSERT INTO temp.xp_points VALUES (?, ?, ?, ?, ?, ?)", &x.pt_insert)) {
		free(runs);
		return -1;
	}
	w = malloc(sizeof(*w));
	if (w == NULL) {
		pq_fail(err, "out of memory");
		goto out;
	}
	if (pq_jw_open(w, path, opt->gzip, err) != 0) {
		free(w);
		w = NULL;
		goto out;
	}
	x.w = w;
	if (document(&x, runs, n) != 0) {
		pq_jw_abort(w);
		goto out;
	}
	stats->bytes = w->bytes;
	rc = pq_jw_finish(w, err);
out:
	free(w);
	sqlite3_finalize(x.pt_insert);
	sqlite3_exec(db, "DROP TABLE IF EXISTS temp.xp_points", NULL, NULL, NULL);
	xp_tracks_free(&x);
	free(runs);
	return rc;
}
