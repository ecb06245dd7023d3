/* db.h - opening profq database files: create with the schema, or check an existing file is one.
 *
 * Nothing here writes to a file before it has been checked to be a profq database of a version
 * this build understands, so a wrong path never damages someone else's file.
 */
#ifndef PQ_DB_H
#define PQ_DB_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "error.h"
#include "progress.h"

enum pq_open_mode {
	PQ_OPEN_READ,    /* existing profq database, read-only */
	PQ_OPEN_WRITE,   /* existing profq database, read-write */
	PQ_OPEN_CREATE   /* read-write; a missing or empty file gets the schema */
};

/* Opens path. On success *out is an open connection (the caller closes it with sqlite3_close) and
 * *created, if not NULL, says whether this call created the file. On failure *out is NULL, err says
 * why, and no file was created or changed. */
int pq_db_open(const char *path, enum pq_open_mode mode, sqlite3 **out, int *created,
	       pq_error *err);

/* Checks that db (already open on path) is a profq database this build can read. */
int pq_db_check(sqlite3 *db, const char *path, pq_error *err);

/* Runs the embedded schema and views in one transaction on an empty database. */
int pq_db_create_schema(sqlite3 *db, pq_error *err);

/* The operating system's reason (strerror) behind db's last I/O error ("File too large", "No
 * space left on device"; for a failed write whose errno was lost, what it means), or NULL when the
 * last error was not one. */
const char *pq_db_os_error(sqlite3 *db);

/* Runs sql (several statements allowed) and reports a failure as "<what>: <sqlite message>", with
 * the operating system's reason for an I/O error. */
int pq_db_exec(sqlite3 *db, const char *sql, const char *what, pq_error *err);

/* Whether every statement of sql only reads (SQLite's own judgement, sqlite3_stmt_readonly). The
 * scan stops at a statement that does not prepare: with only reads before it, nothing it could
 * need was created, so running it read-only shows its error as it is. */
int pq_db_sql_reads_only(sqlite3 *db, const char *sql);

/* Whether db has a table of that name (len bytes of it, or -1: up to its NUL). */
int pq_db_has_table(sqlite3 *db, const char *name, int len);

/* Every connection profq opens, before its first statement: defensive, the file's schema not
 * trusted (its views and triggers can call only SQLITE_INNOCUOUS functions), no triggers fired,
 * no extension loading (db_trust.c). */
void pq_db_harden(sqlite3 *db);

/* The triggers and views of db that this build's schema does not make, as "trigger t, view v"
 * into names (n bytes, truncated); returns how many (a view of profq's name with older text counts
 * as profq's), -1 with err set when the schema cannot be read. */
int pq_db_foreign_objects(sqlite3 *db, char *names, size_t n, pq_error *err);

/* Fails, naming them, when db holds triggers or views profq did not make (pq_db_open calls it
 * before it hands out a connection that may write). */
int pq_db_check_writable(sqlite3 *db, const char *path, pq_error *err);

/* Brings profq's views to this build's text: missing ones created, changed ones replaced. */
int pq_db_refresh_views(sqlite3 *db, pq_error *err);

/* Everything a writer brings up to date before its run's first row, in the caller's transaction:
 * missing tables, the runs table's status values, the views, the retired indexes dropped
 * (db_upgrade.c). */
int pq_db_upgrade(sqlite3 *db, pq_error *err);

/* Runs whose writers are gone, closed by pq_db_repair_runs (db_repair.c). */
#define PQ_REPAIR_MAX 64
typedef struct pq_repair {
	int64_t ids[PQ_REPAIR_MAX];  /* the runs closed as 'aborted' */
	int closed;
	int live;                     /* open runs still being written */
	int indexes_built;            /* missing event indexes built (only when live == 0) */
} pq_repair;

/* Closes every open run of db that no process holds the lock of (runlock.h) as 'aborted', and
 * builds the missing event indexes when no run is being written any more. Joins the caller's
 * transaction, which must be a write transaction (BEGIN IMMEDIATE) so no run begins meanwhile. */
int pq_db_repair_runs(sqlite3 *db, pq_repair *r, pq_error *err);

/* Creates the tables of schema/schema.sql and the views of schema/views.sql that the file lacks
 * (added to schema version 1 after the file was written); joins the caller's transaction when one
 * is open. */
int pq_db_add_missing_tables(sqlite3 *db, pq_error *err);

/* Gives this connection the views of schema/views.sql that the file lacks, as TEMP views (nothing
 * is written to the file). pq_db_open does it for every file it opens. */
int pq_db_add_temp_views(sqlite3 *db, pq_error *err);
/* View name of schema/views.sql as a TEMP view of this connection (nothing is written to the
 * file): 0 also when there is no such view. */
int pq_db_add_temp_view(sqlite3 *db, const char *name, pq_error *err);

/* The derived tables (db_derive.c, docs/schema.md): pq_db_derive writes them for every finished
 * run that lacks them (joins the caller's transaction; a no-op on a file without them);
 * pq_db_forget_derived empties them (their definitions changed: the next pq_db_derive rewrites
 * them); pq_db_is_derived_view says whether a view of schema/views.sql defines one;
 * pq_db_add_temp_derived gives a connection to an older file empty TEMP stand-ins. */
int pq_db_derive(sqlite3 *db, pq_error *err);
int pq_db_forget_derived(sqlite3 *db, pq_error *err);
int pq_db_is_derived_view(const char *name);
int pq_db_add_temp_derived(sqlite3 *db, pq_error *err);
/* When every run of db is derived, TEMP views that read the derived tables only (db_derive.c). */
int pq_db_shadow_derived(sqlite3 *db, pq_error *err);
/* pq_db_derive for a writer whose runs are committed and that has no transaction open: its own
 * transaction, and some tables computed meanwhile by a second thread and connection (the file's
 * committed rows), since the import waits for the derived tables. no_host_ops: a run the writer
 * knows has no cpu_op, user_annotation or python_function range, whose tb_* tables are empty
 * without computing them (0: none); host_ops: how many such ranges the writer wrote (-1 when it
 * does not know), which decides how much of the work runs at once (memory). */
int pq_db_derive_now(sqlite3 *db, int64_t no_host_ops, int64_t host_ops, pq_error *err);

/* The event tables' secondary indexes (schema/schema.sql's CREATE INDEX statements on event
 * tables), dropped before a bulk load and built again after it (db_indexes.c). Building joins the
 * caller's transaction when one is open; indexes that exist are left alone. Building reports
 * PQ_PHASE_INDEX (indexes done, of all) to progress, which may be NULL. keep_partial leaves the
 * partial indexes (those with a WHERE) in place: for rows that fill none of them, keeping them
 * costs a test per row, and building one costs a scan of its table. */
int pq_db_drop_event_indexes(sqlite3 *db, int keep_partial, pq_error *err);
int pq_db_build_event_indexes(sqlite3 *db, const pq_progress *progress, pq_error *err);
/* How many of those indexes the file lacks (-1 when it cannot tell). */
int pq_db_missing_event_indexes(sqlite3 *db);
/* An upper bound on the rows the event tables hold, from their largest ids. */
int64_t pq_db_event_rows(sqlite3 *db);

#endif
