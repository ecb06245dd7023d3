/* nsys_stream_test.c - a statement stepped on a thread (lib/nsys_stream.c): every row arrives,
 * in order, with each value in its column's form, across batch boundaries and a text larger
 * than a batch's budget; names given as StringIds ids arrive as their texts (more distinct ids
 * than the cache holds, missing ones, a NULL text, an id written as text); a read stopped early
 * ends; an error mid-read arrives after the rows before it, with the connection's message. The
 * expected values are worked out here from the row number, not read back through SQLite. */
#include <stdlib.h>
#include <unistd.h>

#include "nsys.h"
#include "tap.h"

#define ROWS 5000
#define BIG_ROW 4321            /* its text is 1.5 MB: more than a batch holds */
#define BIG_LEN (3 << 19)

static int64_t want_a(int i) { return (int64_t)i * 7 - 3; }
static int a_null(int i) { return i % 11 == 0; }
static int b_null(int i) { return i % 13 == 0; }
static int c_null(int i) { return i % 17 == 0; }
static size_t c_len(int i) { return i == BIG_ROW ? BIG_LEN : i % 100 == 0 ? 3000 : 0; }

/* e: a StringIds id, each twice and 450 pairs of them in the same slot of the stream's 4096
 * (id and id + 4096); StringIds holds "name-<id>" for ids 0..9999, but none for multiples of 97
 * and a NULL text for id 6. Some ids are written as text: '7' (stored as 7: the column is an
 * INTEGER one, as in an export) and '7x' (kept as text, which no id equals). */
#define NAMES 10000
static int64_t e_id(int i) { return (int64_t)(i % 2500) * 2; }
static int e_null(int i) { return i % 19 == 0; }
static const char *e_text(int i) { return i % 23 == 0 ? "7x" : i % 29 == 0 ? "7" : NULL; }
static int name_exists(int64_t id) { return id < NAMES && id % 97 != 0 && id != 6; }

/* Row i's text: "row-<i>", or c_len(i) bytes of a letter of i. */
static void want_c(int i, char *buf)
{
	size_t n = c_len(i);

	if (n == 0) {
		sprintf(buf, "row-%d", i);
		return;
	}
	memset(buf, 'a' + i % 26, n);
	buf[n] = '\0';
}

static sqlite3 *make_db(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *ins;
	char *text = malloc(BIG_LEN + 1);

	if (text == NULL || sqlite3_open(path, &db) != SQLITE_OK ||
	    sqlite3_exec(db, "CREATE TABLE t (a INTEGER, b REAL, c TEXT, d, e INTEGER); "
			 "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT); BEGIN; "
			 "WITH RECURSIVE n(id) AS (SELECT 0 UNION ALL SELECT id + 1 FROM n "
			 "WHERE id < 9999) INSERT INTO StringIds SELECT id, 'name-' || id FROM n "
			 "WHERE id % 97 <> 0; UPDATE StringIds SET value = NULL WHERE id = 6",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO t (rowid, a, b, c, d, e) VALUES (?, ?, ?, ?, ?, ?)",
			       -1, &ins, NULL) != SQLITE_OK)
		exit(1);
	for (int i = 1; i <= ROWS; i++) {
		sqlite3_bind_int(ins, 1, i);
		if (a_null(i))
			sqlite3_bind_null(ins, 2);
		else
			sqlite3_bind_int64(ins, 2, want_a(i));
		if (b_null(i))
			sqlite3_bind_null(ins, 3);
		else
			sqlite3_bind_double(ins, 3, i / 4.0);
		want_c(i, text);
		if (c_null(i))
			sqlite3_bind_null(ins, 4);
		else
			sqlite3_bind_text(ins, 4, text, -1, SQLITE_TRANSIENT);
		/* d: an integer column that holds a text now and then, read as SQLite reads it */
		if (i % 5 == 0)
			sqlite3_bind_text(ins, 5, "42x", -1, SQLITE_STATIC);
		else
			sqlite3_bind_int(ins, 5, -i);
		if (e_null(i))
			sqlite3_bind_null(ins, 6);
		else if (e_text(i) != NULL)
			sqlite3_bind_text(ins, 6, e_text(i), -1, SQLITE_STATIC);
		else
			sqlite3_bind_int64(ins, 6, e_id(i));
		if (sqlite3_step(ins) != SQLITE_DONE)
			exit(1);
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	free(text);
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		exit(1);
	return db;
}

static const nsys_col cols[] = {
	{ "a", 0 }, { "b", NSYS_REAL }, { "c", NSYS_TEXT }, { "d", 0 },
};

/* A stream of sql on db, its first step taken as the prefetch helper takes it. */
static struct nsys_stream *start(sqlite3 *db, const char *sql, int ncols, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
		exit(1);
	return nsys_stream_start(*st, cols, ncols, sqlite3_step(*st));
}

static void every_row(sqlite3 *db)
{
	sqlite3_stmt *st;
	struct nsys_stream *s = start(db, "SELECT a, b, c, d FROM t ORDER BY rowid", 4, &st);
	char *want = malloc(BIG_LEN + 1);
	const nsys_cell *row;
	const char *texts;
	int n = 0, bad = 0, rc, big_ok = 0;

	ok(s != NULL && want != NULL, "a stream starts");
	if (s == NULL || want == NULL)
		exit(1);
	while ((rc = nsys_stream_next(s, &row, &texts)) == SQLITE_ROW) {
		int i = ++n;

		want_c(i, want);
		if ((a_null(i) ? row[0].type != SQLITE_NULL
			       : row[0].type != SQLITE_INTEGER || row[0].v.i != want_a(i)) ||
		    (b_null(i) ? row[1].type != SQLITE_NULL
			       : row[1].type != SQLITE_FLOAT || row[1].v.d != i / 4.0) ||
		    (c_null(i) ? row[2].type != SQLITE_NULL
			       : row[2].type != SQLITE_TEXT || strcmp(texts + row[2].v.text, want) != 0) ||
		    (i % 5 == 0 ? row[3].type != SQLITE_TEXT || row[3].v.i != 42
				: row[3].type != SQLITE_INTEGER || row[3].v.i != -i)) {
			if (bad++ < 5)
				printf("# row %d differs\n", i);
		}
		if (i == BIG_ROW && !c_null(i))
			big_ok = strlen(texts + row[2].v.text) == BIG_LEN;
	}
	is_int(n, ROWS, "every row arrives (%d batches' worth and more)", ROWS / 512);
	is_int(bad, 0, "each with its values, in order: integers, doubles, texts, NULLs");
	ok(big_ok, "a 1.5 MB text arrives whole");
	is_int(rc, SQLITE_DONE, "then the end");
	is_int(nsys_stream_next(s, &row, &texts), SQLITE_DONE, "and the end again when asked again");
	nsys_stream_stop(s);
	sqlite3_finalize(st);
	free(want);
}

/* The names of column e, read as the importer reads them: ids, looked up by the stream. */
static void names(sqlite3 *db)
{
	static const nsys_col name_col[] = { { "e", NSYS_STR } };
	sqlite3_stmt *st;
	struct nsys_stream *s;
	const nsys_cell *row;
	const char *texts;
	int n = 0, bad = 0, as_text = 0, found = 0;

	if (sqlite3_prepare_v2(db, "SELECT e FROM t ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
		exit(1);
	s = nsys_stream_start(st, name_col, 1, sqlite3_step(st));
	while (nsys_stream_next(s, &row, &texts) == SQLITE_ROW) {
		int i = ++n;
		char want[32];
		int64_t id = e_text(i) != NULL ? 7 : e_id(i);
		int has = !e_null(i) && name_exists(id) &&
			  (e_text(i) == NULL || strcmp(e_text(i), "7") == 0);

		snprintf(want, sizeof(want), "name-%lld", (long long)id);
		as_text += !e_null(i) && e_text(i) != NULL;
		found += has;
		if (has ? row[0].type != SQLITE_TEXT || strcmp(texts + row[0].v.text, want) != 0
			: row[0].type != SQLITE_NULL) {
			if (bad++ < 5)
				printf("# row %d: name %s\n", i, row[0].type == SQLITE_TEXT ?
				       texts + row[0].v.text : "NULL");
		}
	}
	is_int(n, ROWS, "names: every row");
	is_int(bad, 0, "each id as its StringIds text (%d); NULL for a NULL id, a missing one, a "
	       "NULL text; ids written as text (%d) as SQL compares them", found, as_text);
	nsys_stream_stop(s);
	sqlite3_finalize(st);
}

static void stopped_early(sqlite3 *db)
{
	sqlite3_stmt *st;
	/* a self-join keeps the thread stepping long after the three rows read here */
	struct nsys_stream *s = start(db, "SELECT x.a FROM t AS x, t AS y", 1, &st);
	const nsys_cell *row;
	const char *texts;
	int n = 0, rc;

	while (n < 3 && nsys_stream_next(s, &row, &texts) == SQLITE_ROW)
		n++;
	is_int(n, 3, "a read stopped after three rows of 25 M");
	nsys_stream_stop(s);
	/* the thread was interrupted in a step, or stopped waiting for a batch to fill */
	rc = sqlite3_finalize(st);
	ok(rc == SQLITE_OK || rc == SQLITE_INTERRUPT, "ends: its thread stopped (finalize: %d)", rc);
	is_int(sqlite3_exec(db, "SELECT count(*) FROM t", NULL, NULL, NULL), SQLITE_OK,
	       "and the connection is usable again");
}

static void error_mid_read(sqlite3 *db)
{
	sqlite3_stmt *st;
	struct nsys_stream *s = start(db, "SELECT CASE WHEN rowid = 1500 "
				      "THEN abs(-9223372036854775807 - 1) ELSE rowid END "
				      "FROM t ORDER BY rowid", 1, &st);
	const nsys_cell *row;
	const char *texts;
	int n = 0, in_order = 1, rc;

	while ((rc = nsys_stream_next(s, &row, &texts)) == SQLITE_ROW)
		in_order &= row[0].v.i == ++n;
	is_int(n, 1499, "an error at row 1500: the 1499 rows before it arrive");
	ok(in_order, "in order");
	is_int(rc, SQLITE_ERROR, "then the error");
	is_str(sqlite3_errmsg(db), "integer overflow", "with the connection's message");
	nsys_stream_stop(s);
	sqlite3_finalize(st);
}

static void empty(sqlite3 *db)
{
	sqlite3_stmt *st;
	struct nsys_stream *s = start(db, "SELECT a FROM t WHERE a = -1", 1, &st);
	const nsys_cell *row;
	const char *texts;

	is_int(nsys_stream_next(s, &row, &texts), SQLITE_DONE, "a read without rows ends at once");
	nsys_stream_stop(s);
	sqlite3_finalize(st);
}

int main(void)
{
	char dir[] = "/tmp/pq_nsys_stream.XXXXXX", path[64];
	sqlite3 *db;

	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof(path), "%s/t.db", dir);
	db = make_db(path);
	every_row(db);
	names(db);
	stopped_early(db);
	error_mid_read(db);
	empty(db);
	sqlite3_close(db);
	unlink(path);
	rmdir(dir);
	return done_testing();
}
