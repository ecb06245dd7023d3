/* export.h - writing a profile out as a timeline other tools open.
 *
 * Chrome trace-event JSON (Perfetto UI, chrome://tracing): one process per traced process and one
 * per GPU, threads and streams as tracks, every event as X (or b/e, i, C, s/f) with ts/dur in
 * decimal microseconds printed from the integer nanoseconds (exact, never through a double).
 * The rows are streamed from SQL to the file: memory does not grow with the profile
 * (export_chrome.c describes the file). `profq import` of the file gives back every kernel,
 * memcpy, memset, API call and range with its times to the nanosecond.
 */
#ifndef PQ_EXPORT_H
#define PQ_EXPORT_H

#include <stdint.h>

#include <sqlite3.h>

#include "error.h"

typedef struct pq_export_options {
	int64_t run_id;     /* one run, or PQ_NULL (store.h): every run, one process group each */
	int64_t from_ns;    /* events overlapping [from_ns, to_ns); PQ_NULL: unbounded */
	int64_t to_ns;
	int gzip;           /* compress the output (gzip) */
} pq_export_options;

typedef struct pq_export_stats {
	int64_t runs;       /* runs written */
	int64_t events;     /* trace events written (M metadata events included) */
	int64_t slices;     /* X/B slices */
	int64_t flows;      /* flow arrows (s/f pairs) */
	int64_t lanes;      /* extra tracks made for overlapping work */
	uint64_t bytes;     /* JSON text written (before compression) */
} pq_export_stats;

void pq_export_options_init(pq_export_options *o);

/* Writes db (an open profq database, read only) to path ("-": standard output) as Chrome trace
 * JSON. The file appears only when complete: it is written to a temporary file that is renamed
 * at the end, and removed on failure. */
int pq_export_chrome(sqlite3 *db, const char *path, const pq_export_options *opt,
		     pq_export_stats *stats, pq_error *err);

#endif
