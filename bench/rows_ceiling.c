/* rows_ceiling.c - what SQLite itself needs for the rows an import wrote: every row of a file
 * `profq import` made (its strings, dimension and event tables; not the derived tables) is read
 * into memory, then inserted into a new file set up as the import sets up its output (the
 * schema, the rollback journal, synchronous=NORMAL, a 64 MiB cache, the event indexes dropped
 * but, for an Nsight Systems export's rows, the partial ones, as the nsys importer keeps them),
 * through one reused prepared statement a table, in one transaction; then the event indexes are
 * built and the transaction committed, as at the end of an import. As the store does, a value equal
 * to the previous row's is not bound again. None of profq's code runs in the timed part, so the
 * import cannot beat these times; bench/rows_ceiling.sh sets them beside the import's phases.
 *
 *   rows_ceiling SRC_DB OUT_DB [CHUNK]
 *
 * With CHUNK, the event tables' rows go in turn, CHUNK rows of a table at a time, each table
 * at the pace that has them all end together (its share of the rows), as an import interleaves
 * them; without, a table after the other. Prints one line: "rows N insert S index S commit S"
 * (seconds, wall). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"

/* Tables whose ids the new file gives again (rows go in id order, so the ids come out the same);
 * every other table is copied with its ids, which rows refer to. */
static const char *const event_tables[] = {
	"kernels", "memcpys", "memsets", "api_calls", "ranges", "marks", "memory_events",
	"counters", "synchronizations", "flows", "cuda_names",
};

/* One table's rows, each value a tag byte then its bytes: 'n' NULL, 'i' int64, 'r' double,
 * 't' uint32 length then the text. */
typedef struct table_rows {
	char name[64];
	char *insert_sql;
	int ncols;
	int64_t nrows;
	unsigned char *buf;
	size_t len, cap;
} table_rows;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, sqlite3 *db)
{
	fprintf(stderr, "rows_ceiling: %s: %s\n", what, db != NULL ? sqlite3_errmsg(db) : "");
	exit(1);
}

static void put(table_rows *t, const void *p, size_t n)
{
	if (t->len + n > t->cap) {
		t->cap = (t->len + n) * 2 + 4096;
		if ((t->buf = realloc(t->buf, t->cap)) == NULL)
			die("out of memory", NULL);
	}
	memcpy(t->buf + t->len, p, n);
	t->len += n;
}

static int is_event_table(const char *name)
{
	for (size_t i = 0; i < sizeof(event_tables) / sizeof(event_tables[0]); i++)
		if (strcmp(name, event_tables[i]) == 0)
			return 1;
	return 0;
}

/* The table's columns as "a, b, c" (without id for an event table) and their count. */
static char *column_list(sqlite3 *db, const char *table, int *ncols)
{
	sqlite3_stmt *st;
	sqlite3_str *s = sqlite3_str_new(db);
	int skip_id = is_event_table(table);

	*ncols = 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?1) ORDER BY cid", -1, &st,
			       NULL) != SQLITE_OK)
		die("table_info", db);
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 0);

		if (skip_id && strcmp(col, "id") == 0)
			continue;
		sqlite3_str_appendf(s, "%s\"%w\"", *ncols > 0 ? ", " : "", col);
		(*ncols)++;
	}
	sqlite3_finalize(st);
	return sqlite3_str_finish(s);
}

static void load(sqlite3 *src, table_rows *t)
{
	sqlite3_stmt *st;
	char *cols = column_list(src, t->name, &t->ncols);
	/* an event table in id order (the new file numbers its rows again); the others keep ids */
	char *sql = sqlite3_mprintf("SELECT %s FROM \"%w\"%s", cols, t->name,
				    is_event_table(t->name) ? " ORDER BY id" : "");
	sqlite3_str *ins = sqlite3_str_new(NULL);

	sqlite3_str_appendf(ins, "INSERT INTO \"%w\"(%s) VALUES (", t->name, cols);
	for (int i = 0; i < t->ncols; i++)
		sqlite3_str_appendall(ins, i > 0 ? ",?" : "?");
	sqlite3_str_appendall(ins, ")");
	t->insert_sql = sqlite3_str_finish(ins);
	if (sqlite3_prepare_v2(src, sql, -1, &st, NULL) != SQLITE_OK)
		die(t->name, src);
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (int i = 0; i < t->ncols; i++) {
			int64_t v;
			double d;
			uint32_t n;

			switch (sqlite3_column_type(st, i)) {
			case SQLITE_INTEGER:
				v = sqlite3_column_int64(st, i);
				put(t, "i", 1);
				put(t, &v, sizeof(v));
				break;
			case SQLITE_FLOAT:
				d = sqlite3_column_double(st, i);
				put(t, "r", 1);
				put(t, &d, sizeof(d));
				break;
			case SQLITE_NULL:
				put(t, "n", 1);
				break;
			default:
				n = (uint32_t)sqlite3_column_bytes(st, i);
				put(t, "t", 1);
				put(t, &n, sizeof(n));
				put(t, sqlite3_column_text(st, i), n);
				break;
			}
		}
		t->nrows++;
	}
	sqlite3_finalize(st);
	sqlite3_free(sql);
	sqlite3_free(cols);
}

/* Inserting a table's rows: its statement, where its next row is, the bytes of each column's last
 * bound value (which decide whether to bind again), and how many rows are in. */
typedef struct cursor {
	sqlite3_stmt *st;
	const unsigned char *p;
	const unsigned char **last;
	int64_t done;
} cursor;

static void open_cursor(sqlite3 *db, const table_rows *t, cursor *c)
{
	c->p = t->buf;
	c->done = 0;
	if ((c->last = calloc((size_t)t->ncols + 1, sizeof(*c->last))) == NULL)
		die("out of memory", NULL);
	if (sqlite3_prepare_v3(db, t->insert_sql, -1, SQLITE_PREPARE_PERSISTENT, &c->st, NULL) !=
	    SQLITE_OK)
		die(t->name, db);
}

static void close_cursor(cursor *c)
{
	sqlite3_finalize(c->st);
	free(c->last);
}

/* Inserts t's next row. */
static void insert_next(sqlite3 *db, const table_rows *t, cursor *c)
{
	sqlite3_stmt *st = c->st;
	const unsigned char *p = c->p, **last = c->last;

	for (int i = 0; i < t->ncols; i++) {
		const unsigned char *v = p;
		uint32_t n;

		switch (*p++) {
		case 'i':
			if (last[i] == NULL || memcmp(last[i], v, 9) != 0) {
				int64_t x;

				memcpy(&x, p, sizeof(x));
				sqlite3_bind_int64(st, i + 1, x);
				last[i] = v;
			}
			p += 8;
			break;
		case 'r':
			if (last[i] == NULL || memcmp(last[i], v, 9) != 0) {
				double x;

				memcpy(&x, p, sizeof(x));
				sqlite3_bind_double(st, i + 1, x);
				last[i] = v;
			}
			p += 8;
			break;
		case 'n':
			if (last[i] == NULL || *last[i] != 'n') {
				sqlite3_bind_null(st, i + 1);
				last[i] = v;
			}
			break;
		default:
			memcpy(&n, p, sizeof(n));
			p += sizeof(n);
			sqlite3_bind_text(st, i + 1, (const char *)p, (int)n, SQLITE_STATIC);
			last[i] = NULL; /* texts are bound every row, as the store does */
			p += n;
			break;
		}
	}
	if (sqlite3_step(st) != SQLITE_DONE)
		die(t->name, db);
	sqlite3_reset(st);
	c->p = p;
	c->done++;
}

/* Every table's rows: a table after the other (chunk 0), or the event tables' in turn, chunk
 * rows at a time from the one furthest behind its share. */
static void insert_all(sqlite3 *db, const table_rows *tables, int ntables, int chunk)
{
	cursor *c = calloc((size_t)ntables + 1, sizeof(*c));

	if (c == NULL)
		die("out of memory", NULL);
	for (int i = 0; i < ntables; i++) {
		open_cursor(db, &tables[i], &c[i]);
		if (chunk == 0 || !is_event_table(tables[i].name))
			while (c[i].done < tables[i].nrows)
				insert_next(db, &tables[i], &c[i]);
	}
	for (;;) {
		int behind = -1;
		double least = 1;

		for (int i = 0; i < ntables; i++) {
			double share = tables[i].nrows ? (double)c[i].done / tables[i].nrows : 1;

			if (share < least) {
				least = share;
				behind = i;
			}
		}
		if (behind < 0)
			break;
		for (int k = 0; k < chunk && c[behind].done < tables[behind].nrows; k++)
			insert_next(db, &tables[behind], &c[behind]);
	}
	for (int i = 0; i < ntables; i++)
		close_cursor(&c[i]);
	free(c);
}

int main(int argc, char **argv)
{
	sqlite3 *src, *db;
	sqlite3_stmt *st;
	table_rows *tables = NULL;
	int ntables = 0;
	int64_t rows = 0;
	pq_error err;
	double t0, t1, t2, t3;
	int keep_partial = 0;

	if (argc != 3 && (argc != 4 || atoi(argv[3]) < 1)) {
		fprintf(stderr, "usage: rows_ceiling SRC_DB OUT_DB [CHUNK]\n");
		return 2;
	}
	if (sqlite3_open_v2(argv[1], &src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		die(argv[1], src);
	unlink(argv[2]);
	if (pq_db_open(argv[2], PQ_OPEN_CREATE, &db, NULL, &err) != 0) {
		fprintf(stderr, "rows_ceiling: %s\n", err.msg);
		return 1;
	}
	/* The tables an import writes, in the schema's order (parents first): those the new file
	 * has no rows in (the kinds tables come filled with the schema), up to the derived ones. */
	if (sqlite3_prepare_v2(src, "SELECT name FROM sqlite_master WHERE type = 'table' AND "
				    "rowid < (SELECT rowid FROM sqlite_master WHERE name = 'derived_runs') "
				    "ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
		die("sqlite_master", src);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		char *sql = sqlite3_mprintf("SELECT count(*) FROM \"%w\"", name);
		sqlite3_stmt *count;
		int empty = 0;

		if (sqlite3_prepare_v2(db, sql, -1, &count, NULL) == SQLITE_OK &&
		    sqlite3_step(count) == SQLITE_ROW)
			empty = sqlite3_column_int64(count, 0) == 0;
		sqlite3_finalize(count);
		sqlite3_free(sql);
		if (!empty)
			continue;
		if ((tables = realloc(tables, (size_t)(ntables + 1) * sizeof(*tables))) == NULL)
			die("out of memory", NULL);
		memset(&tables[ntables], 0, sizeof(tables[ntables]));
		snprintf(tables[ntables].name, sizeof(tables[ntables].name), "%s", name);
		load(src, &tables[ntables]);
		if (is_event_table(name))
			rows += tables[ntables].nrows;
		ntables++;
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(src, "SELECT EXISTS (SELECT 1 FROM runs WHERE source = 'nsys-sqlite')",
			       -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		keep_partial = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(src);

	if (pq_db_exec(db, "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536",
		       "cannot configure the database", &err) != 0 ||
	    pq_db_drop_event_indexes(db, keep_partial, &err) != 0) {
		fprintf(stderr, "rows_ceiling: %s\n", err.msg);
		return 1;
	}
	t0 = now();
	if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		die("begin", db);
	insert_all(db, tables, ntables, argc == 4 ? atoi(argv[3]) : 0);
	t1 = now();
	if (pq_db_build_event_indexes(db, NULL, &err) != 0) {
		fprintf(stderr, "rows_ceiling: %s\n", err.msg);
		return 1;
	}
	t2 = now();
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		die("commit", db);
	t3 = now();
	sqlite3_close(db);
	printf("rows %lld insert %.4f index %.4f commit %.4f\n", (long long)rows, t1 - t0, t2 - t1,
	       t3 - t2);
	for (int i = 0; i < ntables; i++) {
		free(tables[i].buf);
		sqlite3_free(tables[i].insert_sql);
	}
	free(tables);
	return 0;
}
