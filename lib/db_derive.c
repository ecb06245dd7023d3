/* db_derive.c - the derived tables (docs/schema.md, Derived tables): writing them for finished
 * runs, forgetting them when their definitions change, and empty stand-ins for older files.
 *
 * Each derived table T holds the rows of the view v_T (schema/views.sql, the one definition) for
 * the runs derived_runs lists under T's name; the view reads T for those runs and computes every
 * other run. So writing T is `INSERT INTO T SELECT * FROM v_T` for the runs about to be listed,
 * then listing them; tables in dependency order, so a later view (v_tb_step_times reads
 * v_tb_steps) reads the rows just written instead of computing them again.
 */
#include "derive.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_sql.h"

static const char *const derived[] = { "tb_steps", "tb_step_times", "tb_gpu_metrics",
				       "tb_kernel_sums", "tb_op_sums", "hta_temporal_breakdown",
				       "hta_idle_breakdown" };
#define NDERIVED (sizeof(derived) / sizeof(derived[0]))

/* The runs whose rows are final (complete, aborted, failed) and not yet in table %s. Runs still
 * being written are left to the views, which compute them from their events whenever read. */
#define PENDING "SELECT id FROM runs WHERE status <> 'open' AND id NOT IN " \
		"(SELECT run_id FROM derived_runs WHERE name = '%s')"

static int has_temp_view(sqlite3 *db, const char *table)
{
	sqlite3_stmt *st = NULL;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM temp.sqlite_master WHERE type = 'view' AND "
			       "name = 'v_' || ?1", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
		found = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return found;
}

/* Whether db has the profq SQL functions the definitions call: the CLI's connections do (it
 * links the extension), the collector's own do not (the views compute its runs when read). */
static int has_functions(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int ok = sqlite3_prepare_v2(db, "SELECT priority_breakdown(0, 1, 'a', 0, '0 1')", -1, &st,
				    NULL) == SQLITE_OK;

	sqlite3_finalize(st);
	return ok;
}

/* While deriving: once a table holds every run, a TEMP view of its view's name reads just the
 * table, so the later views that read it (v_tb_step_times reads v_tb_steps) prepare without its
 * definition: ~5 ms a view. *made gets a bit per table shadowed, drop_shadows removes them. */
static int shadow(sqlite3 *db, const char *table, unsigned *made, pq_error *err)
{
	sqlite3_stmt *st = NULL;
	char sql[200];
	int todo = 1;

	snprintf(sql, sizeof(sql), "SELECT EXISTS (SELECT 1 FROM main.runs WHERE id NOT IN "
		 "(SELECT run_id FROM main.derived_runs WHERE name = '%s'))", table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		todo = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (todo || has_temp_view(db, table))
		return 0;
	snprintf(sql, sizeof(sql), "CREATE TEMP VIEW \"v_%s\" AS SELECT * FROM main.\"%s\"", table,
		 table);
	if (pq_db_exec(db, sql, "cannot write the derived tables", err) != 0)
		return -1;
	for (size_t i = 0; i < NDERIVED; i++)
		if (strcmp(derived[i], table) == 0)
			*made |= 1u << i;
	return 0;
}

static void drop_shadows(sqlite3 *db, unsigned made)
{
	for (size_t i = 0; i < NDERIVED; i++) {
		char sql[128];

		if (!(made & (1u << i)))
			continue;
		snprintf(sql, sizeof(sql), "DROP VIEW IF EXISTS temp.\"v_%s\"", derived[i]);
		sqlite3_exec(db, sql, NULL, NULL, NULL);
	}
}

/* tb_op_sums computed on a connection of its own, in a thread (pq_db_derive_now). */
typedef struct {
	char *path;
	pthread_t thread;
	int running;
	pq_op_sums *rows;
	pq_error err;
	int rc;
} op_worker;

static void *op_work(void *arg)
{
	op_worker *w = arg;
	sqlite3 *db = NULL;
	char pending[256];

	snprintf(pending, sizeof(pending), PENDING, "tb_op_sums");
	w->rc = -1;
	if (sqlite3_open_v2(w->path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		pq_fail(&w->err, "%s", db ? sqlite3_errmsg(db) : "out of memory");
	} else {
		pq_db_harden(db);
		sqlite3_busy_timeout(db, 5000);
		w->rc = pq_op_sums_compute(db, pending, &w->rows, &w->err);
	}
	sqlite3_close(db);
	return NULL;
}

/* tb_op_sums's rows for the pending runs: the worker's when it has them, else computed here. */
static int op_rows(sqlite3 *db, const char *pending, op_worker *w, pq_op_sums **rows, pq_error *err)
{
	if (w != NULL && w->running) {
		pthread_join(w->thread, NULL);
		w->running = 0;
		if (w->rc == 0) {
			*rows = w->rows;
			w->rows = NULL;
			return 0;
		}
	}
	return pq_op_sums_compute(db, pending, rows, err);
}

/* Writes every derived table of the pending runs, in the caller's transaction; tb_op_sums's rows
 * from the worker w when there is one. */
static int derive(sqlite3 *db, op_worker *w, pq_error *err)
{
	char sql[1024];
	unsigned shadows = 0;

	for (size_t i = 0; i < NDERIVED; i++) {
		char pending[256];

		snprintf(pending, sizeof(pending), PENDING, derived[i]);
		/* Rows a run left unlisted (by hand, or a profq that lost track) would block it. */
		snprintf(sql, sizeof(sql), "DELETE FROM \"%s\" WHERE run_id IN (%s)", derived[i], pending);
		if (pq_db_exec(db, sql, "cannot write the derived tables", err) != 0)
			goto fail;
		/* tb_op_sums: evaluated in C (derive_ops.c says why); every other: by its view */
		if (strcmp(derived[i], "tb_op_sums") == 0) {
			pq_op_sums *rows = NULL;
			int rc = op_rows(db, pending, w, &rows, err);

			if (rc == 0)
				rc = pq_op_sums_insert(db, rows, err);
			pq_op_sums_free(rows);
			if (rc != 0)
				goto fail;
			snprintf(sql, sizeof(sql), "INSERT INTO derived_runs (run_id, name) SELECT id, '%s' "
				 "FROM (%s)", derived[i], pending);
		} else {
			snprintf(sql, sizeof(sql), "INSERT INTO \"%s\" SELECT * FROM \"v_%s\" WHERE run_id "
				 "IN (%s); INSERT INTO derived_runs (run_id, name) SELECT id, '%s' FROM (%s)",
				 derived[i], derived[i], pending, derived[i], pending);
		}
		if (pq_db_exec(db, sql, "cannot write the derived tables", err) != 0 ||
		    shadow(db, derived[i], &shadows, err) != 0)
			goto fail;
	}
	drop_shadows(db, shadows);
	return 0;
fail:
	drop_shadows(db, shadows);
	return -1;
}

/* Whether db can derive: a file with the tables, and the functions the definitions call. */
static int can_derive(sqlite3 *db)
{
	return pq_db_has_table(db, "derived_runs", -1) && has_functions(db);
}

int pq_db_derive(sqlite3 *db, pq_error *err)
{
	return can_derive(db) ? derive(db, NULL, err) : 0;
}

int pq_db_derive_now(sqlite3 *db, pq_error *err)
{
	const char *path = sqlite3_db_filename(db, "main");
	op_worker w = { 0 };
	int rc;

	if (!can_derive(db))
		return 0;
	/* The write lock first: no other writer commits between the worker's snapshot and ours. */
	if (pq_db_exec(db, "BEGIN IMMEDIATE", "cannot write the derived tables", err) != 0)
		return -1;
	/* The operator tree (most of the work) on the second CPU while this one does the rest. */
	if (path != NULL && path[0] != '\0' && (w.path = strdup(path)) != NULL)
		w.running = pthread_create(&w.thread, NULL, op_work, &w) == 0;
	rc = derive(db, &w, err);
	if (w.running)
		pthread_join(w.thread, NULL);
	free(w.path);
	pq_op_sums_free(w.rows);
	if (rc == 0)
		return pq_db_exec(db, "COMMIT", "cannot write the derived tables", err);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int pq_db_forget_derived(sqlite3 *db, pq_error *err)
{
	char sql[128];

	if (!pq_db_has_table(db, "derived_runs", -1))
		return 0;
	for (size_t i = 0; i < NDERIVED; i++) {
		snprintf(sql, sizeof(sql), "DELETE FROM \"%s\"", derived[i]);
		if (pq_db_exec(db, sql, "cannot clear the derived tables", err) != 0)
			return -1;
	}
	return pq_db_exec(db, "DELETE FROM derived_runs", "cannot clear the derived tables", err);
}

int pq_db_is_derived_view(const char *name)
{
	if (strncmp(name, "v_", 2) != 0)
		return 0;
	for (size_t i = 0; i < NDERIVED; i++)
		if (strcmp(name + 2, derived[i]) == 0)
			return 1;
	return 0;
}

/* A file written before the derived tables, read: TEMP tables of the same definitions stand in,
 * empty, so the views (TEMP too, pq_db_add_temp_views) compute every run and nothing is written.
 * Never on a connection that writes: it creates the real tables, which these would hide. */
int pq_db_add_temp_derived(sqlite3 *db, pq_error *err)
{
	const char *names[NDERIVED + 1];

	names[0] = "derived_runs";
	for (size_t i = 0; i < NDERIVED; i++)
		names[i + 1] = derived[i];
	for (size_t i = 0; i <= NDERIVED; i++) {
		char key[80];
		const char *def, *end;
		char *sql;
		int rc;

		if (pq_db_has_table(db, names[i], -1))
			continue;
		snprintf(key, sizeof(key), "\nCREATE TABLE %s (", names[i]);
		if ((def = strstr(pq_schema_sql, key)) == NULL || (end = strstr(def, ");")) == NULL)
			return pq_fail(err, "no definition of %s in the schema", names[i]);
		def += strlen("\nCREATE TABLE ");
		sql = sqlite3_mprintf("CREATE TEMP TABLE IF NOT EXISTS %.*s", (int)(end + 2 - def), def);
		if (sql == NULL)
			return pq_fail(err, "out of memory");
		rc = pq_db_exec(db, sql, "cannot add a table", err);
		sqlite3_free(sql);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* For each derived table that holds every run of the file: a TEMP view of its view's name that
 * reads the table only. It shadows the file's view on this connection (TEMP names resolve first)
 * and gives the same rows, without preparing the definition for no run: that alone takes the CLI
 * ~5-10 ms a report, more than reading the rows. A table lacking some run keeps the full view. */
int pq_db_shadow_derived(sqlite3 *db, pq_error *err)
{
	if (!pq_db_has_table(db, "derived_runs", -1))
		return 0;
	for (size_t i = 0; i < NDERIVED; i++) {
		sqlite3_stmt *st = NULL;
		char sql[200];
		int todo = 1;

		/* The HTA reports read their tables themselves, not through the views. */
		if (strncmp(derived[i], "tb_", 3) != 0)
			continue;
		snprintf(sql, sizeof(sql), "SELECT EXISTS (SELECT 1 FROM main.runs WHERE id NOT IN "
			 "(SELECT run_id FROM main.derived_runs WHERE name = '%s'))", derived[i]);
		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW)
			todo = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		if (todo || !pq_db_has_table(db, derived[i], -1))
			continue;
		snprintf(sql, sizeof(sql), "CREATE TEMP VIEW IF NOT EXISTS \"v_%s\" AS SELECT * FROM "
			 "main.\"%s\"", derived[i], derived[i]);
		if (pq_db_exec(db, sql, "cannot add a view", err) != 0)
			return -1;
	}
	return 0;
}
