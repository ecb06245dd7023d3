/* chrome_import.h - shared state of the Chrome trace importer (internal to lib/).
 *
 * import_chrome.c drives: it reads the document (chrome_stream), handles the top-level keys,
 * decides the run's time base and begins the run, and applies the error policy. chrome_events.c
 * turns one parsed event into rows (Kineto categories and the generic trace-event phases) and
 * owns the state of events still open (B/E stacks, async begins, deferred M events).
 */
#ifndef PQ_CHROME_IMPORT_H
#define PQ_CHROME_IMPORT_H

#include <stdint.h>

#include <cJSON.h>

#include "chrome_stream.h"
#include "import.h"
#include "ptrmap.h"
#include "store.h"
#include "strmap.h"

#define CHROME_MAX_GPU_PIDS 256

/* One event: its text, its members as the scanner saw them, and cJSON's parse of it. */
typedef struct chrome_event {
	const char *text;
	size_t len;
	const pq_chrome_members *mem;
	cJSON *json;
} chrome_event;

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
	pq_strmap synthetic;
	int64_t next_synthetic;

	chrome_thread_slot threads[256];
	/* last GPU (device, stream) -> ids */
	int last_valid;
	int64_t last_dev, last_stream, last_dev_id, last_stream_id, last_stream_process;

	pq_ptrmap open_be;           /* "pid|tid" -> B stack */
	pq_ptrmap open_async;        /* "cat\x1fid\x1fscope" -> async begin stack */
	cJSON *deferred_m;           /* M events, applied at the end */

	char *scratch;               /* args text under construction */
	size_t scratch_cap;

	int64_t unmatched_e, unclosed_b, unmatched_async_e, unclosed_async_b;
	int64_t non_numeric_counters, ignored_events;
} chrome_ctx;

/* Event results besides 0: CHROME_BAD (the event is wrong: err says why, the caller adds where,
 * and skips it under --keep-going) and -1 (the store failed: the import stops). */
#define CHROME_BAD (-2)

int chrome_events_init(chrome_ctx *c);
int chrome_event_process(chrome_ctx *c, const chrome_event *ev);
/* Closes what is still open and applies the deferred M events. */
int chrome_events_finish(chrome_ctx *c);
void chrome_events_free(chrome_ctx *c);

/* Marks pid as a GPU track. */
void chrome_add_gpu_pid(chrome_ctx *c, int64_t pid);

/* Categories, by what they become. */
enum chrome_class {
	CC_OTHER, CC_KERNEL, CC_MEMCPY, CC_MEMSET, CC_RUNTIME, CC_DRIVER, CC_CPU_OP,
	CC_USER_ANNOTATION, CC_GPU_USER_ANNOTATION, CC_PYTHON, CC_SYNC, CC_OVERHEAD
};
enum chrome_class chrome_classify(const char *cat);
/* Categories that run on the host (their pid is the process that was traced). */
int chrome_class_is_host(enum chrome_class cc);

/* The raw text of a top-level member of an event, or NULL. */
const char *chrome_member(const chrome_event *ev, const char *key, size_t *len);

/* A pid or tid value as an integer: numbers, numeric strings, or a synthetic id for other
 * strings (*label then points at the string). Returns 0 and PQ_NULL for a missing value. */
int chrome_id(chrome_ctx *c, const cJSON *v, char kind, int64_t *id, const char **label);

#endif
