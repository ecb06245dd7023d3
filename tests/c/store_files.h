/* store_files.h - what the store's tests share: their scratch directory's files, a value read
 * back as a live reader sees it, a store with a run begun. dir is made by the test's main. */
#ifndef PQ_TEST_STORE_FILES_H
#define PQ_TEST_STORE_FILES_H

#include <stdio.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "store.h"

static char dir[256];

/* Makes dir, a new directory named prefix-XXXXXX under $TMPDIR (or /tmp): 0, or -1 after a
 * "Bail out!" line. */
static inline int make_dir(const char *prefix)
{
	snprintf(dir, sizeof(dir), "%s/%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 prefix);
	if (mkdtemp(dir) == NULL) {
		puts("Bail out! cannot make a temporary directory");
		return -1;
	}
	return 0;
}

static inline void remove_dir(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
}

static inline const char *path_in(const char *name)
{
	static char buf[4][512];
	static int next;
	char *p = buf[next++ % 4];

	snprintf(p, sizeof(buf[0]), "%s/%s", dir, name);
	return p;
}

/* One integer from a query on a separate read-only connection (what a live reader sees). */
static inline int64_t query_int(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int64_t v = -999;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_type(st, 0) == SQLITE_NULL ? PQ_NULL : sqlite3_column_int64(st, 0);
	else
		printf("# query failed: %s: %s\n", sql, db ? sqlite3_errmsg(db) : "?");
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* A store on path (batch_rows as pq_store_open) with a run of that source begun. */
static inline pq_store *open_with_run(const char *path, int64_t batch_rows, const char *source)
{
	pq_store *s = NULL;
	pq_error err;
	pq_run_info run;

	pq_store_open(path, batch_rows, &s, &err);
	pq_run_info_init(&run);
	run.source = source;
	pq_store_begin_run(s, &run, NULL, &err);
	return s;
}

#endif
