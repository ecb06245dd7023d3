/* export_slices.c - the slices: CPU ranges and API calls per thread, GPU work per device and
 * stream, each on lanes so that a track's slices nest (CPU) or never overlap (GPU).
 *
 * One SQL query per side returns the slices' keys in track order (process, thread, start, longest
 * first; device, stream, group, start); each slice's columns are then read by primary key and
 * written at once, so nothing but the open slices of the current track is held. A CPU slice that
 * does not nest in what is open on its thread goes to the thread's next lane, "<thread> (overlap
 * 1)"; GPU work that overlaps work already on its stream (Perfetto would hide it, notes
 * perfetto.md §6) goes to "stream N (overlap 1)". GPU ranges (gpu_user_annotation) and
 * synchronizations get tracks of their own under the stream.
 *
 * What `profq import` reads back: categories (kernel, gpu_memcpy, gpu_memset, cuda_runtime,
 * cuda_driver, cuda_sync, the ranges' own) and args (device, stream, correlation, External id,
 * grid, block, bytes, ...) as Kineto writes them, memcpy and memset names as Kineto spells them
 * ("Memcpy HtoD (Pageable -> Device)"), and a row's stored args object merged in.
 */
#include "export_chrome.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Window conditions on an interval table aliased a / an instant column. */
#define WIN(a, s, e) \
	" AND " a "." s " < ?3 AND (coalesce(" a "." e ", 9223372036854775807) > ?2 OR " a "." s " >= ?2)"

#define ARGS(a) " CASE WHEN json_valid(" a ".args) AND json_type(" a ".args) = 'object' THEN " a ".args END"

/* CPU -------------------------------------------------------------------------------------- */

static const char cpu_keys[] =
	"SELECT 0, r.id, r.process_id, r.thread_id, r.start_ns, coalesce(r.end_ns, 9223372036854775807) AS e"
	" FROM ranges r WHERE r.run_id = ?1 AND r.kind <> 7 AND r.device_id IS NULL AND r.stream_id IS NULL"
	WIN("r", "start_ns", "end_ns")
	" UNION ALL "
	"SELECT 1, a.id, a.process_id, a.thread_id, a.start_ns, a.end_ns FROM api_calls a"
	" WHERE a.run_id = ?1" WIN("a", "start_ns", "end_ns")
	" ORDER BY 3, 4, 5, 6 DESC, 1, 2";

static const char range_sql[] =
	"SELECT r.kind, n.value, c.value, r.end_ns, r.correlation_id, r.external_id, dn.value,"
	" r.color, r.payload, r.nvtx_category," ARGS("r") ", r.start_ns, r.process_id, r.thread_id"
	" FROM ranges r JOIN strings n ON n.id = r.name_id LEFT JOIN strings c ON c.id = r.category_id"
	" LEFT JOIN nvtx_domains d ON d.id = r.domain_id LEFT JOIN strings dn ON dn.id = d.name_id"
	" WHERE r.id = ?";

static const char api_sql[] =
	"SELECT a.api_kind, n.value, a.cbid, a.correlation_id, a.external_id, a.return_value,"
	ARGS("a") ", a.start_ns, a.end_ns, a.process_id"
	" FROM api_calls a JOIN strings n ON n.id = a.name_id WHERE a.id = ?";

/* The category a range is written with: its own, else one `profq import` maps back to its kind. */
static const char *range_cat(int64_t kind, const char *cat)
{
	static const char *const by_kind[] = {
		"nvtx", "nvtx", "cpu_op", "user_annotation", "gpu_user_annotation", "python_function",
		"trace_event", "async", "overhead",
	};

	if (cat != NULL)
		return cat;
	if (kind >= 0 && kind < (int64_t)(sizeof(by_kind) / sizeof(by_kind[0])))
		return by_kind[kind];
	return "trace_event";
}

/* A range row (columns of range_sql) as X, or B when it was never closed. */
static void write_range(xp_ctx *x, sqlite3_stmt *r, int64_t pid, int64_t tid, int64_t device,
			int64_t stream)
{
	int64_t kind = xp_int(r, 0), start = xp_int(r, 11), end = xp_int(r, 3);

	xp_event_begin(x, end == PQ_NULL ? "B" : "X", pid, tid, xp_text(r, 1),
		       range_cat(kind, xp_text(r, 2)));
	xp_event_ts(x, "ts", start);
	if (end != PQ_NULL)
		xp_event_dur(x, end - start);
	xp_args_begin(x);
	xp_arg_int(x, "device", device);
	xp_arg_int(x, "stream", stream);
	xp_arg_int(x, "correlation", xp_int(r, 4));
	xp_arg_int(x, "External id", xp_int(r, 5));
	xp_arg_str(x, "domain", xp_text(r, 6));
	xp_arg_int(x, "color", xp_int(r, 7));
	if (sqlite3_column_type(r, 8) == SQLITE_INTEGER)
		xp_arg_int(x, "payload", sqlite3_column_int64(r, 8));
	else if (sqlite3_column_type(r, 8) == SQLITE_FLOAT)
		xp_arg_real(x, "payload", sqlite3_column_double(r, 8));
	xp_arg_int(x, "nvtx category", xp_int(r, 9));
	xp_arg_stored(x, xp_text(r, 10));
	xp_args_end(x);
	xp_event_end(x);
	x->stats->slices++;
}

static int write_api(xp_ctx *x, sqlite3_stmt *a, int64_t pid, int64_t tid)
{
	int64_t start = xp_int(a, 7), end = xp_int(a, 8), corr = xp_int(a, 3);

	xp_event_begin(x, "X", pid, tid, xp_text(a, 1),
		       xp_int(a, 0) == PQ_API_DRIVER ? "cuda_driver" : "cuda_runtime");
	xp_event_ts(x, "ts", start);
	xp_event_dur(x, end - start);
	xp_args_begin(x);
	xp_arg_int(x, "cbid", xp_int(a, 2));
	xp_arg_int(x, "correlation", corr);
	xp_arg_int(x, "External id", xp_int(a, 4));
	xp_arg_int(x, "return value", xp_int(a, 5));
	xp_arg_stored(x, xp_text(a, 6));
	xp_args_end(x);
	xp_event_end(x);
	x->stats->slices++;
	if (corr != PQ_NULL)
		return xp_point(x, xp_int(a, 9), corr, 0, pid, tid, start);
	return 0;
}

/* Reads one row by id into st (reset, bound, stepped); 0 when found. */
static int fetch(xp_ctx *x, sqlite3_stmt *st, int64_t id)
{
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE)
		return pq_fail(x->err, "row %" PRId64 " vanished while exporting", id);
	return xp_sql_error(x);
}

int xp_cpu_slices(xp_ctx *x)
{
	sqlite3_stmt *keys = NULL, *rs = NULL, *as = NULL;
	xp_lanes lanes = { .nest = 1 };
	int64_t cur_proc = XP_MIN, cur_thread = XP_MIN;
	xp_proc *p = NULL;
	xp_thread *t = NULL;
	int rc, status = -1;

	if (xp_prepare(x, cpu_keys, &keys) || xp_prepare(x, range_sql, &rs) ||
	    xp_prepare(x, api_sql, &as))
		goto out;
	xp_bind_run(x, keys);
	while ((rc = sqlite3_step(keys)) == SQLITE_ROW) {
		int64_t proc = xp_int(keys, 2), thread = xp_int(keys, 3), pid, tid;
		size_t lane;

		if (proc != cur_proc || thread != cur_thread) {
			cur_proc = proc;
			cur_thread = thread;
			p = xp_proc_of(x, proc);
			t = xp_thread_of(x, thread);
			xp_lanes_reset(&lanes);
		}
		if (xp_lanes_place(&lanes, sqlite3_column_int64(keys, 4),
				   sqlite3_column_int64(keys, 5), &lane) != 0) {
			pq_fail(x->err, "out of memory");
			goto out;
		}
		pid = xp_proc_pid(x, p);
		if (lanes.v[lane].tid < 0) {
			if (lane == 0) {
				lanes.v[lane].tid = xp_thread_tid(x, p, t);
			} else {
				char name[512];

				snprintf(name, sizeof(name), "%s (overlap %zu)",
					 t && t->name ? t->name : t ? "thread" : "(no thread)", lane);
				lanes.v[lane].tid = xp_proc_track(x, p, name);
			}
		}
		tid = lanes.v[lane].tid;
		if (sqlite3_column_int(keys, 0) == 0) {
			if (fetch(x, rs, sqlite3_column_int64(keys, 1)) != 0)
				goto out;
			write_range(x, rs, pid, tid, PQ_NULL, PQ_NULL);
		} else {
			if (fetch(x, as, sqlite3_column_int64(keys, 1)) != 0 ||
			    write_api(x, as, pid, tid) != 0)
				goto out;
		}
		if (pq_jw_failed(x->w))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		xp_sql_error(x);
		goto out;
	}
	status = 0;
out:
	xp_lanes_free(&lanes);
	sqlite3_finalize(keys);
	sqlite3_finalize(rs);
	sqlite3_finalize(as);
	return status;
}

/* GPU -------------------------------------------------------------------------------------- */

enum { G_KERNEL, G_MEMCPY, G_MEMSET, G_RANGE, G_SYNC };
enum { GRP_WORK, GRP_RANGES, GRP_SYNC };

static const char gpu_keys[] =
	"SELECT 0, k.id, coalesce(d.ordinal, -1), st.stream, 0, k.start_ns, k.end_ns FROM kernels k"
	" LEFT JOIN devices d ON d.id = k.device_id LEFT JOIN streams st ON st.id = k.stream_id"
	" WHERE k.run_id = ?1" WIN("k", "start_ns", "end_ns")
	" UNION ALL "
	"SELECT 1, m.id, coalesce(d.ordinal, -1), st.stream, 0, m.start_ns, m.end_ns FROM memcpys m"
	" LEFT JOIN devices d ON d.id = m.device_id LEFT JOIN streams st ON st.id = m.stream_id"
	" WHERE m.run_id = ?1" WIN("m", "start_ns", "end_ns")
	" UNION ALL "
	"SELECT 2, m.id, coalesce(d.ordinal, -1), st.stream, 0, m.start_ns, m.end_ns FROM memsets m"
	" LEFT JOIN devices d ON d.id = m.device_id LEFT JOIN streams st ON st.id = m.stream_id"
	" WHERE m.run_id = ?1" WIN("m", "start_ns", "end_ns")
	" UNION ALL "
	"SELECT 3, r.id, coalesce(d.ordinal, -1), st.stream, 1, r.start_ns,"
	" coalesce(r.end_ns, 9223372036854775807) FROM ranges r"
	" LEFT JOIN streams st ON st.id = r.stream_id"
	" LEFT JOIN devices d ON d.id = coalesce(r.device_id, st.device_id)"
	" WHERE r.run_id = ?1 AND r.kind <> 7 AND (r.device_id IS NOT NULL OR r.stream_id IS NOT NULL)"
	WIN("r", "start_ns", "end_ns")
	" UNION ALL "
	"SELECT 4, y.id, coalesce(d.ordinal, -1), st.stream, 2, y.start_ns, y.end_ns"
	" FROM synchronizations y LEFT JOIN streams st ON st.id = y.stream_id"
	" LEFT JOIN devices d ON d.id = coalesce(y.device_id, st.device_id)"
	" WHERE y.run_id = ?1" WIN("y", "start_ns", "end_ns")
	" ORDER BY 3, 4, 5, 6, 7 DESC, 1, 2";

static const char kernel_sql[] =
	"SELECT n.value, dn.value, k.process_id, k.start_ns, k.end_ns, k.correlation_id,"
	" k.external_id, k.grid_x, k.grid_y, k.grid_z, k.block_x, k.block_y, k.block_z,"
	" k.cluster_x, k.cluster_y, k.cluster_z, k.registers_per_thread, k.static_shared_bytes,"
	" k.dynamic_shared_bytes, k.local_bytes_per_thread, k.blocks_per_sm, k.warps_per_sm,"
	" k.est_occupancy_pct, k.launch_type, k.grid_id, k.graph_id, k.graph_node_id, k.queued_ns,"
	" k.submitted_ns," ARGS("k")
	" FROM kernels k JOIN strings n ON n.id = k.name_id"
	" LEFT JOIN strings dn ON dn.id = k.demangled_name_id WHERE k.id = ?";

static const char memcpy_sql[] =
	"SELECT m.process_id, m.start_ns, m.end_ns, m.correlation_id, m.external_id, m.bytes,"
	" m.copy_kind, m.src_kind, m.dst_kind, sd.ordinal, dd.ordinal, m.is_async,"
	" m.migration_cause, m.copy_count, m.graph_node_id," ARGS("m")
	" FROM memcpys m LEFT JOIN devices sd ON sd.id = m.src_device_id"
	" LEFT JOIN devices dd ON dd.id = m.dst_device_id WHERE m.id = ?";

static const char memset_sql[] =
	"SELECT m.process_id, m.start_ns, m.end_ns, m.correlation_id, m.external_id, m.bytes,"
	" m.value, m.memory_kind, m.is_async, m.graph_node_id," ARGS("m")
	" FROM memsets m WHERE m.id = ?";

static const char sync_sql[] =
	"SELECT y.process_id, y.start_ns, y.end_ns, y.sync_type, y.correlation_id, y.external_id,"
	" y.event_id, y.return_value, t.tid," ARGS("y")
	" FROM synchronizations y LEFT JOIN threads t ON t.id = y.thread_id WHERE y.id = ?";

static const char *const copy_names[] = {
	"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP",
	"HtoD", "DtoH", "DtoD",
};
static const char *const memory_names[] = {
	"Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static",
	"Unknown",
};

static const char *enum_name(const char *const *names, size_t n, int64_t v)
{
	return v >= 0 && (uint64_t)v < n ? names[v] : NULL;
}
#define ENUM_NAME(names, v) enum_name(names, sizeof(names) / sizeof(names[0]), v)

static void dim3(xp_ctx *x, const char *key, sqlite3_stmt *st, int i)
{
	if (xp_int(st, i) == PQ_NULL && xp_int(st, i + 1) == PQ_NULL && xp_int(st, i + 2) == PQ_NULL)
		return;
	xp_arg_key(x, key);
	pq_jw_lit(x->w, "[");
	for (int k = 0; k < 3; k++) {
		if (k)
			pq_jw_lit(x->w, ",");
		if (xp_int(st, i + k) == PQ_NULL)
			pq_jw_lit(x->w, "null");
		else
			pq_jw_int(x->w, xp_int(st, i + k));
	}
	pq_jw_lit(x->w, "]");
}

/* The common head of GPU work: X on (pid, tid) with device, stream, correlation, External id. */
static void gpu_head(xp_ctx *x, int64_t pid, int64_t tid, const char *name, const char *cat,
		     int64_t start, int64_t end, int64_t ordinal, int64_t stream, int64_t corr,
		     int64_t ext)
{
	xp_event_begin(x, "X", pid, tid, name, cat);
	xp_event_ts(x, "ts", start);
	xp_event_dur(x, end - start);
	xp_args_begin(x);
	xp_arg_int(x, "device", ordinal >= 0 ? ordinal : PQ_NULL);
	xp_arg_int(x, "stream", stream);
	xp_arg_int(x, "correlation", corr);
	xp_arg_int(x, "External id", ext);
}

static int write_kernel(xp_ctx *x, sqlite3_stmt *k, int64_t pid, int64_t tid, int64_t ordinal,
			int64_t stream)
{
	const char *mangled = xp_text(k, 0), *demangled = xp_text(k, 1);
	int64_t st = xp_int(k, 17), dyn = xp_int(k, 18), start = xp_int(k, 3), corr = xp_int(k, 5);

	gpu_head(x, pid, tid, demangled ? demangled : mangled, "kernel", start, xp_int(k, 4),
		 ordinal, stream, corr, xp_int(k, 6));
	dim3(x, "grid", k, 7);
	dim3(x, "block", k, 10);
	dim3(x, "cluster", k, 13);
	xp_arg_int(x, "registers per thread", xp_int(k, 16));
	/* Kineto's "shared memory" is static + dynamic; the parts are kept too. */
	if (st != PQ_NULL || dyn != PQ_NULL)
		xp_arg_int(x, "shared memory", (st == PQ_NULL ? 0 : st) + (dyn == PQ_NULL ? 0 : dyn));
	if (dyn != PQ_NULL) {
		xp_arg_int(x, "static shared memory", st);
		xp_arg_int(x, "dynamic shared memory", dyn);
	}
	xp_arg_int(x, "local memory per thread", xp_int(k, 19));
	xp_arg_real(x, "blocks per SM", xp_real(k, 20));
	xp_arg_real(x, "warps per SM", xp_real(k, 21));
	xp_arg_real(x, "est. achieved occupancy %", xp_real(k, 22));
	xp_arg_int(x, "launch type", xp_int(k, 23));
	xp_arg_int(x, "grid id", xp_int(k, 24));
	xp_arg_int(x, "graph id", xp_int(k, 25));
	xp_arg_int(x, "graph node id", xp_int(k, 26));
	xp_arg_int(x, "queued ns", xp_int(k, 27));
	xp_arg_int(x, "submitted ns", xp_int(k, 28));
	if (demangled != NULL && strcmp(demangled, mangled) != 0)
		xp_arg_str(x, "mangled name", mangled);
	xp_arg_stored(x, xp_text(k, 29));
	xp_args_end(x);
	xp_event_end(x);
	x->stats->slices++;
	return corr != PQ_NULL ? xp_point(x, xp_int(k, 2), corr, 1, pid, tid, start) : 0;
}

static int write_memcpy(xp_ctx *x, sqlite3_stmt *m, int64_t pid, int64_t tid, int64_t ordinal,
			int64_t stream)
{
	const char *kind = ENUM_NAME(copy_names, xp_int(m, 6));
	const char *src = ENUM_NAME(memory_names, xp_int(m, 7));
	const char *dst = ENUM_NAME(memory_names, xp_int(m, 8));
	int64_t start = xp_int(m, 1), corr = xp_int(m, 3);
	char name[128];

	/* As Kineto names them: "Memcpy HtoD (Pageable -> Device)". */
	if (src != NULL && dst != NULL)
		snprintf(name, sizeof(name), "Memcpy %s (%s -> %s)", kind ? kind : "Unknown", src, dst);
	else if (src != NULL || dst != NULL)
		snprintf(name, sizeof(name), "Memcpy %s (%s)", kind ? kind : "Unknown",
			 src ? src : dst);
	else
		snprintf(name, sizeof(name), "Memcpy %s", kind ? kind : "Unknown");
	gpu_head(x, pid, tid, name, "gpu_memcpy", start, xp_int(m, 2), ordinal, stream, corr,
		 xp_int(m, 4));
	xp_arg_int(x, "bytes", xp_int(m, 5));
	xp_arg_int(x, "src device", xp_int(m, 9));
	xp_arg_int(x, "dst device", xp_int(m, 10));
	xp_arg_int(x, "async", xp_int(m, 11));
	xp_arg_int(x, "migration cause", xp_int(m, 12));
	xp_arg_int(x, "copy count", xp_int(m, 13));
	xp_arg_int(x, "graph node id", xp_int(m, 14));
	xp_arg_stored(x, xp_text(m, 15));
	xp_args_end(x);
	xp_event_end(x);
	x->stats->slices++;
	return corr != PQ_NULL ? xp_point(x, xp_int(m, 0), corr, 1, pid, tid, start) : 0;
}

static int write_memset(xp_ctx *x, sqlite3_stmt *m, int64_t pid, int64_t tid, int64_t ordinal,
			int64_t stream)
{
	const char *kind = ENUM_NAME(memory_names, xp_int(m, 7));
	int64_t start = xp_int(m, 1), corr = xp_int(m, 3);
	char name[64];

	if (kind != NULL)
		snprintf(name, sizeof(name), "Memset (%s)", kind);
	else
		snprintf(name, sizeof(name), "Memset");
	gpu_head(x, pid, tid, name, "gpu_memset", start, xp_int(m, 2), ordinal, stream, corr,
		 xp_int(m, 4));
	xp_arg_int(x, "bytes", xp_int(m, 5));
	xp_arg_int(x, "value", xp_int(m, 6));
	xp_arg_int(x, "async", xp_int(m, 8));
	xp_arg_int(x, "graph node id", xp_int(m, 9));
	xp_arg_stored(x, xp_text(m, 10));
	xp_args_end(x);
	xp_event_end(x);
	x->stats->slices++;
	return corr != PQ_NULL ? xp_point(x, xp_int(m, 0), corr, 1, pid, tid, start) : 0;
}

static void write_sync(xp_ctx *x, sqlite3_stmt *y, int64_t pid, int64_t tid, int64_t ordinal,
		       int64_t stream)
{
	/* The names `profq import` maps back to sync_types (Kineto's cuda_sync names). */
	static const char *const names[] = {
		"Unknown Sync", "Event Sync", "Stream Wait Event", "Stream Sync", "Context Sync",
	};
	const char *name = ENUM_NAME(names, xp_int(y, 3));

	gpu_head(x, pid, tid, name ? name : "Unknown Sync", "cuda_sync", xp_int(y, 1), xp_int(y, 2),
		 ordinal, stream == PQ_NULL ? -1 : stream, xp_int(y, 4), xp_int(y, 5));
	xp_arg_int(x, "wait_on_cuda_event_id", xp_int(y, 6));
	xp_arg_int(x, "return value", xp_int(y, 7));
	xp_arg_int(x, "thread", xp_int(y, 8));
	xp_arg_stored(x, xp_text(y, 9));
	xp_args_end(x);
	xp_event_end(x);
	x->stats->slices++;
}

/* The Chrome tid of lane `lane` of a GPU track (device g, stream, group). */
static int64_t gpu_lane_tid(xp_ctx *x, xp_gpu *g, int64_t stream, int grp, size_t lane)
{
	static const char *const what[] = { "", " annotations", " sync" };
	char name[160], sname[64];
	int64_t sort;

	if (stream != PQ_NULL)
		snprintf(sname, sizeof(sname), "stream %" PRId64, stream);
	else
		snprintf(sname, sizeof(sname), "no stream");
	if (grp == GRP_WORK && lane == 0 && stream != PQ_NULL && stream >= 0 &&
	    stream < XP_SYNTHETIC) {
		int64_t pid = xp_gpu_pid(x, g);

		xp_event_begin(x, "M", pid, stream, "thread_name", NULL);
		xp_args_begin(x);
		xp_arg_str(x, "name", sname);
		xp_args_end(x);
		xp_event_end(x);
		return stream;
	}
	if (lane == 0)
		snprintf(name, sizeof(name), "%s%s", sname, what[grp]);
	else
		snprintf(name, sizeof(name), "%s%s (overlap %zu)", sname, what[grp], lane);
	if (lane > 0)
		x->stats->lanes++;
	sort = (stream != PQ_NULL && stream >= 0 && stream < INT64_C(1) << 40 ? stream : 0) * 64 +
	       grp * 16 + (int64_t)(lane < 15 ? lane : 15);
	return xp_gpu_track(x, g, name, sort);
}

int xp_gpu_slices(xp_ctx *x)
{
	sqlite3_stmt *keys = NULL, *st[5] = { NULL };
	static const char *const sql[5] = { kernel_sql, memcpy_sql, memset_sql, range_sql, sync_sql };
	xp_lanes lanes = { .nest = 0 };
	int64_t cur_ord = XP_MIN, cur_stream = XP_MIN;
	int cur_grp = -1, rc, status = -1;
	xp_gpu *g = NULL;

	if (xp_prepare(x, gpu_keys, &keys))
		goto out;
	for (int i = 0; i < 5; i++)
		if (xp_prepare(x, sql[i], &st[i]))
			goto out;
	xp_bind_run(x, keys);
	while ((rc = sqlite3_step(keys)) == SQLITE_ROW) {
		int what = sqlite3_column_int(keys, 0), grp = sqlite3_column_int(keys, 4);
		int64_t ord = sqlite3_column_int64(keys, 2), stream = xp_int(keys, 3), pid, tid;
		size_t lane;

		if (ord != cur_ord || stream != cur_stream || grp != cur_grp) {
			cur_ord = ord;
			cur_stream = stream;
			cur_grp = grp;
			if ((g = xp_gpu_of(x, ord)) == NULL) {
				pq_fail(x->err, "out of memory");
				goto out;
			}
			xp_lanes_reset(&lanes);
			lanes.nest = grp == GRP_RANGES; /* annotations nest, work does not */
		}
		if (xp_lanes_place(&lanes, sqlite3_column_int64(keys, 5),
				   sqlite3_column_int64(keys, 6), &lane) != 0) {
			pq_fail(x->err, "out of memory");
			goto out;
		}
		pid = xp_gpu_pid(x, g);
		if (lanes.v[lane].tid < 0)
			lanes.v[lane].tid = gpu_lane_tid(x, g, stream, grp, lane);
		tid = lanes.v[lane].tid;
		if (fetch(x, st[what], sqlite3_column_int64(keys, 1)) != 0)
			goto out;
		switch (what) {
		case G_KERNEL:
			if (write_kernel(x, st[what], pid, tid, ord, stream) != 0)
				goto out;
			break;
		case G_MEMCPY:
			if (write_memcpy(x, st[what], pid, tid, ord, stream) != 0)
				goto out;
			break;
		case G_MEMSET:
			if (write_memset(x, st[what], pid, tid, ord, stream) != 0)
				goto out;
			break;
		case G_RANGE:
			write_range(x, st[what], pid, tid, ord >= 0 ? ord : PQ_NULL, stream);
			break;
		default:
			write_sync(x, st[what], pid, tid, ord, stream);
			break;
		}
		if (pq_jw_failed(x->w))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		xp_sql_error(x);
		goto out;
	}
	status = 0;
out:
	xp_lanes_free(&lanes);
	sqlite3_finalize(keys);
	for (int i = 0; i < 5; i++)
		sqlite3_finalize(st[i]);
	return status;
}
