/* nsys.h - shared state of the Nsight Systems SQLite importer (internal to lib/nsys_*.c).
 *
 * The importer is split by job: nsys_source.c opens and probes the export (tables, columns,
 * metadata, integrity) and builds the SELECTs; nsys_time.c decides the time base; nsys_dims.c
 * writes processes, threads, devices and streams; nsys_cuda.c the CUDA activity tables and API
 * calls; nsys_nvtx.c NVTX_EVENTS; import_nsys.c runs them in order.
 *
 * Export facts used here are from the notes (shared/notes/nsys.md §1, citing NVIDIA's "SQLite
 * Schema Reference" and "Common SQLite Examples") and were checked on the exports listed in
 * shared/data/nsys/SOURCES.md.
 */
#ifndef PQ_NSYS_H
#define PQ_NSYS_H

#include <stdint.h>

#include <sqlite3.h>

#include "import.h"
#include "store.h"
#include "map.h"

/* globalTid = <HW:8><VM:8><PID:24><TID:24>; globalPid is the same with TID 0 (notes §1.3). */
#define NSYS_PID(g) (((g) >> 24) & 0xFFFFFF)
#define NSYS_TID(g) ((g) & 0xFFFFFF)

typedef struct nsys_ctx {
	sqlite3 *db;                  /* the export, opened read-only */
	pq_store *s;
	const char *path;
	const pq_import_options *opt;
	pq_import_stats *stats;
	pq_error *err;

	char schema_version[32];      /* EXPORT_SCHEMA_VERSION, "" when absent */
	char product_version[64];     /* EXPORT_PRODUCT_VERSION */
	char hostname[256];           /* TARGET_INFO_SYSTEM_ENV 'Hostname', "" when absent */
	int legacy;                   /* 2.x layout: EXPORT_META_DATA */
	int has_strings;              /* StringIds(id, value) usable */

	/* Time base (nsys_time.c): event_ns = source ts + offset. */
	int relative;
	int64_t offset;
	int64_t session_utc;          /* utcEpochNs, PQ_NULL when unknown or not used */
	const char *time_note;        /* how the offset was chosen (static text) */

	/* Progress: rows read / rows of every table the importer reads (from the pre-pass). */
	uint64_t done, total;

	/* Skipped rows, by reason ("nsys.skipped.<reason>" in run_metadata). */
	pq_map skipped;
	int skipped_rc;                /* nsys_write_skipped(): -1 once a write failed */

	/* The big sorted reads, started ahead on other connections (nsys_prefetch.c); primed is
	 * the statement handed over whose first step (result primed_rc) nsys_step has not read. */
	struct nsys_prefetch *prefetch;
	sqlite3_stmt *primed;
	int primed_rc;

	/* One-entry caches for the dimension lookups of the current row. */
	int64_t last_gpid, last_process;
	int64_t last_gtid, last_thread;
	int64_t last_dev_key, last_device;
} nsys_ctx;

#define NSYS_BAD_TIME "start/end not an integer, or end before start"

/* A column an importer reads: present -> its value, absent -> NULL (or an error when required).
 * NSYS_STR columns are StringIds ids and read as their text. */
enum { NSYS_OPT = 0, NSYS_REQ = 1, NSYS_STR = 2 };
typedef struct nsys_col {
	const char *name;
	int flags;
} nsys_col;

/* nsys_source.c ----------------------------------------------------------------------------- */

/* Opens path read-only (URI mode=ro), checks it is an intact nsys export, reads its metadata and
 * checks every table the importer reads against its required columns. Fails with a message
 * naming the file's problem, table or column; nothing is written anywhere. */
int nsys_open(nsys_ctx *c, const char *path);
/* Reads every page of the tables the importer reads: counts their rows (the progress total) and,
 * unless keep_going, fails on rows with bad times; a damaged file fails here, before anything is
 * written. */
int nsys_scan(nsys_ctx *c);
void nsys_close(nsys_ctx *c);

int nsys_has_table(nsys_ctx *c, const char *table);
int nsys_has_column(nsys_ctx *c, const char *table, const char *column);

/* A read of one table: "SELECT <cols> FROM <table> AS t [WHERE where] ORDER BY order". */
typedef struct nsys_query {
	const char *table;
	const nsys_col *cols;
	int ncols;
	const char *where, *order;
} nsys_query;

/* Prepares the query; column i of the result is cols[i]. *st is NULL (and 0 returned) when the
 * table is absent. A read nsys_prefetch started comes back with its first row ready. */
int nsys_select(nsys_ctx *c, const char *table, const nsys_col *cols, int ncols,
		const char *where, const char *order, sqlite3_stmt **st);
int nsys_select_query(nsys_ctx *c, const nsys_query *q, sqlite3_stmt **st);
/* The query's SQL (sqlite3_free it); NULL (and 0 returned) when the table is absent. */
int nsys_select_sql(nsys_ctx *c, const nsys_query *q, char **sql);
/* path as a read-only SQLite URI (free it). */
char *nsys_uri(const char *path);

/* Steps a SELECT: 1 row, 0 done, -1 error (err names the table). Counts progress. */
int nsys_step(nsys_ctx *c, sqlite3_stmt *st, const char *table);

/* A scalar text/int query on the export; NULL / dflt when there is no row. */
int nsys_query_int(nsys_ctx *c, const char *sql, int64_t dflt, int64_t *out);

/* Column helpers: PQ_NULL for SQL NULL. */
int64_t nsys_int(sqlite3_stmt *st, int i);
const char *nsys_text(sqlite3_stmt *st, int i);

/* A bad source row: with keep_going counted under reason and skipped (returns 0), otherwise an
 * error naming the table and the reason (returns -1). */
int nsys_bad_row(nsys_ctx *c, const char *table, const char *reason);
/* A row deliberately not imported (not representable): counted under reason, never an error. */
int nsys_not_mapped(nsys_ctx *c, const char *reason);

/* Adds the export's timestamp to the time base; -1 (bad row) on overflow or non-integer. */
int nsys_time(nsys_ctx *c, sqlite3_stmt *st, int i, int64_t *out);

/* Writes the metadata of the export (schema, capture options, counts of skipped rows). */
int nsys_write_metadata(nsys_ctx *c);
int nsys_write_skipped(nsys_ctx *c);

/* nsys_prefetch.c --------------------------------------------------------------------------- */

/* The event tables' reads, in the order the importer makes them. */
extern const nsys_query nsys_q_kernels, nsys_q_memcpys, nsys_q_memsets, nsys_q_syncs,
	nsys_q_api_calls, nsys_q_nvtx_events;

/* Starts the n reads, then the nsql queries given as SQL (in that order), on a helper thread,
 * each on a connection of its own, up to their first row. Not an error when it cannot: the reads
 * are then made as they come. */
void nsys_prefetch(nsys_ctx *c, const nsys_query *const *q, int n, const char *const *sql,
		   int nsql);
/* The started read whose SQL is sql, waited for: 1 and *st (primed: c->primed_rc is its first
 * step, which nsys_step returns) or 0. */
int nsys_prefetch_take(nsys_ctx *c, const char *sql, sqlite3_stmt **st);
/* Stops the helper and closes its connections (the reads taken must be finalized first). */
void nsys_prefetch_stop(nsys_ctx *c);

/* nsys_time.c ------------------------------------------------------------------------------- */

/* Decides c->relative / c->offset before the run begins. */
int nsys_time_base(nsys_ctx *c);
/* Records how (run_metadata nsys.time_rule, session start, analysis span). */
int nsys_time_metadata(nsys_ctx *c);

/* nsys_dims.c ------------------------------------------------------------------------------- */

int nsys_import_processes(nsys_ctx *c);
int nsys_import_devices(nsys_ctx *c);
int nsys_import_stream_props(nsys_ctx *c);
int nsys_process(nsys_ctx *c, int64_t global_pid, int64_t *id);
int nsys_thread(nsys_ctx *c, int64_t global_tid, int64_t *id);
int nsys_device(nsys_ctx *c, int64_t ordinal, int64_t *id);
int nsys_stream(nsys_ctx *c, int64_t process_id, int64_t device_id, int64_t stream,
		int64_t *id);

/* nsys_cuda.c ------------------------------------------------------------------------------- */

int nsys_import_kernels(nsys_ctx *c);
int nsys_import_memcpys(nsys_ctx *c);
int nsys_import_memsets(nsys_ctx *c);
int nsys_import_api_calls(nsys_ctx *c);
int nsys_import_syncs(nsys_ctx *c);
/* Kernels whose launching API call is not in the export (same correlation id and process);
 * PQ_NULL when the export cannot tell. The query, NULL when there is none to make. */
int nsys_kernel_orphans(nsys_ctx *c, int64_t *n);
const char *nsys_kernel_orphans_sql(nsys_ctx *c);

/* nsys_nvtx.c ------------------------------------------------------------------------------- */

int nsys_import_nvtx(nsys_ctx *c);

#endif
