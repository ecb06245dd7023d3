/* db_attach.c - attaching a profq database read-only (merge, diff). */
#include "db_attach.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "db.h"
#include "version.h"

/* A file: URI for a path, every byte outside the unreserved set percent-encoded. */
static char *file_uri(const char *path, const char *query)
{
	size_t n = strlen(path), k = 0;
	char *u = malloc(3 * n + strlen(query) + 16);

	if (u == NULL)
		return NULL;
	k += (size_t)sprintf(u, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p) != NULL)
			u[k++] = (char)*p;
		else
			k += (size_t)sprintf(u + k, "%%%02X", *p);
	}
	sprintf(u + k, "%s", query);
	return u;
}

static sqlite3_int64 pragma(sqlite3 *db, const char *schema, const char *name)
{
	char sql[128];
	sqlite3_stmt *st;
	sqlite3_int64 v = -1;

	snprintf(sql, sizeof(sql), "PRAGMA \"%s\".%s", schema, name);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	return v;
}

/* The URI that opens path read-only; immutable (no locks, no side files) only when no other
 * connection can be using it: no -wal, -shm or -journal file next to it. */
static char *readonly_uri(const char *path)
{
	static const char *const side[] = { "-wal", "-shm", "-journal" };
	char name[4200];
	struct stat sb;

	for (size_t i = 0; i < sizeof(side) / sizeof(side[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", path, side[i]);
		if (stat(name, &sb) == 0)
			return file_uri(path, "?mode=ro");
	}
	return file_uri(path, "?mode=ro&immutable=1");
}

int pq_db_open_readonly(const char *path, sqlite3 **out, pq_error *err)
{
	struct stat sb;
	sqlite3 *db = NULL;
	char *uri;

	*out = NULL;
	if (stat(path, &sb) != 0)
		return pq_fail(err, "cannot open '%s': no such file", path);
	if (S_ISDIR(sb.st_mode))
		return pq_fail(err, "cannot open '%s': is a directory", path);
	if ((uri = readonly_uri(path)) == NULL)
		return pq_fail(err, "out of memory");
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		pq_fail(err, "cannot open '%s': %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		free(uri);
		return -1;
	}
	free(uri);
	sqlite3_extended_result_codes(db, 1);
	if (pq_db_check(db, path, err) != 0) {
		sqlite3_close(db);
		return -1;
	}
	*out = db;
	return 0;
}

int pq_db_attach_readonly(sqlite3 *db, const char *path, const char *schema, pq_error *err)
{
	char detach[96];
	struct stat sb;
	sqlite3_stmt *st;
	sqlite3_int64 app, version;
	char *uri;
	int rc;

	if (stat(path, &sb) != 0)
		return pq_fail(err, "cannot open '%s': no such file", path);
	if (S_ISDIR(sb.st_mode))
		return pq_fail(err, "cannot open '%s': is a directory", path);
	if ((uri = readonly_uri(path)) == NULL)
		return pq_fail(err, "out of memory");
	rc = sqlite3_prepare_v2(db, "ATTACH ?1 AS ?2", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, schema, -1, SQLITE_STATIC);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		sqlite3_finalize(st);
	}
	free(uri);
	if (rc != SQLITE_OK)
		return pq_fail(err, "cannot open '%s': %s", path, sqlite3_errmsg(db));
	app = pragma(db, schema, "application_id");
	version = pragma(db, schema, "user_version");
	snprintf(detach, sizeof(detach), "DETACH \"%s\"", schema);
	if (app != PQ_APPLICATION_ID) {
		sqlite3_exec(db, detach, NULL, NULL, NULL);
		return pq_fail(err, "'%s' is not a profq database", path);
	}
	if (version < 1 || version > PQ_SCHEMA_VERSION) {
		sqlite3_exec(db, detach, NULL, NULL, NULL);
		return pq_fail(err, "'%s' has schema version %lld; this profq reads version %d", path,
			       (long long)version, PQ_SCHEMA_VERSION);
	}
	return 0;
}
