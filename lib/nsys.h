/* nsys.h - shared state of the Nsight Systems SQLite importer (internal to lib/nsys_*.c).
 *
 * The importer is split by job: nsys_source.c opens and probes the export (tables, columns,
 * metadata, integrity) and builds the SELECTs; nsys_time.c decides the time base; nsys_dims.c
 * writes processes, threads, devices and streams; nsys_cuda.c the CUDA activity tables and API
 * calls; nsys_nvtx.c NVTX_EVENTS; import_nsys.c runs them in order. nsys_read.c reads a table's
 * rows for them, nsys_prefetch.c starts the big reads ahead and nsys_stream.c steps them on a
 * thread of their own.
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

/* Dimension rows by the export's id (a globalPid or globalTid), direct-mapped. */
#define NSYS_DIM_SLOTS 64
typedef struct nsys_dim_cache {
	int64_t key[NSYS_DIM_SLOTS], row[NSYS_DIM_SLOTS]; /* key PQ_NULL: an empty slot */
} nsys_dim_cache;
#define NSYS_NAME_SLOTS 4096

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

	/* The big sorted reads, started ahead on other connections (nsys_prefetch.c). */
	struct nsys_prefetch *prefetch;
	/* An NSYS_ROWID_IF_BY_THREAD read (the NVTX events) was found out of order in rowid order:
	 * the import is made again with the flag set, and such reads sorted. */
	int unordered;

	/* Caches for the dimension lookups of the current row: processes and threads by their
	 * global id, as the NVTX read may interleave them (nsys_order.c); one device. */
	nsys_dim_cache processes, threads;
	int64_t last_dev_key, last_device;
	/* Names already interned, by StringIds id (nsys_name_id): NSYS_NAME_SLOTS, direct-mapped. */
	struct nsys_name_slot *names;
} nsys_ctx;

#define NSYS_BAD_TIME "start/end not an integer, or end before start"

/* A column an importer reads: present -> its value, absent -> NULL (or an error when required).
 * NSYS_STR columns are StringIds ids and read as their text; NSYS_TEXT columns are read as text,
 * NSYS_REAL ones as doubles, every other as an integer (nsys_text, nsys_real, nsys_int: a read
 * streamed on a thread keeps only that form of each value). */
enum { NSYS_OPT = 0, NSYS_REQ = 1, NSYS_STR = 2, NSYS_TEXT = 4, NSYS_REAL = 8 };
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

/* When a sorted read may be made in rowid order instead (nsys_order.c): never; when the rows in
 * rowid order are in start order (the order "t.start, t.rowid"); when each thread's rows are in
 * the order "t.globalTid, t.start, coalesce(t.\"end\", <max>) DESC, t.rowid" asks, the threads
 * interleaved (the importer keeps each thread's state apart). */
enum { NSYS_SORTED, NSYS_ROWID_IF_BY_START, NSYS_ROWID_IF_BY_THREAD };

/* A read of one table: "SELECT <cols> FROM <table> AS t [WHERE where] ORDER BY order". */
typedef struct nsys_query {
	const char *table;
	const nsys_col *cols;
	int ncols;
	const char *where, *order;
	int rowid_if;       /* NSYS_SORTED or when rowid order may stand in for order */
} nsys_query;

/* Whether read q may be made in rowid order on db (nsys_order.c): 1 when q->rowid_if allows it
 * and one scan of the columns order names finds the rows already in that order. */
int nsys_rowid_order(sqlite3 *db, const nsys_query *q);
/* Whether this import may try read q in rowid order at all: q->rowid_if allows it, and it is not
 * an NVTX read of an import begun again because those rows were found out of order. */
int nsys_rowid_allowed(const nsys_ctx *c, const nsys_query *q);

/* The same test row by row, for an NSYS_ROWID_IF_BY_THREAD read made in rowid order without it
 * (nsys_prefetch.c): each thread's last row so far. Zero it to begin. */
typedef struct nsys_order {
	struct nsys_order_row *slot;
	size_t cap, n;
} nsys_order;
/* Whether the row (start, end, globalTid; their SQLite types and values) comes in order after the
 * rows given before: 1, or 0 (also when out of memory: the sorted read is then made instead). */
int nsys_order_next(nsys_order *o, int start_type, int64_t start, int end_type, int64_t end,
		    int gtid_type, int64_t gtid);
void nsys_order_free(nsys_order *o);

/* The query's SQL (sqlite3_free it); NULL (and 0 returned) when the table is absent. With
 * str_ids, NSYS_STR columns are their StringIds ids (for nsys_stream, which looks them up). */
int nsys_select_sql(nsys_ctx *c, const nsys_query *q, int str_ids, char **sql);
/* path as a read-only SQLite URI (free it). */
char *nsys_uri(const char *path);
/* An error of db, one of the export's connections, naming what was read. */
int nsys_fail_on(nsys_ctx *c, sqlite3 *db, const char *what);
/* 1 when table's rows are in the progress total. */
int nsys_counted(const char *table);

/* A scalar text/int query on the export; NULL / dflt when there is no row. */
int nsys_query_int(nsys_ctx *c, const char *sql, int64_t dflt, int64_t *out);

/* A bad source row: with keep_going counted under reason and skipped (returns 0), otherwise an
 * error naming the table and the reason (returns -1). */
int nsys_bad_row(nsys_ctx *c, const char *table, const char *reason);
/* A row deliberately not imported (not representable): counted under reason, never an error. */
int nsys_not_mapped(nsys_ctx *c, const char *reason);

/* nsys_read.c ------------------------------------------------------------------------------- */

/* One value of a streamed row, in the form its column is read in (NSYS_TEXT etc. above). */
typedef struct nsys_cell {
	union {
		int64_t i;
		double d;
		size_t text;    /* offset in the batch's texts, NUL-terminated */
	} v;
	int64_t str_id;         /* an NSYS_STR column's StringIds id, when by_id */
	int type;               /* SQLITE_INTEGER ... SQLITE_NULL, as the export holds it */
	int by_id;
} nsys_cell;

/* A read of one table, row by row: stepped here, or (a read nsys_prefetch started, on a
 * connection of its own) stepped and copied on a thread while the rows before are mapped. */
typedef struct nsys_read {
	nsys_ctx *c;
	const char *table;
	sqlite3_stmt *st;             /* NULL: the table is absent */
	int first_rc;                 /* a primed statement's first step, not read yet (else 0) */
	int counted;                  /* its rows count toward the progress total */
	int rc;                       /* what nsys_next returned last */
	struct nsys_stream *stream;   /* stepped on a thread (nsys_stream.c), else NULL */
	const nsys_cell *row;         /* streamed: the current row's values */
	const char *texts;            /* and its batch's texts */
	/* Made in rowid order untested (nsys_prefetch.c): each row is tested here instead, by its
	 * columns start, end and globalTid, and the first out of order ends the read. */
	int verify;
	int order_cols[3];
	nsys_order order;
} nsys_read;

/* Opens the read "SELECT <cols> FROM <table> AS t [WHERE where] ORDER BY order"; column i is
 * q->cols[i] (table and cols must outlive the read). An absent table gives a read without rows
 * (0 returned). nsys_select is the same with the query's parts. */
int nsys_open_read(nsys_ctx *c, const nsys_query *q, nsys_read *r);
int nsys_select(nsys_ctx *c, const char *table, const nsys_col *cols, int ncols,
		const char *where, const char *order, nsys_read *r);
/* The next row: 1, 0 at the end, -1 on error (err names the table). Counts progress. */
int nsys_next(nsys_read *r);
/* Ends the read: 0 when nsys_next reached its end (or the table is absent), else -1. */
int nsys_close_read(nsys_read *r);

/* The current row's column i: PQ_NULL / NULL for SQL NULL. */
int64_t nsys_int(const nsys_read *r, int i);
double nsys_real(const nsys_read *r, int i);
const char *nsys_text(const nsys_read *r, int i);
int nsys_is_null(const nsys_read *r, int i);
/* The strings.id, in the file written, of the current row's name in column i (an NSYS_STR
 * column; 0 when it has none): interned once per StringIds id of the export (a cache,
 * c->names), as interning the text each row was a tenth of the importer's time. 0, or -1 with
 * the store's error. */
int nsys_name_id(nsys_ctx *c, const nsys_read *r, int i, int64_t *id);
/* Adds the export's timestamp to the time base; -1 (bad row) on overflow or non-integer. */
int nsys_time(nsys_ctx *c, const nsys_read *r, int i, int64_t *out);

/* nsys_stream.c ----------------------------------------------------------------------------- */

/* Steps st (whose first step returned first_rc) on a new thread, copying its rows; st gives
 * NSYS_STR columns as StringIds ids (nsys_select_sql), whose texts are copied. NULL when the
 * thread cannot be started. st must not be used until nsys_stream_stop. */
struct nsys_stream *nsys_stream_start(sqlite3_stmt *st, const nsys_col *cols, int ncols,
				      int first_rc);
/* The next row's cells and its texts: SQLITE_ROW, or what ended the read (SQLITE_DONE, an
 * error of st's connection, SQLITE_NOMEM when a copy found no memory). */
int nsys_stream_next(struct nsys_stream *s, const nsys_cell **row, const char **texts);
/* Stops the thread (interrupting its step) and frees the stream; st is the caller's again. */
void nsys_stream_stop(struct nsys_stream *s);

/* Writes the metadata of the export (schema, capture options, counts of skipped rows). */
int nsys_write_metadata(nsys_ctx *c);
int nsys_write_skipped(nsys_ctx *c);

/* nsys_prefetch.c --------------------------------------------------------------------------- */

/* The event tables' reads, in the order the importer makes them. */
extern const nsys_query nsys_q_kernels, nsys_q_memcpys, nsys_q_memsets, nsys_q_syncs,
	nsys_q_api_calls, nsys_q_nvtx_events;

/* Starts the n reads, then the nsql queries given as SQL (in that order), on a helper thread,
 * each on a connection of its own, up to their first row. A query given as SQL waits until it is
 * released (nsys_prefetch_release) or taken. Not an error when it cannot: the reads are then
 * made as they come. */
void nsys_prefetch(nsys_ctx *c, const nsys_query *const *q, int n, const char *const *sql,
		   int nsql);
/* Lets the helper start the query sql (and any given as SQL before it) once it is free. */
void nsys_prefetch_release(nsys_ctx *c, const char *sql);
/* The started read q (or, q NULL, the started query sql), waited for: 1, *st on a connection of
 * its own and *first_rc its first step's result, *unchecked (when not NULL) 1 for a read made in
 * rowid order without testing that order first (the reader must); or 0. */
int nsys_prefetch_take(nsys_ctx *c, const nsys_query *q, const char *sql, sqlite3_stmt **st,
		       int *first_rc, int *unchecked);
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
