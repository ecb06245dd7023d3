/* db.h - opening profq database files: create with the schema, or check an existing file is one.
 *
 * Nothing here writes to a file before it has been checked to be a profq database of a version
 * this build understands, so a wrong path never damages someone else's file.
 */
#ifndef PQ_DB_H
#define PQ_DB_H

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

/* Runs sql (several statements allowed) and reports a failure as "<what>: <sqlite message>". */
int pq_db_exec(sqlite3 *db, const char *sql, const char *what, pq_error *err);

/* Whether db has a table of that name (len bytes of it, or -1: up to its NUL). */
int pq_db_has_table(sqlite3 *db, const char *name, int len);

/* Creates the tables of schema/schema.sql and the views of schema/views.sql that the file lacks
 * (added to schema version 1 after the file was written); joins the caller's transaction when one
 * is open. */
int pq_db_add_missing_tables(sqlite3 *db, pq_error *err);

/* Gives this connection the views of schema/views.sql that the file lacks, as TEMP views (nothing
 * is written to the file). pq_db_open does it for every file it opens. */
int pq_db_add_temp_views(sqlite3 *db, pq_error *err);

/* The event tables' secondary indexes (schema/schema.sql's CREATE INDEX statements on event
 * tables), dropped before a bulk load and built again after it (db_indexes.c). Building joins the
 * caller's transaction when one is open; indexes that exist are left alone. Building reports
 * PQ_PHASE_INDEX (indexes done, of all) to progress, which may be NULL. */
int pq_db_drop_event_indexes(sqlite3 *db, pq_error *err);
int pq_db_build_event_indexes(sqlite3 *db, const pq_progress *progress, pq_error *err);
/* How many of those indexes the file lacks (-1 when it cannot tell). */
int pq_db_missing_event_indexes(sqlite3 *db);
/* An upper bound on the rows the event tables hold, from their largest ids. */
int64_t pq_db_event_rows(sqlite3 *db);

#endif
