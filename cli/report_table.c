/* report_table.c - running a canned report into memory. */
#include "report_table.h"

#include <stdlib.h>
#include <string.h>

#include "queries.h"

static const pq_cell null_cell = { SQLITE_NULL, 0, NULL };

void pq_table_free(pq_table *t)
{
	for (int i = 0; i < t->ncols; i++)
		free(t->names[i]);
	for (long i = 0; i < (long)t->nrows * t->ncols; i++)
		free(t->cells[i].text);
	free(t->names);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

/* Steps st to the end; a statement with result columns replaces *t with its rows. */
static int collect(sqlite3 *db, sqlite3_stmt *st, pq_table *t, pq_error *err)
{
	int ncols = sqlite3_column_count(st), rc;
	long cap = 0;

	if (ncols == 0) { /* a statement without rows (PRAGMA, CREATE TEMP ...) keeps *t */
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			;
		return rc == SQLITE_DONE ? 0 : pq_fail(err, "%s", sqlite3_errmsg(db));
	}
	pq_table_free(t);
	if ((t->names = calloc((size_t)ncols, sizeof(char *))) == NULL)
		return pq_fail(err, "out of memory");
	t->ncols = ncols;
	for (int i = 0; i < ncols; i++)
		if ((t->names[i] = strdup(sqlite3_column_name(st, i))) == NULL)
			return pq_fail(err, "out of memory");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pq_cell *row;

		if (t->nrows == cap) {
			long ncap = cap ? cap * 2 : 64;
			pq_cell *c = realloc(t->cells, (size_t)(ncap * ncols) * sizeof(pq_cell));

			if (c == NULL)
				return pq_fail(err, "out of memory");
			t->cells = c;
			cap = ncap;
		}
		row = t->cells + (long)t->nrows * ncols;
		memset(row, 0, (size_t)ncols * sizeof(pq_cell));
		t->nrows++;
		for (int i = 0; i < ncols; i++) {
			const unsigned char *s = sqlite3_column_text(st, i);

			row[i].type = sqlite3_column_type(st, i);
			if (row[i].type == SQLITE_BLOB)
				row[i].type = SQLITE_TEXT;
			if (s == NULL) {
				row[i].type = SQLITE_NULL;
				continue;
			}
			if ((row[i].text = strdup((const char *)s)) == NULL)
				return pq_fail(err, "out of memory");
			row[i].num = row[i].type == SQLITE_INTEGER
					     ? (double)sqlite3_column_int64(st, i)
					     : strtod(row[i].text, NULL);
		}
	}
	return rc == SQLITE_DONE ? 0 : pq_fail(err, "%s", sqlite3_errmsg(db));
}

/* Every statement of sql in turn; *t keeps the last one's rows (as `profq <report>` prints). */
static int run_all(sqlite3 *db, const char *sql, const pq_params *params, pq_table *t,
		   pq_error *err)
{
	const char *tail = sql;

	while (*tail) {
		sqlite3_stmt *st = NULL;
		int rc;

		if (sqlite3_prepare_v2(db, tail, -1, &st, &tail) != SQLITE_OK)
			return pq_fail(err, "%s", sqlite3_errmsg(db));
		if (st == NULL)
			break;
		pq_bind_params(st, params);
		rc = collect(db, st, t, err);
		sqlite3_finalize(st);
		if (rc != 0)
			return -1;
	}
	return 0;
}

int pq_table_report(sqlite3 *db, const char *name, const pq_params *params, pq_table *t,
		    pq_error *err)
{
	const pq_query *q = pq_query_find(name);
	char *sql;
	int rc;

	memset(t, 0, sizeof(*t));
	if (q == NULL)
		return pq_fail(err, "no report '%s'", name);
	if ((sql = pq_query_sql_only(q)) == NULL)
		return pq_fail(err, "out of memory");
	rc = run_all(db, sql, params, t, err);
	free(sql);
	if (rc != 0) {
		char msg[sizeof(err->msg)];

		memcpy(msg, err->msg, sizeof(msg));
		pq_table_free(t);
		return pq_fail(err, "%s: %s", name, msg);
	}
	return 0;
}

int pq_table_sql(sqlite3 *db, const char *sql, const pq_params *params, pq_table *t,
		 pq_error *err)
{
	int rc;

	memset(t, 0, sizeof(*t));
	rc = run_all(db, sql, params, t, err);
	if (rc != 0)
		pq_table_free(t);
	return rc;
}

int pq_table_col(const pq_table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (strcmp(t->names[i], name) == 0)
			return i;
	return -1;
}

const pq_cell *pq_table_get(const pq_table *t, int row, const char *name)
{
	int c = pq_table_col(t, name);

	if (c < 0 || row < 0 || row >= t->nrows)
		return &null_cell;
	return &t->cells[(long)row * t->ncols + c];
}
