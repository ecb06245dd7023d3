/* import.h - importers: traces other tools wrote, turned into one run each through the store.
 *
 * Each importer reads one file, begins a run in the store (pq_store_begin_run, with its source
 * name, the file path and the producer's version), writes every row, and finishes the run
 * (pq_store_finish_run). On failure it returns -1 with err set and leaves the run open: the
 * caller then calls pq_store_abort_run(), so a failed import leaves no trace in the database.
 * Importers never print; progress goes through the optional callback (progress.h).
 */
#ifndef PQ_IMPORT_H
#define PQ_IMPORT_H

#include <stdint.h>

#include "error.h"
#include "progress.h"
#include "store.h"

typedef struct pq_import_stats {
	int64_t events;          /* trace events read */
	int64_t rows;            /* rows written, all tables */
	int64_t skipped;         /* events not representable, counted (and stored as run metadata) */
	int64_t unmatched;       /* B/E or push/pop halves without their partner */
	int64_t clamped;         /* events ending before they start, kept with zero length
				  * (keep_going only; run metadata import.clamped_ends) */
	int64_t run_id;          /* the run created */
	char warning[512];       /* something the caller should tell the user, or "" */
} pq_import_stats;

typedef struct pq_import_options {
	/* Phases and counts as the import goes (progress.h); also set it on the store with
	 * pq_store_set_progress() for the index building and commit at the end of the run. */
	pq_progress progress;
	/* Count, skip and record (as run metadata) bad events instead of failing the import. */
	int keep_going;
	/* The SHA-256 of the file (hex), stored as run metadata `source_sha256`; may be NULL (the
	 * caller may give it later: pq_store_set_late_metadata). */
	const char *source_sha256;
	/* The file's size in bytes, stored as run metadata `source_bytes` when > 0. */
	int64_t source_bytes;
} pq_import_options;

enum pq_import_format { PQ_IMPORT_UNKNOWN, PQ_IMPORT_CHROME_JSON, PQ_IMPORT_NSYS_SQLITE };

/* Detects a file's format from its first bytes (gzip or JSON text; SQLite with nsys tables).
 * Returns PQ_IMPORT_UNKNOWN with err set when it is neither, or cannot be read. */
enum pq_import_format pq_import_detect(const char *path, pq_error *err);

/* A rough count of the rows importing the file will write, from its size (what
 * pq_store_expect_rows() wants); 0 when the file cannot be read. */
int64_t pq_import_expected_rows(const char *path, enum pq_import_format f);

/* Stores what opt knows of the source file as the open run's metadata (source_sha256,
 * source_bytes): each importer's, once its run has begun. */
int pq_import_source_metadata(pq_store *s, const pq_import_options *opt, pq_error *err);

/* Chrome trace-event JSON (.json or .json.gz): PyTorch profiler / Kineto, JAX, other producers. */
int pq_import_chrome(pq_store *s, const char *path, const pq_import_options *opt,
		     pq_import_stats *stats, pq_error *err);

/* Nsight Systems SQLite export, schema 2.9 to 3.28. */
int pq_import_nsys(pq_store *s, const char *path, const pq_import_options *opt,
		   pq_import_stats *stats, pq_error *err);

#endif
