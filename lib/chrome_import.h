/* chrome_import.h - shared state of the Chrome trace importer (internal to lib/).
 *
 * import_chrome.c drives: its reader thread (chrome_reader.c) reads and parses the document,
 * and the importer's thread handles the top-level keys, decides the run's time base, begins the
 * run, and applies the error policy. chrome_events.c turns one parsed event into rows (Kineto
 * categories and the generic trace-event phases), with one file per family: chrome_complete.c
 * (X), chrome_ranges.c (B/E, async b/e: the state of events still open), chrome_marks.c
 * (instants, counters, flows, others); chrome_where.c resolves pid/tid to rows, chrome_args.c
 * writes the args text, chrome_fields.c finds an event's members, chrome_category.c classifies.
 */
#ifndef PQ_CHROME_IMPORT_H
#define PQ_CHROME_IMPORT_H

#include <stdint.h>

#include <cJSON.h>

#include "chrome_fields.h"
#include "chrome_stream.h"
#include "import.h"
#include "map.h"
#include "store.h"

#define CHROME_MAX_GPU_PIDS 256

/* One event: its text, its members as the scanner saw them, cJSON's parse of it, and its
 * members by name (NULL: chrome_event_process() digests the event itself). */
typedef struct chrome_event {
	const char *text;
	size_t len;
	const pq_chrome_members *mem;
	cJSON *json;
	const chrome_digest *dg;
	const struct chrome_x_args *xa;  /* args text made ahead (X events, instants), or NULL */
} chrome_event;

/* A text buffer that grows (chrome_args.c). */
typedef struct chrome_text {
	char *p;
	size_t cap;
} chrome_text;

/* A cached (pid, tid) -> store ids. */
typedef struct chrome_thread_slot {
	int64_t pid, tid, process_id, thread_id;
	int used;
} chrome_thread_slot;

typedef struct chrome_ctx {
	pq_store *s;
	pq_import_stats *stats;
	pq_error *err;

	int64_t offset_ns;           /* added to every ts: baseTimeNanoseconds, or 0 */

	/* The host process of a Kineto trace: GPU rows and streams belong to it. */
	int host_known;
	int64_t host_pid;
	int64_t host_process_id;     /* PQ_NULL until created */

	/* pids that are GPU tracks (Kineto: pid = device ordinal), not OS processes. */
	int64_t gpu_pids[CHROME_MAX_GPU_PIDS];
	int n_gpu_pids;

	/* Non-numeric pid/tid strings -> synthetic negative ids, in order of appearance. */
	pq_map synthetic;
	int64_t next_synthetic;

	chrome_thread_slot threads[256];
	/* last device ordinal -> id (chrome_device()) */
	int device_valid;
	int64_t device_ordinal, device_id;
	/* last GPU (device, stream) -> ids */
	int last_valid;
	int64_t last_dev, last_stream, last_dev_id, last_stream_id, last_stream_process;

	pq_map open_be;           /* "pid|tid" -> B stack */
	pq_map open_async;        /* "cat\x1fid\x1fscope" -> async begin stack */
	cJSON *deferred_m;           /* M events, applied at the end */

	chrome_text scratch;         /* args text under construction */

	int64_t unmatched_e, unclosed_b, unmatched_async_e, unclosed_async_b;
	int64_t non_numeric_counters, ignored_events;

	/* An event ending before it starts (X with a negative dur, E/e before its B/b) is bad;
	 * under --keep-going it is kept with zero length and counted here instead. */
	int keep_going;
	int64_t clamped_ends;
} chrome_ctx;

/* Whether an event that ends at end_ns, begun at start_ns, may be written: 0 when end >= start,
 * else CHROME_BAD (err says so) or, under keep_going, 0 with *end_ns moved to start_ns. */
int chrome_check_end(chrome_ctx *c, const char *what, int64_t start_ns, int64_t *end_ns);

/* Event results besides 0: CHROME_BAD (the event is wrong: err says why, the caller adds where,
 * and skips it under --keep-going) and -1 (the store failed: the import stops). */
#define CHROME_BAD (-2)

int chrome_events_init(chrome_ctx *c);
int chrome_event_process(chrome_ctx *c, const chrome_event *ev);
/* Closes what is still open and applies the deferred M events. */
int chrome_events_finish(chrome_ctx *c);
void chrome_events_free(chrome_ctx *c);

/* Categories, by what they become (chrome_category.c). */
enum chrome_class {
	CC_OTHER, CC_KERNEL, CC_MEMCPY, CC_MEMSET, CC_RUNTIME, CC_DRIVER, CC_CPU_OP,
	CC_USER_ANNOTATION, CC_GPU_USER_ANNOTATION, CC_PYTHON, CC_SYNC, CC_OVERHEAD
};
enum chrome_class chrome_classify(const char *cat);
/* Categories that run on the host (their pid is the process that was traced). */
int chrome_class_is_host(enum chrome_class cc);
/* Categories that run on a GPU (pid = device, tid = stream). */
int chrome_class_is_gpu(enum chrome_class cc);
/* ranges.kind of a range of that category. */
int64_t chrome_range_kind(enum chrome_class cc);

/* Where an event happened (chrome_where.c). */
typedef struct chrome_where {
	int64_t pid, tid;                /* as integers (synthetic for strings); PQ_NULL absent */
	const char *pid_label, *tid_label;
	int gpu;                         /* pid is a GPU track */
	int64_t process_id, thread_id;   /* host dims (thread NULL on GPU tracks) */
	int64_t device_id, stream_id;    /* GPU dims */
} chrome_where;

/* Marks pid as a GPU track. */
void chrome_add_gpu_pid(chrome_ctx *c, int64_t pid);
int chrome_is_gpu_pid(const chrome_ctx *c, int64_t pid);

/* A pid or tid value as an integer: numbers, numeric strings, or a synthetic id for other
 * strings (*label then points at the string). Returns 0 and PQ_NULL for a missing value. */
int chrome_id(chrome_ctx *c, const cJSON *v, char kind, int64_t *id, const char **label);

/* An event's flow or async id as an integer key (PQ_NULL when it has none). */
int64_t chrome_id_key(const chrome_event *ev);

/* The devices row of a device ordinal in the run (the last one remembered). */
int chrome_device(chrome_ctx *c, int64_t ordinal, int64_t *id);
/* Resolves pid/tid; GPU-class events and events on GPU tracks get GPU dims (device and stream
 * from args when with_args), others host dims (only the process when process_only). */
int chrome_locate(chrome_ctx *c, const chrome_event *ev, enum chrome_class cc, int with_args,
		  chrome_where *w, int process_only);

/* Times (chrome_events.c): a time member in ns, 0 ok, 1 absent, CHROME_BAD not a number (err
 * set); ts plus the run's offset, CHROME_BAD when missing. */
int chrome_member_ns(chrome_ctx *c, const chrome_event *ev, const char *key, int64_t *ns);
int chrome_event_ts(chrome_ctx *c, const chrome_event *ev, const char *ph, int64_t *ns);

/* The args text of a row into c->scratch (chrome_args.c): *out is NULL when there is nothing to
 * say. known lists the top-level fields the row stores elsewhere, consumed the args keys. */
int chrome_event_args(chrome_ctx *c, const chrome_event *ev, const char *const *known,
		      const char *const *consumed, const char **out);
/* The same into t, for an event's text and members (and its args object's, from
 * pq_chrome_scan_event(), or NULL to find them): 0, or -1 when out of memory. */
int chrome_args_text(chrome_text *t, const char *text, const pq_chrome_members *mem,
		     const pq_chrome_args_members *am, const char *const *known,
		     const char *const *consumed, const char **out);
/* base's members replaced or extended by over's; returns a malloc'ed text (or NULL). */
char *chrome_merge_args(const char *base, const char *over);

/* Rows (chrome_complete.c). */
int chrome_row_done(chrome_ctx *c, int rc);
int chrome_write_range(chrome_ctx *c, const chrome_where *w, int64_t kind, const char *name,
		       const char *cat, int64_t start, int64_t end, int64_t correlation_id,
		       int64_t external_id, const char *args_text, int64_t depth, int64_t key,
		       int64_t end_thread);
/* correlation and External id (or external id) of an args object. */
void chrome_args_ids(const cJSON *args, int64_t *correlation_id, int64_t *external_id);

/* An event's args text made on the reader thread. An X event's (memory 0) is made for the row
 * class and GPU-ness its category alone gives (chrome_complete_event() uses it when the event's
 * pid does not change them); an instant's (memory 1) for the memory_events row a [memory]
 * instant becomes (chrome_instant_event()). */
typedef struct chrome_x_args {
	int memory;
	/* X events: chrome_classify() of the category, the row class and GPU-ness guessed */
	enum chrome_class cat_cc, cc;
	int gpu;
	const char *text;                /* NULL: the row has no args */
} chrome_x_args;
int chrome_x_args_guess(chrome_text *t, const char *text, const pq_chrome_members *mem,
			const pq_chrome_args_members *am, const chrome_digest *dg,
			chrome_x_args *xa);
int chrome_memory_args_guess(chrome_text *t, const char *text, const pq_chrome_members *mem,
			     const pq_chrome_args_members *am, const chrome_digest *dg,
			     chrome_x_args *xa);

/* The event families: 0, CHROME_BAD or -1 like chrome_event_process(). */
int chrome_complete_event(chrome_ctx *c, const chrome_event *ev, const char *name,
			  const char *cat);
int chrome_begin_event(chrome_ctx *c, const chrome_event *ev, const char *name, const char *cat,
		       int async);
int chrome_end_event(chrome_ctx *c, const chrome_event *ev, const char *name, const char *cat,
		     int async);
int chrome_instant_event(chrome_ctx *c, const chrome_event *ev, const char *name,
			 const char *cat);
int chrome_counter_event(chrome_ctx *c, const chrome_event *ev, const char *name);
int chrome_flow_event(chrome_ctx *c, const chrome_event *ev, const char *ph, const char *name,
		      const char *cat);
int chrome_other_event(chrome_ctx *c, const chrome_event *ev, const char *name, const char *cat);
/* Writes what is still open without an end (when write is 1), and frees it. */
int chrome_ranges_finish(chrome_ctx *c, int write);

#endif
