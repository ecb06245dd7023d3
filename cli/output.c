/* output.c - result sets as aligned tables, CSV and JSON. */
#include "output.h"

#include <stdlib.h>
#include <string.h>

int pq_format_parse(const char *text, enum pq_format *format)
{
	if (strcmp(text, "table") == 0)
		*format = PQ_FORMAT_TABLE;
	else if (strcmp(text, "csv") == 0)
		*format = PQ_FORMAT_CSV;
	else if (strcmp(text, "json") == 0)
		*format = PQ_FORMAT_JSON;
	else
		return -1;
	return 0;
}

static int step_error(sqlite3_stmt *st, pq_error *err)
{
	return pq_fail(err, "%s", sqlite3_errmsg(sqlite3_db_handle(st)));
}

/* Terminal columns a UTF-8 string takes: one per code point (continuation bytes don't count). */
static size_t display_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* Text such as printf('%.1f', x) output counts as a number for alignment. */
static int looks_numeric(const char *text)
{
	char *end;

	if (text == NULL || *text == '\0')
		return 0;
	(void)strtod(text, &end);
	return *end == '\0';
}

typedef struct table_buf {
	char **cells;          /* rows * ncols, owned; NULL for SQL NULL */
	size_t rows, cap, ncols;
	size_t *width;
	int *numeric;          /* column holds only numbers (or NULL): right-align it */
} table_buf;

static void table_free(table_buf *t)
{
	for (size_t i = 0; i < t->rows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->width);
	free(t->numeric);
}

static int table_add_row(table_buf *t, sqlite3_stmt *st)
{
	if (t->rows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		char **cells = realloc(t->cells, cap * t->ncols * sizeof(*cells));
		if (cells == NULL)
			return -1;
		t->cells = cells;
		t->cap = cap;
	}
	for (size_t c = 0; c < t->ncols; c++) {
		int type = sqlite3_column_type(st, (int)c);
		const char *text = (const char *)sqlite3_column_text(st, (int)c);
		char **cell = &t->cells[t->rows * t->ncols + c];

		*cell = NULL;
		if (type == SQLITE_NULL)
			continue;
		if (type != SQLITE_INTEGER && type != SQLITE_FLOAT && !looks_numeric(text))
			t->numeric[c] = 0;
		if ((*cell = strdup(text ? text : "")) == NULL) {
			for (size_t k = 0; k < c; k++)
				free(t->cells[t->rows * t->ncols + k]);
			return -1;
		}
		size_t w = display_width(*cell);
		if (w > t->width[c])
			t->width[c] = w;
	}
	t->rows++;
	return 0;
}

static void print_cell(FILE *out, const char *text, size_t width, int right, int last)
{
	size_t pad = width - display_width(text);

	if (right)
		fprintf(out, "%*s%s", (int)pad, "", text);
	else if (last)
		fputs(text, out);
	else
		fprintf(out, "%s%*s", text, (int)pad, "");
}

static int print_table(sqlite3_stmt *st, FILE *out, pq_error *err)
{
	table_buf t = { 0 };
	int rc;

	t.ncols = (size_t)sqlite3_column_count(st);
	t.width = calloc(t.ncols, sizeof(*t.width));
	t.numeric = calloc(t.ncols, sizeof(*t.numeric));
	if (t.width == NULL || t.numeric == NULL) {
		table_free(&t);
		return pq_fail(err, "out of memory");
	}
	for (size_t c = 0; c < t.ncols; c++) {
		t.width[c] = display_width(sqlite3_column_name(st, (int)c));
		t.numeric[c] = 1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (table_add_row(&t, st) != 0) {
			table_free(&t);
			return pq_fail(err, "out of memory");
		}
	}
	if (rc != SQLITE_DONE) {
		table_free(&t);
		return step_error(st, err);
	}
	for (size_t c = 0; c < t.ncols; c++) {
		if (c > 0)
			fputs("  ", out);
		print_cell(out, sqlite3_column_name(st, (int)c), t.width[c], t.numeric[c],
			   c + 1 == t.ncols);
	}
	fputc('\n', out);
	for (size_t c = 0; c < t.ncols; c++) {
		fprintf(out, "%s", c > 0 ? "  " : "");
		for (size_t i = 0; i < t.width[c]; i++)
			fputc('-', out);
	}
	fputc('\n', out);
	for (size_t r = 0; r < t.rows; r++) {
		for (size_t c = 0; c < t.ncols; c++) {
			const char *cell = t.cells[r * t.ncols + c];
			if (c > 0)
				fputs("  ", out);
			print_cell(out, cell ? cell : "", t.width[c], t.numeric[c],
				   c + 1 == t.ncols);
		}
		fputc('\n', out);
	}
	table_free(&t);
	return 0;
}

/* RFC 4180 fields (rows end in LF, as Unix tools expect): quote a field holding a comma, quote,
 * CR or LF, and double the quotes inside. */
static void print_csv_field(FILE *out, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static int print_csv(sqlite3_stmt *st, FILE *out, pq_error *err)
{
	int ncols = sqlite3_column_count(st), rc;

	for (int c = 0; c < ncols; c++) {
		if (c > 0)
			fputc(',', out);
		print_csv_field(out, sqlite3_column_name(st, c));
	}
	fputs("\n", out);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int c = 0; c < ncols; c++) {
			const char *text = (const char *)sqlite3_column_text(st, c);
			if (c > 0)
				fputc(',', out);
			if (text != NULL)
				print_csv_field(out, text);
		}
		fputs("\n", out);
	}
	return rc == SQLITE_DONE ? 0 : step_error(st, err);
}

/* One row as a JSON object; integers stay exact (cJSON numbers are doubles, so integers beyond
 * 2^53 are written as raw literals). */
static cJSON *row_object(sqlite3_stmt *st)
{
	cJSON *obj = cJSON_CreateObject();
	int ncols = sqlite3_column_count(st);

	for (int c = 0; obj != NULL && c < ncols; c++) {
		const char *name = sqlite3_column_name(st, c);
		cJSON *item = NULL;

		switch (sqlite3_column_type(st, c)) {
		case SQLITE_NULL:
			item = cJSON_CreateNull();
			break;
		case SQLITE_INTEGER: {
			sqlite3_int64 v = sqlite3_column_int64(st, c);
			if (v > 9007199254740992LL || v < -9007199254740992LL)
				item = cJSON_CreateRaw((const char *)sqlite3_column_text(st, c));
			else
				item = cJSON_CreateNumber((double)v);
			break;
		}
		case SQLITE_FLOAT:
			item = cJSON_CreateNumber(sqlite3_column_double(st, c));
			break;
		default:
			item = cJSON_CreateString((const char *)sqlite3_column_text(st, c));
			break;
		}
		if (item == NULL || !cJSON_AddItemToObject(obj, name, item)) {
			cJSON_Delete(item);
			cJSON_Delete(obj);
			obj = NULL;
		}
	}
	return obj;
}

static int print_json(sqlite3_stmt *st, FILE *out, pq_error *err)
{
	int rc, first = 1;

	fputc('[', out);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		cJSON *obj = row_object(st);
		char *text = obj ? cJSON_PrintUnformatted(obj) : NULL;

		cJSON_Delete(obj);
		if (text == NULL)
			return pq_fail(err, "out of memory");
		fprintf(out, "%s\n%s", first ? "" : ",", text);
		cJSON_free(text);
		first = 0;
	}
	fputs(first ? "]\n" : "\n]\n", out);
	return rc == SQLITE_DONE ? 0 : step_error(st, err);
}

int pq_print_rows(sqlite3_stmt *st, enum pq_format format, FILE *out, pq_error *err)
{
	if (sqlite3_column_count(st) == 0) {
		int rc;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			;
		return rc == SQLITE_DONE ? 0 : step_error(st, err);
	}
	switch (format) {
	case PQ_FORMAT_CSV:
		return print_csv(st, out, err);
	case PQ_FORMAT_JSON:
		return print_json(st, out, err);
	default:
		return print_table(st, out, err);
	}
}

cJSON *pq_rows_to_json(sqlite3_stmt *st, pq_error *err)
{
	cJSON *rows = cJSON_CreateArray(), *obj;
	int rc = SQLITE_DONE;

	while (rows != NULL && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((obj = row_object(st)) == NULL || !cJSON_AddItemToArray(rows, obj)) {
			cJSON_Delete(obj);
			cJSON_Delete(rows);
			pq_fail(err, "out of memory");
			return NULL;
		}
	}
	if (rows == NULL) {
		pq_fail(err, "out of memory");
		return NULL;
	}
	if (rc != SQLITE_DONE) {
		cJSON_Delete(rows);
		step_error(st, err);
		return NULL;
	}
	return rows;
}
