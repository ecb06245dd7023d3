/* db_indexes.c - the event tables' secondary indexes, dropped for a bulk load and built again.
 *
 * schema/schema.sql stays the one definition: the CREATE INDEX statements are read from the
 * embedded text, and those on event tables are the deferrable ones. Building an index once over
 * rows already written sorts them; keeping it up to date per row costs a B-tree descent per row and
 * index, which is most of an insert's time (bench/RESULTS.md, Store). Dimension tables keep their
 * indexes: the store's upserts need the unique keys and the tables are small.
 */
#include "db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_sql.h"

static const char *const event_tables[] = {
	"kernels", "memcpys", "memsets", "api_calls", "ranges", "marks", "memory_events",
	"counters", "synchronizations", "flows",
};

#define CREATE_INDEX "CREATE INDEX "

/* One CREATE INDEX statement of the schema text. */
typedef struct index_def {
	const char *name, *table, *rest;  /* rest: from the name to the ';' */
	int name_len, table_len, rest_len;
} index_def;

static int is_event_table(const char *name, int len)
{
	for (size_t i = 0; i < sizeof(event_tables) / sizeof(event_tables[0]); i++)
		if ((int)strlen(event_tables[i]) == len && strncmp(event_tables[i], name, len) == 0)
			return 1;
	return 0;
}

static const char *skip_word(const char *p, int *len)
{
	const char *start;

	while (*p == ' ' || *p == '\n')
		p++;
	start = p;
	while (*p != '\0' && *p != ' ' && *p != '\n' && *p != '(' && *p != ';')
		p++;
	*len = (int)(p - start);
	return start;
}

/* The next event-table index statement at or after *pos (advanced past it); 0 when none is left. */
static int next_event_index(const char **pos, index_def *d)
{
	const char *p = *pos;

	while ((p = strstr(p, "\n" CREATE_INDEX)) != NULL) {
		const char *end, *on;

		p += 1 + strlen(CREATE_INDEX);
		end = strchr(p, ';');
		if (end == NULL)
			return 0;
		d->name = skip_word(p, &d->name_len);
		on = strstr(d->name, " ON ");
		if (on == NULL || on > end)
			return 0;
		d->table = skip_word(on + 4, &d->table_len);
		d->rest = d->name;
		d->rest_len = (int)(end - d->name);
		p = end;
		if (is_event_table(d->table, d->table_len)) {
			*pos = p;
			return 1;
		}
	}
	return 0;
}

/* Whether d is a partial index (its definition has a WHERE). */
static int is_partial(const index_def *d)
{
	static const char where[] = " WHERE ";
	const int n = (int)sizeof(where) - 1;

	for (int i = 0; i + n <= d->rest_len; i++)
		if (memcmp(d->rest + i, where, (size_t)n) == 0)
			return 1;
	return 0;
}

int pq_db_drop_event_indexes(sqlite3 *db, int keep_partial, pq_error *err)
{
	const char *pos = pq_schema_sql;
	index_def d;
	char sql[128];

	while (next_event_index(&pos, &d)) {
		if (keep_partial && is_partial(&d))
			continue;
		snprintf(sql, sizeof(sql), "DROP INDEX IF EXISTS %.*s", d.name_len, d.name);
		if (pq_db_exec(db, sql, "cannot drop an index", err) != 0)
			return -1;
	}
	return 0;
}

/* A pragma's integer value on db (0 when it cannot be read). */
static int pragma_int(sqlite3 *db, const char *pragma)
{
	sqlite3_stmt *st = NULL;
	char sql[64];
	int v = 0;

	snprintf(sql, sizeof(sql), "PRAGMA %s", pragma);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void set_pragma(sqlite3 *db, const char *pragma, int v)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA %s = %d", pragma, v);
	sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* The sorter's budget for the indexes of large tables. SQLite sorts an index's keys in memory up
 * to a budget, the page cache's size (at least 250 pages), and beyond it in runs written out and
 * merged. A run that fits the CPU's caches sorts faster than one list of the whole table, so an
 * index of a table larger than the usual cache builds faster with the cache set to 4 MiB while
 * it is built (the 2.5 M-row nsys bench export, bench/RESULTS.md). But a table that fits in the
 * usual cache would then be read from the file again for each of its indexes: every index of the
 * 500 MB Kineto bench trace (tables of at most 0.6 M rows, read 3-4 times each) took 1.1-2x as
 * long that way. So only a table of a million rows or more, larger than the cache whatever its
 * width, is sorted that way: the NVTX ranges of the nsys export. No helper threads (PRAGMA
 * threads): on the AMD machine they made that phase 0.5-1 s slower and cost 1.3-1.8 s of CPU
 * (bench/RESULTS.md, fourteenth session). The runs go to SQLite's temporary directory, as a sort
 * beyond the cache did before. */
#define SORT_RUN_KIB 4096
#define IN_RUNS_ROWS 1000000

/* Whether table (len bytes of name) holds IN_RUNS_ROWS rows or more (PROFQ_SORT_ROWS in
 * the environment says another number: tests/c/store.t takes this path on fewer rows): by its
 * largest rowid, one B-tree descent (rowids only grow in event tables). */
static int large_table(sqlite3 *db, const char *table, int len)
{
	const char *knob = getenv("PROFQ_SORT_ROWS");
	sqlite3_stmt *st = NULL;
	char sql[128];
	int large = 0;

	snprintf(sql, sizeof(sql), "SELECT max(rowid) >= %lld FROM \"%.*s\"",
		 knob != NULL ? atoll(knob) : IN_RUNS_ROWS, len, table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		large = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return large;
}

/* Builds index d; sorted in runs when its table is large. */
static int build_one(sqlite3 *db, const index_def *d, pq_error *err)
{
	char sql[1024];
	int in_runs = large_table(db, d->table, d->table_len), cache = 0;
	int rc;

	if (snprintf(sql, sizeof(sql), CREATE_INDEX "IF NOT EXISTS %.*s", d->rest_len, d->rest) >=
	    (int)sizeof(sql))
		return pq_fail(err, "an index definition is too long");
	if (in_runs) {
		cache = pragma_int(db, "cache_size");
		set_pragma(db, "cache_size", -SORT_RUN_KIB);
	}
	rc = pq_db_exec(db, sql, "cannot build an index", err);
	if (in_runs && cache != 0) /* 0: it could not be read */
		set_pragma(db, "cache_size", cache);
	return rc;
}

int pq_db_build_event_indexes(sqlite3 *db, const pq_progress *progress, pq_error *err)
{
	const char *pos = pq_schema_sql;
	index_def d;
	uint64_t done = 0, total = 0;

	while (next_event_index(&pos, &d))
		total++;
	pos = pq_schema_sql;
	pq_progress_report(progress, PQ_PHASE_INDEX, 0, total);
	while (next_event_index(&pos, &d)) {
		if (build_one(db, &d, err) != 0)
			return -1;
		pq_progress_report(progress, PQ_PHASE_INDEX, ++done, total);
	}
	return 0;
}

int pq_db_missing_event_indexes(sqlite3 *db)
{
	const char *pos = pq_schema_sql;
	sqlite3_stmt *st = NULL;
	index_def d;
	int missing = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	while (next_event_index(&pos, &d)) {
		sqlite3_bind_text(st, 1, d.name, d.name_len, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_ROW)
			missing++;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return missing;
}

int64_t pq_db_event_rows(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int64_t rows = 0;
	char sql[96];

	/* max(id) is one B-tree descent; ids only grow, so it bounds the row count from above. */
	for (size_t i = 0; i < sizeof(event_tables) / sizeof(event_tables[0]); i++) {
		snprintf(sql, sizeof(sql), "SELECT max(id) FROM %s", event_tables[i]);
		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW)
			rows += sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	return rows;
}
