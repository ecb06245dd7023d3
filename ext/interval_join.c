/* interval_join.c - placeholder (filled in below). */
#include "ext.h"
#include "iv_util.h"
int pq_ext_interval_join_init(sqlite3 *db)
{
	(void)db;
	return SQLITE_OK;
}
