/* nsys_source.c - the export side of the nsys importer: opening read-only, integrity and schema
 * probing, SELECT building, row helpers, export metadata. Nothing here writes rows except the
 * run_metadata helpers at the end. */
#include "nsys.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"

/* Tables the importer reads and the columns it cannot do without. A present table missing one
 * of them is an export this importer does not understand: an error, not missing data. */
static const struct required {
	const char *table;
	const char *cols[4];
} required[] = {
	{ "CUPTI_ACTIVITY_KIND_KERNEL", { "start", "end" } },
	{ "CUPTI_ACTIVITY_KIND_RUNTIME", { "start", "end", "nameId" } },
	{ "CUPTI_ACTIVITY_KIND_MEMCPY", { "start", "end" } },
	{ "CUPTI_ACTIVITY_KIND_MEMSET", { "start", "end" } },
	{ "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", { "start", "end" } },
	{ "NVTX_EVENTS", { "start", "end", "eventType" } },
	{ "StringIds", { "id", "value" } },
	{ "PROCESSES", { "globalPid" } },
	{ "ThreadNames", { "globalTid", "nameId" } },
	{ "TARGET_INFO_GPU", { "id" } },
	{ "TARGET_INFO_CUDA_DEVICE", { "cudaId" } },
	{ "TARGET_INFO_CUDA_STREAM", { "streamId", "processId" } },
	{ "TARGET_INFO_SESSION_START_TIME", { "utcEpochNs" } },
};

/* Tables whose rows the importer reads one by one: their row counts are the progress total. */
static const char *const counted[] = {
	"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY",
	"CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS",
	"PROCESSES", "ThreadNames",
};

int nsys_counted(const char *table)
{
	for (size_t i = 0; i < sizeof(counted) / sizeof(counted[0]); i++)
		if (strcmp(counted[i], table) == 0)
			return 1;
	return 0;
}

/* "file:<path>?mode=ro" with the characters a URI path cannot hold percent-encoded. */
static char *ro_uri(const char *path)
{
	size_t n = strlen(path);
	char *uri = malloc(3 * n + 16), *p;

	if (uri == NULL)
		return NULL;
	p = uri + sprintf(uri, "file:");
	for (const char *q = path; *q != '\0'; q++) {
		if (*q == '%' || *q == '?' || *q == '#')
			p += sprintf(p, "%%%02X", (unsigned char)*q);
		else
			*p++ = *q;
	}
	strcpy(p, "?mode=ro");
	return uri;
}

/* A truncated copy (an interrupted download or `nsys export`) shows in the header: the file is
 * shorter than its page count says (SQLite file format §1.3: page size at offset 16, change
 * counter 24, page count 28, valid when version-valid-for at 92 equals the change counter). */
static int check_header(nsys_ctx *c)
{
	unsigned char h[100];
	FILE *f = fopen(c->path, "rb");
	long size;
	size_t n;
	uint32_t page_size, pages, counter, valid_for;

	if (f == NULL)
		return pq_fail(c->err, "cannot open: %s", strerror(errno));
	n = fread(h, 1, sizeof(h), f);
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0) {
		fclose(f);
		return pq_fail(c->err, "cannot read: %s", strerror(errno));
	}
	fclose(f);
	if (n < sizeof(h) || memcmp(h, "SQLite format 3", 16) != 0)
		return pq_fail(c->err, "not an SQLite database (%ld bytes)", size);
	page_size = (uint32_t)h[16] << 8 | h[17];
	if (page_size == 1)
		page_size = 65536;
	counter = (uint32_t)h[24] << 24 | (uint32_t)h[25] << 16 | (uint32_t)h[26] << 8 | h[27];
	pages = (uint32_t)h[28] << 24 | (uint32_t)h[29] << 16 | (uint32_t)h[30] << 8 | h[31];
	valid_for = (uint32_t)h[92] << 24 | (uint32_t)h[93] << 16 | (uint32_t)h[94] << 8 | h[95];
	if (counter == valid_for && pages > 0 && (uint64_t)size < (uint64_t)pages * page_size)
		return pq_fail(c->err,
			       "truncated SQLite file: %ld bytes, its header says %" PRIu64,
			       size, (uint64_t)pages * page_size);
	return 0;
}

int nsys_has_table(nsys_ctx *c, const char *table)
{
	sqlite3_stmt *st;
	int found = 0;

	if (sqlite3_prepare_v2(c->db,
			       "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') "
			       "AND name = ?1", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

int nsys_has_column(nsys_ctx *c, const char *table, const char *column)
{
	sqlite3_stmt *st;
	int found = 0;

	if (sqlite3_prepare_v2(c->db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", -1,
			       &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

int nsys_fail_on(nsys_ctx *c, sqlite3 *db, const char *what)
{
	int code = sqlite3_errcode(db);

	if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
		return pq_fail(c->err, "corrupt export: %s: %s", what, sqlite3_errmsg(db));
	return pq_fail(c->err, "%s: %s", what, sqlite3_errmsg(db));
}

static int db_fail(nsys_ctx *c, const char *what)
{
	return nsys_fail_on(c, c->db, what);
}

int nsys_query_int(nsys_ctx *c, const char *sql, int64_t dflt, int64_t *out)
{
	sqlite3_stmt *st;
	int rc;

	*out = dflt;
	/* answered ahead when the helper was given it (nsys_prefetch.c) */
	if (!nsys_prefetch_take(c, NULL, sql, &st, &rc, NULL)) {
		if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
			return db_fail(c, "cannot query the export");
		rc = sqlite3_step(st);
	}
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(c, "cannot query the export");
	return 0;
}

/* The value of one META_DATA_EXPORT (EXPORT_META_DATA in 2.x) row, "" when absent. */
static void export_meta(nsys_ctx *c, const char *name, char *buf, size_t size)
{
	char sql[160];
	sqlite3_stmt *st;

	buf[0] = '\0';
	snprintf(sql, sizeof(sql), "SELECT value FROM %s WHERE name = ?1",
		 c->legacy ? "EXPORT_META_DATA" : "META_DATA_EXPORT");
	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

int nsys_open(nsys_ctx *c, const char *path)
{
	char *uri;
	int64_t n;

	c->path = path;
	c->last_dev_key = PQ_NULL;
	for (int i = 0; i < NSYS_DIM_SLOTS; i++)
		c->processes.key[i] = c->threads.key[i] = PQ_NULL;
	if (check_header(c) != 0)
		return -1;
	if ((uri = ro_uri(path)) == NULL)
		return pq_fail(c->err, "out of memory");
	/* Read-only through the URI: the export is never modified, not even its journal. */
	if (sqlite3_open_v2(uri, &c->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) !=
	    SQLITE_OK) {
		free(uri);
		return pq_fail(c->err, "cannot open as SQLite: %s",
			       c->db ? sqlite3_errmsg(c->db) : "out of memory");
	}
	free(uri);
	pq_db_harden(c->db);  /* an export is data too: its views and triggers run nothing */
	if (nsys_query_int(c, "SELECT count(*) FROM sqlite_master", 0, &n) != 0)
		return -1;
	if (nsys_query_int(c,
			   "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
			   "(name IN ('META_DATA_EXPORT', 'EXPORT_META_DATA') OR "
			   "name LIKE 'CUPTI\\_ACTIVITY\\_KIND\\_%' ESCAPE '\\')", 0, &n) != 0)
		return -1;
	if (n == 0)
		return pq_fail(c->err, "not an Nsight Systems export (no META_DATA_EXPORT, "
			       "EXPORT_META_DATA or CUPTI_ACTIVITY_KIND_* table)");
	c->legacy = !nsys_has_table(c, "META_DATA_EXPORT") &&
		    nsys_has_table(c, "EXPORT_META_DATA");
	export_meta(c, "EXPORT_SCHEMA_VERSION", c->schema_version, sizeof(c->schema_version));
	export_meta(c, "EXPORT_PRODUCT_VERSION", c->product_version,
		    sizeof(c->product_version));

	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		const struct required *r = &required[i];

		if (!nsys_has_table(c, r->table))
			continue;
		for (size_t j = 0; j < 4 && r->cols[j] != NULL; j++)
			if (!nsys_has_column(c, r->table, r->cols[j]))
				return pq_fail(c->err,
					       "unexpected export schema %s: table %s has no "
					       "column '%s'",
					       c->schema_version[0] ? c->schema_version : "(unknown)",
					       r->table, r->cols[j]);
	}
	if (nsys_has_table(c, "CUPTI_ACTIVITY_KIND_KERNEL") &&
	    !nsys_has_column(c, "CUPTI_ACTIVITY_KIND_KERNEL", "demangledName") &&
	    !nsys_has_column(c, "CUPTI_ACTIVITY_KIND_KERNEL", "shortName") &&
	    !nsys_has_column(c, "CUPTI_ACTIVITY_KIND_KERNEL", "mangledName"))
		return pq_fail(c->err, "unexpected export schema %s: table "
			       "CUPTI_ACTIVITY_KIND_KERNEL has no name column (demangledName, "
			       "shortName or mangledName)", c->schema_version);
	c->has_strings = nsys_has_table(c, "StringIds");
	/* Kernel and API names are ids into StringIds: without it they would all be lost. */
	if (!c->has_strings) {
		int k = nsys_has_table(c, "CUPTI_ACTIVITY_KIND_KERNEL");
		int r = nsys_has_table(c, "CUPTI_ACTIVITY_KIND_RUNTIME");

		if (k || r)
			return pq_fail(c->err, "the export has no table StringIds, which the names in "
				       "%s%s%s refer to", k ? "CUPTI_ACTIVITY_KIND_KERNEL" : "",
				       k && r ? " and " : "", r ? "CUPTI_ACTIVITY_KIND_RUNTIME" : "");
	}

	return 0;
}

/* The count of table's rows the mappers reject for their times (NSYS_BAD_TIME). */
static int count_bad_times(nsys_ctx *c, const char *table, int64_t *bad)
{
	int nvtx = strcmp(table, "NVTX_EVENTS") == 0;
	char sql[512];

	snprintf(sql, sizeof(sql),
		 "SELECT count(*) FROM \"%s\" WHERE %s typeof(start) <> 'integer' OR "
		 "%s (typeof(\"end\") <> 'integer' OR \"end\" < start)%s", table,
		 nvtx ? "eventType IN (59, 60, 70, 71, 34, 65) AND (" : "",
		 nvtx ? "(\"end\" IS NOT NULL AND" : "(", nvtx ? "))" : ")");
	return nsys_query_int(c, sql, 0, bad);
}

int nsys_scan(nsys_ctx *c)
{
	int64_t n;

	/* The progress total: each table's largest rowid, one B-tree descent (exact for an export,
	 * whose rows are never deleted, else above the count; counting walked every page, 0.1 s of
	 * the bench export before the first row was written). A damaged page is met by the read
	 * that reaches it, and the run, written in one transaction, is rolled back; so are rows
	 * with bad times, which the mappers find (nsys_bad_row; looking for them here was a second
	 * scan, 0.5 s of 2.5 M rows). */
	for (size_t i = 0; i < sizeof(counted) / sizeof(counted[0]); i++) {
		char sql[512];

		if (c->opt != NULL)
			pq_progress_report(&c->opt->progress, PQ_PHASE_READ, i,
					   sizeof(counted) / sizeof(counted[0]));

		if (!nsys_has_table(c, counted[i]))
			continue;
		snprintf(sql, sizeof(sql), "SELECT max(rowid) FROM \"%s\"", counted[i]);
		if (nsys_query_int(c, sql, 0, &n) != 0)
			return db_fail(c, counted[i]);
		c->total += (uint64_t)n;
	}
	if (c->has_strings &&
	    nsys_query_int(c, "SELECT count(*) FROM StringIds", 0, &n) != 0)
		return db_fail(c, "StringIds");
	return 0;
}

void nsys_close(nsys_ctx *c)
{
	nsys_prefetch_stop(c);
	sqlite3_close(c->db);
	c->db = NULL;
	pq_map_free(&c->skipped);
	free(c->names);
	c->names = NULL;
}

char *nsys_uri(const char *path)
{
	return ro_uri(path);
}

int nsys_select_sql(nsys_ctx *c, const nsys_query *q, int str_ids, char **text)
{
	const char *table = q->table, *where = q->where, *order = q->order;
	const nsys_col *cols = q->cols;
	int ncols = q->ncols;
	sqlite3_str *sql;

	*text = NULL;
	if (!nsys_has_table(c, table))
		return 0;
	sql = sqlite3_str_new(c->db);
	sqlite3_str_appendall(sql, "SELECT ");
	for (int i = 0; i < ncols; i++) {
		const nsys_col *col = &cols[i];
		int present = nsys_has_column(c, table, col->name);

		if (i > 0)
			sqlite3_str_appendall(sql, ", ");
		if (!present && (col->flags & NSYS_REQ)) {
			sqlite3_free(sqlite3_str_finish(sql));
			return pq_fail(c->err, "unexpected export schema %s: table %s has no "
				       "column '%s'", c->schema_version, table, col->name);
		}
		if (!present || ((col->flags & NSYS_STR) && !c->has_strings))
			sqlite3_str_appendall(sql, "NULL");
		else if ((col->flags & NSYS_STR) && !str_ids)
			/* StringIds.id is its rowid: one b-tree lookup per row. */
			sqlite3_str_appendf(sql, "(SELECT value FROM StringIds WHERE id = t.\"%w\")",
					    col->name);
		else
			sqlite3_str_appendf(sql, "t.\"%w\"", col->name);
	}
	if (order != NULL && strcmp(order, "t.rowid") != 0) {
		/* Sorted: SQLite's sorter would carry every column, the StringIds texts among them
		 * (3.4 s to read NVTX_EVENTS of the bench export); sorting the rowids alone and
		 * reading each row after them takes 2.7 s. LIMIT keeps the subquery's ORDER BY
		 * (SQLite drops one it need not honour) and CROSS JOIN keeps it the outer loop. */
		sqlite3_str_appendf(sql, " FROM (SELECT t.rowid AS r FROM \"%w\" AS t", table);
		if (where != NULL)
			sqlite3_str_appendf(sql, " WHERE %s", where);
		sqlite3_str_appendf(sql, " ORDER BY %s LIMIT -1) AS o CROSS JOIN \"%w\" AS t "
				    "ON t.rowid = o.r", order, table);
	} else {
		sqlite3_str_appendf(sql, " FROM \"%w\" AS t", table);
		if (where != NULL)
			sqlite3_str_appendf(sql, " WHERE %s", where);
		if (order != NULL)
			sqlite3_str_appendf(sql, " ORDER BY %s", order);
	}
	if ((*text = sqlite3_str_finish(sql)) == NULL)
		return pq_fail(c->err, "out of memory");
	return 0;
}

static int count_reason(nsys_ctx *c, const char *key)
{
	int64_t n = 0;

	pq_map_get_int(&c->skipped, key, strlen(key), &n);
	if (pq_map_put_int(&c->skipped, key, strlen(key), n + 1) != 0)
		return pq_fail(c->err, "out of memory");
	c->stats->skipped++;
	return 0;
}

int nsys_bad_row(nsys_ctx *c, const char *table, const char *reason)
{
	char key[160];
	int64_t bad = 0;

	/* Without keep-going the import stops here and its run is rolled back; the message counts
	 * the table's rows with bad times, which only a scan of the table can tell. */
	if ((c->opt == NULL || !c->opt->keep_going) && strcmp(reason, NSYS_BAD_TIME) == 0 &&
	    count_bad_times(c, table, &bad) == 0 && bad > 0)
		return pq_fail(c->err, "%s: %" PRId64 " rows with %s (keep-going skips them)",
			       table, bad, reason);
	if (c->opt == NULL || !c->opt->keep_going)
		return pq_fail(c->err, "%s: a row with %s (keep-going skips such rows)", table,
			       reason);
	snprintf(key, sizeof(key), "%s: %s", table, reason);
	return count_reason(c, key);
}

int nsys_not_mapped(nsys_ctx *c, const char *reason)
{
	return count_reason(c, reason);
}

/* Run metadata --------------------------------------------------------------------------------- */

int nsys_write_metadata(nsys_ctx *c)
{
	sqlite3_stmt *st;
	int64_t omitted = 0;
	int rc;

	if (pq_store_set_metadata(c->s, "nsys.schema_version",
				  c->schema_version[0] ? c->schema_version : NULL, c->err) != 0 ||
	    pq_store_set_metadata(c->s, "nsys.product_version",
				  c->product_version[0] ? c->product_version : NULL, c->err) != 0 ||
	    pq_store_set_metadata(c->s, "nsys.metadata_table",
				  c->legacy ? "EXPORT_META_DATA" : "META_DATA_EXPORT", c->err) != 0)
		return -1;
	if (!nsys_has_table(c, "META_DATA_CAPTURE") ||
	    !nsys_has_column(c, "META_DATA_CAPTURE", "name") ||
	    !nsys_has_column(c, "META_DATA_CAPTURE", "value"))
		return 0;
	/* Capture options (what was traced, so "no rows" can be told from "not captured"). A name
	 * can repeat (CAPTURE_EVENT_TYPE): the values are joined with newlines, in export order.
	 * Environment variables are left out: they are not options and may hold secrets. */
	if (sqlite3_prepare_v2(c->db,
			       "SELECT name, group_concat(value, char(10)), "
			       "       name LIKE '%ENVIRONMENT\\_VARIABLE' ESCAPE '\\', count(*) "
			       "FROM (SELECT name, value FROM META_DATA_CAPTURE ORDER BY rowid) "
			       "WHERE name IS NOT NULL GROUP BY name ORDER BY name",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(c, "META_DATA_CAPTURE");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char key[256];

		if (sqlite3_column_int(st, 2)) {
			omitted += sqlite3_column_int64(st, 3);
			continue;
		}
		snprintf(key, sizeof(key), "nsys.capture.%s", sqlite3_column_text(st, 0));
		if (pq_store_set_metadata(c->s, key, (const char *)sqlite3_column_text(st, 1),
					  c->err) != 0) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(c, "META_DATA_CAPTURE");
	if (omitted > 0 &&
	    pq_store_set_metadata_int(c->s, "nsys.capture.environment_variables_omitted", omitted,
				      c->err) != 0)
		return -1;
	return 0;
}

static void write_skipped(void *ctx, const char *reason, pq_map_value count)
{
	nsys_ctx *c = ctx;
	char key[256];

	snprintf(key, sizeof(key), "nsys.skipped.%s", reason);
	if (c->skipped_rc == 0 && pq_store_set_metadata_int(c->s, key, count.i, c->err) != 0)
		c->skipped_rc = -1;
}

int nsys_write_skipped(nsys_ctx *c)
{
	c->skipped_rc = 0;
	pq_map_each(&c->skipped, write_skipped, c);
	return c->skipped_rc;
}
