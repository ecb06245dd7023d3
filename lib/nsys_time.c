/* nsys_time.c - the time base of an nsys export: which offset puts its timestamps on the Unix
 * epoch.
 *
 * What the exports say (checked on the four files of shared/data/nsys, schemas 2.9.1 to 3.25.0):
 *  - TARGET_INFO_SESSION_START_TIME.utcEpochNs is the UTC time of the session start
 *    (notes §1.2, AG-schema);
 *  - event timestamps (start, end, timestamp) count nanoseconds from that session start, in
 *    every schema seen: mock.sqlite (3.24.14) has DIAGNOSTIC_EVENT "Profiling has started." at
 *    timestamp 0 and "Profiling has stopped." at ANALYSIS_DETAILS.duration, while its
 *    ANALYSIS_DETAILS.startTime == systemClockNs == 515396806359142 is a raw system-clock
 *    reading, far outside the event range (1.3e9 .. 1.5e9); nsight-2025.5.2.sqlite (3.24.0) the
 *    same ("Profiling has started." at 0, startTime 2.66e13); report1.sqlite (2.9.1) has
 *    SCHED_EVENTS from 44 us and CUDA rows before ANALYSIS_DETAILS.startTime (0.89 s), so there
 *    startTime is itself a session-relative time; h100_2gpu_1s.sqlite (3.25.0) has
 *    startTime == systemClockNs == 35.26 s and events at 155.4 s, inside [0, duration].
 *  So ts − ANALYSIS_DETAILS.startTime (or − systemClockNs), the guess in notes §1.2, would put
 *  mock.sqlite's events six days before its session; the rule used for every schema is
 *      event_utc_ns = utcEpochNs + ts          (runs.time_offset_ns = utcEpochNs)
 *  which is also what scripts that line nsys exports up with wall-clock logs use.
 *  Guard: when the export's events lie in [startTime, startTime + duration] but not in
 *  [0, duration] (timestamps on the system clock, not seen so far) the offset becomes
 *  utcEpochNs − startTime, and the run says so.
 *  Exports written with time normalisation or a time shift (EXPORT_PARAM_TIME_NORMALIZE true,
 *  EXPORT_PARAM_TIME_SHIFT != 0) and exports without a session start are imported with the
 *  'relative' time base (offset 0), with a run_metadata note saying why.
 */
#include "nsys.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int export_param(nsys_ctx *c, const char *name, char *buf, size_t size)
{
	char sql[200];
	sqlite3_stmt *st;

	buf[0] = '\0';
	snprintf(sql, sizeof(sql), "SELECT value FROM %s WHERE name = '%s'",
		 c->legacy ? "EXPORT_META_DATA" : "META_DATA_EXPORT", name);
	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return buf[0] != '\0';
}

/* One event timestamp of the export, to tell the clock its events are on; PQ_NULL if none. */
static int sample_ts(nsys_ctx *c, int64_t *ts)
{
	static const char *const tables[] = {
		"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS",
		"CUPTI_ACTIVITY_KIND_MEMCPY",
	};
	char sql[128];

	*ts = PQ_NULL;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]) && *ts == PQ_NULL; i++) {
		if (!nsys_has_table(c, tables[i]))
			continue;
		snprintf(sql, sizeof(sql), "SELECT min(start) FROM (SELECT start FROM \"%s\" "
			 "WHERE typeof(start) = 'integer' LIMIT 64)", tables[i]);
		if (nsys_query_int(c, sql, PQ_NULL, ts) != 0)
			return -1;
	}
	return 0;
}

int nsys_time_base(nsys_ctx *c)
{
	char normalize[32], shift[32];
	int64_t start = PQ_NULL, duration = PQ_NULL, ts;

	c->session_utc = PQ_NULL;
	c->relative = 1;
	c->offset = 0;
	if (nsys_has_table(c, "TARGET_INFO_SESSION_START_TIME") &&
	    nsys_query_int(c, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME "
			   "WHERE typeof(utcEpochNs) = 'integer' LIMIT 1", PQ_NULL,
			   &c->session_utc) != 0)
		return -1;
	if (c->session_utc == PQ_NULL) {
		c->time_note = "no session start (TARGET_INFO_SESSION_START_TIME.utcEpochNs): "
			    "times are the export's, relative to its session start";
		return 0;
	}
	if ((export_param(c, "EXPORT_PARAM_TIME_NORMALIZE", normalize, sizeof(normalize)) &&
	     strcmp(normalize, "false") != 0) ||
	    (export_param(c, "EXPORT_PARAM_TIME_SHIFT", shift, sizeof(shift)) &&
	     strcmp(shift, "0") != 0)) {
		c->time_note = "the export was written with time normalisation or a time shift: "
			    "times are the export's, not placed on the Unix epoch";
		c->session_utc = PQ_NULL;
		return 0;
	}
	if (nsys_has_table(c, "ANALYSIS_DETAILS") &&
	    nsys_has_column(c, "ANALYSIS_DETAILS", "startTime") &&
	    nsys_has_column(c, "ANALYSIS_DETAILS", "duration") &&
	    (nsys_query_int(c, "SELECT startTime FROM ANALYSIS_DETAILS LIMIT 1", PQ_NULL,
			    &start) != 0 ||
	     nsys_query_int(c, "SELECT duration FROM ANALYSIS_DETAILS LIMIT 1", PQ_NULL,
			    &duration) != 0))
		return -1;
	if (sample_ts(c, &ts) != 0)
		return -1;
	c->relative = 0;
	c->offset = c->session_utc;
	c->time_note = "event_utc_ns = utcEpochNs + ts (export timestamps count from the session "
		    "start)";
	if (ts != PQ_NULL && start != PQ_NULL && duration != PQ_NULL && start > 0 &&
	    duration > 0 && !(ts >= 0 && ts <= duration + duration / 10) && ts >= start &&
	    ts <= start + duration + duration / 10) {
		c->offset = c->session_utc - start;
		c->time_note = "event_utc_ns = utcEpochNs + (ts - ANALYSIS_DETAILS.startTime) "
			    "(export timestamps are on the system clock)";
	}
	return 0;
}

int nsys_time_metadata(nsys_ctx *c)
{
	int64_t v;

	if (pq_store_set_metadata(c->s, "nsys.time_rule", c->time_note, c->err) != 0)
		return -1;
	if (c->session_utc != PQ_NULL &&
	    pq_store_set_metadata_int(c->s, "nsys.session_start_utc_ns", c->session_utc, c->err) !=
		    0)
		return -1;
	if (nsys_has_table(c, "ANALYSIS_DETAILS")) {
		static const char *const cols[] = { "startTime", "stopTime", "duration" };
		static const char *const keys[] = {
			"nsys.analysis_start_ns", "nsys.analysis_stop_ns", "nsys.analysis_duration_ns",
		};

		for (int i = 0; i < 3; i++) {
			char sql[96];

			if (!nsys_has_column(c, "ANALYSIS_DETAILS", cols[i]))
				continue;
			snprintf(sql, sizeof(sql), "SELECT \"%s\" FROM ANALYSIS_DETAILS LIMIT 1",
				 cols[i]);
			if (nsys_query_int(c, sql, PQ_NULL, &v) != 0)
				return -1;
			if (v != PQ_NULL && pq_store_set_metadata_int(c->s, keys[i], v, c->err) != 0)
				return -1;
		}
	}
	if (nsys_has_column(c, "TARGET_INFO_SESSION_START_TIME", "systemClockNs")) {
		if (nsys_query_int(c, "SELECT systemClockNs FROM TARGET_INFO_SESSION_START_TIME "
				   "LIMIT 1", PQ_NULL, &v) != 0)
			return -1;
		if (v != PQ_NULL &&
		    pq_store_set_metadata_int(c->s, "nsys.system_clock_ns", v, c->err) != 0)
			return -1;
	}
	return 0;
}
