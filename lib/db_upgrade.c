/* db_upgrade.c - tables and views added to schema version 1 after files were written with it.
 *
 * Additions that only add a table or view keep the version: a writer creates what the file lacks
 * before its run's first row (inside that transaction), readers treat a missing table as no rows
 * and get a missing view as a TEMP view of their own connection (the file is not written). The
 * statements come from the embedded schema/schema.sql and schema/views.sql, their one definition.
 */
#include "db.h"

#include <string.h>

#include "schema_sql.h"

#define CREATE_TABLE "\nCREATE TABLE "
#define CREATE_VIEW "\nCREATE VIEW "

/* Runs prefix followed by the statement text at sql, up to the first ';' that completes it
 * (sqlite3_complete knows about comments and quotes). */
static int run_statement(sqlite3 *db, const char *prefix, const char *sql, const char *what,
			 pq_error *err)
{
	const char *semi = sql;
	char *text;
	int rc;

	while ((semi = strchr(semi, ';')) != NULL) {
		text = sqlite3_mprintf("%s%.*s", prefix, (int)(semi - sql + 1), sql);
		if (text == NULL)
			return pq_fail(err, "out of memory");
		if (sqlite3_complete(text)) {
			rc = pq_db_exec(db, text, what, err);
			sqlite3_free(text);
			return rc;
		}
		sqlite3_free(text);
		semi++;
	}
	return pq_fail(err, "%s: unterminated statement in the schema", what);
}

static int has_view(sqlite3 *db, const char *schema, const char *name, int len)
{
	sqlite3_stmt *st = NULL;
	char *sql = sqlite3_mprintf("SELECT 1 FROM %s.sqlite_master WHERE type='view' AND name=?1",
				    schema);
	int found = 0;

	if (sql != NULL && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, name, len, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return found;
}

/* The views of schema/views.sql that the file lacks, created in the file, or (temp) as TEMP views
 * of this connection only. */
static int add_missing_views(sqlite3 *db, int temp, pq_error *err)
{
	const char *prefix = temp ? "CREATE TEMP VIEW " : "CREATE VIEW ";

	const char *p = pq_views_sql;

	while ((p = strstr(p, CREATE_VIEW)) != NULL) {
		const char *name = p + strlen(CREATE_VIEW);
		int len = (int)strcspn(name, " (\n");

		p = name;
		if (!has_view(db, "main", name, len) && !(temp && has_view(db, "temp", name, len)) &&
		    run_statement(db, prefix, name, "cannot add a view", err) != 0)
			return -1;
	}
	return 0;
}

int pq_db_add_temp_views(sqlite3 *db, pq_error *err)
{
	return add_missing_views(db, 1, err);
}

int pq_db_add_missing_tables(sqlite3 *db, pq_error *err)
{
	const char *p = pq_schema_sql;

	while ((p = strstr(p, CREATE_TABLE)) != NULL) {
		const char *name = p + strlen(CREATE_TABLE);
		int len = (int)strcspn(name, " (\n");

		p = name;
		if (!pq_db_has_table(db, name, len) &&
		    run_statement(db, "CREATE TABLE ", name, "cannot add a table", err) != 0)
			return -1;
	}
	return add_missing_views(db, 0, err);
}
