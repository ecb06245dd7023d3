/* db_attach.h - profq databases opened or attached read-only, leaving the files untouched. */
#ifndef PQ_DB_ATTACH_H
#define PQ_DB_ATTACH_H

#include <sqlite3.h>

#include "error.h"

/* Attaches the profq database at path to db (which must have been opened with SQLITE_OPEN_URI)
 * as `schema`, read-only, and checks it is a profq database of a version this build reads. A
 * file that no other connection can be using (no -wal, -shm or -journal file next to it) is also
 * attached immutable, so SQLite makes no side file: it is left exactly as it was. On failure
 * nothing stays attached. */
int pq_db_attach_readonly(sqlite3 *db, const char *path, const char *schema, pq_error *err);

/* Opens the profq database at path read-only the same way (immutable when nothing else uses it,
 * so no side files appear), checked with pq_db_check(); the caller closes *out. */
int pq_db_open_readonly(const char *path, sqlite3 **out, pq_error *err);

#endif
