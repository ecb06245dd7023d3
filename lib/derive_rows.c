/* derive_rows.c - a query's rows held in memory, to be written into a table on another
 * connection: a derived table's rows computed on the second CPU (db_derive.c) and inserted by
 * the connection that holds the write lock. */
#include "derive.h"

#include <stdio.h>
#include <stdlib.h>

struct pq_held_rows {
	int ncols;
	size_t nvals, cap;
	sqlite3_value **vals; /* row-major, ncols a row */
};

void pq_rows_free(pq_held_rows *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nvals; i++)
		sqlite3_value_free(r->vals[i]);
	free(r->vals);
	free(r);
}

int pq_rows_hold(sqlite3 *db, const char *sql, pq_held_rows **out, pq_error *err)
{
	pq_held_rows *r = calloc(1, sizeof(*r));
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if (r == NULL)
		return pq_fail(err, "out of memory");
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		goto db_fail;
	r->ncols = sqlite3_column_count(st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (r->nvals + (size_t)r->ncols > r->cap) {
			size_t cap = r->cap ? r->cap * 2 : 64;
			sqlite3_value **v;

			while (cap < r->nvals + (size_t)r->ncols)
				cap *= 2;
			if ((v = realloc(r->vals, cap * sizeof(*v))) == NULL)
				goto oom;
			r->vals = v;
			r->cap = cap;
		}
		for (int c = 0; c < r->ncols; c++) {
			sqlite3_value *v = sqlite3_value_dup(sqlite3_column_value(st, c));

			if (v == NULL)
				goto oom;
			r->vals[r->nvals++] = v;
		}
	}
	if (rc != SQLITE_DONE)
		goto db_fail;
	sqlite3_finalize(st);
	*out = r;
	return 0;
db_fail:
	pq_derive_fail(db, err);
	sqlite3_finalize(st);
	pq_rows_free(r);
	return -1;
oom:
	sqlite3_finalize(st);
	pq_rows_free(r);
	return pq_fail(err, "out of memory");
}

int pq_rows_insert(sqlite3 *db, const char *table, const pq_held_rows *r, pq_error *err)
{
	sqlite3_str *sql = sqlite3_str_new(db);
	sqlite3_stmt *st = NULL;
	char *text;
	int rc = 0;

	sqlite3_str_appendf(sql, "INSERT INTO \"%w\" VALUES (", table);
	for (int c = 0; c < r->ncols; c++)
		sqlite3_str_appendall(sql, c ? ", ?" : "?");
	sqlite3_str_appendall(sql, ")");
	if ((text = sqlite3_str_finish(sql)) == NULL)
		return pq_fail(err, "out of memory");
	if (sqlite3_prepare_v2(db, text, -1, &st, NULL) != SQLITE_OK)
		rc = -1;
	for (size_t i = 0; rc == 0 && i < r->nvals; i += (size_t)r->ncols) {
		for (int c = 0; c < r->ncols; c++)
			sqlite3_bind_value(st, c + 1, r->vals[i + (size_t)c]);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = -1;
		sqlite3_reset(st);
	}
	if (rc != 0)
		pq_fail(err, "cannot write the derived tables: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	sqlite3_free(text);
	return rc;
}

int pq_derive_insert(sqlite3 *db, const char *fmt, const char *runs, size_t n,
		     void (*bind)(sqlite3_stmt *st, const void *rows, size_t i), const void *rows,
		     pq_error *err)
{
	char *sql;
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (n == 0)
		return 0;
	if ((sql = sqlite3_mprintf(fmt, runs)) == NULL)
		return pq_fail(err, "out of memory");
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		rc = pq_derive_fail(db, err);
	sqlite3_free(sql);
	for (size_t i = 0; i < n && rc == 0; i++) {
		bind(st, rows, i);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = pq_derive_fail(db, err);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

int pq_derive_grow(void **buf, size_t *cap, size_t n, size_t size)
{
	size_t nc;
	void *p;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 1024;
	if ((p = realloc(*buf, nc * size)) == NULL)
		return -1;
	*buf = p;
	*cap = nc;
	return 0;
}

int pq_derive_fail(sqlite3 *db, pq_error *err)
{
	return pq_fail(err, "cannot write the derived tables: %s", sqlite3_errmsg(db));
}
