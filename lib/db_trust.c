/* db_trust.c - a profq file is data, never code: hardened connections, and the check that
 * refuses to write into a file carrying triggers or views profq did not make.
 *
 * Anyone can hand over a profile. SQLite runs what a file's schema says: triggers fire on writes,
 * views and CHECK/DEFAULT expressions call functions. So every connection is defensive (no
 * writable_schema, no journal tricks), does not trust the schema (functions that are not
 * SQLITE_INNOCUOUS cannot be called from it), fires no triggers and loads no extensions; and
 * before writing, the file's triggers and views are compared with the ones the embedded schema
 * (schema/schema.sql + schema/views.sql) would create.
 */
#include "db.h"

#include <stdio.h>
#include <string.h>

#include "schema_sql.h"

void pq_db_harden(sqlite3 *db)
{
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)NULL);
}

/* The schema this build creates, in a private in-memory database. */
static int reference(sqlite3 **ref, pq_error *err)
{
	if (sqlite3_open_v2(":memory:", ref, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(*ref);
		*ref = NULL;
		return pq_fail(err, "out of memory");
	}
	pq_db_harden(*ref);
	if (pq_db_exec(*ref, pq_schema_sql, "cannot build the reference schema", err) != 0 ||
	    pq_db_exec(*ref, pq_views_sql, "cannot build the reference views", err) != 0) {
		sqlite3_close(*ref);
		*ref = NULL;
		return -1;
	}
	return 0;
}

/* The sql text of (type, name) in db; NULL when db has no such object. Caller frees. */
static char *object_sql(sqlite3 *db, const char *type, const char *name)
{
	sqlite3_stmt *st = NULL;
	char *sql = NULL;

	if (sqlite3_prepare_v2(db, "SELECT coalesce(sql, '') FROM main.sqlite_master "
			       "WHERE type = ?1 AND name = ?2", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, type, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			sql = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return sql;
}

int pq_db_foreign_objects(sqlite3 *db, char *names, size_t n, pq_error *err)
{
	sqlite3 *ref;
	sqlite3_stmt *st = NULL;
	size_t used = 0;
	int count = 0, rc;

	if (n > 0)
		names[0] = '\0';
	if (reference(&ref, err) != 0)
		return -1;
	if (sqlite3_prepare_v2(db, "SELECT type, name FROM main.sqlite_master "
			       "WHERE type IN ('trigger', 'view') ORDER BY type, name", -1, &st,
			       NULL) != SQLITE_OK) {
		pq_fail(err, "cannot read the schema: %s", sqlite3_errmsg(db));
		sqlite3_close(ref);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		char *mine;

		if (type == NULL || name == NULL)
			continue;
		/* Any trigger is foreign (profq makes none); a view is profq's when this build
		 * makes one of that name: an older build's text is refreshed on write. */
		mine = strcmp(type, "view") == 0 ? object_sql(ref, type, name) : NULL;
		if (mine != NULL) {
			sqlite3_free(mine);
			continue;
		}
		if (used < n) {
			int w = snprintf(names + used, n - used, "%s%s %s", count ? ", " : "", type,
					 name);
			used += w > 0 ? (size_t)w : 0;
		}
		count++;
	}
	sqlite3_finalize(st);
	sqlite3_close(ref);
	if (rc != SQLITE_DONE)
		return pq_fail(err, "cannot read the schema: %s", sqlite3_errmsg(db));
	return count;
}

int pq_db_check_writable(sqlite3 *db, const char *path, pq_error *err)
{
	char names[512];
	int n = pq_db_foreign_objects(db, names, sizeof(names), err);

	if (n < 0)
		return -1;
	if (n > 0)
		return pq_fail(err, "'%s' holds %s profq did not make (%s%s); profq does not write into "
			       "it (reading commands still work; drop them with sqlite3 if they are "
			       "yours)", path, n == 1 ? "an object" : "objects", names,
			       strlen(names) + 1 >= sizeof(names) ? ", ..." : "");
	return 0;
}

int pq_db_refresh_views(sqlite3 *db, pq_error *err)
{
	sqlite3 *ref;
	sqlite3_stmt *st = NULL;
	int rc = 0, stale = 0;

	if (reference(&ref, err) != 0)
		return -1;
	if (sqlite3_prepare_v2(ref, "SELECT name, sql FROM sqlite_master WHERE type = 'view' "
			       "ORDER BY rowid", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_close(ref);
		return pq_fail(err, "cannot read the reference views");
	}
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *sql = (const char *)sqlite3_column_text(st, 1);
		char *have = object_sql(db, "view", name), *drop;

		if (have != NULL && strcmp(have, sql) == 0) {
			sqlite3_free(have);
			continue;
		}
		sqlite3_free(have);
		stale |= pq_db_is_derived_view(name);
		drop = sqlite3_mprintf("DROP VIEW IF EXISTS \"%w\"", name);
		rc = drop == NULL ? pq_fail(err, "out of memory")
		     : pq_db_exec(db, drop, "cannot refresh a view", err) != 0 ||
		       pq_db_exec(db, sql, "cannot refresh a view", err) != 0 ? -1 : 0;
		sqlite3_free(drop);
	}
	sqlite3_finalize(st);
	sqlite3_close(ref);
	/* A derived table's rows came from the old definition: pq_db_derive writes them anew. */
	if (rc == 0 && stale)
		rc = pq_db_forget_derived(db, err);
	return rc;
}
