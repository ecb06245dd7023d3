/* db_attach.c - attaching a profq database read-only (merge, diff). */
#include "db_attach.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int pq_db_attach_readonly(sqlite3 *db, const char *path, const char *schema, pq_error *err)
{
	char wal[4200], detach[96];
	struct stat sb;
	sqlite3_stmt *st;
	sqlite3_int64 app, version;
	char *uri;
	int rc;

	if (stat(path, &sb) != 0)
		return pq_fail(err, "cannot open '%s': no such file", path);
	if (S_ISDIR(sb.st_mode))
		return pq_fail(err, "cannot open '%s': is a directory", path);
	snprintf(wal, sizeof(wal), "%s-wal", path);
	uri = file_uri(path, stat(wal, &sb) == 0 && sb.st_size > 0 ? "?mode=ro"
								    : "?mode=ro&immutable=1");
	if (uri == NULL)
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
