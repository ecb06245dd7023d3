/* profq.h - the extension's entry point, for programs that link the extension in (the CLI)
 * rather than load profq.so. */
#ifndef PQ_PROFQ_H
#define PQ_PROFQ_H

#include <sqlite3.h>

/* Registers every profq SQL function on db; SQLite derives this name from the file profq.so. */
int sqlite3_profq_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api);

#endif
