/* nsys_order_test.c - nsys_rowid_order (lib/nsys_order.c): whether a sorted read of an export
 * table may be made in rowid order. Hand-worked cases, then random tables against SQL's own
 * answer: a thread's rows sorted by the read's ORDER BY come in rising rowid order. */
#include <stdlib.h>

#include "nsys.h"
#include "tap.h"

#define NVTX_WHERE "t.eventType NOT IN (75, 33, 64)"

static const nsys_query by_start = { "K", NULL, 0, NULL, "t.start, t.rowid",
				     NSYS_ROWID_IF_BY_START };
static const nsys_query by_thread = { "N", NULL, 0, NVTX_WHERE,
				      "t.globalTid, t.start, coalesce(t.\"end\", "
				      "9223372036854775807) DESC, t.rowid",
				      NSYS_ROWID_IF_BY_THREAD };
static const nsys_query sorted = { "K", NULL, 0, NULL, "t.start, t.rowid", NSYS_SORTED };

static sqlite3 *db;

/* Table K (start) and N (globalTid, start, end, eventType) holding rows, SQL VALUES lists. */
static void fill(const char *k_rows, const char *n_rows)
{
	char *sql = sqlite3_mprintf("DELETE FROM K; DELETE FROM N; %s%s%s %s%s%s",
				    k_rows ? "INSERT INTO K (start) VALUES " : "", k_rows ? k_rows : "",
				    k_rows ? ";" : "",
				    n_rows ? "INSERT INTO N (globalTid, start, \"end\", eventType) "
					     "VALUES " : "", n_rows ? n_rows : "", n_rows ? ";" : "");

	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		printf("# %s: %s\n", sql, sqlite3_errmsg(db));
	sqlite3_free(sql);
}

static void hand_worked(void)
{
	fill("(1), (2), (2), (5)", NULL);
	is_int(nsys_rowid_order(db, &by_start), 1, "starts that never decrease: rowid order");
	is_int(nsys_rowid_order(db, &sorted), 0, "a read that must be sorted is never");
	fill("(1), (3), (2)", NULL);
	is_int(nsys_rowid_order(db, &by_start), 0, "one start below the one before: sorted");
	fill("(1), (NULL), (2)", NULL);
	is_int(nsys_rowid_order(db, &by_start), 0, "a NULL start: sorted");
	fill("(1), ('2'), (3)", NULL);
	is_int(nsys_rowid_order(db, &by_start), 0, "a text start: sorted");
	fill("(1), (2.5), (3)", NULL);
	is_int(nsys_rowid_order(db, &by_start), 0, "a real start: sorted");
	fill(NULL, NULL);
	is_int(nsys_rowid_order(db, &by_start), 1, "no rows: rowid order");

	fill(NULL, "(1, 10, 20, 59), (2, 5, 50, 59), (1, 12, 15, 59), (2, 6, 7, 59)");
	is_int(nsys_rowid_order(db, &by_thread), 1, "threads interleaved, each in order");
	fill(NULL, "(1, 10, 20, 59), (2, 5, 50, 59), (1, 9, 15, 59)");
	is_int(nsys_rowid_order(db, &by_thread), 0, "a thread's start going back: sorted");
	fill(NULL, "(1, 10, 20, 59), (1, 10, 15, 59), (1, 10, 15, 59)");
	is_int(nsys_rowid_order(db, &by_thread), 1, "the same start, ends not rising");
	fill(NULL, "(1, 10, 15, 59), (1, 10, 20, 59)");
	is_int(nsys_rowid_order(db, &by_thread), 0, "the same start, a later end after: sorted");
	fill(NULL, "(1, 10, NULL, 59), (1, 10, 20, 59)");
	is_int(nsys_rowid_order(db, &by_thread), 1, "an open range before one it holds");
	fill(NULL, "(1, 10, 20, 59), (1, 10, NULL, 59)");
	is_int(nsys_rowid_order(db, &by_thread), 0, "an open range after one of its start: sorted");
	fill(NULL, "(1, 10, 20, 59), (1, 5, 6, 75), (1, 12, 13, 59)");
	is_int(nsys_rowid_order(db, &by_thread), 1, "rows the read leaves out do not count");
	fill(NULL, "(NULL, 10, 20, 59), (1, 12, 13, 59)");
	is_int(nsys_rowid_order(db, &by_thread), 0, "a NULL thread: sorted");
	fill(NULL, "(1, 10, 20.5, 59)");
	is_int(nsys_rowid_order(db, &by_thread), 0, "a real end: sorted");
}

/* SQL's answer: no row of a thread sorts after a row of a later rowid. */
static int reference(void)
{
	sqlite3_stmt *st = NULL;
	int bad = -1;

	sqlite3_prepare_v2(db, "SELECT count(*) FROM (SELECT rowid AS r, lag(rowid) OVER (PARTITION BY "
			   "globalTid ORDER BY start, coalesce(\"end\", 9223372036854775807) DESC, "
			   "rowid) AS p FROM N WHERE eventType NOT IN (75, 33, 64)) WHERE r < p",
			   -1, &st, NULL);
	if (sqlite3_step(st) == SQLITE_ROW)
		bad = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return bad == 0;
}

/* Random NVTX-like tables: a few threads, nested ranges in time order with a chance of a swap, an
 * equal start, an open range or a definition row. */
static void random_tables(void)
{
	int agree = 0, ordered = 0, tables = 400;

	srand(7);
	for (int k = 0; k < tables; k++) {
		sqlite3_stmt *st = NULL;
		int64_t t = 0;
		int rows = 1 + rand() % 40, threads = 1 + rand() % 3;

		fill(NULL, NULL);
		sqlite3_prepare_v2(db, "INSERT INTO N (globalTid, start, \"end\", eventType) "
				   "VALUES (?1, ?2, ?3, ?4)", -1, &st, NULL);
		for (int i = 0; i < rows; i++) {
			int64_t start = t, end;

			t += rand() % 3;                          /* equal starts happen */
			if (rand() % 60 == 0)
				start -= 1 + rand() % 3;          /* and, rarely, one goes back */
			end = start + rand() % 5;
			sqlite3_bind_int64(st, 1, 100 + rand() % threads);
			sqlite3_bind_int64(st, 2, start);
			if (rand() % 15 == 0)
				sqlite3_bind_null(st, 3);
			else
				sqlite3_bind_int64(st, 3, end);
			sqlite3_bind_int(st, 4, rand() % 20 == 0 ? 75 : 59);
			sqlite3_step(st);
			sqlite3_reset(st);
		}
		sqlite3_finalize(st);
		agree += nsys_rowid_order(db, &by_thread) == reference();
		ordered += reference();
	}
	is_int(agree, tables, "%d random tables: the same answer as SQL's sort", tables);
	ok(ordered > tables / 5 && ordered < tables * 4 / 5, "both answers among them (%d in order)",
	   ordered);
}

int main(void)
{
	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    sqlite3_exec(db, "CREATE TABLE K (start); CREATE TABLE N (globalTid, start, \"end\", "
			 "eventType)", NULL, NULL, NULL) != SQLITE_OK) {
		puts("Bail out! cannot make the tables");
		return 1;
	}
	hand_worked();
	random_tables();
	sqlite3_close(db);
	return done_testing();
}
