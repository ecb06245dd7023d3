/* merge_copy.h - the SQL work of a merge (internal to lib/merge*.c): with an input attached
 * read-only as schema "src" to the output's connection, whether one of its runs is already in the
 * output, and copying all its rows. */
#ifndef PQ_MERGE_COPY_H
#define PQ_MERGE_COPY_H

#include <stdint.h>

#include <sqlite3.h>

#include "error.h"

int merge_exec(sqlite3 *db, const char *sql, pq_error *err);
int merge_sql_fail(sqlite3 *db, pq_error *err, const char *what);
/* The first column of the first row of sql (?1 bound to bind unless that is PQ_NULL), or dflt. */
int64_t merge_query_int(sqlite3 *db, const char *sql, int64_t bind, int64_t dflt);

/* A run of the output with id at most upto that is src's run `run`: its id, 0 when none, -1 when
 * src cannot be read. The same run_metadata source_sha256 when both have one; else the same
 * source, source_path, created_utc and row counts per event table. */
int64_t merge_same_run(sqlite3 *db, int64_t run, int64_t upto);

/* Copies the runs of src and every row that belongs to them into main; *run_offset receives
 * what was added to src's run ids. Joins the caller's transaction. */
int merge_copy(sqlite3 *db, int64_t *run_offset, pq_error *err);

#endif
