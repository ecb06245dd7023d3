/* export_chrome.h - shared state of the Chrome trace exporter (internal to lib/).
 *
 * export_chrome.c drives: the document, its top-level keys, one run after another.
 * export_tracks.c maps a run's processes, threads and GPUs to Chrome pids and tids, writes their
 * M (metadata) events the first time one is used, and places slices on lanes (extra tracks) so
 * that slices on one track nest (CPU) or never overlap (GPU). export_slices.c writes the CPU and
 * GPU slices; export_extras.c async ranges, marks, memory, counters, GPU utilization and flows.
 */
#ifndef PQ_EXPORT_CHROME_H
#define PQ_EXPORT_CHROME_H

#include <stdint.h>

#include <sqlite3.h>

#include "error.h"
#include "export.h"
#include "jsonw.h"
#include "store.h"

#define XP_MAX INT64_MAX
#define XP_MIN INT64_MIN
/* Synthetic pids and tids (for ids Chrome cannot take, or that clash) start here. */
#define XP_SYNTHETIC INT64_C(0x40000000)

typedef struct xp_proc {
	int64_t id, pid, cpid, sort_index;
	char *name;
	int named;
	int64_t next_tid;            /* next synthetic tid in this Chrome process */
	int64_t own_tid;             /* the track of events without a thread, -1 until used */
} xp_proc;

typedef struct xp_thread {
	int64_t id, process_id, tid, ctid, sort_index;
	char *name;
	int named;
} xp_thread;

typedef struct xp_gpu {
	int64_t ordinal;             /* -1: work without a device */
	int64_t cpid, next_tid;
	char *name;                  /* device name, or NULL */
	int named;
} xp_gpu;

/* A track's lanes: lane 0 is the track itself, others are extra tracks made when a slice does not
 * fit (export_tracks.c). */
typedef struct xp_lane {
	int64_t *ends;               /* open slices' ends, innermost last */
	size_t n, cap;
	int64_t tid;                 /* Chrome tid, -1 until named */
} xp_lane;

typedef struct xp_lanes {
	xp_lane *v;
	size_t n, cap;
	int nest;                    /* 1: slices may nest (CPU); 0: they must not overlap (GPU) */
} xp_lanes;

typedef struct xp_ctx {
	sqlite3 *db;
	pq_jw *w;
	pq_error *err;
	const pq_export_options *opt;
	pq_export_stats *stats;

	int multi;                   /* several runs: every pid synthetic, names say the run */
	int64_t run_id, rank, run_index;
	int64_t base_ns;             /* ts = (ns - base_ns) us */
	int64_t from, to;            /* the window, XP_MIN / XP_MAX when unbounded */
	int64_t next_pid;            /* next synthetic pid */
	int64_t next_flow, next_async;
	int any_event;               /* an event was written (commas) */
	int args_open;               /* members written into the current args object */

	xp_proc *procs;
	size_t nprocs;
	xp_thread *threads;
	size_t nthreads;
	xp_gpu *gpus;
	size_t ngpus;
	int64_t *dev_ids, *dev_ordinals; /* device row -> ordinal, sorted by row id */
	size_t ndevs;
	xp_proc none;                /* events without a process */

	sqlite3_stmt *pt_insert;     /* temp.xp_points: flow ends */
} xp_ctx;

/* Values of a column: PQ_NULL / NaN / NULL for SQL NULL. */
int64_t xp_int(sqlite3_stmt *st, int i);
double xp_real(sqlite3_stmt *st, int i);
const char *xp_text(sqlite3_stmt *st, int i);
int xp_prepare(xp_ctx *x, const char *sql, sqlite3_stmt **st);
/* Binds the run (?1) and the window (?2 from, ?3 to). */
void xp_bind_run(xp_ctx *x, sqlite3_stmt *st);
int xp_sql_error(xp_ctx *x);
int xp_exec(xp_ctx *x, const char *sql);

/* Writing events: begin writes `{"ph":..,"pid":..,"tid":..` (tid < 0: none) and the name and
 * cat when not NULL; ts/dur/args follow; end closes the event. */
void xp_event_begin(xp_ctx *x, const char *ph, int64_t pid, int64_t tid, const char *name,
		    const char *cat);
void xp_event_ts(xp_ctx *x, const char *key, int64_t ns);   /* relative to base_ns */
void xp_event_dur(xp_ctx *x, int64_t ns);                   /* "dur" */
void xp_event_end(xp_ctx *x);
void xp_args_begin(xp_ctx *x);
void xp_arg_int(xp_ctx *x, const char *key, int64_t v);     /* skipped when PQ_NULL */
void xp_arg_real(xp_ctx *x, const char *key, double v);     /* skipped when NaN */
void xp_arg_str(xp_ctx *x, const char *key, const char *v); /* skipped when NULL */
void xp_arg_key(xp_ctx *x, const char *key);                /* then a value by hand */
/* The members of a stored args JSON object (text as SQLite's json_valid accepted it). */
void xp_arg_stored(xp_ctx *x, const char *json);
void xp_args_end(xp_ctx *x);

/* Tracks (export_tracks.c). */
int xp_tracks_load(xp_ctx *x);
void xp_tracks_free(xp_ctx *x);
xp_proc *xp_proc_of(xp_ctx *x, int64_t process_id);         /* never NULL */
xp_thread *xp_thread_of(xp_ctx *x, int64_t thread_id);      /* NULL when unknown */
xp_gpu *xp_gpu_of(xp_ctx *x, int64_t ordinal);              /* NULL: out of memory */
int64_t xp_ordinal_of(const xp_ctx *x, int64_t device_id);  /* PQ_NULL when unknown */
/* The Chrome pid of a process / GPU, its M events written on first use. */
int64_t xp_proc_pid(xp_ctx *x, xp_proc *p);
int64_t xp_gpu_pid(xp_ctx *x, xp_gpu *g);
/* The Chrome tid of a thread (named on first use); thread NULL: the process's own track. */
int64_t xp_thread_tid(xp_ctx *x, xp_proc *p, xp_thread *t);
/* A new named track in a process or on a GPU. */
int64_t xp_proc_track(xp_ctx *x, xp_proc *p, const char *name);
int64_t xp_gpu_track(xp_ctx *x, xp_gpu *g, const char *name, int64_t sort_index);

void xp_lanes_reset(xp_lanes *l);
void xp_lanes_free(xp_lanes *l);
/* The lane [start, end) goes to (end XP_MAX: never closed); -1 when out of memory. */
int xp_lanes_place(xp_lanes *l, int64_t start, int64_t end, size_t *lane);

/* Slices (export_slices.c) and the rest (export_extras.c), for the run x->run_id. */
int xp_cpu_slices(xp_ctx *x);
int xp_gpu_slices(xp_ctx *x);
int xp_async_ranges(xp_ctx *x);
int xp_marks(xp_ctx *x);
int xp_memory(xp_ctx *x);
int xp_counters(xp_ctx *x);
int xp_utilization(xp_ctx *x);
int xp_flows(xp_ctx *x);

/* A flow end: side 0 the API call, 1 the GPU work it launched. */
int xp_point(xp_ctx *x, int64_t process_id, int64_t correlation_id, int side, int64_t pid,
	     int64_t tid, int64_t ts_ns);

#endif
