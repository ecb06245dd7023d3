/* store.h - the one writer API: every collector and importer writes rows through it.
 *
 * A pq_store is one open database and at most one open run. Rows are appended through prepared
 * statements inside batched transactions: a transaction opens with the first row and is committed
 * by pq_store_commit(), automatically every `batch_rows` rows when that is set, and by
 * pq_store_finish_run(). Names are interned into `strings` and cached in memory.
 *
 * Rows are plain structs. Set what you know after pq_<table>_init(): integer fields left at
 * PQ_NULL, double fields left NaN and string fields left NULL are stored as SQL NULL. Dimension
 * fields (process_id, thread_id, device_id, stream_id, domain_id, ...) take ids returned by the
 * pq_store_<dimension>() calls. String fields are borrowed for the duration of the call.
 *
 * Not thread-safe: one thread writes through a store (the collector's writer thread).
 */
#ifndef PQ_STORE_H
#define PQ_STORE_H

#include <stdint.h>

#include "error.h"
#include "progress.h"

#define PQ_NULL INT64_MIN

typedef struct pq_store pq_store;

/* A payload column (NVTX payloads): SQL NULL, an integer or a double. */
typedef struct pq_value {
	enum { PQ_VALUE_NULL, PQ_VALUE_INT, PQ_VALUE_REAL } type;
	int64_t i;
	double d;
} pq_value;

typedef struct pq_run_info {
	const char *source;          /* required: "collector", "chrome-json", "nsys-sqlite", "demo" */
	const char *source_path;     /* imported file or recorded command line */
	const char *source_version;  /* producer's version */
	const char *hostname;
	int64_t rank;                /* PQ_NULL when not distributed */
	int relative_time;           /* 1 when timestamps are not on the Unix epoch */
	int64_t time_offset_ns;      /* what the writer added to the source's timestamps */
} pq_run_info;

typedef struct pq_device {
	int64_t ordinal;
	const char *name;
	const char *uuid;
	int64_t compute_major, compute_minor, sm_count, warp_size;
	int64_t max_threads_per_block, max_threads_per_sm, max_blocks_per_sm;
	int64_t max_registers_per_block, max_registers_per_sm;
	int64_t max_shared_memory_per_block, max_shared_memory_per_sm, shared_memory_per_block_optin;
	int64_t l2_cache_bytes, global_memory_bytes;
	int64_t core_clock_hz, memory_clock_hz, memory_bus_width_bits, memory_bandwidth_bytes_per_s;
} pq_device;

typedef struct pq_kernel {
	int64_t process_id, device_id, stream_id;
	int64_t start_ns, end_ns, correlation_id, external_id;
	const char *name;            /* required: as the source records it (mangled from CUPTI) */
	const char *demangled_name, *short_name;
	int64_t grid_x, grid_y, grid_z, block_x, block_y, block_z;
	int64_t cluster_x, cluster_y, cluster_z;
	int64_t registers_per_thread, static_shared_bytes, dynamic_shared_bytes;
	int64_t local_bytes_per_thread;
	double blocks_per_sm, warps_per_sm, est_occupancy_pct;
	int64_t launch_type, grid_id, graph_id, graph_node_id, queued_ns, submitted_ns;
	const char *args;            /* JSON object text */
	/* When > 0, the strings.id of name, demangled_name, short_name (pq_store_intern, under the
	 * current pq_store_strings_epoch), used instead of the text: a caller writing the same names
	 * over and over (the collector) saves the look-ups. */
	int64_t name_id, demangled_name_id, short_name_id;
} pq_kernel;

typedef struct pq_memcpy {
	int64_t process_id, device_id, stream_id;
	int64_t start_ns, end_ns, correlation_id, external_id;
	int64_t bytes, copy_kind, src_kind, dst_kind, src_device_id, dst_device_id;
	int64_t is_async, migration_cause, copy_count, graph_node_id;
	const char *args;
} pq_memcpy;

typedef struct pq_memset {
	int64_t process_id, device_id, stream_id;
	int64_t start_ns, end_ns, correlation_id, external_id;
	int64_t bytes, value, memory_kind, is_async, graph_node_id;
	const char *args;
} pq_memset;

enum pq_api_kind { PQ_API_RUNTIME = 0, PQ_API_DRIVER = 1 };

typedef struct pq_api_call {
	int64_t process_id, thread_id;
	int64_t start_ns, end_ns;
	int64_t api_kind;            /* enum pq_api_kind */
	int64_t cbid;
	const char *name;            /* required */
	int64_t correlation_id, external_id, return_value;
	const char *args;
	int64_t name_id;             /* when > 0, name's strings.id, as pq_kernel's */
} pq_api_call;

enum pq_range_kind {
	PQ_RANGE_NVTX_PUSH_POP = 0, PQ_RANGE_NVTX_START_END, PQ_RANGE_CPU_OP,
	PQ_RANGE_USER_ANNOTATION, PQ_RANGE_GPU_USER_ANNOTATION, PQ_RANGE_PYTHON_FUNCTION,
	PQ_RANGE_TRACE_EVENT, PQ_RANGE_ASYNC, PQ_RANGE_PROFILER_OVERHEAD
};

typedef struct pq_range {
	int64_t process_id, thread_id, end_thread_id, device_id, stream_id;
	int64_t start_ns, end_ns;    /* end_ns PQ_NULL: never closed */
	int64_t kind;                /* enum pq_range_kind */
	const char *name;            /* required */
	const char *category;
	int64_t domain_id, nvtx_category, color;
	pq_value payload;
	int64_t depth, parent_id, range_key, correlation_id, external_id;
	const char *args;
	int64_t name_id;             /* when > 0, name's strings.id, as pq_kernel's */
} pq_range;

enum pq_mark_kind { PQ_MARK_NVTX = 0, PQ_MARK_INSTANT = 1 };

typedef struct pq_mark {
	int64_t process_id, thread_id, ts_ns;
	int64_t kind;                /* enum pq_mark_kind */
	const char *name;            /* required */
	const char *category;
	int64_t domain_id, nvtx_category, color;
	pq_value payload;
	const char *scope, *args;
	int64_t name_id;             /* when > 0, name's strings.id, as pq_kernel's */
} pq_mark;

enum pq_memory_operation { PQ_MEM_ALLOC = 0, PQ_MEM_FREE = 1 };

typedef struct pq_memory_event {
	int64_t process_id, thread_id, device_id, stream_id, ts_ns;
	int64_t operation;           /* enum pq_memory_operation */
	int64_t address, bytes, memory_kind, total_allocated, total_reserved;
	int64_t correlation_id, external_id;
	const char *args;
} pq_memory_event;

typedef struct pq_counter {
	int64_t process_id, device_id;
	const char *name;            /* required */
	int64_t ts_ns;
	double value;
} pq_counter;

/* A name NVTX gave a CUDA object (cuda_names). */
typedef struct pq_cuda_name {
	int64_t process_id, thread_id, ts_ns;
	const char *resource;        /* required: "device", "context", "stream", "event" */
	const char *api;             /* required: "driver" or "runtime" */
	int64_t handle;              /* required */
	int64_t cupti_id;
	const char *name;            /* required */
} pq_cuda_name;

typedef struct pq_sync {
	int64_t process_id, thread_id, device_id, stream_id, start_ns, end_ns;
	int64_t sync_type, correlation_id, external_id, event_id, return_value;
	const char *args;
} pq_sync;

typedef struct pq_flow {
	int64_t process_id, thread_id, ts_ns, flow_key;
	const char *phase;           /* required: "s", "t" or "f" */
	const char *name, *category;
	int64_t binds_enclosing;
} pq_flow;

/* Initialisers: every field to its NULL value. */
void pq_run_info_init(pq_run_info *r);
void pq_device_init(pq_device *d);
void pq_kernel_init(pq_kernel *r);
void pq_memcpy_init(pq_memcpy *r);
void pq_memset_init(pq_memset *r);
void pq_api_call_init(pq_api_call *r);
void pq_range_init(pq_range *r);
void pq_mark_init(pq_mark *r);
void pq_memory_event_init(pq_memory_event *r);
void pq_counter_init(pq_counter *r);
void pq_sync_init(pq_sync *r);
void pq_flow_init(pq_flow *r);
void pq_cuda_name_init(pq_cuda_name *r);

/* Opens (creating when missing or empty) the database at path. batch_rows > 0 commits
 * automatically after that many rows; 0 commits only when asked (and at begin_run, so readers
 * see the run at once); < 0 makes each run one transaction, begin_run included, so an aborted run
 * leaves the file byte for byte as it was (profq import). On failure *out is NULL, and a file
 * this call created has been removed again. The caller frees with pq_store_close(). */
int pq_store_open(const char *path, int64_t batch_rows, pq_store **out, pq_error *err);

/* Whether pq_store_open() created the file. */
int pq_store_created(const pq_store *s);

/* The database's full path as SQLite names it (the one the run locks of runlock.h go by); "" for
 * an in-memory database. Valid until pq_store_close(). */
const char *pq_store_path(const pq_store *s);

/* Commits what is pending (if anything), finalizes statements and closes. A run still open stays
 * marked 'open' in the file. NULL is allowed. */
void pq_store_close(pq_store *s);

/* Starts a new run (committed at once, so live readers see it); *run_id may be NULL. */
int pq_store_begin_run(pq_store *s, const pq_run_info *info, int64_t *run_id, pq_error *err);

/* Makes an existing run of this file the store's open run, so another process (a recorded child of
 * `profq record`) or a later session can add rows to it. The run's status is left as it is. */
int pq_store_attach_run(pq_store *s, int64_t run_id, pq_error *err);

/* Sets runs.start_ns / end_ns explicitly (otherwise finish takes them from the events). */
int pq_store_set_run_span(pq_store *s, int64_t start_ns, int64_t end_ns, pq_error *err);

/* Key/value facts about the run (command line, dropped-record counts, reasons, ...). */
int pq_store_set_metadata(pq_store *s, const char *key, const char *value, pq_error *err);
int pq_store_set_metadata_int(pq_store *s, const char *key, int64_t value, pq_error *err);
/* The lowest run of the file with metadata key = value (text), in *run_id; 0 when none. */
int pq_store_find_metadata(pq_store *s, const char *key, const char *value, int64_t *run_id,
			   pq_error *err);

/* The lowest run of the file that may hold a file of this many bytes: one whose source_bytes is
 * that size, or that has a source_sha256 without a source_bytes (runs imported before profq kept
 * the size); 0 in *run_id when none. Tells whether hashing a file must come before importing it. */
int pq_store_find_source_size(pq_store *s, int64_t bytes, int64_t *run_id, pq_error *err);

/* Run metadata whose value is known late (a file's hash computed while the file is imported):
 * get is called when a run is finished, after its indexes are built and before its commit, and
 * what it returns is stored under key; it returns NULL with err set to fail the run. Stays set
 * for every run finished until it is set again (get NULL: none). key must outlive it. */
typedef const char *(*pq_late_value)(void *ctx, pq_error *err);
void pq_store_set_late_metadata(pq_store *s, const char *key, pq_late_value get, void *ctx);

/* Commits the pending transaction now. */
int pq_store_commit(pq_store *s, pq_error *err);

/* Marks the run complete, fills its span from its events when not set, and commits. */
int pq_store_finish_run(pq_store *s, pq_error *err);

/* Throws the open run away: rolls back what is pending and deletes what was committed. */
int pq_store_abort_run(pq_store *s, pq_error *err);

/* Bulk loads. The next run begun expects about `rows` event rows: when the event tables hold no
 * more rows than that already, the run is written without their secondary indexes, and
 * pq_store_finish_run() builds them again (inside the run's transaction when batch_rows < 0, so a
 * rollback restores them too). Sorting the rows once is several times cheaper than updating every
 * index per row. 0, the default, keeps the indexes. */
void pq_store_expect_rows(pq_store *s, int64_t rows);

/* The next run's rows fill no partial index (schema/schema.sql: the *_external ones; an Nsight
 * Systems export has no framework ids): those are kept while its rows are written without the
 * others, instead of being built by a scan each after (~0.15 s on the 2.5 M-row bench export). A
 * row that does fill one is indexed all the same, as it is written. */
void pq_store_rows_fill_no_partial_index(pq_store *s);

/* Rows given in turn to several tables (on: 1) are held and written a few hundred of a table at
 * a time, each table's in the order given, so its ids are the same: SQLite inserts them faster.
 * Every row's texts are copied, and its checks made, when it is given; an error of SQLite's comes
 * from a later call (the one that writes the group, or the commit). A row whose id is asked for
 * is written at once, after its table's held rows. Off (0, the default): rows given from then on
 * are written at once, after the held ones of their table. */
void pq_store_group_rows(pq_store *s, int on);

/* Where pq_store_build_indexes(), pq_store_finish_run() and pq_store_abort_run() report their
 * phases (progress.h: PQ_PHASE_INDEX, PQ_PHASE_COMMIT); the struct is copied, NULL stops it. */
void pq_store_set_progress(pq_store *s, const pq_progress *progress);

/* The same by hand, for writers spread over processes (`profq record` drops the indexes before the
 * recorded processes start and builds them once the last has exited). Both commit at once unless
 * batch_rows < 0; building leaves indexes that exist alone. */
int pq_store_defer_indexes(pq_store *s, pq_error *err);
int pq_store_build_indexes(pq_store *s, pq_error *err);

/* Interns a string; *id receives its strings.id. */
int pq_store_intern(pq_store *s, const char *text, int64_t *id, pq_error *err);
/* Changes whenever ids pq_store_intern gave may have been rolled back (an aborted run). */
uint64_t pq_store_strings_epoch(const pq_store *s);

/* Dimensions: each returns the existing row's id or adds one. A non-NULL name replaces the stored
 * name (threads and processes are often named after their first event). */
int pq_store_process(pq_store *s, int64_t pid, const char *name, int64_t *id, pq_error *err);
int pq_store_thread(pq_store *s, int64_t pid, int64_t tid, const char *name, int64_t *id,
		    pq_error *err);
int pq_store_device(pq_store *s, const pq_device *d, int64_t *id, pq_error *err);
/* The device row for an ordinal, added with only its ordinal when unknown so far. */
int pq_store_device_ordinal(pq_store *s, int64_t ordinal, int64_t *id, pq_error *err);
int pq_store_stream(pq_store *s, int64_t process_id, int64_t device_id, int64_t stream,
		    int64_t *id, pq_error *err);
/* Describes the streams numbered `stream` of process `pid` in the open run (every device):
 * context, priority and stream_type (enum stream_types); PQ_NULL leaves a field as it is.
 * Streams not added yet are not created. */
int pq_store_stream_props(pq_store *s, int64_t pid, int64_t stream, int64_t context,
			  int64_t priority, int64_t stream_type, pq_error *err);
int pq_store_nvtx_domain(pq_store *s, int64_t process_id, const char *name, int64_t *id,
			 pq_error *err);
int pq_store_nvtx_category(pq_store *s, int64_t process_id, int64_t domain_id, int64_t category,
			   const char *name, pq_error *err);
int pq_store_set_sort_index(pq_store *s, int64_t process_id, int64_t thread_id, int64_t index,
			    pq_error *err);

/* Events; *id (may be NULL) receives the new row's id. */
int pq_store_kernel(pq_store *s, const pq_kernel *r, int64_t *id, pq_error *err);
int pq_store_memcpy(pq_store *s, const pq_memcpy *r, int64_t *id, pq_error *err);
int pq_store_memset(pq_store *s, const pq_memset *r, int64_t *id, pq_error *err);
int pq_store_api_call(pq_store *s, const pq_api_call *r, int64_t *id, pq_error *err);
int pq_store_range(pq_store *s, const pq_range *r, int64_t *id, pq_error *err);
/* Closes a range written earlier with end_ns NULL (the collector writes a range when it opens, so
 * nesting and parents are known and live readers see open ranges). end_thread_id may be PQ_NULL. */
int pq_store_range_end(pq_store *s, int64_t range_id, int64_t end_ns, int64_t end_thread_id,
		       pq_error *err);
int pq_store_mark(pq_store *s, const pq_mark *r, int64_t *id, pq_error *err);
int pq_store_memory_event(pq_store *s, const pq_memory_event *r, int64_t *id, pq_error *err);
int pq_store_counter(pq_store *s, const pq_counter *r, int64_t *id, pq_error *err);
int pq_store_sync(pq_store *s, const pq_sync *r, int64_t *id, pq_error *err);
int pq_store_flow(pq_store *s, const pq_flow *r, int64_t *id, pq_error *err);
int pq_store_cuda_name(pq_store *s, const pq_cuda_name *r, int64_t *id, pq_error *err);

#endif
