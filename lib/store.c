/* store.c - the writer: runs, dimensions and event rows in batched transactions. */
#include "store.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "db.h"
#include "runlock.h"
#include "utf8.h"
#include "store_tables.h"
#include "map.h"
#include "put_int.h"
#include "version.h"

/* Statements the store prepares once and reuses; indexes into sql_text[]. */
enum stmt_id {
	Q_STRING_INSERT, Q_STRING_SELECT, Q_PROCESS_INSERT, Q_PROCESS_NAME, Q_PROCESS_SORT,
	Q_THREAD_INSERT, Q_THREAD_NAME, Q_THREAD_SORT, Q_DEVICE_SELECT, Q_DEVICE_INSERT,
	Q_STREAM_INSERT, Q_DOMAIN_INSERT, Q_CATEGORY_UPSERT, Q_METADATA_UPSERT, Q_RUN_EXISTS,
	Q_RANGE_END, Q_METADATA_FIND, Q_SOURCE_SIZE_FIND, Q_COUNT_STMTS
};

/* Dimension rows may already exist: written by another process recording into the same run, or by
 * this process before its connection was reopened (fork). The no-op update makes RETURNING give the
 * existing row's id. */
#define UPSERT_ID " ON CONFLICT DO UPDATE SET run_id = excluded.run_id RETURNING id"

static const char *const sql_text[Q_COUNT_STMTS] = {
	[Q_STRING_INSERT] = "INSERT OR IGNORE INTO strings(value) VALUES (?1)",
	[Q_STRING_SELECT] = "SELECT id FROM strings WHERE value = ?1",
	[Q_PROCESS_INSERT] = "INSERT INTO processes(run_id, pid) VALUES (?1, ?2)" UPSERT_ID,
	[Q_PROCESS_NAME] = "UPDATE processes SET name_id = ?2 WHERE id = ?1",
	[Q_PROCESS_SORT] = "UPDATE processes SET sort_index = ?2 WHERE id = ?1",
	[Q_THREAD_INSERT] = "INSERT INTO threads(run_id, process_id, tid) VALUES (?1, ?2, ?3)" UPSERT_ID,
	[Q_THREAD_NAME] = "UPDATE threads SET name_id = ?2 WHERE id = ?1",
	[Q_THREAD_SORT] = "UPDATE threads SET sort_index = ?2 WHERE id = ?1",
	[Q_DEVICE_SELECT] = "SELECT id FROM devices WHERE run_id = ?1 AND ordinal = ?2",
	[Q_DEVICE_INSERT] = "INSERT INTO devices(run_id, ordinal) VALUES (?1, ?2)" UPSERT_ID,
	[Q_STREAM_INSERT] = "INSERT INTO streams(run_id, process_id, device_id, stream) "
			    "VALUES (?1, ?2, ?3, ?4)" UPSERT_ID,
	[Q_DOMAIN_INSERT] = "INSERT INTO nvtx_domains(run_id, process_id, name_id) "
			    "VALUES (?1, ?2, ?3)" UPSERT_ID,
	[Q_CATEGORY_UPSERT] = "INSERT OR REPLACE INTO nvtx_categories"
			      "(run_id, process_id, domain_id, category, name_id) "
			      "VALUES (?1, ?2, ?3, ?4, ?5)",
	[Q_METADATA_UPSERT] = "INSERT OR REPLACE INTO run_metadata(run_id, key, value) "
			      "VALUES (?1, ?2, ?3)",
	[Q_RUN_EXISTS] = "SELECT id FROM runs WHERE id = ?1",
	[Q_RANGE_END] = "UPDATE ranges SET end_ns = ?2, end_thread_id = coalesce(?3, end_thread_id) "
			"WHERE id = ?1 AND run_id = ?4",
	[Q_METADATA_FIND] = "SELECT min(run_id) FROM run_metadata WHERE key = ?1 AND value = ?2",
	[Q_SOURCE_SIZE_FIND] = "SELECT min(h.run_id) FROM run_metadata h LEFT JOIN run_metadata b "
			       "ON b.run_id = h.run_id AND b.key = 'source_bytes' "
			       "WHERE h.key = 'source_sha256' AND (b.value IS NULL OR b.value = ?1)",
};

/* A text pq_store_intern was last given at a pointer, and the strings map's copy of it. Callers
 * that hand the same buffer again (the collector's kernel names, three a kernel) are answered by
 * one strcmp instead of a strlen, a hash, a probe and a memcmp: ~7 % of the collector's writer
 * (bench/RESULTS.md). Checked by content, so a buffer reused for another text misses. */
typedef struct recent_text {
	const char *given;  /* the caller's pointer, compared only, never read through */
	const char *key;    /* owned by strings */
	int64_t id;
} recent_text;

struct pq_store {
	sqlite3 *db;
	int created;
	int fresh;                /* created, and no run begun in it yet: its schema is this build's */
	int wal_later;            /* journal_mode is WAL from the first finished run on (store_open) */
	int64_t run_id;           /* 0: no run open */
	int64_t batch_rows;       /* auto-commit threshold, 0 = never, < 0 = one txn per run */
	int64_t pending_rows;     /* rows in the open transaction */
	int in_txn;
	int64_t expect_rows;      /* pq_store_expect_rows() for the next run */
	int64_t run_expect_rows;  /* ...as the open run was begun with: an aborted one's retry */
	int keep_partial;         /* pq_store_rows_fill_no_partial_index() for the next run */
	int deferred;             /* the event indexes were dropped by this store */
	int lock_fd;              /* holds the open run's lock (runlock.h), -1 when none */
	int64_t invalid_utf8;     /* texts of the open run that had invalid UTF-8 replaced */
	/* What the rows of the open run written here add up to, when they are all of it (a run
	 * begun here in one transaction): saves pq_store_finish_run and the derived tables scans. */
	int rows_known;           /* this store wrote every row of the open run */
	int span_known;           /* ...and no range end changed since (pq_store_range_end) */
	int64_t host_ops;         /* cpu_op, user_annotation, python_function ranges written */
	int64_t seen_first, seen_last; /* the run's default span (finish_run's SQL) so far */
	int64_t span_start, span_end;
	sqlite3_stmt *insert[PQ_T_COUNT];
	struct insert_plan *plan[PQ_T_COUNT]; /* how each insert binds a row (prepare_insert) */
	int grouped;              /* pq_store_group_rows */
	struct row_group *groups; /* PQ_T_COUNT, once a row was held */
	sqlite3_stmt *stmts[Q_COUNT_STMTS];
	pq_map strings;        /* text -> strings.id, valid for the store's lifetime */
	recent_text recent[64];   /* pq_store_intern's front of strings, by the caller's pointer */
	uint64_t strings_epoch;   /* pq_store_strings_epoch */
	pq_map dims;           /* "<kind>|<key>" -> id, cleared with each new run */
	pq_progress progress;     /* pq_store_set_progress() */
	const char *late_key;     /* pq_store_set_late_metadata() */
	pq_late_value late_get;
	void *late_ctx;
};

/* Rows held by table (pq_store_group_rows): written, forgotten, freed (below). */
static int write_groups(pq_store *s, pq_error *err);
static void drop_groups(pq_store *s);
static void free_groups(pq_store *s);

/* The cached statement q, reset and unbound; NULL (with err set) when it cannot be prepared. */
static sqlite3_stmt *stmt(pq_store *s, enum stmt_id q, pq_error *err)
{
	sqlite3_stmt **st = &s->stmts[q];

	if (*st != NULL) {
		sqlite3_reset(*st);
		sqlite3_clear_bindings(*st);
		return *st;
	}
	if (sqlite3_prepare_v3(s->db, sql_text[q], -1, SQLITE_PREPARE_PERSISTENT, st, NULL) !=
	    SQLITE_OK) {
		pq_fail(err, "cannot prepare a statement: %s", sqlite3_errmsg(s->db));
		return NULL;
	}
	return *st;
}

static int fail_db(pq_store *s, pq_error *err, const char *what)
{
	const char *os = pq_db_os_error(s->db);

	return pq_fail(err, "%s: %s%s%s%s", what, sqlite3_errmsg(s->db), os ? " (" : "",
		       os ? os : "", os ? ")" : "");
}

static void bind_int(sqlite3_stmt *st, int i, int64_t v)
{
	if (v == PQ_NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

/* An insert parameter's value, kept because SQLite keeps bindings across sqlite3_reset: a value
 * equal to the previous row's is not bound again. In a stream of kernels most of the 34 columns
 * repeat (run, process, device, launch dimensions, NULLs), and binding was ~7 % of a collector's
 * writer (bench/RESULTS.md). Only NULLs and integers are kept; text and reals are always bound.
 * This is the run id's and the other columns' (name ids, NULLs); the integer columns, most of a
 * row, keep theirs in their insert plan (bind_ints). */
typedef struct bound {
	int64_t i;
	int kind; /* BOUND_OTHER, BOUND_NULL or BOUND_INT */
} bound;
enum { BOUND_OTHER, BOUND_NULL, BOUND_INT };

static inline void bind_row_int(sqlite3_stmt *st, bound *b, int i, int64_t v)
{
	bound *x = &b[i - 1];

	if (v == PQ_NULL) {
		if (x->kind != BOUND_NULL)
			sqlite3_bind_null(st, i);
		x->kind = BOUND_NULL;
	} else {
		if (x->kind != BOUND_INT || x->i != v)
			sqlite3_bind_int64(st, i, v);
		x->kind = BOUND_INT;
		x->i = v;
	}
}

/* Binds text as valid UTF-8 (utf8.h): invalid sequences become U+FFFD and are counted. */
static void bind_text(pq_store *s, sqlite3_stmt *st, int i, const char *v)
{
	size_t len;
	char *fixed;

	if (v == NULL) {
		sqlite3_bind_null(st, i);
		return;
	}
	fixed = pq_utf8_fix(v, strlen(v), &len);
	if (fixed == NULL) {
		/* Valid as it is, or no memory for the copy: then SQLite stores the bytes given.
		 * Every row binds each of its texts again before its step, so SQLite need not copy
		 * them (the Kineto args of an operator are ~700 bytes). */
		sqlite3_bind_text(st, i, v, len == (size_t)-1 ? -1 : (int)len, SQLITE_STATIC);
		return;
	}
	s->invalid_utf8++;
	sqlite3_bind_text(st, i, fixed, (int)len, SQLITE_TRANSIENT);
	free(fixed);
}

/* Steps a statement that returns no row (or whose rows are ignored). */
static int step_done(pq_store *s, sqlite3_stmt *st, const char *what, pq_error *err)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return fail_db(s, err, what);
	return 0;
}

/* Steps a look-up; returns 1 and *id when a row came back, 0 when none, -1 on error. */
static int step_id(pq_store *s, sqlite3_stmt *st, int64_t *id, const char *what, pq_error *err)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
		return 1;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return fail_db(s, err, what);
	return 0;
}

static int begin_txn(pq_store *s, pq_error *err)
{
	if (s->in_txn)
		return 0;
	if (pq_db_exec(s->db, "BEGIN IMMEDIATE", "cannot start a transaction", err) != 0)
		return -1;
	s->in_txn = 1;
	s->pending_rows = 0;
	return 0;
}

/* Records the time of this commit in the open run (kept open by batches): a run whose writers die
 * ends there (db_repair.c). */
static int note_commit(pq_store *s, pq_error *err)
{
	struct timespec ts;
	sqlite3_stmt *st;

	if (s->run_id == 0 || s->batch_rows < 0)
		return 0;
	if ((st = stmt(s, Q_METADATA_UPSERT, err)) == NULL)
		return -1;
	clock_gettime(CLOCK_REALTIME, &ts);
	sqlite3_bind_int64(st, 1, s->run_id);
	sqlite3_bind_text(st, 2, "last_commit_ns", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
	return step_done(s, st, "cannot commit", err);
}

int pq_store_commit(pq_store *s, pq_error *err)
{
	if (!s->in_txn)
		return 0;
	if (write_groups(s, err) != 0 || note_commit(s, err) != 0 ||
	    pq_db_exec(s->db, "COMMIT", "cannot commit", err) != 0)
		return -1;
	s->in_txn = 0;
	s->pending_rows = 0;
	return 0;
}

/* Every write goes through here: a transaction is open afterwards. */
static int need_run(pq_store *s, pq_error *err)
{
	if (s->run_id == 0)
		return pq_fail(err, "no run is open in the store");
	return begin_txn(s, err);
}

static int row_written(pq_store *s, pq_error *err)
{
	s->pending_rows++;
	if (s->batch_rows > 0 && s->pending_rows >= s->batch_rows)
		return pq_store_commit(s, err);
	return 0;
}

int pq_store_open(const char *path, int64_t batch_rows, pq_store **out, pq_error *err)
{
	pq_store *s;
	sqlite3 *db;
	int created;

	*out = NULL;
	if (pq_db_open(path, PQ_OPEN_CREATE, &db, &created, err) != 0)
		return -1;
	/* WAL lets sqlite3, notebooks and Grafana read the file while a run is written. A new file
	 * written one transaction a run (profq import) shows nothing before that commit, so until
	 * its first run is finished it keeps the rollback journal: for a new file that journal holds
	 * next to nothing, and each page is written once, where WAL writes it twice (the log, then
	 * the checkpoint): ~1.8 s of a 15 s import of 2.5 M rows (bench/RESULTS.md). */
	/* A 64 MiB page cache keeps the indexes of a growing run in memory. */
	if (pq_db_exec(db, created && batch_rows < 0 ? "PRAGMA synchronous=NORMAL; "
			   "PRAGMA cache_size=-65536" : "PRAGMA journal_mode=WAL; "
			   "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536",
		       "cannot configure the database", err) != 0)
		goto fail;
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		pq_fail(err, "out of memory");
		goto fail;
	}
	s->db = db;
	s->lock_fd = -1;
	s->created = created;
	s->fresh = created;
	s->wal_later = created && batch_rows < 0;
	s->batch_rows = batch_rows;
	*out = s;
	return 0;
fail:
	sqlite3_close(db);
	if (created)
		remove(path);
	return -1;
}

int pq_store_created(const pq_store *s)
{
	return s->created;
}

const char *pq_store_path(const pq_store *s)
{
	return sqlite3_db_filename(s->db, "main");
}

/* The run's lock, taken before its row is committed: nobody sees it open and unheld. */
static int hold_run(pq_store *s, int64_t run_id, pq_error *err)
{
	const char *path = pq_store_path(s);

	if (path == NULL || *path == '\0')
		return 0;  /* in memory: nobody else can see the run */
	return pq_run_lock_acquire(path, run_id, &s->lock_fd, err);
}

static void release_run(pq_store *s)
{
	pq_run_lock_release(pq_store_path(s), s->lock_fd);
	s->lock_fd = -1;
}

/* The switch to WAL a new file's first run waits for (pq_store_open). Not an error when it
 * cannot be made (a reader holds the file): the next store to open the file makes it. */
static void switch_to_wal(pq_store *s)
{
	if (s->wal_later && sqlite3_get_autocommit(s->db)) {
		sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
		s->wal_later = 0;
	}
}

void pq_store_close(pq_store *s)
{
	char *path;

	if (s == NULL)
		return;
	if (s->in_txn) {
		pq_error ignored;

		if (write_groups(s, &ignored) == 0 && note_commit(s, &ignored) == 0)
			sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
		else
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	}
	switch_to_wal(s);
	for (int i = 0; i < PQ_T_COUNT; i++) {
		sqlite3_finalize(s->insert[i]);
		free(s->plan[i]);
	}
	free_groups(s);
	for (int i = 0; i < Q_COUNT_STMTS; i++)
		sqlite3_finalize(s->stmts[i]);
	path = s->lock_fd >= 0 ? sqlite3_mprintf("%s", pq_store_path(s)) : NULL;
	sqlite3_close(s->db);
	/* Released after the connection is gone, so a last holder removing the lock file never
	 * races this store's own writes. */
	if (path != NULL)
		pq_run_lock_release(path, s->lock_fd);
	sqlite3_free(path);
	pq_map_free(&s->strings);
	pq_map_free(&s->dims);
	free(s);
}

void pq_store_rows_fill_no_partial_index(pq_store *s)
{
	s->keep_partial = 1;
}

void pq_store_expect_rows(pq_store *s, int64_t rows)
{
	s->expect_rows = rows;
}

void pq_store_set_progress(pq_store *s, const pq_progress *progress)
{
	static const pq_progress none;

	s->progress = progress != NULL ? *progress : none;
}

/* Commits unless the run is one transaction (batch_rows < 0), which then carries the change. */
static int commit_unless_one_txn(pq_store *s, pq_error *err)
{
	return s->batch_rows < 0 ? 0 : pq_store_commit(s, err);
}

int pq_store_defer_indexes(pq_store *s, pq_error *err)
{
	if (begin_txn(s, err) != 0 || pq_db_drop_event_indexes(s->db, s->keep_partial, err) != 0)
		return -1;
	s->deferred = 1;
	return commit_unless_one_txn(s, err);
}

int pq_store_build_indexes(pq_store *s, pq_error *err)
{
	if (begin_txn(s, err) != 0 || write_groups(s, err) != 0 ||
	    pq_db_build_event_indexes(s->db, &s->progress, err) != 0)
		return -1;
	s->deferred = 0;
	return commit_unless_one_txn(s, err);
}

/* Adds text (valid UTF-8) to strings, or finds it there. */
static int intern_valid(pq_store *s, const char *text, size_t len, int64_t *id, pq_error *err)
{
	sqlite3_stmt *st;
	int found;

	if (begin_txn(s, err) != 0 || (st = stmt(s, Q_STRING_INSERT, err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, text, (int)len, SQLITE_STATIC);
	if (step_done(s, st, "cannot intern a string", err) != 0)
		return -1;
	if (sqlite3_changes(s->db) == 1) {
		*id = sqlite3_last_insert_rowid(s->db);
		return 0;
	}
	if ((st = stmt(s, Q_STRING_SELECT, err)) == NULL)
		return -1;
	sqlite3_bind_text(st, 1, text, (int)len, SQLITE_STATIC);
	found = step_id(s, st, id, "cannot intern a string", err);
	return found < 0 ? -1 : found == 0 ? pq_fail(err, "cannot intern a string") : 0;
}

int pq_store_intern(pq_store *s, const char *text, int64_t *id, pq_error *err)
{
	recent_text *r = &s->recent[((uintptr_t)text >> 4 ^ (uintptr_t)text >> 10) % 64];
	size_t len, fixed_len;
	pq_map_value *found;
	char *fixed;
	int rc;

	if (r->given == text && strcmp(r->key, text) == 0) {
		*id = r->id;
		return 0;
	}
	len = strlen(text);
	if ((found = pq_map_find_key(&s->strings, text, len, &r->key)) != NULL) {
		r->given = text;
		*id = r->id = found->i;
		return 0;
	}
	/* The cache keeps the bytes as given; the table the text made valid (utf8.h). */
	fixed = pq_utf8_fix(text, len, &fixed_len);
	if (fixed == NULL && fixed_len == (size_t)-1)
		return pq_fail(err, "out of memory");
	if (fixed != NULL)
		s->invalid_utf8++;
	rc = fixed != NULL ? intern_valid(s, fixed, fixed_len, id, err)
			   : intern_valid(s, text, len, id, err);
	free(fixed);
	if (rc != 0)
		return -1;
	if (pq_map_put_int(&s->strings, text, len, *id) != 0)
		return pq_fail(err, "out of memory");
	r->given = NULL;
	return 0;
}

uint64_t pq_store_strings_epoch(const pq_store *s)
{
	return s->strings_epoch;
}

/* Interns text, or gives PQ_NULL for NULL text. */
static int intern_name(pq_store *s, const char *text, int64_t *id, pq_error *err)
{
	if (text == NULL) {
		*id = PQ_NULL;
		return 0;
	}
	return pq_store_intern(s, text, id, err);
}

/* A dimension's key in the dims map: prefix, then each value after a '|' ("t|4242|7"), NUL-ended
 * (DIM_KEY bytes hold three values). */
#define DIM_KEY 72
static const char *dim_key(char *key, const char *prefix, int n, const int64_t *vals)
{
	size_t len = strlen(prefix);

	memcpy(key, prefix, len);
	for (int i = 0; i < n; i++) {
		key[len++] = '|';
		len += pq_put_int(key + len, vals[i]);
	}
	key[len] = '\0';
	return key;
}

static int dim_get(pq_store *s, const char *key, int64_t *id)
{
	return pq_map_get_int(&s->dims, key, strlen(key), id);
}

static int dim_put(pq_store *s, const char *key, int64_t id, pq_error *err)
{
	if (pq_map_put_int(&s->dims, key, strlen(key), id) != 0)
		return pq_fail(err, "out of memory");
	return 0;
}

/* Runs a two-parameter statement (?1 = row id, ?2 = value). */
static int update_row(pq_store *s, enum stmt_id q, int64_t row, int64_t value, pq_error *err)
{
	sqlite3_stmt *st = stmt(s, q, err);

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, row);
	bind_int(st, 2, value);
	return step_done(s, st, "cannot update a process or thread", err);
}

/* Names a process or thread row, skipping the write when the cache says it has that name. */
static int set_name(pq_store *s, enum stmt_id q, const char *prefix, int64_t row,
		    const char *name, pq_error *err)
{
	char key[DIM_KEY];
	int64_t name_id, cached;

	if (name == NULL)
		return 0;
	if (pq_store_intern(s, name, &name_id, err) != 0)
		return -1;
	dim_key(key, prefix, 1, &row);
	if (dim_get(s, key, &cached) && cached == name_id)
		return 0;
	if (update_row(s, q, row, name_id, err) != 0)
		return -1;
	return dim_put(s, key, name_id, err);
}

/* Inserts a dimension row whose statement takes run_id as ?1 and up to three more values. */
static int insert_dim(pq_store *s, enum stmt_id q, int nvals, const int64_t *vals,
		      const char *key, int64_t *id, pq_error *err)
{
	sqlite3_stmt *st = stmt(s, q, err);

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, s->run_id);
	for (int i = 0; i < nvals; i++)
		bind_int(st, i + 2, vals[i]);
	if (step_id(s, st, id, "cannot add a dimension row", err) != 1)
		return pq_fail(err, "cannot add a dimension row: %s", sqlite3_errmsg(s->db));
	return dim_put(s, key, *id, err);
}

int pq_store_process(pq_store *s, int64_t pid, const char *name, int64_t *id, pq_error *err)
{
	char key[DIM_KEY];

	if (need_run(s, err) != 0)
		return -1;
	dim_key(key, "p", 1, &pid);
	if (!dim_get(s, key, id) && insert_dim(s, Q_PROCESS_INSERT, 1, &pid, key, id, err) != 0)
		return -1;
	return set_name(s, Q_PROCESS_NAME, "pn", *id, name, err);
}

int pq_store_thread(pq_store *s, int64_t pid, int64_t tid, const char *name, int64_t *id,
		    pq_error *err)
{
	char key[DIM_KEY];
	int64_t vals[2], pid_tid[2] = { pid, tid };

	if (pq_store_process(s, pid, NULL, &vals[0], err) != 0)
		return -1;
	vals[1] = tid;
	dim_key(key, "t", 2, pid_tid);
	if (!dim_get(s, key, id) && insert_dim(s, Q_THREAD_INSERT, 2, vals, key, id, err) != 0)
		return -1;
	return set_name(s, Q_THREAD_NAME, "tn", *id, name, err);
}

int pq_store_set_sort_index(pq_store *s, int64_t process_id, int64_t thread_id, int64_t index,
			    pq_error *err)
{
	if (need_run(s, err) != 0)
		return -1;
	if (thread_id != PQ_NULL)
		return update_row(s, Q_THREAD_SORT, thread_id, index, err);
	return update_row(s, Q_PROCESS_SORT, process_id, index, err);
}

int pq_store_device_ordinal(pq_store *s, int64_t ordinal, int64_t *id, pq_error *err)
{
	char key[DIM_KEY];
	sqlite3_stmt *st;
	int found;

	if (need_run(s, err) != 0)
		return -1;
	dim_key(key, "d", 1, &ordinal);
	if (dim_get(s, key, id))
		return 0;
	if ((st = stmt(s, Q_DEVICE_SELECT, err)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, s->run_id);
	sqlite3_bind_int64(st, 2, ordinal);
	found = step_id(s, st, id, "cannot look up a device", err);
	if (found < 0)
		return -1;
	if (found)
		return dim_put(s, key, *id, err);
	return insert_dim(s, Q_DEVICE_INSERT, 1, &ordinal, key, id, err);
}

int pq_store_device(pq_store *s, const pq_device *d, int64_t *id, pq_error *err)
{
	/* Known properties overwrite, unknown ones (NULL) keep what an earlier source said. */
	static const char sql[] =
		"UPDATE devices SET name = coalesce(?2, name), uuid = coalesce(?3, uuid), "
		"compute_major = coalesce(?4, compute_major), "
		"compute_minor = coalesce(?5, compute_minor), sm_count = coalesce(?6, sm_count), "
		"warp_size = coalesce(?7, warp_size), "
		"max_threads_per_block = coalesce(?8, max_threads_per_block), "
		"max_threads_per_sm = coalesce(?9, max_threads_per_sm), "
		"max_blocks_per_sm = coalesce(?10, max_blocks_per_sm), "
		"max_registers_per_block = coalesce(?11, max_registers_per_block), "
		"max_registers_per_sm = coalesce(?12, max_registers_per_sm), "
		"max_shared_memory_per_block = coalesce(?13, max_shared_memory_per_block), "
		"max_shared_memory_per_sm = coalesce(?14, max_shared_memory_per_sm), "
		"shared_memory_per_block_optin = coalesce(?15, shared_memory_per_block_optin), "
		"l2_cache_bytes = coalesce(?16, l2_cache_bytes), "
		"global_memory_bytes = coalesce(?17, global_memory_bytes), "
		"core_clock_hz = coalesce(?18, core_clock_hz), "
		"memory_clock_hz = coalesce(?19, memory_clock_hz), "
		"memory_bus_width_bits = coalesce(?20, memory_bus_width_bits), "
		"memory_bandwidth_bytes_per_s = coalesce(?21, memory_bandwidth_bytes_per_s) "
		"WHERE id = ?1";
	const int64_t props[] = {
		d->compute_major, d->compute_minor, d->sm_count, d->warp_size,
		d->max_threads_per_block, d->max_threads_per_sm, d->max_blocks_per_sm,
		d->max_registers_per_block, d->max_registers_per_sm,
		d->max_shared_memory_per_block, d->max_shared_memory_per_sm,
		d->shared_memory_per_block_optin, d->l2_cache_bytes, d->global_memory_bytes,
		d->core_clock_hz, d->memory_clock_hz, d->memory_bus_width_bits,
		d->memory_bandwidth_bytes_per_s,
	};
	sqlite3_stmt *st = NULL;
	int rc;

	if (d->ordinal == PQ_NULL)
		return pq_fail(err, "a device needs an ordinal");
	if (pq_store_device_ordinal(s, d->ordinal, id, err) != 0)
		return -1;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail_db(s, err, "cannot store a device");
	sqlite3_bind_int64(st, 1, *id);
	bind_text(s, st, 2, d->name);
	bind_text(s, st, 3, d->uuid);
	for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++)
		bind_int(st, (int)i + 4, props[i]);
	rc = step_done(s, st, "cannot store a device", err);
	sqlite3_finalize(st);
	return rc;
}

int pq_store_stream(pq_store *s, int64_t process_id, int64_t device_id, int64_t stream,
		    int64_t *id, pq_error *err)
{
	char key[DIM_KEY];
	const int64_t vals[3] = { process_id, device_id, stream };

	if (need_run(s, err) != 0)
		return -1;
	dim_key(key, "s", 3, vals);
	if (dim_get(s, key, id))
		return 0;
	return insert_dim(s, Q_STREAM_INSERT, 3, vals, key, id, err);
}

int pq_store_stream_props(pq_store *s, int64_t pid, int64_t stream, int64_t context,
			  int64_t priority, int64_t stream_type, pq_error *err)
{
	static const char sql[] =
		"UPDATE streams SET context = coalesce(?4, context), "
		"priority = coalesce(?5, priority), stream_type = coalesce(?6, stream_type) "
		"WHERE run_id = ?1 AND stream = ?3 AND process_id IN "
		"(SELECT id FROM processes WHERE run_id = ?1 AND pid = ?2)";
	sqlite3_stmt *st = NULL;
	int rc;

	if (need_run(s, err) != 0)
		return -1;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail_db(s, err, "cannot describe a stream");
	sqlite3_bind_int64(st, 1, s->run_id);
	sqlite3_bind_int64(st, 2, pid);
	sqlite3_bind_int64(st, 3, stream);
	bind_int(st, 4, context);
	bind_int(st, 5, priority);
	bind_int(st, 6, stream_type);
	rc = step_done(s, st, "cannot describe a stream", err);
	sqlite3_finalize(st);
	return rc;
}

int pq_store_nvtx_domain(pq_store *s, int64_t process_id, const char *name, int64_t *id,
			 pq_error *err)
{
	char key[DIM_KEY];
	int64_t vals[2] = { process_id, 0 };

	if (need_run(s, err) != 0 || pq_store_intern(s, name, &vals[1], err) != 0)
		return -1;
	dim_key(key, "n", 2, vals);
	if (dim_get(s, key, id))
		return 0;
	return insert_dim(s, Q_DOMAIN_INSERT, 2, vals, key, id, err);
}

int pq_store_nvtx_category(pq_store *s, int64_t process_id, int64_t domain_id, int64_t category,
			   const char *name, pq_error *err)
{
	int64_t name_id;
	sqlite3_stmt *st;

	if (need_run(s, err) != 0 || pq_store_intern(s, name, &name_id, err) != 0 ||
	    (st = stmt(s, Q_CATEGORY_UPSERT, err)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, s->run_id);
	bind_int(st, 2, process_id);
	bind_int(st, 3, domain_id);
	sqlite3_bind_int64(st, 4, category);
	sqlite3_bind_int64(st, 5, name_id);
	return step_done(s, st, "cannot name an NVTX category", err);
}

/* Runs: begin, metadata, span, finish, abort ------------------------------------------------- */

int pq_store_begin_run(pq_store *s, const pq_run_info *info, int64_t *run_id, pq_error *err)
{
	static const char sql[] =
		"INSERT INTO runs(source, source_path, source_version, hostname, rank, time_base, "
		"time_offset_ns, created_utc, profq_version) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?8)";
	sqlite3_stmt *st = NULL;
	pq_repair repair;

	if (s->run_id != 0)
		return pq_fail(err, "a run is already open in the store");
	if (info->source == NULL)
		return pq_fail(err, "a run needs a source");
	/* The file up to date, and runs whose writers died closed, in this run's transaction. A
	 * file this store has just made holds this build's schema and views already: comparing them
	 * with a reference built in memory is ~45 M instructions (~12 ms, 4 % of importing the
	 * ResNet50 sample). */
	if (begin_txn(s, err) != 0 || (!s->fresh && pq_db_upgrade(s->db, err) != 0) ||
	    pq_db_repair_runs(s->db, &repair, err) != 0)
		return -1;
	s->fresh = 0;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail_db(s, err, "cannot add a run");
	bind_text(s, st, 1, info->source);
	bind_text(s, st, 2, info->source_path);
	bind_text(s, st, 3, info->source_version);
	bind_text(s, st, 4, info->hostname);
	bind_int(st, 5, info->rank);
	sqlite3_bind_text(st, 6, info->relative_time ? "relative" : "unix", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, info->time_offset_ns == PQ_NULL ? 0 : info->time_offset_ns);
	sqlite3_bind_text(st, 8, PROFQ_VERSION, -1, SQLITE_STATIC);
	if (step_done(s, st, "cannot add a run", err) != 0) {
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	s->run_id = sqlite3_last_insert_rowid(s->db);
	/* A run others see open before it finishes is held; one transaction is seen only complete. */
	if (s->batch_rows >= 0 && hold_run(s, s->run_id, err) != 0) {
		s->run_id = 0;
		return -1;
	}
	s->span_start = s->span_end = PQ_NULL;
	s->invalid_utf8 = 0;
	/* Only a run that commits with its rows (batch_rows < 0) is seen by no other writer. */
	s->rows_known = s->span_known = s->batch_rows < 0;
	s->host_ops = 0;
	s->seen_first = s->seen_last = PQ_NULL;
	pq_map_free(&s->dims);
	if (run_id != NULL)
		*run_id = s->run_id;
	if (s->expect_rows > 0 && pq_db_event_rows(s->db) <= s->expect_rows &&
	    pq_store_defer_indexes(s, err) != 0)
		return -1;
	s->run_expect_rows = s->expect_rows;
	s->expect_rows = 0;
	s->keep_partial = 0;
	if (s->batch_rows < 0)
		return 0; /* the run and its rows commit together at finish */
	return pq_store_commit(s, err);
}

int pq_store_attach_run(pq_store *s, int64_t run_id, pq_error *err)
{
	sqlite3_stmt *st;
	int64_t found_id;
	int found;

	if (s->run_id != 0)
		return pq_fail(err, "a run is already open in the store");
	if ((st = stmt(s, Q_RUN_EXISTS, err)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	found = step_id(s, st, &found_id, "cannot look up the run", err);
	if (found < 0)
		return -1;
	if (found == 0)
		return pq_fail(err, "no run %" PRId64 " in the database", run_id);
	if (hold_run(s, run_id, err) != 0)
		return -1;
	s->run_id = run_id;
	s->span_start = s->span_end = PQ_NULL;
	s->invalid_utf8 = 0;
	s->rows_known = s->span_known = 0; /* its earlier rows were written by others */
	pq_map_free(&s->dims);
	return 0;
}

static int set_metadata(pq_store *s, const char *key, const char *text, int64_t num,
			pq_error *err)
{
	sqlite3_stmt *st;

	if (need_run(s, err) != 0 || (st = stmt(s, Q_METADATA_UPSERT, err)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, s->run_id);
	bind_text(s, st, 2, key);
	if (text != NULL)
		bind_text(s, st, 3, text);
	else
		bind_int(st, 3, num);
	return step_done(s, st, "cannot store run metadata", err);
}

int pq_store_set_metadata(pq_store *s, const char *key, const char *value, pq_error *err)
{
	return set_metadata(s, key, value, PQ_NULL, err);
}

int pq_store_set_metadata_int(pq_store *s, const char *key, int64_t value, pq_error *err)
{
	return set_metadata(s, key, NULL, value, err);
}

/* The run id of a min(run_id) query, 0 for none. */
static int first_run(pq_store *s, sqlite3_stmt *st, int64_t *run_id, pq_error *err)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		*run_id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return pq_fail(err, "cannot read the run metadata: %s", sqlite3_errmsg(s->db));
	return 0;
}

int pq_store_find_metadata(pq_store *s, const char *key, const char *value, int64_t *run_id,
			   pq_error *err)
{
	sqlite3_stmt *st = stmt(s, Q_METADATA_FIND, err);

	*run_id = 0;
	if (st == NULL)
		return -1;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	return first_run(s, st, run_id, err);
}

int pq_store_find_source_size(pq_store *s, int64_t bytes, int64_t *run_id, pq_error *err)
{
	sqlite3_stmt *st = stmt(s, Q_SOURCE_SIZE_FIND, err);

	*run_id = 0;
	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, bytes);
	return first_run(s, st, run_id, err);
}

void pq_store_set_late_metadata(pq_store *s, const char *key, pq_late_value get, void *ctx)
{
	s->late_key = key;
	s->late_get = get;
	s->late_ctx = ctx;
}

int pq_store_set_run_span(pq_store *s, int64_t start_ns, int64_t end_ns, pq_error *err)
{
	if (s->run_id == 0)
		return pq_fail(err, "no run is open in the store");
	s->span_start = start_ns;
	s->span_end = end_ns;
	return 0;
}

int pq_store_finish_run(pq_store *s, pq_error *err)
{
	/* The span defaults to the run's events: first start to last end, over every table. */
	static const char sql[] =
		"UPDATE runs SET status = 'complete', "
		"start_ns = coalesce(?2, (SELECT min(t) FROM ("
		" SELECT min(start_ns) t FROM kernels WHERE run_id = ?1"
		" UNION ALL SELECT min(start_ns) FROM memcpys WHERE run_id = ?1"
		" UNION ALL SELECT min(start_ns) FROM memsets WHERE run_id = ?1"
		" UNION ALL SELECT min(start_ns) FROM api_calls WHERE run_id = ?1"
		" UNION ALL SELECT min(start_ns) FROM ranges WHERE run_id = ?1"
		" UNION ALL SELECT min(start_ns) FROM synchronizations WHERE run_id = ?1"
		" UNION ALL SELECT min(ts_ns) FROM marks WHERE run_id = ?1"
		" UNION ALL SELECT min(ts_ns) FROM memory_events WHERE run_id = ?1"
		" UNION ALL SELECT min(ts_ns) FROM counters WHERE run_id = ?1))), "
		"end_ns = coalesce(?3, (SELECT max(t) FROM ("
		" SELECT max(end_ns) t FROM kernels WHERE run_id = ?1"
		" UNION ALL SELECT max(end_ns) FROM memcpys WHERE run_id = ?1"
		" UNION ALL SELECT max(end_ns) FROM memsets WHERE run_id = ?1"
		" UNION ALL SELECT max(end_ns) FROM api_calls WHERE run_id = ?1"
		" UNION ALL SELECT max(coalesce(end_ns, start_ns)) FROM ranges WHERE run_id = ?1"
		" UNION ALL SELECT max(end_ns) FROM synchronizations WHERE run_id = ?1"
		" UNION ALL SELECT max(ts_ns) FROM marks WHERE run_id = ?1"
		" UNION ALL SELECT max(ts_ns) FROM memory_events WHERE run_id = ?1"
		" UNION ALL SELECT max(ts_ns) FROM counters WHERE run_id = ?1))) "
		"WHERE id = ?1";
	sqlite3_stmt *st = NULL;
	int rc;

	if (need_run(s, err) != 0 || write_groups(s, err) != 0)
		return -1;
	if (s->invalid_utf8 > 0 &&
	    pq_store_set_metadata_int(s, "invalid_utf8_replaced", s->invalid_utf8, err) != 0)
		return -1;
	/* Not only when this store deferred them: a recording that was killed before it could
	 * build them leaves the file without, and the next finished run repairs that. (Built
	 * already when an importer built them itself, with the run's last metadata to come.) */
	if ((s->deferred || pq_db_missing_event_indexes(s->db) != 0) &&
	    pq_store_build_indexes(s, err) != 0)
		return -1;
	if (s->late_get != NULL) {
		const char *v = s->late_get(s->late_ctx, err);

		if (v == NULL || pq_store_set_metadata(s, s->late_key, v, err) != 0)
			return -1;
	}
	pq_progress_report(&s->progress, PQ_PHASE_COMMIT, 0, 0);
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return fail_db(s, err, "cannot finish the run");
	sqlite3_bind_int64(st, 1, s->run_id);
	/* Without a span set, the rows' own when this store saw them all: the SQL's subqueries
	 * find the first start by index but scan every row for the last end (0.45 s for 2.5 M). */
	bind_int(st, 2, s->span_start != PQ_NULL || !s->span_known ? s->span_start : s->seen_first);
	bind_int(st, 3, s->span_end != PQ_NULL || !s->span_known ? s->span_end : s->seen_last);
	rc = step_done(s, st, "cannot finish the run", err);
	sqlite3_finalize(st);
	if (rc != 0 || pq_store_commit(s, err) != 0)
		return -1;
	/* The finished run's derived tables (and those of any finished run that lacks them: a file
	 * written before them, or whose definitions changed), in a transaction of their own: a crash
	 * in between leaves a run the views compute from its events until the next write. */
	if (pq_db_derive_now(s->db, s->rows_known && s->host_ops == 0 ? s->run_id : 0,
			     s->rows_known ? s->host_ops : -1, err) != 0)
		return -1;
	switch_to_wal(s);
	s->run_id = 0;
	release_run(s);
	return 0;
}

int pq_store_abort_run(pq_store *s, pq_error *err)
{
	static const char *const tables[] = {
		"kernels", "memcpys", "memsets", "api_calls", "ranges", "marks", "memory_events",
		"counters", "synchronizations", "flows", "cuda_names", "nvtx_categories", "nvtx_domains",
		"streams", "devices", "threads", "processes", "run_metadata",
	};
	char sql[128];
	int64_t id = s->run_id;

	if (id == 0)
		return 0;
	/* From here the store has no run: no commit notes a time for the run being deleted. */
	s->run_id = 0;
	drop_groups(s);
	if (s->in_txn) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		s->in_txn = 0;
	}
	/* The rollback may have dropped strings the cache still lists. */
	pq_map_free(&s->strings);
	memset(s->recent, 0, sizeof(s->recent));
	s->strings_epoch++;
	pq_map_free(&s->dims);
	if (s->batch_rows < 0) {
		/* One transaction held the whole run (its row, an index drop, added tables): the
		 * rollback took all of it, and deleting would only touch tables it may have removed.
		 * An importer that begins the run again (read another way) expects its rows again. */
		s->deferred = 0;
		s->expect_rows = s->run_expect_rows;
		release_run(s);
		return 0;
	}
	if (begin_txn(s, err) != 0)
		return -1;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE run_id = %" PRId64, tables[i], id);
		if (pq_db_exec(s->db, sql, "cannot delete the run", err) != 0)
			return -1;
	}
	snprintf(sql, sizeof(sql), "DELETE FROM runs WHERE id = %" PRId64, id);
	if (pq_db_exec(s->db, sql, "cannot delete the run", err) != 0 ||
	    (s->deferred && pq_db_build_event_indexes(s->db, &s->progress, err) != 0) ||
	    pq_store_commit(s, err) != 0)
		return -1;
	s->deferred = 0;
	release_run(s);
	return 0;
}

/* Events -------------------------------------------------------------------------------------- */

/* How a table's rows are bound: the integer columns (most of them) in a loop of their own, the
 * others by type (a switch per column mispredicted: ~2 % of the collector's writer). */
typedef struct int_col {
	unsigned short offset;  /* in the row struct */
	unsigned char param, required;
} int_col;

/* A name column's text in the last row that had one, and its strings.id. Neighbouring rows
 * mostly repeat a category or a name (every flow of a Kineto trace is "ac2g"): comparing with
 * the last one costs a fraction of hashing the text again (bench/RESULTS.md). Only short texts. */
#define LAST_NAME_MAX 48
typedef struct last_name {
	int64_t id;             /* 0: none */
	uint64_t epoch;         /* the store's strings epoch id was given under */
	char text[LAST_NAME_MAX];
} last_name;

typedef struct insert_plan {
	bound *bound;           /* what each parameter holds, run_id first; not the integer columns' */
	last_name *names;       /* by index into others: each name column's last text */
	int_col *ints;          /* the integer columns */
	int64_t *last;          /* what each integer column holds, when primed */
	int primed;             /* last[] holds the previous row, which was written */
	unsigned char *others;  /* the other columns' indices into the table's cols */
	size_t nints, nothers;
} insert_plan;

static insert_plan *plan_insert(const pq_table *tab)
{
	size_t n = tab->ncols;
	insert_plan *pl = calloc(1, sizeof(*pl) + n * sizeof(last_name) + n * sizeof(int64_t) +
				    (n + 1) * sizeof(bound) + n * sizeof(int_col) + n);

	if (pl == NULL)
		return NULL;
	pl->names = (last_name *)(pl + 1);
	pl->last = (int64_t *)(pl->names + n);
	pl->bound = (bound *)(pl->last + n);
	pl->ints = (int_col *)(pl->bound + n + 1);
	pl->others = (unsigned char *)(pl->ints + n);
	for (size_t i = 0; i < n; i++) {
		const pq_col *c = &tab->cols[i];

		if (c->type == PQ_COL_INT)
			pl->ints[pl->nints++] = (int_col){ (unsigned short)c->offset,
							   (unsigned char)(i + 2),
							   (unsigned char)c->required };
		else
			pl->others[pl->nothers++] = (unsigned char)i;
	}
	return pl;
}

static int prepare_insert(pq_store *s, enum pq_table_id t, pq_error *err)
{
	const pq_table *tab = &pq_tables[t];
	char sql[2048];
	size_t n;

	if (s->insert[t] != NULL)
		return 0;  /* reset by step_done after every row */
	n = (size_t)snprintf(sql, sizeof(sql), "INSERT INTO %s(run_id", tab->name);
	for (size_t i = 0; i < tab->ncols; i++)
		n += (size_t)snprintf(sql + n, sizeof(sql) - n, ", %s", tab->cols[i].column);
	n += (size_t)snprintf(sql + n, sizeof(sql) - n, ") VALUES (?");
	for (size_t i = 0; i < tab->ncols; i++)
		n += (size_t)snprintf(sql + n, sizeof(sql) - n, ", ?");
	snprintf(sql + n, sizeof(sql) - n, ")");
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->insert[t], NULL) !=
	    SQLITE_OK)
		return fail_db(s, err, "cannot prepare an insert");
	if ((s->plan[t] = plan_insert(tab)) == NULL) {
		sqlite3_finalize(s->insert[t]);
		s->insert[t] = NULL;
		return pq_fail(err, "out of memory");
	}
	return 0;
}

/* Unbinds a failed row's values, and forgets them. */
static void clear_row(pq_store *s, enum pq_table_id t)
{
	sqlite3_clear_bindings(s->insert[t]);
	memset(s->plan[t]->bound, 0, (pq_tables[t].ncols + 1) * sizeof(bound));
	s->plan[t]->primed = 0;
}

/* Binds row's integer columns. Once primed, a value equal to the previous row's is neither
 * bound again nor checked: that row was written, so it had every required one. This is the
 * loop every event goes through, ~34 columns of a kernel; most of them repeat. Sets *missing to
 * the first required column without a value. */
static void bind_ints(sqlite3_stmt *st, insert_plan *pl, const pq_table *tab, const char *base,
		      const pq_col **missing)
{
	const int_col *c = pl->ints;
	int64_t *last = pl->last;
	int all = !pl->primed;

	for (size_t k = 0; k < pl->nints; k++) {
		int64_t v = *(const int64_t *)(base + c[k].offset);

		if (v == last[k] && !all)
			continue;
		last[k] = v;
		if (v != PQ_NULL) {
			sqlite3_bind_int64(st, c[k].param, v);
			continue;
		}
		sqlite3_bind_null(st, c[k].param);
		if (c[k].required && *missing == NULL)
			*missing = &tab->cols[c[k].param - 2];
	}
	pl->primed = 1;
}

/* text's strings.id through ln, the last text of its column (interned and remembered when
 * another). */
static int intern_column(pq_store *s, last_name *ln, const char *text, int64_t *id,
			 pq_error *err)
{
	size_t len;

	if (text != NULL && ln->id > 0 && ln->epoch == s->strings_epoch &&
	    strcmp(ln->text, text) == 0) {
		*id = ln->id;
		return 0;
	}
	if (intern_name(s, text, id, err) != 0)
		return -1;
	if (text != NULL && (len = strnlen(text, LAST_NAME_MAX)) < LAST_NAME_MAX) {
		memcpy(ln->text, text, len + 1);
		ln->id = *id;
		ln->epoch = s->strings_epoch;
	}
	return 0;
}

/* Binds column c of row, a real or a value, to parameter p; 1 when it is a NULL real. */
static int bind_number(sqlite3_stmt *st, bound *b, const pq_col *c, int p, const char *row)
{
	const void *field = row + c->offset;

	if (c->type == PQ_COL_REAL) {
		if (isnan(*(const double *)field)) {
			bind_row_int(st, b, p, PQ_NULL);
			return 1;
		}
		sqlite3_bind_double(st, p, *(const double *)field);
	} else {
		const pq_value *x = field;

		if (x->type == PQ_VALUE_INT)
			sqlite3_bind_int64(st, p, x->i);
		else if (x->type == PQ_VALUE_REAL && !isnan(x->d))
			sqlite3_bind_double(st, p, x->d);
		else
			sqlite3_bind_null(st, p);
	}
	b[p - 1].kind = BOUND_OTHER;
	return 0;
}

/* Binds column c of row (not an integer column) to parameter p (a name column's last text in
 * ln); 1 when it is NULL, -1 on error. */
static int bind_other(pq_store *s, sqlite3_stmt *st, bound *b, const pq_col *c, int p,
		      const char *row, last_name *ln, pq_error *err)
{
	const void *field = row + c->offset;
	int64_t v;

	switch (c->type) {
	case PQ_COL_REAL:
	case PQ_COL_VALUE:
		return bind_number(st, b, c, p, row);
	case PQ_COL_TEXT:
		if (*(const char *const *)field == NULL) {
			bind_row_int(st, b, p, PQ_NULL);
			return 1;
		}
		bind_text(s, st, p, *(const char *const *)field);
		break;
	case PQ_COL_NAME:
		if (c->id_offset != 0 && (v = *(const int64_t *)(row + c->id_offset)) > 0)
			;  /* interned by the caller */
		else if (intern_column(s, ln, *(const char *const *)field, &v, err) != 0)
			return -1;
		bind_row_int(st, b, p, v);
		return v == PQ_NULL;
	case PQ_COL_INT:
		break;
	}
	b[p - 1].kind = BOUND_OTHER;
	return 0;
}

/* Where a row's first and last times are, for the tables and columns of pq_store_finish_run's
 * SQL (a range without an end counts its start); used: the table is in the span. */
static const struct {
	unsigned short first, last;
	unsigned char used;
} span_cols[PQ_T_COUNT] = {
	[PQ_T_KERNELS] = { offsetof(pq_kernel, start_ns), offsetof(pq_kernel, end_ns), 1 },
	[PQ_T_MEMCPYS] = { offsetof(pq_memcpy, start_ns), offsetof(pq_memcpy, end_ns), 1 },
	[PQ_T_MEMSETS] = { offsetof(pq_memset, start_ns), offsetof(pq_memset, end_ns), 1 },
	[PQ_T_API_CALLS] = { offsetof(pq_api_call, start_ns), offsetof(pq_api_call, end_ns), 1 },
	[PQ_T_SYNCHRONIZATIONS] = { offsetof(pq_sync, start_ns), offsetof(pq_sync, end_ns), 1 },
	[PQ_T_RANGES] = { offsetof(pq_range, start_ns), offsetof(pq_range, end_ns), 1 },
	[PQ_T_MARKS] = { offsetof(pq_mark, ts_ns), offsetof(pq_mark, ts_ns), 1 },
	[PQ_T_MEMORY_EVENTS] = { offsetof(pq_memory_event, ts_ns),
				 offsetof(pq_memory_event, ts_ns), 1 },
	[PQ_T_COUNTERS] = { offsetof(pq_counter, ts_ns), offsetof(pq_counter, ts_ns), 1 },
};

/* What a row written adds to the run's span and to its count of host operator ranges. */
static void note_row(pq_store *s, enum pq_table_id t, const void *row)
{
	const char *base = row;
	int64_t first, last;

	if (!span_cols[t].used)
		return;
	first = *(const int64_t *)(base + span_cols[t].first);
	last = *(const int64_t *)(base + span_cols[t].last);
	if (t == PQ_T_RANGES) {
		int64_t kind = ((const pq_range *)row)->kind;

		if (last == PQ_NULL)
			last = first;
		s->host_ops += kind == PQ_RANGE_CPU_OP || kind == PQ_RANGE_USER_ANNOTATION ||
			       kind == PQ_RANGE_PYTHON_FUNCTION;
	}
	if (first != PQ_NULL && (s->seen_first == PQ_NULL || first < s->seen_first))
		s->seen_first = first;
	if (last != PQ_NULL && (s->seen_last == PQ_NULL || last > s->seen_last))
		s->seen_last = last;
}

/* Rows held by table (pq_store_group_rows) --------------------------------------------------- */

/* A Chrome trace gives its tables' rows interleaved (an operator, its launch, the kernel, a flow),
 * and SQLite inserting rows in that order took 10-15 % more time than inserting the same rows a
 * table at a time: each insert goes back to another statement and another B-tree's last pages
 * (bench/RESULTS.md). Held GROUP_ROWS at a time per table, a table's rows go in together; each
 * table's rows keep their order, so their ids are those of writing them one by one. */
#define GROUP_ROWS 256

/* A held row's value of a column that is not an integer (the plan's others): a name's
 * strings.id, or a text's bytes at off in the group's text (len TEXT_NULL: NULL). Reals and
 * values are read from the row's copy. */
#define TEXT_NULL SIZE_MAX
typedef struct held_value {
	int64_t id;
	size_t off, len;
} held_value;

typedef struct row_group {
	char *rows;             /* GROUP_ROWS copies of the table's row struct */
	held_value *held;       /* GROUP_ROWS times the plan's nothers */
	char *text;
	size_t n, text_len, text_cap;
} row_group;

void pq_store_group_rows(pq_store *s, int on)
{
	s->grouped = on;
}

/* Adds text (a column's, NULL or not) to g's text as valid UTF-8 (bind_text's rule): 1 when it
 * is NULL, -1 on error. */
static int hold_text(pq_store *s, row_group *g, const char *v, held_value *h, pq_error *err)
{
	size_t len;
	char *fixed;

	h->len = TEXT_NULL;
	if (v == NULL)
		return 1;
	fixed = pq_utf8_fix(v, strlen(v), &len);
	if (fixed != NULL)
		s->invalid_utf8++;
	else if (len == (size_t)-1) /* no memory for the copy: the bytes given, as bind_text */
		len = strlen(v);
	if (g->text_len + len > g->text_cap) {
		size_t cap = 2 * (g->text_len + len) + 4096;
		char *p = realloc(g->text, cap);

		if (p == NULL) {
			free(fixed);
			return pq_fail(err, "out of memory");
		}
		g->text = p;
		g->text_cap = cap;
	}
	memcpy(g->text + g->text_len, fixed != NULL ? fixed : v, len);
	free(fixed);
	h->off = g->text_len;
	h->len = len;
	g->text_len += len;
	return 0;
}

/* Column c of row (not an integer column) into h: 1 when it is NULL, -1 on error. */
static int hold_value(pq_store *s, row_group *g, const pq_col *c, const char *row,
		      last_name *ln, held_value *h, pq_error *err)
{
	const void *field = row + c->offset;

	switch (c->type) {
	case PQ_COL_NAME:
		if (c->id_offset != 0 && (h->id = *(const int64_t *)(row + c->id_offset)) > 0)
			return 0;  /* interned by the caller */
		if (intern_column(s, ln, *(const char *const *)field, &h->id, err) != 0)
			return -1;
		return h->id == PQ_NULL;
	case PQ_COL_TEXT:
		return hold_text(s, g, *(const char *const *)field, h, err);
	case PQ_COL_REAL:
		return isnan(*(const double *)field);
	case PQ_COL_VALUE:
	case PQ_COL_INT:
		break;
	}
	return 0;
}

/* Writes table t's held rows, in order. After a failure the rest are forgotten: the caller's run
 * has failed. */
static int write_group(pq_store *s, enum pq_table_id t, pq_error *err)
{
	const pq_table *tab = &pq_tables[t];
	insert_plan *pl = s->plan[t];
	row_group *g = &s->groups[t];
	sqlite3_stmt *st = s->insert[t];
	const pq_col *missing = NULL; /* none: checked when held */
	int rc = 0;

	for (size_t i = 0; i < g->n && rc == 0; i++) {
		const char *row = g->rows + i * tab->row_size;
		const held_value *h = g->held + i * pl->nothers;

		bind_row_int(st, pl->bound, 1, s->run_id);
		bind_ints(st, pl, tab, row, &missing);
		/* the copy's names and texts may be gone: those come from h */
		for (size_t k = 0; k < pl->nothers; k++) {
			const pq_col *c = &tab->cols[pl->others[k]];
			int p = pl->others[k] + 2;

			if (c->type == PQ_COL_NAME) {
				bind_row_int(st, pl->bound, p, h[k].id);
			} else if (c->type != PQ_COL_TEXT) {
				bind_number(st, pl->bound, c, p, row);
			} else if (h[k].len == TEXT_NULL) {
				bind_row_int(st, pl->bound, p, PQ_NULL);
			} else {
				sqlite3_bind_text(st, p, g->text + h[k].off, (int)h[k].len,
						  SQLITE_STATIC);
				pl->bound[p - 1].kind = BOUND_OTHER;
			}
		}
		if ((rc = step_done(s, st, "cannot insert a row", err)) != 0)
			clear_row(s, t);
	}
	g->n = 0;
	g->text_len = 0;
	return rc;
}

/* Writes every table's held rows: before a commit, a read of the event tables, or a row that
 * must be written now. */
static int write_groups(pq_store *s, pq_error *err)
{
	for (int t = 0; s->groups != NULL && t < PQ_T_COUNT; t++)
		if (s->groups[t].n > 0 && write_group(s, t, err) != 0)
			return -1;
	return 0;
}

/* Forgets the held rows (their run is thrown away). */
static void drop_groups(pq_store *s)
{
	for (int t = 0; s->groups != NULL && t < PQ_T_COUNT; t++)
		s->groups[t].n = s->groups[t].text_len = 0;
}

static void free_groups(pq_store *s)
{
	for (int t = 0; s->groups != NULL && t < PQ_T_COUNT; t++) {
		free(s->groups[t].rows);
		free(s->groups[t].held);
		free(s->groups[t].text);
	}
	free(s->groups);
	s->groups = NULL;
}

/* Holds row of table t (its insert prepared) to be written with the next ones of t. */
static int hold_row(pq_store *s, enum pq_table_id t, const void *row, pq_error *err)
{
	const pq_table *tab = &pq_tables[t];
	insert_plan *pl = s->plan[t];
	row_group *g;
	held_value *h;
	size_t text_len;

	if (s->groups == NULL && (s->groups = calloc(PQ_T_COUNT, sizeof(*s->groups))) == NULL)
		return pq_fail(err, "out of memory");
	g = &s->groups[t];
	if (g->rows == NULL) {
		g->rows = malloc(GROUP_ROWS * tab->row_size);
		g->held = malloc(GROUP_ROWS * (pl->nothers + 1) * sizeof(*g->held)); /* never 0 */
		if (g->rows == NULL || g->held == NULL) {
			free(g->rows);
			free(g->held);
			g->rows = NULL;
			g->held = NULL;
			return pq_fail(err, "out of memory");
		}
	}
	for (size_t k = 0; k < pl->nints; k++)
		if (pl->ints[k].required &&
		    *(const int64_t *)((const char *)row + pl->ints[k].offset) == PQ_NULL)
			return pq_fail(err, "%s row without %s", tab->name,
				       tab->cols[pl->ints[k].param - 2].column);
	h = g->held + g->n * pl->nothers;
	text_len = g->text_len;
	for (size_t k = 0; k < pl->nothers; k++) {
		const pq_col *c = &tab->cols[pl->others[k]];
		int rc = hold_value(s, g, c, row, &pl->names[k], &h[k], err);

		if (rc == 1 && c->required)
			rc = pq_fail(err, "%s row without %s", tab->name, c->column);
		if (rc < 0) {
			g->text_len = text_len;
			return -1;
		}
	}
	memcpy(g->rows + g->n * tab->row_size, row, tab->row_size);
	g->n++;
	note_row(s, t, row);
	if (g->n == GROUP_ROWS && write_group(s, t, err) != 0)
		return -1;
	return row_written(s, err);
}

static int insert_row(pq_store *s, enum pq_table_id t, const void *row, int64_t *id,
		      pq_error *err)
{
	const pq_table *tab = &pq_tables[t];
	const char *base = row;
	const pq_col *missing = NULL;
	insert_plan *pl;
	sqlite3_stmt *st;

	if (need_run(s, err) != 0 || (s->insert[t] == NULL && prepare_insert(s, t, err) != 0))
		return -1;
	if (s->grouped && id == NULL)
		return hold_row(s, t, row, err);
	/* After the table's held rows: its ids follow the order rows were given in. */
	if (s->groups != NULL && s->groups[t].n > 0 && write_group(s, t, err) != 0)
		return -1;
	st = s->insert[t];
	pl = s->plan[t];
	bind_row_int(st, pl->bound, 1, s->run_id);
	bind_ints(st, pl, tab, base, &missing);
	for (size_t k = 0; k < pl->nothers && missing == NULL; k++) {
		const pq_col *c = &tab->cols[pl->others[k]];
		int rc = bind_other(s, st, pl->bound, c, pl->others[k] + 2, base, &pl->names[k],
				    err);

		if (rc < 0) {
			clear_row(s, t);
			return -1;
		}
		if (rc == 1 && c->required)
			missing = c;
	}
	if (missing != NULL) {
		clear_row(s, t);
		return pq_fail(err, "%s row without %s", tab->name, missing->column);
	}
	if (step_done(s, st, "cannot insert a row", err) != 0) {
		clear_row(s, t);
		return -1;
	}
	if (id != NULL)
		*id = sqlite3_last_insert_rowid(s->db);
	note_row(s, t, row);
	return row_written(s, err);
}

int pq_store_range_end(pq_store *s, int64_t range_id, int64_t end_ns, int64_t end_thread_id,
		       pq_error *err)
{
	sqlite3_stmt *st;

	if (need_run(s, err) != 0 || write_groups(s, err) != 0 ||
	    (st = stmt(s, Q_RANGE_END, err)) == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, range_id);
	bind_int(st, 2, end_ns);
	bind_int(st, 3, end_thread_id);
	sqlite3_bind_int64(st, 4, s->run_id);
	if (step_done(s, st, "cannot end a range", err) != 0)
		return -1;
	if (sqlite3_changes(s->db) != 1)
		return pq_fail(err, "no range %" PRId64 " in the open run", range_id);
	s->span_known = 0; /* the range's start no longer counts, and its end may be earlier */
	return row_written(s, err);
}

/* A row starts as a copy of its table's NULL row, made once: walking the column descriptions
 * for every row was ~2 % of a collector's writer. */
#define ROW_API(type, table)                                                                   \
	static pq_##type type##_null;                                                          \
	static pthread_once_t type##_once = PTHREAD_ONCE_INIT;                                 \
	static void type##_null_make(void)                                                     \
	{                                                                                      \
		memset(&type##_null, 0, sizeof(type##_null));                                 \
		pq_table_init_row(&pq_tables[table], &type##_null);                            \
	}                                                                                      \
	void pq_##type##_init(pq_##type *r)                                                    \
	{                                                                                      \
		pthread_once(&type##_once, type##_null_make);                                  \
		*r = type##_null;                                                              \
	}                                                                                      \
	int pq_store_##type(pq_store *s, const pq_##type *r, int64_t *id, pq_error *err)       \
	{                                                                                      \
		return insert_row(s, table, r, id, err);                                       \
	}

ROW_API(kernel, PQ_T_KERNELS)
ROW_API(memcpy, PQ_T_MEMCPYS)
ROW_API(memset, PQ_T_MEMSETS)
ROW_API(api_call, PQ_T_API_CALLS)
ROW_API(range, PQ_T_RANGES)
ROW_API(mark, PQ_T_MARKS)
ROW_API(memory_event, PQ_T_MEMORY_EVENTS)
ROW_API(counter, PQ_T_COUNTERS)
ROW_API(sync, PQ_T_SYNCHRONIZATIONS)
ROW_API(flow, PQ_T_FLOWS)
ROW_API(cuda_name, PQ_T_CUDA_NAMES)

void pq_run_info_init(pq_run_info *r)
{
	memset(r, 0, sizeof(*r));
	r->rank = PQ_NULL;
}

void pq_device_init(pq_device *d)
{
	memset(d, 0, sizeof(*d));
	d->ordinal = d->compute_major = d->compute_minor = d->sm_count = d->warp_size = PQ_NULL;
	d->max_threads_per_block = d->max_threads_per_sm = d->max_blocks_per_sm = PQ_NULL;
	d->max_registers_per_block = d->max_registers_per_sm = PQ_NULL;
	d->max_shared_memory_per_block = d->max_shared_memory_per_sm = PQ_NULL;
	d->shared_memory_per_block_optin = d->l2_cache_bytes = d->global_memory_bytes = PQ_NULL;
	d->core_clock_hz = d->memory_clock_hz = d->memory_bus_width_bits = PQ_NULL;
	d->memory_bandwidth_bytes_per_s = PQ_NULL;
}
