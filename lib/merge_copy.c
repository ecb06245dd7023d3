/* merge_copy.c - copying an attached input's runs into the output, through SQL.
 *
 * Ids. Each table with an id gets an offset, the output's largest id before the input: a row's
 * new id is its old id plus its table's offset, so references need no lookup table. Which column
 * refers to which table comes from the schema's REFERENCES clauses (PRAGMA foreign_key_list):
 * a reference to a table with an id adds that table's offset (a range's parent_id, ranges' own);
 * a reference to strings goes through a map of the input's string ids to the output's, made
 * after the input's strings are interned; references to the enumerations are kept. Columns the
 * input lacks (an older file) are left NULL; tables it lacks (cuda_names) are skipped.
 */
#include "merge_copy.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

#define MAX_TABLES 64

int merge_sql_fail(sqlite3 *db, pq_error *err, const char *what)
{
	return pq_fail(err, "%s: %s", what, sqlite3_errmsg(db));
}

int merge_exec(sqlite3 *db, const char *sql, pq_error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		pq_fail(err, "%s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int64_t merge_query_int(sqlite3 *db, const char *sql, int64_t bind, int64_t dflt)
{
	sqlite3_stmt *st;
	int64_t v = dflt;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return dflt;
	if (bind != PQ_NULL)
		sqlite3_bind_int64(st, 1, bind);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The identity of a run ------------------------------------------------------------------- */

/* sha: run_metadata source_sha256 (or ""); head: source, source_path and creation time. */
static int run_head(sqlite3 *db, const char *schema, int64_t run, char *sha, size_t shan,
		    char *head, size_t headn)
{
	char sql[256];
	sqlite3_stmt *st;

	snprintf(sql, sizeof(sql), "SELECT value FROM %s.run_metadata WHERE run_id = ?1 AND "
		 "key = 'source_sha256'", schema);
	sha[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
		snprintf(sha, shan, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);

	snprintf(sql, sizeof(sql), "SELECT source, source_path, created_utc FROM %s.runs WHERE id = ?1",
		 schema);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return -1;
	}
	snprintf(head, headn, "%s\x1f%s\x1f%s", (const char *)sqlite3_column_text(st, 0),
		 sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "",
		 (const char *)sqlite3_column_text(st, 2));
	sqlite3_finalize(st);
	return 0;
}

/* The run's row counts per event table, as text. */
static void run_counts(sqlite3 *db, const char *schema, int64_t run, char *buf, size_t n)
{
	static const char *const counted[] = {
		"kernels", "memcpys", "memsets", "api_calls", "ranges", "marks", "memory_events",
		"counters", "synchronizations", "flows",
	};
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(counted) / sizeof(counted[0]) && k < n; i++) {
		char sql[128];

		snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s.%s WHERE run_id = ?1", schema,
			 counted[i]);
		k += (size_t)snprintf(buf + k, n - k, " %" PRId64, merge_query_int(db, sql, run, -1));
	}
}

/* A run of the output (id at most `upto`) that is the input's run `run`: 0 when none, -1 when
 * the input cannot be read. The same sha when both have one; else the same head and counts
 * (counted only when the heads agree). */
int64_t merge_same_run(sqlite3 *db, int64_t run, int64_t upto)
{
	char sha[256], head[4096], msha[256], mhead[4096], counts[512] = "", mcounts[512];
	sqlite3_stmt *st;
	int64_t found = 0;

	if (run_head(db, "src", run, sha, sizeof(sha), head, sizeof(head)) != 0)
		return -1;
	if (sqlite3_prepare_v2(db, "SELECT id FROM main.runs WHERE id <= ?1 ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, upto);
	while (found == 0 && sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (run_head(db, "main", id, msha, sizeof(msha), mhead, sizeof(mhead)) != 0)
			continue;
		if (sha[0] && msha[0]) {
			if (strcmp(sha, msha) == 0)
				found = id;
			continue;
		}
		if (strcmp(head, mhead) != 0)
			continue;
		if (counts[0] == '\0')
			run_counts(db, "src", run, counts, sizeof(counts));
		run_counts(db, "main", id, mcounts, sizeof(mcounts));
		if (strcmp(counts, mcounts) == 0)
			found = id;
	}
	sqlite3_finalize(st);
	return found;
}

/* Copying ---------------------------------------------------------------------------------- */

typedef struct table_info {
	char name[64];
	int has_id;
	int64_t offset;
} table_info;

static table_info *find_table(table_info *t, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return &t[i];
	return NULL;
}

static int has_column(sqlite3 *db, const char *schema, const char *table, const char *col)
{
	char sql[256];
	sqlite3_stmt *st;
	int found = 0;

	snprintf(sql, sizeof(sql), "SELECT 1 FROM pragma_table_info(?1, ?2) WHERE name = ?3");
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, schema, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, col, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* The output's tables that belong to runs, in schema order, with their id offsets. */
static int run_tables(sqlite3 *db, table_info *t, int *n, pq_error *err)
{
	sqlite3_stmt *st;

	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM main.sqlite_master WHERE type = 'table' AND "
			       "name NOT LIKE 'sqlite%' ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
		return merge_sql_fail(db, err, "schema");
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		char sql[160];

		if (strcmp(name, "runs") != 0 && !has_column(db, "main", name, "run_id"))
			continue;
		if (*n == MAX_TABLES || strlen(name) >= sizeof(t->name)) {
			sqlite3_finalize(st);
			return pq_fail(err, "schema: unexpected table %s", name);
		}
		snprintf(t[*n].name, sizeof(t->name), "%s", name);
		t[*n].has_id = has_column(db, "main", name, "id");
		snprintf(sql, sizeof(sql), "SELECT max(id) FROM main.%s", name);
		t[*n].offset = t[*n].has_id ? merge_query_int(db, sql, PQ_NULL, 0) : 0;
		(*n)++;
	}
	sqlite3_finalize(st);
	return 0;
}

/* Appends to buf (bounded); 0 or -1 when it would not fit. */
static int cat(char *buf, size_t cap, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int cat(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *len, cap - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= cap - *len)
		return -1;
	*len += (size_t)n;
	return 0;
}

/* INSERT INTO main.T (...) SELECT ... FROM src.T, every reference mapped. */
static int copy_table(sqlite3 *db, table_info *all, int nall, const table_info *t, pq_error *err)
{
	char cols[4096], exprs[8192], sql[16384];
	size_t cl = 0, el = 0, sl = 0;
	sqlite3_stmt *st;
	int n = 0;

	if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?1, 'main') ORDER BY cid", -1,
			       &st, NULL) != SQLITE_OK)
		return merge_sql_fail(db, err, t->name);
	sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 0);
		const char *target = NULL;
		sqlite3_stmt *fk;
		table_info *ref;
		int rc = 0;

		if (!has_column(db, "src", t->name, col))
			continue; /* an older input: NULL */
		/* What the column refers to. */
		if (sqlite3_prepare_v2(db, "SELECT \"table\" FROM pragma_foreign_key_list(?1, 'main') "
				       "WHERE \"from\" = ?2", -1, &fk, NULL) == SQLITE_OK) {
			sqlite3_bind_text(fk, 1, t->name, -1, SQLITE_STATIC);
			sqlite3_bind_text(fk, 2, col, -1, SQLITE_STATIC);
			if (sqlite3_step(fk) == SQLITE_ROW)
				target = strdup((const char *)sqlite3_column_text(fk, 0));
			sqlite3_finalize(fk);
		}
		if (n++) {
			rc |= cat(cols, sizeof(cols), &cl, ", ");
			rc |= cat(exprs, sizeof(exprs), &el, ", ");
		}
		rc |= cat(cols, sizeof(cols), &cl, "\"%s\"", col);
		if (strcmp(col, "id") == 0 && t->has_id)
			rc |= cat(exprs, sizeof(exprs), &el, "s.id + %" PRId64, t->offset);
		else if (target != NULL && strcmp(target, "strings") == 0)
			rc |= cat(exprs, sizeof(exprs), &el,
				  "(SELECT dst FROM temp.merge_strings WHERE src = s.\"%s\")", col);
		else if (target != NULL && (ref = find_table(all, nall, target)) != NULL && ref->has_id)
			rc |= cat(exprs, sizeof(exprs), &el, "s.\"%s\" + %" PRId64, col, ref->offset);
		else
			rc |= cat(exprs, sizeof(exprs), &el, "s.\"%s\"", col);
		free((void *)target);
		if (rc != 0) {
			sqlite3_finalize(st);
			return pq_fail(err, "%s: too many columns", t->name);
		}
	}
	sqlite3_finalize(st);
	if (cat(sql, sizeof(sql), &sl, "INSERT INTO main.\"%s\" (%s) SELECT %s FROM src.\"%s\" s",
		t->name, cols, exprs, t->name) != 0)
		return pq_fail(err, "%s: too many columns", t->name);
	if (merge_exec(db, sql, err) != 0) {
		char why[sizeof(err->msg)];

		memcpy(why, err->msg, sizeof(why));
		return pq_fail(err, "copying %s: %s", t->name, why);
	}
	return 0;
}

static int src_has_table(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM src.sqlite_master WHERE type = 'table' AND "
			       "name = ?1", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

int merge_copy(sqlite3 *db, int64_t *run_offset, pq_error *err)
{
	table_info t[MAX_TABLES];
	table_info *runs_t;
	int nt;

	if (run_tables(db, t, &nt, err) != 0)
		return -1;
	runs_t = find_table(t, nt, "runs");
	if (runs_t == NULL)
		return pq_fail(err, "schema: no runs table");
	*run_offset = runs_t->offset;
	/* Strings: intern the input's, then map its ids to the output's. */
	if (merge_exec(db, "INSERT OR IGNORE INTO main.strings (value) SELECT value FROM src.strings;"
			   "DROP TABLE IF EXISTS temp.merge_strings;"
			   "CREATE TEMP TABLE merge_strings (src INTEGER PRIMARY KEY, dst INTEGER);"
			   "INSERT INTO temp.merge_strings SELECT s.id, m.id FROM src.strings s"
			   " JOIN main.strings m ON m.value = s.value", err) != 0)
		return -1;
	for (int i = 0; i < nt; i++) {
		if (!src_has_table(db, t[i].name))
			continue; /* an older input without this table */
		if (copy_table(db, t, nt, &t[i], err) != 0)
			return -1;
	}
	return merge_exec(db, "DROP TABLE temp.merge_strings", err);
}
