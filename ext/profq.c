/* profq.c - the extension's entry point: checks the SQLite version and registers every family. */
#define PQ_EXT_MAIN
#include "ext.h"
SQLITE_EXTENSION_INIT1

#include <stdio.h>

/* Window functions (used by the statistics family) need SQLite 3.25.0. */
#define PQ_MIN_SQLITE 3025000

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_profq_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api)
{
	int rc;

	SQLITE_EXTENSION_INIT2(api);
	if (sqlite3_libversion_number() < PQ_MIN_SQLITE) {
		if (errmsg != NULL)
			*errmsg = sqlite3_mprintf("profq needs SQLite 3.25.0 or newer, this is %s",
						  sqlite3_libversion());
		return SQLITE_ERROR;
	}
	rc = pq_ext_info_init(db);
	if (rc == SQLITE_OK)
		rc = pq_ext_flops_init(db);
	if (rc == SQLITE_OK)
		rc = pq_ext_stats_init(db);
	if (rc == SQLITE_OK)
		rc = pq_ext_names_init(db);
	if (rc == SQLITE_OK)
		rc = pq_ext_tensor_core_init(db);
	if (rc == SQLITE_OK)
		rc = pq_ext_intervals_init(db);
	if (rc == SQLITE_OK)
		rc = pq_ext_nvtx_proj_init(db);
	if (rc == SQLITE_OK)
		rc = pq_ext_hta_time_init(db);
	return rc;
}
