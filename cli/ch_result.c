/* ch_result.c - TSVWithNamesAndTypes into an in-memory SQLite table, read back in order. */
#include "ch_result.h"

#include <stdlib.h>
#include <string.h>

enum kind { K_INT, K_REAL, K_TEXT };

/* Splits line (modified in place) at tabs; returns the field count (at most max). */
static int split(char *line, char **fields, int max)
{
	int n = 0;

	for (;;) {
		if (n == max)
			return -1;
		fields[n++] = line;
		char *tab = strchr(line, '\t');
		if (tab == NULL)
			return n;
		*tab = '\0';
		line = tab + 1;
	}
}

/* TabSeparated unescaping in place; returns the length. */
static size_t unescape(char *s)
{
	char *o = s;

	for (char *p = s; *p; p++) {
		if (*p != '\\' || p[1] == '\0') {
			*o++ = *p;
			continue;
		}
		p++;
		switch (*p) {
		case 't': *o++ = '\t'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case '0': *o++ = '\0'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		default: *o++ = *p; break;
		}
	}
	*o = '\0';
	return (size_t)(o - s);
}

static enum kind type_kind(const char *t)
{
	if (strncmp(t, "Nullable(", 9) == 0)
		t += 9;
	if (strncmp(t, "Int", 3) == 0 || strncmp(t, "UInt", 4) == 0)
		return K_INT;
	if (strncmp(t, "Float", 5) == 0 || strncmp(t, "Decimal", 7) == 0)
		return K_REAL;
	return K_TEXT;
}

#define MAX_COLS 64

int pq_ch_result_stmt(const char *text, sqlite3 **dbp, sqlite3_stmt **stp, pq_error *err)
{
	char *copy = strdup(text), *line, *next, *names[MAX_COLS], *types[MAX_COLS], *f[MAX_COLS];
	enum kind kinds[MAX_COLS];
	sqlite3 *db = NULL;
	sqlite3_stmt *ins = NULL;
	char *sql = NULL;
	int ncol, n, ret = -1;
	size_t size;

	*dbp = NULL;
	*stp = NULL;
	if (copy == NULL)
		return pq_fail(err, "out of memory");
	line = copy;
	next = strchr(line, '\n');
	if (next == NULL) {
		pq_fail(err, "ClickHouse sent no result header");
		goto done;
	}
	*next++ = '\0';
	ncol = split(line, names, MAX_COLS);
	line = next;
	next = strchr(line, '\n');
	if (ncol < 0 || next == NULL) {
		pq_fail(err, "ClickHouse result: too many columns or no types line");
		goto done;
	}
	*next++ = '\0';
	if (split(line, types, MAX_COLS) != ncol) {
		pq_fail(err, "ClickHouse result: names and types differ in number");
		goto done;
	}
	if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
		pq_fail(err, "cannot open an in-memory database");
		goto done;
	}
	size = 64;
	for (int i = 0; i < ncol; i++)
		size += 2 * strlen(names[i]) + 8;
	sql = malloc(size);
	if (sql == NULL) {
		pq_fail(err, "out of memory");
		goto done;
	}
	/* CREATE TABLE r ("a", "b"): untyped columns keep each value's own type. */
	strcpy(sql, "CREATE TABLE r (");
	for (int i = 0; i < ncol; i++) {
		char *q = sql + strlen(sql);
		unescape(names[i]);
		kinds[i] = type_kind(types[i]);
		*q++ = i ? ',' : ' ';
		*q++ = '"';
		for (const char *p = names[i]; *p; p++) {
			if (*p == '"')
				*q++ = '"';
			*q++ = *p;
		}
		*q++ = '"';
		*q = '\0';
	}
	strcat(sql, ")");
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		pq_fail(err, "result table: %s", sqlite3_errmsg(db));
		goto done;
	}
	strcpy(sql, "INSERT INTO r VALUES (");
	for (int i = 0; i < ncol; i++)
		strcat(sql, i ? ",?" : "?");
	strcat(sql, ")");
	if (sqlite3_prepare_v2(db, sql, -1, &ins, NULL) != SQLITE_OK) {
		pq_fail(err, "result table: %s", sqlite3_errmsg(db));
		goto done;
	}
	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	for (line = next; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		n = split(line, f, MAX_COLS);
		if (n != ncol) {
			pq_fail(err, "ClickHouse result: a row has %d fields, not %d", n, ncol);
			goto done;
		}
		sqlite3_reset(ins);
		for (int i = 0; i < ncol; i++) {
			if (strcmp(f[i], "\\N") == 0 || (kinds[i] != K_TEXT && strcmp(f[i], "nan") == 0))
				sqlite3_bind_null(ins, i + 1);
			else if (kinds[i] == K_INT)
				sqlite3_bind_int64(ins, i + 1, strtoll(f[i], NULL, 10));
			else if (kinds[i] == K_REAL)
				sqlite3_bind_double(ins, i + 1, strtod(f[i], NULL));
			else {
				size_t len = unescape(f[i]);
				sqlite3_bind_text(ins, i + 1, f[i], (int)len, SQLITE_TRANSIENT);
			}
		}
		if (sqlite3_step(ins) != SQLITE_DONE) {
			pq_fail(err, "result table: %s", sqlite3_errmsg(db));
			goto done;
		}
	}
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (sqlite3_prepare_v2(db, "SELECT * FROM r ORDER BY rowid", -1, stp, NULL) != SQLITE_OK) {
		pq_fail(err, "result table: %s", sqlite3_errmsg(db));
		goto done;
	}
	ret = 0;
done:
	sqlite3_finalize(ins);
	free(sql);
	free(copy);
	if (ret != 0)
		sqlite3_close(db);
	else
		*dbp = db;
	return ret;
}
