/* ext.h - shared by the extension's source files.
 *
 * The extension builds two ways from the same sources: as the loadable profq.so, where every call
 * goes through the sqlite3_api pointer that SQLITE_EXTENSION_INIT1/2 set up, and linked into the
 * profq CLI with -DSQLITE_CORE, where sqlite3ext.h turns those macros into nothing.
 * Each function family lives in its own file and registers itself through a pq_ext_*_init().
 */
#ifndef PQ_EXT_H
#define PQ_EXT_H

#include <sqlite3ext.h>

#ifndef PQ_EXT_MAIN
SQLITE_EXTENSION_INIT3
#endif

/* Flags for functions whose result depends only on their arguments. */
#define PQ_FUNC_FLAGS (SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS)

int pq_ext_info_init(sqlite3 *db);
int pq_ext_flops_init(sqlite3 *db);
int pq_ext_stats_init(sqlite3 *db);
int pq_ext_names_init(sqlite3 *db);
int pq_ext_tensor_core_init(sqlite3 *db);
int pq_ext_intervals_init(sqlite3 *db);
int pq_ext_nvtx_proj_init(sqlite3 *db);
int pq_ext_hta_time_init(sqlite3 *db);

/* The entry point (declared in profq.h too, for programs that link the extension in). */
int sqlite3_profq_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api);

#endif
