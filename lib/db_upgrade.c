/* db_upgrade.c - changes made to schema version 1 after files were written with it.
 *
 * Additions that keep the version: tables and views (readers treat a missing table as no rows and
 * get a missing view as a TEMP view of their own connection, so the file is not written), the
 * 'aborted' run status, and views whose text changed; and a removal, the retired indexes. A
 * writer brings the file up to date before its run's first row (inside that transaction, so a
 * failed import leaves no trace). The statements come from the embedded schema/schema.sql and
 * schema/views.sql, their one definition.
 */
#include "db.h"

#include <stdio.h>
#include <string.h>

#include "schema_sql.h"

#define CREATE_TABLE "\nCREATE TABLE "
#define CREATE_VIEW "\nCREATE VIEW "

/* The statement starting at sql: up to the first ';' that completes it (sqlite3_complete knows
 * about comments and quotes). NULL when there is none; the caller frees with sqlite3_free. */
static char *statement(const char *sql)
{
	const char *semi = sql;
	char *text;

	while ((semi = strchr(semi, ';')) != NULL) {
		text = sqlite3_mprintf("%.*s", (int)(semi - sql + 1), sql);
		if (text == NULL || sqlite3_complete(text))
			return text;
		sqlite3_free(text);
		semi++;
	}
	return NULL;
}

/* Runs prefix followed by the statement at sql. */
static int run_statement(sqlite3 *db, const char *prefix, const char *sql, const char *what,
			 pq_error *err)
{
	char *text = statement(sql), *full;
	int rc;

	if (text == NULL)
		return pq_fail(err, "%s: unterminated statement in the schema", what);
	full = sqlite3_mprintf("%s%s", prefix, text);
	sqlite3_free(text);
	if (full == NULL)
		return pq_fail(err, "out of memory");
	rc = pq_db_exec(db, full, what, err);
	sqlite3_free(full);
	return rc;
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

int pq_db_add_temp_view(sqlite3 *db, const char *name, pq_error *err)
{
	const char *p = pq_views_sql;
	size_t len = strlen(name);

	while ((p = strstr(p, CREATE_VIEW)) != NULL) {
		p += strlen(CREATE_VIEW);
		if (strncmp(p, name, len) == 0 && strchr(" (\n", p[len]) != NULL && p[len] != '\0')
			return run_statement(db, "CREATE TEMP VIEW ", p, "cannot add a view", err);
	}
	return 0;
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

/* The runs columns the file has, comma-separated (a column added later is left to its default). */
static char *runs_columns(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	char *cols = NULL, *next;

	if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info('runs') ORDER BY cid", -1,
			       &st, NULL) != SQLITE_OK)
		return NULL;
	while (sqlite3_step(st) == SQLITE_ROW) {
		next = sqlite3_mprintf("%z%s\"%w\"", cols, cols ? ", " : "",
				       (const char *)sqlite3_column_text(st, 0));
		if (next == NULL) {
			cols = NULL;
			break;
		}
		cols = next;
	}
	sqlite3_finalize(st);
	return cols;
}

/* runs.status accepts 'aborted' (a run whose writers died, db_repair.c) since files of version 1
 * were first written. SQLite cannot change a CHECK constraint in place, so an older runs table is
 * rebuilt from the embedded definition: the views go first (a rename checks every view) and come
 * back through pq_db_refresh_views(). Foreign keys are off on profq's connections, so dropping
 * the old table deletes nothing that refers to it. */
static int upgrade_runs_status(sqlite3 *db, pq_error *err)
{
	sqlite3_stmt *st = NULL;
	const char *def = strstr(pq_schema_sql, "\nCREATE TABLE runs (");
	char *create = NULL, *cols = NULL, *sql = NULL, *views = NULL;
	int current = 0, rc = -1;

	if (sqlite3_prepare_v2(db, "SELECT sql LIKE '%''aborted''%' FROM sqlite_master "
			       "WHERE type = 'table' AND name = 'runs'", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		current = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (current)
		return 0;
	if (def == NULL || (create = statement(def + strlen("\nCREATE TABLE runs"))) == NULL)
		return pq_fail(err, "cannot upgrade the runs table: no definition in the schema");
	/* TEMP views too: this connection's stand-ins for views the file lacks (db_upgrade's
	 * add_missing_views) would fail the rename's check just the same. */
	if (sqlite3_prepare_v2(db, "SELECT group_concat(printf('DROP VIEW %s.\"%w\";', s, name), ' ') "
			       "FROM (SELECT 'main' AS s, name FROM main.sqlite_master WHERE type = 'view' "
			       "UNION ALL SELECT 'temp', name FROM temp.sqlite_master WHERE type = 'view')",
			       -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
		views = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	cols = runs_columns(db);
	if (cols != NULL)
		sql = sqlite3_mprintf("%s CREATE TABLE pq_runs_upgrade %s "
				      "INSERT INTO pq_runs_upgrade (%s) SELECT %s FROM runs; "
				      "DROP TABLE runs; ALTER TABLE pq_runs_upgrade RENAME TO runs;",
				      views ? views : "", create, cols, cols);
	if (sql == NULL)
		pq_fail(err, "cannot upgrade the runs table: out of memory");
	else
		rc = pq_db_exec(db, sql, "cannot upgrade the runs table", err);
	sqlite3_free(sql);
	sqlite3_free(cols);
	sqlite3_free(views);
	sqlite3_free(create);
	return rc;
}

/* Indexes the schema once had and no query used (docs/schema.md, Indexes). A bulk load drops and
 * builds again only the schema's indexes, so in an older file these would be kept up to date row
 * by row at every import. */
static const char *const retired_indexes[] = {
	"kernels_device_time", "api_calls_thread_time", "ranges_thread_time",
};

static int drop_retired_indexes(sqlite3 *db, pq_error *err)
{
	char sql[128];

	for (size_t i = 0; i < sizeof(retired_indexes) / sizeof(retired_indexes[0]); i++) {
		snprintf(sql, sizeof(sql), "DROP INDEX IF EXISTS main.\"%s\"", retired_indexes[i]);
		if (pq_db_exec(db, sql, "cannot drop a retired index", err) != 0)
			return -1;
	}
	return 0;
}

int pq_db_upgrade(sqlite3 *db, pq_error *err)
{
	if (pq_db_add_missing_tables(db, err) != 0 || upgrade_runs_status(db, err) != 0 ||
	    drop_retired_indexes(db, err) != 0)
		return -1;
	return pq_db_refresh_views(db, err);
}
