/* db_upgrade.c - tables added to schema version 1 after files were written with it.
 *
 * Additions that only add a table keep the version: a writer creates what the file lacks before
 * its run's first row (inside that transaction), readers treat a missing table as no rows. The
 * statements come from the embedded schema/schema.sql, its one definition.
 */
#include "db.h"

#include <string.h>

#include "schema_sql.h"

#define CREATE_TABLE "\nCREATE TABLE "

/* Runs the statement starting at sql: up to the first ';' that completes it (sqlite3_complete
 * knows about comments and quotes). */
static int run_statement(sqlite3 *db, const char *sql, pq_error *err)
{
	const char *semi = sql;
	char *text;
	int rc;

	while ((semi = strchr(semi, ';')) != NULL) {
		text = sqlite3_mprintf("%.*s", (int)(semi - sql + 1), sql);
		if (text == NULL)
			return pq_fail(err, "out of memory");
		if (sqlite3_complete(text)) {
			rc = pq_db_exec(db, text, "cannot add a table", err);
			sqlite3_free(text);
			return rc;
		}
		sqlite3_free(text);
		semi++;
	}
	return pq_fail(err, "cannot add a table: unterminated statement in the schema");
}

int pq_db_add_missing_tables(sqlite3 *db, pq_error *err)
{
	const char *p = pq_schema_sql;

	while ((p = strstr(p, CREATE_TABLE)) != NULL) {
		const char *name = p + strlen(CREATE_TABLE);
		int len = (int)strcspn(name, " (\n");

		p = name;
		if (!pq_db_has_table(db, name, len) && run_statement(db, name - strlen("CREATE TABLE "),
							      err) != 0)
			return -1;
	}
	return 0;
}
