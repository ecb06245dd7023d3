/* db_attach.h - another profq database attached to a connection, read-only. */
#ifndef PQ_DB_ATTACH_H
#define PQ_DB_ATTACH_H

#include <sqlite3.h>

#include "error.h"

/* Attaches the profq database at path to db (which must have been opened with SQLITE_OPEN_URI)
 * as `schema`, read-only, and checks it is a profq database of a version this build reads. A
 * file without a write-ahead log to read is also attached immutable, so SQLite makes no -shm or
 * -wal file next to it: the file is left exactly as it was. On failure nothing stays attached. */
int pq_db_attach_readonly(sqlite3 *db, const char *path, const char *schema, pq_error *err);

#endif
