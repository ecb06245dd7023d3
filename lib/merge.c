/* merge.c - runs of other profiles copied into one database: the output built in a temporary
 * file (a copy of the existing output, or a new schema) renamed over it at the end; each input
 * (a profq file, or a trace imported into a temporary profq file first) attached read-only and
 * copied in one transaction (merge_copy.c), after checking none of its runs is there already.
 */
#include "merge.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "db_attach.h"
#include "import.h"
#include "merge_copy.h"
#include "store.h"
#include "version.h"

struct pq_merge {
	sqlite3 *db;
	char *out, *tmp;
	/* the files added so far, to refuse one given twice */
	dev_t *devs;
	ino_t *inos;
	size_t nfiles;
};

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
		merge_sql_fail(dst, err, out);
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
	    merge_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF", err) != 0 ||
	    pq_db_drop_event_indexes(db, 0, err) != 0)
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

	if (pq_db_build_event_indexes(m->db, NULL, err) != 0 || pq_db_derive(m->db, err) != 0 ||
	    merge_exec(m->db, "PRAGMA optimize", err) != 0)
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

/* A new run's rank (given, or kept), provenance, and what pq_merge_add() reports of it. */
static int describe(sqlite3 *db, const char *input, int64_t from, int64_t id, int64_t rank,
		    pq_merged_run *r, pq_error *err)
{
	static const char *const ev[] = {
		"kernels", "memcpys", "memsets", "api_calls", "ranges", "marks", "memory_events",
		"counters", "synchronizations", "flows",
	};
	sqlite3_stmt *up;
	char src[4200];
	int rc = SQLITE_DONE;

	if (rank != PQ_NULL) {
		if (sqlite3_prepare_v2(db, "UPDATE main.runs SET rank = ?2 WHERE id = ?1", -1, &up,
				       NULL) != SQLITE_OK)
			return merge_sql_fail(db, err, input);
		sqlite3_bind_int64(up, 1, id);
		sqlite3_bind_int64(up, 2, rank);
		rc = sqlite3_step(up);
		sqlite3_finalize(up);
	}
	snprintf(src, sizeof(src), "%s#%" PRId64, input, from);
	if (rc != SQLITE_DONE ||
	    sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO main.run_metadata (run_id, key, value)"
			       " VALUES (?1, 'merge.source', ?2)", -1, &up, NULL) != SQLITE_OK)
		return merge_sql_fail(db, err, input);
	sqlite3_bind_int64(up, 1, id);
	sqlite3_bind_text(up, 2, src, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(up);
	sqlite3_finalize(up);
	if (rc != SQLITE_DONE)
		return merge_sql_fail(db, err, input);
	r->from_run = from;
	r->run_id = id;
	r->rank = merge_query_int(db, "SELECT rank FROM main.runs WHERE id = ?1", id, PQ_NULL);
	r->rows = 0;
	for (size_t k = 0; k < sizeof(ev) / sizeof(ev[0]); k++) {
		char sql[128];

		snprintf(sql, sizeof(sql), "SELECT count(*) FROM main.%s WHERE run_id = ?1", ev[k]);
		r->rows += merge_query_int(db, sql, id, 0);
	}
	return 0;
}

/* Copies every run of the attached input (schema "src"). */
static int copy_runs(pq_merge *m, const char *input, int64_t rank, pq_merged_run **out,
		     size_t *nout, pq_error *err)
{
	sqlite3 *db = m->db;
	int64_t nruns, last_before, offset;
	sqlite3_stmt *st;
	pq_merged_run *list;
	size_t n = 0;

	nruns = merge_query_int(db, "SELECT count(*) FROM src.runs", PQ_NULL, 0);
	if (nruns == 0)
		return pq_fail(err, "'%s' has no runs", input);
	if (rank != PQ_NULL && nruns > 1)
		return pq_fail(err, "'%s' has %" PRId64 " runs: --rank is for an input with one", input,
			       nruns);
	last_before = merge_query_int(db, "SELECT max(id) FROM main.runs", PQ_NULL, 0);

	/* Refuse a run the output already has. */
	if (sqlite3_prepare_v2(db, "SELECT id FROM src.runs ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return merge_sql_fail(db, err, input);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0), dup = merge_same_run(db, id, last_before);

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

	if (merge_copy(db, &offset, err) != 0)
		return -1;

	list = calloc((size_t)nruns, sizeof(*list));
	if (list == NULL)
		return pq_fail(err, "out of memory");
	if (sqlite3_prepare_v2(db, "SELECT id FROM src.runs ORDER BY id", -1, &st, NULL) != SQLITE_OK) {
		free(list);
		return merge_sql_fail(db, err, input);
	}
	while (n < (size_t)nruns && sqlite3_step(st) == SQLITE_ROW) {
		int64_t from = sqlite3_column_int64(st, 0);

		if (describe(db, input, from, from + offset, rank, &list[n], err) != 0) {
			sqlite3_finalize(st);
			free(list);
			return -1;
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
	char *imported = NULL;
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
	/* Read-only, immutable when nothing else uses it (pq_db_attach_readonly). */
	if (pq_db_attach_readonly(m->db, path, "src", err) != 0)
		goto out;
	attached = 1;
	if (merge_exec(m->db, "BEGIN", err) != 0)
		goto out;
	began = 1;
	if (copy_runs(m, input, rank, &list, &n, err) != 0)
		goto out;
	if (merge_exec(m->db, "COMMIT", err) != 0)
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
	if (rc == 0 && runs != NULL) {
		*runs = list;
		*nruns = n;
	} else {
		free(list);
	}
	return rc;
}
