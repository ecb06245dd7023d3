/* info.c - profq_version() and profq_schema_version(): which build a connection has loaded. */
#include "ext.h"

#include <stddef.h>

#include "../lib/version.h"

static void version_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_text(ctx, PROFQ_VERSION, -1, SQLITE_STATIC);
}

static void schema_version_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_int(ctx, PQ_SCHEMA_VERSION);
}

int pq_ext_info_init(sqlite3 *db)
{
	int rc = sqlite3_create_function_v2(db, "profq_version", 0, PQ_FUNC_FLAGS, NULL,
					    version_func, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function_v2(db, "profq_schema_version", 0, PQ_FUNC_FLAGS, NULL,
						schema_version_func, NULL, NULL, NULL);
	return rc;
}
