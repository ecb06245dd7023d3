/* db.c - open, check and create profq databases. */
#include "db.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hint.h"
#include "schema_sql.h"
#include "version.h"

const char *pq_db_os_error(sqlite3 *db)
{
	int ext = sqlite3_extended_errcode(db), code = ext & 0xff, e = sqlite3_system_errno(db);

	if ((code == SQLITE_IOERR || code == SQLITE_FULL || code == SQLITE_CANTOPEN) && e != 0)
		return strerror(e);
	/* SQLite's unix layer reads errno late; a rollback after the failed write may reset it. */
	if (ext == SQLITE_IOERR_WRITE || code == SQLITE_FULL)
		return "a write failed: the disk is full, or the file reached a size limit (ulimit -f)";
	return NULL;
}

int pq_db_exec(sqlite3 *db, const char *sql, const char *what, pq_error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		const char *os = pq_db_os_error(db);

		pq_fail(err, "%s: %s%s%s%s", what, msg ? msg : sqlite3_errmsg(db), os ? " (" : "",
			os ? os : "", os ? ")" : "");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* An Nsight Systems report where a database was expected: what to run instead. */
static int report_hint(const char *path, pq_error *err)
{
	char export[600], import[600];

	pq_hint_nsys_export(export, sizeof(export), path);
	pq_hint_profq_import(import, sizeof(import), path);
	return pq_fail(err, "'%s' is an Nsight Systems report, not a profq database; export and "
		       "import it first: %s; %s", path, export, import);
}

/* Reads one integer PRAGMA; a file that is not SQLite fails here, before anything is written. */
static int pragma_int(sqlite3 *db, const char *path, const char *pragma, int64_t *value,
		      pq_error *err)
{
	sqlite3_stmt *st = NULL;
	char sql[64];
	int rc;

	snprintf(sql, sizeof(sql), "PRAGMA %s", pragma);
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*value = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		return 0;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_NOTADB && pq_is_nsys_report(path))
		return report_hint(path, err);
	if (rc == SQLITE_NOTADB)
		return pq_fail(err, "'%s' is not an SQLite database", path);
	/* A new file's first import that was killed (store.c): only a writer can roll it back. */
	if (sqlite3_extended_errcode(db) == SQLITE_READONLY_ROLLBACK)
		return pq_fail(err, "cannot read '%s': a write to it was interrupted, and its journal "
			       "('%s-journal') must be rolled back first: run 'profq repair %s'", path,
			       path, path);
	return pq_fail(err, "cannot read '%s': %s", path, sqlite3_errmsg(db));
}

int pq_db_has_table(sqlite3 *db, const char *name, int len)
{
	sqlite3_stmt *st = NULL;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?1",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, name, len, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return found;
}

int pq_db_sql_reads_only(sqlite3 *db, const char *sql)
{
	const char *tail = sql;

	while (*tail != '\0') {
		sqlite3_stmt *st = NULL;
		int ro;

		if (sqlite3_prepare_v2(db, tail, -1, &st, &tail) != SQLITE_OK)
			return 1;
		if (st == NULL)
			break;  /* only whitespace or comments left */
		ro = sqlite3_stmt_readonly(st);
		sqlite3_finalize(st);
		if (!ro)
			return 0;
	}
	return 1;
}

int pq_db_check(sqlite3 *db, const char *path, pq_error *err)
{
	int64_t app_id, version, tables;

	if (pragma_int(db, path, "application_id", &app_id, err) != 0)
		return -1;
	if (app_id != PQ_APPLICATION_ID) {
		if (pragma_int(db, path, "schema_version", &tables, err) != 0)
			return -1;
		if (tables == 0 && pq_is_nsys_report(path))
			return report_hint(path, err);
		if (tables == 0)
			return pq_fail(err, "'%s' is an empty SQLite database, not a profq database",
				       path);
		if (pq_db_has_table(db, "META_DATA_EXPORT", -1) ||
		    pq_db_has_table(db, "EXPORT_META_DATA", -1) ||
		    pq_db_has_table(db, "StringIds", -1)) {
			char import[600];

			pq_hint_profq_import(import, sizeof(import), path);
			return pq_fail(err, "'%s' is an Nsight Systems export, not a profq database; "
				       "import it first: %s", path, import);
		}
		return pq_fail(err, "'%s' is an SQLite database but not a profq database", path);
	}
	if (pragma_int(db, path, "user_version", &version, err) != 0)
		return -1;
	if (version > PQ_SCHEMA_VERSION)
		return pq_fail(err,
			       "'%s' has schema version %lld, newer than this profq (%s) reads "
			       "(version %d); upgrade profq", path, (long long)version,
			       PROFQ_VERSION, PQ_SCHEMA_VERSION);
	if (version < 1)
		return pq_fail(err, "'%s' is marked as a profq database but has no schema version",
			       path);
	return 0;
}

/* A new file's page size. profq's rows are written in bulk and read by scans, and a range with its
 * args often overflows a 4 KiB page's cell: 16 KiB pages write a file in a quarter of the system
 * calls (the ResNet50 sample's commit 45 -> 25 ms, its import -9 %) and the reports that scan
 * ranges read fewer overflow pages (nvtx-sum -21 %; bench/RESULTS.md). */
#define NEW_FILE_PAGE_SIZE "16384"

int pq_db_create_schema(sqlite3 *db, pq_error *err)
{
	/* Takes effect only while the file is empty: an existing one keeps its own. */
	if (pq_db_exec(db, "PRAGMA page_size = " NEW_FILE_PAGE_SIZE, "cannot create the schema",
		       err) != 0 ||
	    pq_db_exec(db, "BEGIN", "cannot create the schema", err) != 0)
		return -1;
	if (pq_db_exec(db, pq_schema_sql, "cannot create the schema", err) != 0 ||
	    pq_db_exec(db, pq_views_sql, "cannot create the views", err) != 0) {
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return pq_db_exec(db, "COMMIT", "cannot create the schema", err);
}

int pq_db_open(const char *path, enum pq_open_mode mode, sqlite3 **out, int *created,
	       pq_error *err)
{
	struct stat sb;
	int exists, empty, flags, is_new;
	sqlite3 *db = NULL;

	*out = NULL;
	if (created != NULL)
		*created = 0;
	exists = stat(path, &sb) == 0;
	if (!exists && (errno != ENOENT || mode != PQ_OPEN_CREATE))
		return pq_fail(err, "cannot open '%s': %s", path, strerror(errno));
	if (exists && S_ISDIR(sb.st_mode))
		return pq_fail(err, "cannot open '%s': is a directory", path);
	empty = exists && S_ISREG(sb.st_mode) && sb.st_size == 0;
	is_new = mode == PQ_OPEN_CREATE && (!exists || empty);

	/* One connection is used by one thread at a time, so SQLite's mutexes are pure cost. */
	flags = (mode == PQ_OPEN_READ ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) |
		SQLITE_OPEN_NOMUTEX;
	if (mode == PQ_OPEN_CREATE && !exists)
		flags |= SQLITE_OPEN_CREATE;
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		pq_fail(err, "cannot open '%s': %s", path,
			db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return -1;
	}
	sqlite3_extended_result_codes(db, 1);
	sqlite3_busy_timeout(db, 5000);
	pq_db_harden(db);

	if (is_new) {
		if (pq_db_create_schema(db, err) != 0) {
			sqlite3_close(db);
			if (!exists)
				unlink(path);
			return -1;
		}
		if (created != NULL)
			*created = 1;
	} else if (pq_db_check(db, path, err) != 0 ||
		   (mode != PQ_OPEN_READ && pq_db_check_writable(db, path, err) != 0) ||
		   (mode == PQ_OPEN_READ && pq_db_add_temp_derived(db, err) != 0) ||
		   pq_db_add_temp_views(db, err) != 0 ||
		   (mode == PQ_OPEN_READ && pq_db_shadow_derived(db, err) != 0)) {
		sqlite3_close(db);
		return -1;
	}
	*out = db;
	return 0;
}
