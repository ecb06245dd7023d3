/* merge.c - runs of other profiles copied into one database, through SQL: the input is attached
 * read-only and every table with a run_id is copied with INSERT ... SELECT, one transaction per
 * input, into a temporary file that becomes the output only at the end.
 *
 * Ids. Each table with an id gets an offset, the output's largest id before the input: a row's
 * new id is its old id plus its table's offset, so references need no lookup table. Which column
 * refers to which table comes from the schema's REFERENCES clauses (PRAGMA foreign_key_list):
 * a reference to a table with an id adds that table's offset (a range's parent_id, ranges' own);
 * a reference to strings goes through a map of the input's string ids to the output's, made
 * after the input's strings are interned; references to the enumerations are kept. Columns the
 * input lacks (an older file) are left NULL; tables it lacks (cuda_names) are skipped.
 */
#include "merge.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "import.h"
#include "store.h"
#include "version.h"

#define MAX_TABLES 64

struct pq_merge {
	sqlite3 *db;
	char *out, *tmp;
	/* the files added so far, to refuse one given twice */
	dev_t *devs;
	ino_t *inos;
	size_t nfiles;
};

/* Helpers ---------------------------------------------------------------------------------- */

static int sql_fail(sqlite3 *db, pq_error *err, const char *what)
{
	return pq_fail(err, "%s: %s", what, sqlite3_errmsg(db));
}

static int exec(sqlite3 *db, const char *sql, pq_error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		pq_fail(err, "%s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int64_t query_int(sqlite3 *db, const char *sql, int64_t bind, int64_t dflt)
{
	sqlite3_stmt *st;
	int64_t v = dflt;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return dflt;
	if (bind != PQ_NULL)
		sqlite3_bind_int64(st, 1, bind);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A file: URI for a path, every byte outside the unreserved set percent-encoded. */
static char *file_uri(const char *path, const char *query)
{
	size_t n = strlen(path), k = 0;
	char *u = malloc(3 * n + strlen(query) + 16);

	if (u == NULL)
		return NULL;
	k += (size_t)sprintf(u, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p) != NULL)
			u[k++] = (char)*p;
		else
			k += (size_t)sprintf(u + k, "%%%02X", *p);
	}
	sprintf(u + k, "%s", query);
	return u;
}

/* Opening ---------------------------------------------------------------------------------- */

static char *tmp_name(const char *base, const char *what)
{
	size_t n = strlen(base) + strlen(what) + 16;
	char *t = malloc(n);
	mode_t mask;
	int fd;

	if (t == NULL)
		return NULL;
	snprintf(t, n, "%s.%s.XXXXXX", base, what);
	fd = mkstemp(t);
	if (fd < 0) {
		free(t);
		return NULL;
	}
	/* mkstemp makes it 0600: the output gets what a plain create would. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0) {
		/* not fatal: the file stays private */
	}
	close(fd);
	return t;
}

static void remove_db(const char *path)
{
	char side[4096];

	unlink(path);
	snprintf(side, sizeof(side), "%s-journal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
}

/* Copies the existing output into the temporary file (SQLite's online backup). */
static int copy_existing(const char *out, sqlite3 *dst, pq_error *err)
{
	sqlite3 *src;
	sqlite3_backup *b;
	int rc;

	if (pq_db_open(out, PQ_OPEN_READ, &src, NULL, err) != 0)
		return -1;
	b = sqlite3_backup_init(dst, "main", src, "main");
	if (b == NULL) {
		sql_fail(dst, err, out);
		sqlite3_close(src);
		return -1;
	}
	rc = sqlite3_backup_step(b, -1);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		pq_fail(err, "%s: cannot copy: %s", out, sqlite3_errstr(rc));
		sqlite3_close(src);
		return -1;
	}
	sqlite3_close(src);
	return 0;
}

int pq_merge_open(const char *out, pq_merge **mp, pq_error *err)
{
	pq_merge *m = calloc(1, sizeof(*m));
	struct stat sb;
	sqlite3 *db = NULL;
	int exists;

	*mp = NULL;
	if (m == NULL)
		return pq_fail(err, "out of memory");
	exists = stat(out, &sb) == 0 && sb.st_size > 0;
	m->out = strdup(out);
	m->tmp = tmp_name(out, "tmp");
	if (m->out == NULL || m->tmp == NULL) {
		pq_fail(err, "%s: %s", out, m->out ? strerror(errno) : "out of memory");
		goto fail;
	}
	if (sqlite3_open_v2(m->tmp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		pq_fail(err, "%s: %s", m->tmp, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		goto fail;
	}
	m->db = db;
	sqlite3_extended_result_codes(db, 1);
	/* A failure throws the whole file away: no journal needed. */
	if (exists) {
		if (copy_existing(out, db, err) != 0)
			goto fail;
	} else if (pq_db_create_schema(db, err) != 0) {
		goto fail;
	}
	if (pq_db_check(db, out, err) != 0 || pq_db_add_missing_tables(db, err) != 0 ||
	    exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF", err) != 0 ||
	    pq_db_drop_event_indexes(db, err) != 0)
		goto fail;
	*mp = m;
	return 0;
fail:
	pq_merge_abort(m);
	return -1;
}

void pq_merge_abort(pq_merge *m)
{
	if (m == NULL)
		return;
	if (m->db != NULL)
		sqlite3_close(m->db);
	if (m->tmp != NULL)
		remove_db(m->tmp);
	free(m->tmp);
	free(m->out);
	free(m->devs);
	free(m->inos);
	free(m);
}

int pq_merge_commit(pq_merge *m, pq_error *err)
{
	int rc = 0;

	if (pq_db_build_event_indexes(m->db, err) != 0 || exec(m->db, "PRAGMA optimize", err) != 0)
		rc = -1;
	if (rc == 0 && sqlite3_close(m->db) != SQLITE_OK)
		rc = pq_fail(err, "%s: cannot close", m->tmp);
	if (rc == 0) {
		m->db = NULL;
		if (rename(m->tmp, m->out) != 0)
			rc = pq_fail(err, "%s: %s", m->out, strerror(errno));
	}
	if (rc == 0) {
		free(m->tmp);
		m->tmp = NULL;
	}
	pq_merge_abort(m);
	return rc;
}

/* The identity of a run ------------------------------------------------------------------- */

/* sha: run_metadata source_sha256 (or ""); head: source, source_path and creation time. */
static int run_head(sqlite3 *db, const char *schema, int64_t run, char *sha, size_t shan,
		    char *head, size_t headn)
{
	char sql[256];
	sqlite3_stmt *st;

	snprintf(sql, sizeof(sql), "SELECT value FROM %s.run_metadata WHERE run_id = ?1 AND "
		 "key = 'source_sha256'", schema);
	sha[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
		snprintf(sha, shan, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);

	snprintf(sql, sizeof(sql), "SELECT source, source_path, created_utc FROM %s.runs WHERE id = ?1",
		 schema);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return -1;
	}
	snprintf(head, headn, "%s\x1f%s\x1f%s", (const char *)sqlite3_column_text(st, 0),
		 sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "",
		 (const char *)sqlite3_column_text(st, 2));
	sqlite3_finalize(st);
	return 0;
}

/* The run's row counts per event table, as text. */
static void run_counts(sqlite3 *db, const char *schema, int64_t run, char *buf, size_t n)
{
	static const char *const counted[] = {
		"kernels", "memcpys", "memsets", "api_calls", "ranges", "marks", "memory_events",
		"counters", "synchronizations", "flows",
	};
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(counted) / sizeof(counted[0]) && k < n; i++) {
		char sql[128];

		snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s.%s WHERE run_id = ?1", schema,
			 counted[i]);
		k += (size_t)snprintf(buf + k, n - k, " %" PRId64, query_int(db, sql, run, -1));
	}
}

/* A run of the output (id at most `upto`) that is the input's run `run`: 0 when none, -1 when
 * the input cannot be read. The same sha when both have one; else the same head and counts
 * (counted only when the heads agree). */
static int64_t same_run(sqlite3 *db, int64_t run, int64_t upto)
{
	char sha[256], head[4096], msha[256], mhead[4096], counts[512] = "", mcounts[512];
	sqlite3_stmt *st;
	int64_t found = 0;

	if (run_head(db, "src", run, sha, sizeof(sha), head, sizeof(head)) != 0)
		return -1;
	if (sqlite3_prepare_v2(db, "SELECT id FROM main.runs WHERE id <= ?1 ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, upto);
	while (found == 0 && sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (run_head(db, "main", id, msha, sizeof(msha), mhead, sizeof(mhead)) != 0)
			continue;
		if (sha[0] && msha[0]) {
			if (strcmp(sha, msha) == 0)
				found = id;
			continue;
		}
		if (strcmp(head, mhead) != 0)
			continue;
		if (counts[0] == '\0')
			run_counts(db, "src", run, counts, sizeof(counts));
		run_counts(db, "main", id, mcounts, sizeof(mcounts));
		if (strcmp(counts, mcounts) == 0)
			found = id;
	}
	sqlite3_finalize(st);
	return found;
}

/* Copying ---------------------------------------------------------------------------------- */

typedef struct table_info {
	char name[64];
	int has_id;
	int64_t offset;
} table_info;

static table_info *find_table(table_info *t, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(t[i].name, name) == 0)
			return &t[i];
	return NULL;
}

static int has_column(sqlite3 *db, const char *schema, const char *table, const char *col)
{
	char sql[256];
	sqlite3_stmt *st;
	int found = 0;

	snprintf(sql, sizeof(sql), "SELECT 1 FROM pragma_table_info(?1, ?2) WHERE name = ?3");
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, schema, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, col, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* The output's tables that belong to runs, in schema order, with their id offsets. */
static int run_tables(sqlite3 *db, table_info *t, int *n, pq_error *err)
{
	sqlite3_stmt *st;

	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM main.sqlite_master WHERE type = 'table' AND "
			       "name NOT LIKE 'sqlite%' ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
		return sql_fail(db, err, "schema");
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		char sql[160];

		if (strcmp(name, "runs") != 0 && !has_column(db, "main", name, "run_id"))
			continue;
		if (*n == MAX_TABLES || strlen(name) >= sizeof(t->name)) {
			sqlite3_finalize(st);
			return pq_fail(err, "schema: unexpected table %s", name);
		}
		snprintf(t[*n].name, sizeof(t->name), "%s", name);
		t[*n].has_id = has_column(db, "main", name, "id");
		snprintf(sql, sizeof(sql), "SELECT max(id) FROM main.%s", name);
		t[*n].offset = t[*n].has_id ? query_int(db, sql, PQ_NULL, 0) : 0;
		(*n)++;
	}
	sqlite3_finalize(st);
	return 0;
}

/* Appends to buf (bounded); 0 or -1 when it would not fit. */
static int cat(char *buf, size_t cap, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int cat(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *len, cap - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= cap - *len)
		return -1;
	*len += (size_t)n;
	return 0;
}

/* INSERT INTO main.T (...) SELECT ... FROM src.T, every reference mapped. */
static int copy_table(sqlite3 *db, table_info *all, int nall, const table_info *t, pq_error *err)
{
	char cols[4096], exprs[8192], sql[16384];
	size_t cl = 0, el = 0, sl = 0;
	sqlite3_stmt *st;
	int n = 0;

	if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?1, 'main') ORDER BY cid", -1,
			       &st, NULL) != SQLITE_OK)
		return sql_fail(db, err, t->name);
	sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 0);
		const char *target = NULL;
		sqlite3_stmt *fk;
		table_info *ref;
		int rc = 0;

		if (!has_column(db, "src", t->name, col))
			continue; /* an older input: NULL */
		/* What the column refers to. */
		if (sqlite3_prepare_v2(db, "SELECT \"table\" FROM pragma_foreign_key_list(?1, 'main') "
				       "WHERE \"from\" = ?2", -1, &fk, NULL) == SQLITE_OK) {
			sqlite3_bind_text(fk, 1, t->name, -1, SQLITE_STATIC);
			sqlite3_bind_text(fk, 2, col, -1, SQLITE_STATIC);
			if (sqlite3_step(fk) == SQLITE_ROW)
				target = strdup((const char *)sqlite3_column_text(fk, 0));
			sqlite3_finalize(fk);
		}
		if (n++) {
			rc |= cat(cols, sizeof(cols), &cl, ", ");
			rc |= cat(exprs, sizeof(exprs), &el, ", ");
		}
		rc |= cat(cols, sizeof(cols), &cl, "\"%s\"", col);
		if (strcmp(col, "id") == 0 && t->has_id)
			rc |= cat(exprs, sizeof(exprs), &el, "s.id + %" PRId64, t->offset);
		else if (target != NULL && strcmp(target, "strings") == 0)
			rc |= cat(exprs, sizeof(exprs), &el,
				  "(SELECT dst FROM temp.merge_strings WHERE src = s.\"%s\")", col);
		else if (target != NULL && (ref = find_table(all, nall, target)) != NULL && ref->has_id)
			rc |= cat(exprs, sizeof(exprs), &el, "s.\"%s\" + %" PRId64, col, ref->offset);
		else
			rc |= cat(exprs, sizeof(exprs), &el, "s.\"%s\"", col);
		free((void *)target);
		if (rc != 0) {
			sqlite3_finalize(st);
			return pq_fail(err, "%s: too many columns", t->name);
		}
	}
	sqlite3_finalize(st);
	if (cat(sql, sizeof(sql), &sl, "INSERT INTO main.\"%s\" (%s) SELECT %s FROM src.\"%s\" s",
		t->name, cols, exprs, t->name) != 0)
		return pq_fail(err, "%s: too many columns", t->name);
	if (exec(db, sql, err) != 0) {
		char why[sizeof(err->msg)];

		memcpy(why, err->msg, sizeof(why));
		return pq_fail(err, "copying %s: %s", t->name, why);
	}
	return 0;
}

static int src_has_table(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM src.sqlite_master WHERE type = 'table' AND "
			       "name = ?1", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* Adding an input -------------------------------------------------------------------------- */

static int is_profq_file(const char *path)
{
	unsigned char h[100];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (f == NULL)
		return 0;
	n = fread(h, 1, sizeof(h), f);
	fclose(f);
	return n == sizeof(h) && memcmp(h, "SQLite format 3", 16) == 0 &&
	       ((uint32_t)h[68] << 24 | (uint32_t)h[69] << 16 | (uint32_t)h[70] << 8 | h[71]) ==
		       0x50524651u;
}

/* Whether path has a write-ahead log with content (a live or interrupted writer). */
static int has_wal(const char *path)
{
	char wal[4200];
	struct stat sb;

	snprintf(wal, sizeof(wal), "%s-wal", path);
	return stat(wal, &sb) == 0 && sb.st_size > 0;
}

/* Imports a trace into a temporary database next to the output; *tmp is its path. */
static int import_input(pq_merge *m, const char *input, char **tmp, pq_error *err)
{
	pq_import_options opt;
	pq_import_stats stats;
	enum pq_import_format f;
	pq_store *s;
	int rc;

	*tmp = NULL;
	f = pq_import_detect(input, err);
	if (f == PQ_IMPORT_UNKNOWN)
		return -1;
	if ((*tmp = tmp_name(m->out, "import")) == NULL)
		return pq_fail(err, "%s: cannot make a temporary file: %s", m->out, strerror(errno));
	if (pq_store_open(*tmp, -1, &s, err) != 0)
		return -1;
	memset(&opt, 0, sizeof(opt));
	memset(&stats, 0, sizeof(stats));
	pq_store_expect_rows(s, pq_import_expected_rows(input, f));
	rc = f == PQ_IMPORT_CHROME_JSON ? pq_import_chrome(s, input, &opt, &stats, err)
					: pq_import_nsys(s, input, &opt, &stats, err);
	pq_store_close(s);
	return rc;
}

static int seen_file(pq_merge *m, const char *input, pq_error *err)
{
	struct stat sb;
	dev_t *d;
	ino_t *i;

	if (stat(input, &sb) != 0)
		return pq_fail(err, "cannot open '%s': %s", input, strerror(errno));
	for (size_t k = 0; k < m->nfiles; k++)
		if (m->devs[k] == sb.st_dev && m->inos[k] == sb.st_ino)
			return pq_fail(err, "'%s' is given twice", input);
	d = realloc(m->devs, (m->nfiles + 1) * sizeof(*d));
	if (d != NULL)
		m->devs = d;
	i = realloc(m->inos, (m->nfiles + 1) * sizeof(*i));
	if (i != NULL)
		m->inos = i;
	if (d == NULL || i == NULL)
		return pq_fail(err, "out of memory");
	m->devs[m->nfiles] = sb.st_dev;
	m->inos[m->nfiles] = sb.st_ino;
	m->nfiles++;
	return 0;
}

/* Copies every run of the attached input (schema "src"). */
static int copy_runs(pq_merge *m, const char *input, int64_t rank, pq_merged_run **out,
		     size_t *nout, pq_error *err)
{
	sqlite3 *db = m->db;
	table_info t[MAX_TABLES];
	int nt;
	table_info *runs_t;
	int64_t nruns, last_before;
	sqlite3_stmt *st;
	pq_merged_run *list = NULL;
	size_t n = 0;

	nruns = query_int(db, "SELECT count(*) FROM src.runs", PQ_NULL, 0);
	if (nruns == 0)
		return pq_fail(err, "'%s' has no runs", input);
	if (rank != PQ_NULL && nruns > 1)
		return pq_fail(err, "'%s' has %" PRId64 " runs: --rank is for an input with one", input,
			       nruns);
	if (run_tables(db, t, &nt, err) != 0)
		return -1;
	runs_t = find_table(t, nt, "runs");
	if (runs_t == NULL)
		return pq_fail(err, "schema: no runs table");
	last_before = runs_t->offset;

	/* Refuse a run the output already has, or that the input holds twice. */
	if (sqlite3_prepare_v2(db, "SELECT id FROM src.runs ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return sql_fail(db, err, input);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0), dup = same_run(db, id, last_before);

		if (dup != 0) {
			sqlite3_finalize(st);
			if (dup < 0)
				return pq_fail(err, "%s: cannot read run %" PRId64, input, id);
			return pq_fail(err, "run %" PRId64 " of '%s' is already run %" PRId64
				       " of the output (same source); not merging it twice", id, input,
				       dup);
		}
	}
	sqlite3_finalize(st);

	/* Strings: intern the input's, then map its ids to the output's. */
	if (exec(db, "INSERT OR IGNORE INTO main.strings (value) SELECT value FROM src.strings;"
		     "DROP TABLE IF EXISTS temp.merge_strings;"
		     "CREATE TEMP TABLE merge_strings (src INTEGER PRIMARY KEY, dst INTEGER);"
		     "INSERT INTO temp.merge_strings SELECT s.id, m.id FROM src.strings s"
		     " JOIN main.strings m ON m.value = s.value", err) != 0)
		return -1;
	for (int i = 0; i < nt; i++) {
		if (!src_has_table(db, t[i].name))
			continue; /* an older input without this table */
		if (copy_table(db, t, nt, &t[i], err) != 0)
			return -1;
	}
	if (exec(db, "DROP TABLE temp.merge_strings", err) != 0)
		return -1;

	/* What was copied: the new runs, their rank (given, or the input's), provenance. */
	if (sqlite3_prepare_v2(db, "SELECT id FROM src.runs ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return sql_fail(db, err, input);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t from = sqlite3_column_int64(st, 0), id = from + runs_t->offset;
		pq_merged_run *grown = realloc(list, (n + 1) * sizeof(*list));
		sqlite3_stmt *up;
		char src[4200];

		if (grown == NULL) {
			sqlite3_finalize(st);
			free(list);
			return pq_fail(err, "out of memory");
		}
		list = grown;
		if (rank != PQ_NULL &&
		    sqlite3_prepare_v2(db, "UPDATE main.runs SET rank = ?2 WHERE id = ?1", -1, &up,
				       NULL) == SQLITE_OK) {
			sqlite3_bind_int64(up, 1, id);
			sqlite3_bind_int64(up, 2, rank);
			sqlite3_step(up);
			sqlite3_finalize(up);
		}
		snprintf(src, sizeof(src), "%s#%" PRId64, input, from);
		if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO main.run_metadata (run_id, key, value)"
				       " VALUES (?1, 'merge.source', ?2)", -1, &up, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(up, 1, id);
			sqlite3_bind_text(up, 2, src, -1, SQLITE_TRANSIENT);
			sqlite3_step(up);
			sqlite3_finalize(up);
		}
		list[n].from_run = from;
		list[n].run_id = id;
		list[n].rank = query_int(db, "SELECT rank FROM main.runs WHERE id = ?1", id, PQ_NULL);
		list[n].rows = 0;
		{
			static const char *const ev[] = {
				"kernels", "memcpys", "memsets", "api_calls", "ranges", "marks",
				"memory_events", "counters", "synchronizations", "flows",
			};
			for (size_t k = 0; k < sizeof(ev) / sizeof(ev[0]); k++) {
				char sql[128];

				snprintf(sql, sizeof(sql), "SELECT count(*) FROM main.%s WHERE run_id = ?1",
					 ev[k]);
				list[n].rows += query_int(db, sql, id, 0);
			}
		}
		n++;
	}
	sqlite3_finalize(st);
	*out = list;
	*nout = n;
	return 0;
}

int pq_merge_add(pq_merge *m, const char *input, int64_t rank, pq_merged_run **runs,
		 size_t *nruns, pq_error *err)
{
	char *imported = NULL, *uri = NULL;
	const char *path = input;
	pq_merged_run *list = NULL;
	size_t n = 0;
	int rc = -1, attached = 0, began = 0;

	if (runs != NULL)
		*runs = NULL;
	if (nruns != NULL)
		*nruns = 0;
	if (seen_file(m, input, err) != 0)
		return -1;
	if (!is_profq_file(input)) {
		if (import_input(m, input, &imported, err) != 0) {
			char why[sizeof(err->msg)];

			memcpy(why, err->msg, sizeof(why));
			pq_fail(err, "%s: %s", input, why);
			goto out;
		}
		path = imported;
	}
	/* Read-only; without a write-ahead log to read, also immutable, so that SQLite makes no
	 * -shm/-wal files next to the input. */
	uri = file_uri(path, has_wal(path) ? "?mode=ro" : "?mode=ro&immutable=1");
	if (uri == NULL) {
		pq_fail(err, "out of memory");
		goto out;
	}
	{
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(m->db, "ATTACH ?1 AS src", -1, &st, NULL) != SQLITE_OK) {
			sql_fail(m->db, err, input);
			goto out;
		}
		sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE) {
			rc = -1;
			sql_fail(m->db, err, input);
			goto out;
		}
		rc = -1;
		attached = 1;
	}
	{
		int64_t version = query_int(m->db, "PRAGMA src.user_version", PQ_NULL, -1);

		if (version < 1 || version > PQ_SCHEMA_VERSION) {
			pq_fail(err, "'%s' has schema version %" PRId64 ", which this profq (version %d) "
				"does not read", input, version, PQ_SCHEMA_VERSION);
			goto out;
		}
	}
	if (exec(m->db, "BEGIN", err) != 0)
		goto out;
	began = 1;
	if (copy_runs(m, input, rank, &list, &n, err) != 0)
		goto out;
	if (exec(m->db, "COMMIT", err) != 0)
		goto out;
	began = 0;
	rc = 0;
out:
	if (began)
		sqlite3_exec(m->db, "ROLLBACK", NULL, NULL, NULL);
	if (attached)
		sqlite3_exec(m->db, "DETACH src", NULL, NULL, NULL);
	if (imported != NULL) {
		remove_db(imported);
		free(imported);
	}
	free(uri);
	if (rc == 0 && runs != NULL) {
		*runs = list;
		*nruns = n;
	} else {
		free(list);
	}
	return rc;
}
