/* export_extras.c - what is not a slice: async ranges (b/e), marks (i), allocations ([memory]
 * instants as PyTorch writes them, and a "Memory allocated" counter), the counters table (C), a
 * "GPU utilization" counter per device, and flow arrows (s/f) from each API call to the GPU work
 * it launched (by correlation id) and between host events (the flows table's other arrows). */
#include "export_chrome.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define ARGS(a) " CASE WHEN json_valid(" a ".args) AND json_type(" a ".args) = 'object' THEN " a ".args END"

/* The Chrome (pid, tid) of a host thread (thread NULL: the process's own track). */
static void host_track(xp_ctx *x, int64_t process_id, int64_t thread_id, int64_t *pid,
		       int64_t *tid)
{
	xp_proc *p = xp_proc_of(x, process_id);
	xp_thread *t = xp_thread_of(x, thread_id);

	*pid = xp_proc_pid(x, p);
	*tid = xp_thread_tid(x, p, t);
}

static int finish_query(xp_ctx *x, sqlite3_stmt *st, int rc)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return pq_fail(x->err, "%s", sqlite3_errmsg(x->db));
	return 0;
}

/* Async ranges: b at the start, e at the end (on the thread that ended it), one id each. */
int xp_async_ranges(xp_ctx *x)
{
	static const char sql[] =
		"SELECT r.process_id, r.thread_id, r.end_thread_id, r.start_ns, r.end_ns, n.value,"
		" coalesce(c.value, 'async'), r.correlation_id, r.external_id," ARGS("r")
		" FROM ranges r JOIN strings n ON n.id = r.name_id"
		" LEFT JOIN strings c ON c.id = r.category_id WHERE r.run_id = ?1 AND r.kind = 7"
		" AND r.start_ns < ?3 AND (coalesce(r.end_ns, 9223372036854775807) > ?2 OR r.start_ns >= ?2)"
		" ORDER BY r.start_ns, r.id";
	sqlite3_stmt *st;
	int rc;

	if (xp_prepare(x, sql, &st))
		return -1;
	xp_bind_run(x, st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !pq_jw_failed(x->w)) {
		int64_t pid, tid, id = x->next_async++, end = xp_int(st, 4);

		host_track(x, xp_int(st, 0), xp_int(st, 1), &pid, &tid);
		xp_event_begin(x, "b", pid, tid, xp_text(st, 5), xp_text(st, 6));
		xp_event_ts(x, "ts", xp_int(st, 3));
		pq_jw_lit(x->w, ",\"id\":");
		pq_jw_int(x->w, id);
		xp_args_begin(x);
		xp_arg_int(x, "correlation", xp_int(st, 7));
		xp_arg_int(x, "External id", xp_int(st, 8));
		xp_arg_stored(x, xp_text(st, 9));
		xp_args_end(x);
		xp_event_end(x);
		if (end == PQ_NULL)
			continue;
		if (xp_int(st, 2) != PQ_NULL)
			host_track(x, xp_int(st, 0), xp_int(st, 2), &pid, &tid);
		xp_event_begin(x, "e", pid, tid, xp_text(st, 5), xp_text(st, 6));
		xp_event_ts(x, "ts", end);
		pq_jw_lit(x->w, ",\"id\":");
		pq_jw_int(x->w, id);
		xp_event_end(x);
	}
	return finish_query(x, st, rc);
}

int xp_marks(xp_ctx *x)
{
	static const char sql[] =
		"SELECT m.process_id, m.thread_id, m.ts_ns, m.kind, n.value, c.value, dn.value, m.color,"
		" m.payload, m.nvtx_category, m.scope," ARGS("m")
		" FROM marks m JOIN strings n ON n.id = m.name_id LEFT JOIN strings c ON c.id = m.category_id"
		" LEFT JOIN nvtx_domains d ON d.id = m.domain_id LEFT JOIN strings dn ON dn.id = d.name_id"
		" WHERE m.run_id = ?1 AND m.ts_ns >= ?2 AND m.ts_ns < ?3 ORDER BY m.ts_ns, m.id";
	sqlite3_stmt *st;
	int rc;

	if (xp_prepare(x, sql, &st))
		return -1;
	xp_bind_run(x, st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !pq_jw_failed(x->w)) {
		const char *cat = xp_text(st, 5), *scope = xp_text(st, 10);
		int64_t pid, tid;

		if (cat == NULL)
			cat = xp_int(st, 3) == PQ_MARK_NVTX ? "nvtx" : "instant";
		host_track(x, xp_int(st, 0), xp_int(st, 1), &pid, &tid);
		xp_event_begin(x, "i", pid, tid, xp_text(st, 4), cat);
		xp_event_ts(x, "ts", xp_int(st, 2));
		pq_jw_lit(x->w, ",\"s\":");
		pq_jw_str(x->w, scope && (!strcmp(scope, "g") || !strcmp(scope, "p")) ? scope : "t");
		xp_args_begin(x);
		xp_arg_str(x, "domain", xp_text(st, 6));
		xp_arg_int(x, "color", xp_int(st, 7));
		if (sqlite3_column_type(st, 8) == SQLITE_INTEGER)
			xp_arg_int(x, "payload", sqlite3_column_int64(st, 8));
		else if (sqlite3_column_type(st, 8) == SQLITE_FLOAT)
			xp_arg_real(x, "payload", sqlite3_column_double(st, 8));
		xp_arg_int(x, "nvtx category", xp_int(st, 9));
		xp_arg_stored(x, xp_text(st, 11));
		xp_args_end(x);
		xp_event_end(x);
	}
	return finish_query(x, st, rc);
}

/* Allocations: PyTorch's "[memory]" instant (so `profq import` gives the row back) and the
 * bytes allocated after it as a counter on the GPU (device memory) or the process (host): the
 * allocator's own total when recorded, else the sum of the run's allocations minus frees. */
int xp_memory(xp_ctx *x)
{
	static const char sql[] =
		"SELECT * FROM (SELECT m.process_id, m.thread_id, d.ordinal, m.ts_ns, m.operation,"
		" m.address, m.bytes, m.total_allocated, m.total_reserved, m.correlation_id,"
		" m.external_id," ARGS("m") ","
		" sum(CASE m.operation WHEN 1 THEN -m.bytes ELSE m.bytes END)"
		"   OVER (PARTITION BY m.process_id, m.device_id ORDER BY m.ts_ns, m.id)"
		" FROM memory_events m LEFT JOIN devices d ON d.id = m.device_id WHERE m.run_id = ?1)"
		" WHERE ts_ns >= ?2 AND ts_ns < ?3 ORDER BY ts_ns";
	sqlite3_stmt *st;
	int rc;

	if (xp_prepare(x, sql, &st))
		return -1;
	xp_bind_run(x, st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !pq_jw_failed(x->w)) {
		int64_t pid, tid, ord = xp_int(st, 2), bytes = xp_int(st, 6), ts = xp_int(st, 3);
		int64_t total = xp_int(st, 7);

		host_track(x, xp_int(st, 0), xp_int(st, 1), &pid, &tid);
		xp_event_begin(x, "i", pid, tid, "[memory]", "cpu_instant_event");
		xp_event_ts(x, "ts", ts);
		pq_jw_lit(x->w, ",\"s\":\"t\"");
		xp_args_begin(x);
		/* c10 DeviceType: 1 CUDA, 0 CPU; Device Id for CPU memory comes from the stored args. */
		xp_arg_int(x, "Device Type", ord != PQ_NULL ? 1 : 0);
		xp_arg_int(x, "Device Id", ord);
		xp_arg_int(x, "Addr", xp_int(st, 5));
		xp_arg_int(x, "Bytes", xp_int(st, 4) == PQ_MEM_FREE ? -bytes : bytes);
		xp_arg_int(x, "Total Allocated", total);
		xp_arg_int(x, "Total Reserved", xp_int(st, 8));
		xp_arg_int(x, "correlation", xp_int(st, 9));
		xp_arg_int(x, "External id", xp_int(st, 10));
		xp_arg_stored(x, xp_text(st, 11));
		xp_args_end(x);
		xp_event_end(x);

		if (ord != PQ_NULL) {
			xp_gpu *g = xp_gpu_of(x, ord);

			if (g == NULL) {
				sqlite3_finalize(st);
				return pq_fail(x->err, "out of memory");
			}
			pid = xp_gpu_pid(x, g);
		}
		xp_event_begin(x, "C", pid, -1, "Memory allocated", NULL);
		xp_event_ts(x, "ts", ts);
		xp_args_begin(x);
		xp_arg_int(x, "bytes", total != PQ_NULL ? total : xp_int(st, 12));
		xp_args_end(x);
		xp_event_end(x);
	}
	return finish_query(x, st, rc);
}

/* Counter samples: series "name.key" (as `profq import` names a C event's keys) go back as
 * name with args {key: value}; other names as {"value": value}. */
int xp_counters(xp_ctx *x)
{
	static const char sql[] =
		"SELECT c.process_id, d.ordinal, n.value, c.ts_ns, c.value FROM counters c"
		" JOIN strings n ON n.id = c.name_id LEFT JOIN devices d ON d.id = c.device_id"
		" WHERE c.run_id = ?1 AND c.ts_ns >= ?2 AND c.ts_ns < ?3 ORDER BY c.ts_ns, c.id";
	sqlite3_stmt *st;
	int rc;

	if (xp_prepare(x, sql, &st))
		return -1;
	xp_bind_run(x, st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !pq_jw_failed(x->w)) {
		const char *series = xp_text(st, 2), *dot = strrchr(series, '.');
		int64_t pid;
		double v = sqlite3_column_double(st, 4);
		char name[1024];

		if (!isfinite(v))
			continue;
		if (xp_int(st, 1) != PQ_NULL) {
			xp_gpu *g = xp_gpu_of(x, xp_int(st, 1));

			if (g == NULL) {
				sqlite3_finalize(st);
				return pq_fail(x->err, "out of memory");
			}
			pid = xp_gpu_pid(x, g);
		} else {
			pid = xp_proc_pid(x, xp_proc_of(x, xp_int(st, 0)));
		}
		if (dot != NULL && dot != series && dot[1] != '\0' &&
		    (size_t)(dot - series) < sizeof(name)) {
			memcpy(name, series, (size_t)(dot - series));
			name[dot - series] = '\0';
		} else {
			snprintf(name, sizeof(name), "%s", series);
			dot = NULL;
		}
		xp_event_begin(x, "C", pid, -1, name, NULL);
		xp_event_ts(x, "ts", xp_int(st, 3));
		xp_args_begin(x);
		xp_arg_real(x, dot ? dot + 1 : "value", v);
		xp_args_end(x);
		xp_event_end(x);
	}
	return finish_query(x, st, rc);
}

/* GPU utilization ------------------------------------------------------------------------- */

typedef struct util {
	xp_ctx *x;
	int64_t pid, t0, t1, w;      /* window and bucket width */
	int64_t bucket, acc;         /* current bucket and its busy ns */
	double last;                 /* last value written, -1 before the first */
} util;

static void util_emit(util *u, int64_t ts, double pct)
{
	if (pct == u->last)
		return;
	u->last = pct;
	xp_event_begin(u->x, "C", u->pid, -1, "GPU utilization", NULL);
	xp_event_ts(u->x, "ts", ts);
	xp_args_begin(u->x);
	xp_arg_key(u->x, "percent");
	{
		char b[32];
		int n = snprintf(b, sizeof(b), "%.2f", pct);

		pq_jw_raw(u->x->w, b, (size_t)n);
	}
	xp_args_end(u->x);
	xp_event_end(u->x);
}

static void util_flush(util *u)
{
	int64_t s = u->t0 + u->bucket * u->w, e = s + u->w;

	if (e > u->t1)
		e = u->t1;
	if (e > s)
		util_emit(u, s, 100.0 * (double)u->acc / (double)(e - s));
	u->acc = 0;
}

/* Busy time [s, e) (already merged with what came before) into the buckets. */
static void util_add(util *u, int64_t s, int64_t e)
{
	if (s < u->t0)
		s = u->t0;
	if (e > u->t1)
		e = u->t1;
	while (s < e) {
		int64_t b = (s - u->t0) / u->w, bend = u->t0 + (b + 1) * u->w;
		int64_t seg = (e < bend ? e : bend) - s;

		if (b != u->bucket) {
			util_flush(u);
			if (b > u->bucket + 1) /* idle buckets between */
				util_emit(u, u->t0 + (u->bucket + 1) * u->w, 0);
			u->bucket = b;
		}
		u->acc += seg;
		s += seg;
	}
}

static void util_end(util *u)
{
	int64_t next;

	util_flush(u);
	next = u->t0 + (u->bucket + 1) * u->w;
	if (next < u->t1)
		util_emit(u, next, 0);
	else
		util_emit(u, u->t1, 0);
}

int xp_utilization(xp_ctx *x)
{
	static const char sql[] =
		"SELECT coalesce(d.ordinal, -1) AS o, g.s, g.e FROM ("
		" SELECT device_id, start_ns AS s, end_ns AS e FROM kernels WHERE run_id = ?1"
		"  AND start_ns < ?3 AND end_ns > ?2"
		" UNION ALL SELECT device_id, start_ns, end_ns FROM memcpys WHERE run_id = ?1"
		"  AND start_ns < ?3 AND end_ns > ?2"
		" UNION ALL SELECT device_id, start_ns, end_ns FROM memsets WHERE run_id = ?1"
		"  AND start_ns < ?3 AND end_ns > ?2"
		") g LEFT JOIN devices d ON d.id = g.device_id ORDER BY 1, 2";
	static const char span_sql[] =
		"SELECT min(s), max(e) FROM ("
		" SELECT min(start_ns) s, max(end_ns) e FROM kernels WHERE run_id = ?1"
		" UNION ALL SELECT min(start_ns), max(end_ns) FROM memcpys WHERE run_id = ?1"
		" UNION ALL SELECT min(start_ns), max(end_ns) FROM memsets WHERE run_id = ?1"
		" UNION ALL SELECT start_ns, end_ns FROM runs WHERE id = ?1)";
	sqlite3_stmt *st;
	util u = { .x = x };
	int64_t cur = XP_MIN, cs = 0, ce = 0;
	int rc, open = 0;

	/* The window: the run's span (or its GPU work's), cut to --from/--to. */
	if (xp_prepare(x, span_sql, &st))
		return -1;
	sqlite3_bind_int64(st, 1, x->run_id);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW || sqlite3_column_type(st, 0) == SQLITE_NULL)
		return finish_query(x, st, rc == SQLITE_ROW ? SQLITE_DONE : rc);
	u.t0 = sqlite3_column_int64(st, 0);
	u.t1 = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	if (u.t0 < x->from)
		u.t0 = x->from;
	if (u.t1 > x->to)
		u.t1 = x->to;
	if (u.t1 <= u.t0)
		return 0;
	/* About a thousand buckets, whole microseconds. */
	u.w = ((u.t1 - u.t0) / 1000 + 999) / 1000 * 1000;
	if (u.w < 1000)
		u.w = 1000;

	if (xp_prepare(x, sql, &st))
		return -1;
	xp_bind_run(x, st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !pq_jw_failed(x->w)) {
		int64_t ord = sqlite3_column_int64(st, 0), s = sqlite3_column_int64(st, 1);
		int64_t e = sqlite3_column_int64(st, 2);

		if (ord != cur) {
			if (open) {
				util_add(&u, cs, ce);
				util_end(&u);
			}
			xp_gpu *g = xp_gpu_of(x, ord);

			if (g == NULL) {
				sqlite3_finalize(st);
				return pq_fail(x->err, "out of memory");
			}
			cur = ord;
			u.pid = xp_gpu_pid(x, g);
			u.bucket = 0;
			u.acc = 0;
			u.last = -1;
			cs = s;
			ce = e;
			open = 1;
			continue;
		}
		if (s >= ce) {
			util_add(&u, cs, ce);
			cs = s;
			ce = e;
		} else if (e > ce) {
			ce = e;
		}
	}
	if (open) {
		util_add(&u, cs, ce);
		util_end(&u);
	}
	return finish_query(x, st, rc);
}

/* Flows ------------------------------------------------------------------------------------ */

int xp_point(xp_ctx *x, int64_t process_id, int64_t correlation_id, int side, int64_t pid,
	     int64_t tid, int64_t ts_ns)
{
	sqlite3_stmt *st = x->pt_insert;

	if (process_id == PQ_NULL)
		return 0;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, process_id);
	sqlite3_bind_int64(st, 2, correlation_id);
	sqlite3_bind_int(st, 3, side);
	sqlite3_bind_int64(st, 4, pid);
	sqlite3_bind_int64(st, 5, tid);
	sqlite3_bind_int64(st, 6, ts_ns);
	if (sqlite3_step(st) != SQLITE_DONE)
		return pq_fail(x->err, "flow points: %s", sqlite3_errmsg(x->db));
	return 0;
}

static void flow_pair(xp_ctx *x, const char *name, const char *cat, int64_t spid, int64_t stid,
		      int64_t sts, int64_t fpid, int64_t ftid, int64_t fts, int enclosing)
{
	int64_t id = x->next_flow++;

	xp_event_begin(x, "s", spid, stid, name, cat);
	xp_event_ts(x, "ts", sts);
	pq_jw_lit(x->w, ",\"id\":");
	pq_jw_int(x->w, id);
	xp_event_end(x);
	xp_event_begin(x, "f", fpid, ftid, name, cat);
	xp_event_ts(x, "ts", fts);
	pq_jw_lit(x->w, ",\"id\":");
	pq_jw_int(x->w, id);
	if (enclosing)
		pq_jw_lit(x->w, ",\"bp\":\"e\"");
	xp_event_end(x);
	x->stats->flows++;
}

int xp_flows(xp_ctx *x)
{
	static const char launches[] =
		"SELECT a.pid, a.tid, a.ts, g.pid, g.tid, g.ts FROM temp.xp_points g"
		" JOIN temp.xp_points a ON a.proc = g.proc AND a.corr = g.corr AND a.side = 0"
		" WHERE g.side = 1 ORDER BY g.rowid, a.rowid";
	/* Other arrows of the flows table between host threads (PyTorch's fwdbwd, ...); the
	 * launch arrows (ac2g, and 'async' in PyTorch 1.9 traces) are the ones made above. */
	static const char stored[] =
		"SELECT s.process_id, s.thread_id, s.ts_ns, f.process_id, f.thread_id, f.ts_ns,"
		" n.value, c.value, f.binds_enclosing FROM flows s"
		" JOIN flows f ON f.run_id = s.run_id AND f.flow_key = s.flow_key AND f.phase = 'f'"
		"  AND f.category_id IS s.category_id"
		" LEFT JOIN strings n ON n.id = s.name_id LEFT JOIN strings c ON c.id = s.category_id"
		" WHERE s.run_id = ?1 AND s.phase = 's' AND s.thread_id IS NOT NULL"
		"  AND f.thread_id IS NOT NULL AND coalesce(c.value, '') NOT IN ('ac2g', 'async')"
		"  AND s.ts_ns >= ?2 AND s.ts_ns < ?3 AND f.ts_ns >= ?2 AND f.ts_ns < ?3"
		" ORDER BY s.ts_ns, s.id, f.id";
	sqlite3_stmt *st;
	int rc;

	if (xp_exec(x, "CREATE INDEX temp.xp_points_key ON xp_points (proc, corr, side)"))
		return -1;
	if (xp_prepare(x, launches, &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !pq_jw_failed(x->w))
		flow_pair(x, "ac2g", "ac2g", xp_int(st, 0), xp_int(st, 1), xp_int(st, 2), xp_int(st, 3),
			  xp_int(st, 4), xp_int(st, 5), 1);
	if (finish_query(x, st, rc) != 0)
		return -1;

	if (xp_prepare(x, stored, &st))
		return -1;
	xp_bind_run(x, st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !pq_jw_failed(x->w)) {
		int64_t spid, stid, fpid, ftid;

		host_track(x, xp_int(st, 0), xp_int(st, 1), &spid, &stid);
		host_track(x, xp_int(st, 3), xp_int(st, 4), &fpid, &ftid);
		flow_pair(x, xp_text(st, 6) ? xp_text(st, 6) : "flow",
			  xp_text(st, 7) ? xp_text(st, 7) : "flow", spid, stid, xp_int(st, 2), fpid,
			  ftid, xp_int(st, 5), xp_int(st, 8) == 1);
	}
	return finish_query(x, st, rc);
}
