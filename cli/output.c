/* output.c - result sets as aligned tables, CSV and JSON. */
#include "output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "meter.h"
#include "put_int.h"
#include "text.h"

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

/* Text such as printf('%.1f', x) output counts as a number for alignment. */
static int looks_numeric(const char *text)
{
	char *end;

	if (text == NULL || *text == '\0')
		return 0;
	(void)strtod(text, &end);
	return *end == '\0';
}

/* Tables only (never CSV or JSON): a text column wider than this goes after the others, as nsys
 * puts kernel names last, and is the one cut to fit a terminal. */
#define LONG_TEXT 40
#define MIN_CUT 12          /* a cut column keeps at least this many columns */
#define MAX_DECIMALS 6      /* REAL columns show at most this many decimals */

typedef struct cell {
	char *text;            /* owned; NULL for SQL NULL */
	double real;           /* SQLITE_FLOAT: the value, reformatted with its column's decimals */
	int type;
} cell;

typedef struct column {
	const char *name;
	size_t width;          /* display columns: the widest cell or the name */
	int numeric;           /* only numbers (or NULL): right-aligned */
	int real;              /* holds a REAL: every number gets `decimals` decimals */
	int decimals;
	int long_text;
	size_t shown;          /* width after fitting the terminal */
} column;

typedef struct table_buf {
	cell *cells;           /* rows * ncols */
	size_t rows, cap, ncols;
	column *cols;
} table_buf;

static void table_free(table_buf *t)
{
	for (size_t i = 0; i < t->rows * t->ncols; i++)
		free(t->cells[i].text);
	free(t->cells);
	free(t->cols);
}

/* Decimals SQLite's text of a double shows ("12.50" 1: trailing zeros are not needed;
 * "1.5e-07" 8), at most MAX_DECIMALS. */
static int decimals_of(const char *text)
{
	const char *dot = strchr(text, '.'), *e = strpbrk(text, "eE");
	int d = 0;

	if (dot != NULL) {
		const char *last = e != NULL ? e : dot + strlen(dot);
		while (last > dot + 1 && last[-1] == '0')
			last--;
		d = (int)(last - dot - 1);
	}
	if (e != NULL)
		d -= atoi(e + 1);
	return d < 0 ? 0 : d > MAX_DECIMALS ? MAX_DECIMALS : d;
}

static int table_add_row(table_buf *t, sqlite3_stmt *st)
{
	if (t->rows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		cell *cells = realloc(t->cells, cap * t->ncols * sizeof(*cells));
		if (cells == NULL)
			return -1;
		t->cells = cells;
		t->cap = cap;
	}
	for (size_t c = 0; c < t->ncols; c++) {
		cell *x = &t->cells[t->rows * t->ncols + c];
		const char *text;

		x->type = sqlite3_column_type(st, (int)c);
		x->text = NULL;
		if (x->type == SQLITE_NULL)
			continue;
		x->real = x->type == SQLITE_FLOAT ? sqlite3_column_double(st, (int)c) : 0;
		text = (const char *)sqlite3_column_text(st, (int)c);
		if (x->type != SQLITE_INTEGER && x->type != SQLITE_FLOAT && !looks_numeric(text))
			t->cols[c].numeric = 0;
		if (x->type == SQLITE_FLOAT && isfinite(x->real)) {
			int d = decimals_of(text ? text : "");
			t->cols[c].real = 1;
			if (d > t->cols[c].decimals)
				t->cols[c].decimals = d;
		}
		if ((x->text = strdup(text ? text : "")) == NULL) {
			for (size_t k = 0; k < c; k++)
				free(t->cells[t->rows * t->ncols + k].text);
			return -1;
		}
	}
	t->rows++;
	return 0;
}

/* Numbers of a REAL column get its decimals: doubles through %.*f, integers (exact beyond
 * 2^53 too) as their digits and zeros. The text is replaced. */
static int fix_decimals(table_buf *t)
{
	for (size_t c = 0; c < t->ncols; c++) {
		column *col = &t->cols[c];

		if (!col->real)
			continue;
		if (col->decimals == 0)
			col->decimals = 1;   /* still reads as a REAL */
		for (size_t r = 0; r < t->rows; r++) {
			cell *x = &t->cells[r * t->ncols + c];
			char buf[400];

			if (x->type == SQLITE_FLOAT && isfinite(x->real))
				snprintf(buf, sizeof(buf), "%.*f", col->decimals, x->real);
			else if (x->type == SQLITE_INTEGER)
				snprintf(buf, sizeof(buf), "%s.%0*d", x->text, col->decimals, 0);
			else
				continue;
			free(x->text);
			if ((x->text = strdup(buf)) == NULL)
				return -1;
		}
	}
	return 0;
}

/* Columns of the terminal out is, or 0 when it is not one. */
static size_t terminal_columns(FILE *out)
{
	struct winsize ws;
	int fd = fileno(out);

	if (fd < 0 || !isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0)
		return 0;
	return ws.ws_col;
}

/* Widths, long text columns, the order columns are printed in (order[0..ncols)), and on a
 * terminal the long text columns narrowed so a row fits its width. */
static void layout(table_buf *t, size_t *order, size_t term)
{
	size_t n = 0, fixed = 0, room, nlong = 0;

	for (size_t c = 0; c < t->ncols; c++) {
		column *col = &t->cols[c];

		col->width = pq_text_width(col->name);
		for (size_t r = 0; r < t->rows; r++) {
			const char *text = t->cells[r * t->ncols + c].text;
			size_t w = text ? pq_text_width(text) : 0;
			if (w > col->width)
				col->width = w;
		}
		col->long_text = !col->numeric && col->width > LONG_TEXT;
		col->shown = col->width;
		nlong += col->long_text;
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t c = 0; c < t->ncols; c++)
			if (t->cols[c].long_text == pass)
				order[n++] = c;
	if (term == 0 || nlong == 0)
		return;
	for (size_t c = 0; c < t->ncols; c++) {
		fixed += c > 0 ? 2 : 0;
		if (t->cols[c].long_text)
			t->cols[c].shown = 0;       /* not settled yet */
		else
			fixed += t->cols[c].width;
	}
	room = fixed + nlong * MIN_CUT < term ? term - fixed : nlong * MIN_CUT;
	/* Water-filling: the long columns share the room; one narrower than its share keeps its
	 * width and leaves the rest to the others. */
	for (size_t left = nlong; left > 0;) {
		size_t share = room / left, settled = 0;

		for (size_t c = 0; c < t->ncols; c++) {
			column *col = &t->cols[c];
			if (col->long_text && col->shown == 0 && col->width <= share) {
				col->shown = col->width;
				room -= col->width;
				settled++;
			}
		}
		if (settled == 0) {
			for (size_t c = 0; c < t->ncols; c++)
				if (t->cols[c].long_text && t->cols[c].shown == 0)
					t->cols[c].shown = share < MIN_CUT ? MIN_CUT : share;
			break;
		}
		left -= settled;
	}
}

static void print_cell(FILE *out, const char *text, const column *col, int last)
{
	size_t w, n = strlen(text);
	int cut = 0;

	if (col->shown < col->width)
		n = pq_text_fit(text, col->shown, &w, &cut);
	else
		w = pq_text_width(text);
	if (cut)
		w++;
	if (col->numeric)
		fprintf(out, "%*s%.*s", (int)(col->shown - w), "", (int)n, text);
	else
		fprintf(out, "%.*s%s%*s", (int)n, text, cut ? "\xe2\x80\xa6" : "",
			last ? 0 : (int)(col->shown - w), "");
}

static int print_table(sqlite3_stmt *st, FILE *out, pq_error *err)
{
	table_buf t = { 0 };
	size_t *order;
	pq_meter meter;
	int rc;

	t.ncols = (size_t)sqlite3_column_count(st);
	t.cols = calloc(t.ncols, sizeof(*t.cols));
	order = calloc(t.ncols, sizeof(*order));
	if (t.cols == NULL || order == NULL) {
		free(order);
		table_free(&t);
		return pq_fail(err, "out of memory");
	}
	for (size_t c = 0; c < t.ncols; c++) {
		t.cols[c].name = sqlite3_column_name(st, (int)c);
		t.cols[c].numeric = 1;
	}
	pq_meter_watch(&meter, sqlite3_db_handle(st));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (table_add_row(&t, st) != 0) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	pq_meter_unwatch(&meter, sqlite3_db_handle(st));
	if (rc == SQLITE_DONE && fix_decimals(&t) != 0)
		rc = SQLITE_NOMEM;
	if (rc != SQLITE_DONE) {
		free(order);
		table_free(&t);
		return rc == SQLITE_NOMEM ? pq_fail(err, "out of memory") : step_error(st, err);
	}
	layout(&t, order, terminal_columns(out));
	for (size_t i = 0; i < t.ncols; i++) {
		if (i > 0)
			fputs("  ", out);
		print_cell(out, t.cols[order[i]].name, &t.cols[order[i]], i + 1 == t.ncols);
	}
	fputc('\n', out);
	for (size_t i = 0; i < t.ncols; i++) {
		fprintf(out, "%s", i > 0 ? "  " : "");
		for (size_t k = 0; k < t.cols[order[i]].shown; k++)
			fputc('-', out);
	}
	fputc('\n', out);
	for (size_t r = 0; r < t.rows; r++) {
		size_t end = t.ncols;   /* no spaces after the last cell with text */

		while (end > 0 && t.cells[r * t.ncols + order[end - 1]].text == NULL)
			end--;
		for (size_t i = 0; i < end; i++) {
			const char *text = t.cells[r * t.ncols + order[i]].text;
			if (i > 0)
				fputs("  ", out);
			print_cell(out, text ? text : "", &t.cols[order[i]], i + 1 == end);
		}
		fputc('\n', out);
	}
	free(order);
	table_free(&t);
	return 0;
}

/* A row of output built in memory and written with one fwrite: a field at a time through stdio
 * (its lock taken per call) was a quarter of the time of a report with ~10 k rows. */
typedef struct row_buf {
	char *p;
	size_t n, cap;
} row_buf;

static int put(row_buf *b, const char *s, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->n + n)
			cap *= 2;
		if ((p = realloc(b->p, cap)) == NULL)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	return 0;
}

/* RFC 4180 fields (rows end in LF, as Unix tools expect): quote a field holding a comma, quote,
 * CR or LF, and double the quotes inside. */
static int put_csv_field(row_buf *b, const char *s)
{
	size_t n = strcspn(s, ",\"\r\n");

	if (s[n] == '\0')
		return put(b, s, n);
	if (put(b, "\"", 1) != 0)
		return -1;
	for (const char *q; (q = strchr(s, '"')) != NULL; s = q + 1)
		if (put(b, s, (size_t)(q - s) + 1) != 0 || put(b, "\"", 1) != 0)
			return -1;
	return put(b, s, strlen(s)) != 0 || put(b, "\"", 1) != 0 ? -1 : 0;
}

static int print_csv(sqlite3_stmt *st, FILE *out, pq_error *err)
{
	int ncols = sqlite3_column_count(st), rc, bad = 0;
	row_buf b = { 0 };
	pq_meter meter;

	for (int c = 0; c < ncols; c++)
		bad |= (c > 0 && put(&b, ",", 1) != 0) ||
		       put_csv_field(&b, sqlite3_column_name(st, c)) != 0;
	bad |= put(&b, "\n", 1) != 0;
	if (bad || fwrite(b.p, 1, b.n, out) != b.n) {
		free(b.p);
		return pq_fail(err, bad ? "out of memory" : "cannot write the output");
	}
	/* Rows stream out as they come: progress shows only until the first. */
	pq_meter_watch(&meter, sqlite3_db_handle(st));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pq_meter_unwatch(&meter, sqlite3_db_handle(st));
		b.n = 0;
		for (int c = 0; c < ncols; c++) {
			const char *text;

			bad |= c > 0 && put(&b, ",", 1) != 0;
			if (sqlite3_column_type(st, c) == SQLITE_INTEGER) {
				/* the digits SQLite's text would have, without its printf */
				char digits[24];

				bad |= put(&b, digits, pq_put_int(digits, sqlite3_column_int64(st, c))) != 0;
				continue;
			}
			text = (const char *)sqlite3_column_text(st, c);
			bad |= text != NULL && put_csv_field(&b, text) != 0;
		}
		bad |= put(&b, "\n", 1) != 0;
		if (bad)
			break;
		fwrite(b.p, 1, b.n, out);
	}
	pq_meter_unwatch(&meter, sqlite3_db_handle(st));
	free(b.p);
	if (bad)
		return pq_fail(err, "out of memory");
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
	pq_meter meter;

	fputc('[', out);
	pq_meter_watch(&meter, sqlite3_db_handle(st));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		cJSON *obj = row_object(st);
		char *text = obj ? cJSON_PrintUnformatted(obj) : NULL;

		pq_meter_unwatch(&meter, sqlite3_db_handle(st));
		cJSON_Delete(obj);
		if (text == NULL)
			return pq_fail(err, "out of memory");
		fprintf(out, "%s\n%s", first ? "" : ",", text);
		cJSON_free(text);
		first = 0;
	}
	pq_meter_unwatch(&meter, sqlite3_db_handle(st));
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
