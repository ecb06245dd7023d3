/* clickhouse_push.c - one run from SQLite into ClickHouse: TabSeparated batches, the marker. */
#include "clickhouse_push.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clickhouse_tables.h"
#include "clickhouse_tsv.h"
#include "db.h"

#define BATCH_BYTES (64u << 20)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void new_push_id(char *out, size_t size)
{
	unsigned char b[16];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t got = fd >= 0 ? read(fd, b, sizeof b) : -1;

	if (fd >= 0)
		close(fd);
	if (got != (ssize_t)sizeof b) {  /* no /dev/urandom: time and pid */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(out, size, "%llx%09ld%d", (long long)ts.tv_sec, ts.tv_nsec, (int)getpid());
		return;
	}
	for (size_t i = 0; i < sizeof b && 2 * i + 2 < size; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 1099511628211u;
	}
	return h;
}

int pq_ch_run_key(sqlite3 *db, long long run_id, char *key, size_t size, pq_error *err)
{
	static const char meta[] =
		"SELECT value FROM run_metadata WHERE run_id = ?1 AND key = 'source_sha256'";
	static const char rows[] =
		"SELECT source, source_path, hostname, rank, start_ns, end_ns, "
		"(SELECT count(*) || ':' || total(start_ns) || ':' || total(end_ns) FROM kernels "
		" WHERE run_id = ?1), "
		"(SELECT count(*) || ':' || total(start_ns) FROM ranges WHERE run_id = ?1), "
		"(SELECT count(*) || ':' || total(start_ns) FROM api_calls WHERE run_id = ?1), "
		"(SELECT count(*) || ':' || total(start_ns) FROM memcpys WHERE run_id = ?1), "
		"(SELECT count(*) || ':' || total(start_ns) FROM memsets WHERE run_id = ?1) "
		"FROM runs WHERE id = ?1";
	sqlite3_stmt *st = NULL;
	int rc;

	key[0] = '\0';
	/* run_metadata may be absent from very old files: then the fallback. */
	if (sqlite3_prepare_v2(db, meta, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, run_id);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT) {
			const char *v = (const char *)sqlite3_column_text(st, 0);
			if (strlen(v) + 1 <= size && strspn(v, "0123456789abcdefABCDEF") == strlen(v))
				snprintf(key, size, "%s", v);
		}
	}
	sqlite3_finalize(st);
	if (key[0] != '\0')
		return 0;
	if (sqlite3_prepare_v2(db, rows, -1, &st, NULL) != SQLITE_OK)
		return pq_fail(err, "reading run %lld: %s", run_id, sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		return pq_fail(err, "run %lld: not found", run_id);
	}
	uint64_t h = 14695981039346656037u;
	for (int i = 0; i < sqlite3_column_count(st); i++) {
		const unsigned char *v = sqlite3_column_text(st, i);
		h = fnv(h, v ? (const char *)v : "\\N", v ? (size_t)sqlite3_column_bytes(st, i) : 2);
		h = fnv(h, "\t", 1);
	}
	sqlite3_finalize(st);
	snprintf(key, size, "rows:%016" PRIx64, h);
	return 0;
}

static int send_batch(pq_ch *ch, const pq_ch_table *t, const char *names, pq_tsv *b,
		      pq_error *err)
{
	char query[1024];

	if (b->len == 0)
		return 0;
	snprintf(query, sizeof query,
		 "INSERT INTO %s (job, push_id, run_key, rank, %s) FORMAT TabSeparated",
		 t ? t->name : "runs", names);
	if (pq_ch_exec(ch, query, b->data, b->len, NULL, err) != 0)
		return -1;
	b->len = 0;
	return 0;
}

/* job \t push_id \t run_key \t rank \t, already escaped, for every row. */
static int prefix(pq_tsv *p, const char *job, const char *push_id, const char *key, long long rank)
{
	char num[32];
	int n = snprintf(num, sizeof num, "%lld\t", rank);

	if (pq_tsv_text(p, (const unsigned char *)job, strlen(job)) != 0 ||
	    pq_tsv_raw(p, "\t", 1) != 0 || pq_tsv_raw(p, push_id, strlen(push_id)) != 0 ||
	    pq_tsv_raw(p, "\t", 1) != 0 || pq_tsv_raw(p, key, strlen(key)) != 0 ||
	    pq_tsv_raw(p, "\t", 1) != 0 || pq_tsv_raw(p, num, (size_t)n) != 0)
		return -1;
	return 0;
}

static int push_table(pq_ch *ch, sqlite3 *db, const pq_ch_table *t, long long run_id,
		      const pq_tsv *pre, size_t batch_rows, pq_tsv *b, long long *rows, pq_error *err)
{
	sqlite3_stmt *st;
	size_t in_batch = 0;
	int rc, ncol;

	if (!pq_db_has_table(db, t->name, -1))
		return 0;
	if (sqlite3_prepare_v2(db, t->select, -1, &st, NULL) != SQLITE_OK)
		return pq_fail(err, "reading %s: %s", t->name, sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	ncol = sqlite3_column_count(st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (pq_tsv_raw(b, pre->data, pre->len) != 0)
			goto oom;
		for (int i = 0; i < ncol; i++)
			if ((i > 0 && pq_tsv_raw(b, "\t", 1) != 0) || pq_tsv_value(b, st, i) != 0)
				goto oom;
		if (pq_tsv_raw(b, "\n", 1) != 0)
			goto oom;
		(*rows)++;
		if (++in_batch >= batch_rows || b->len >= BATCH_BYTES) {
			if (send_batch(ch, t, t->names, b, err) != 0)
				goto fail;
			in_batch = 0;
		}
	}
	if (rc != SQLITE_DONE) {
		pq_fail(err, "reading %s: %s", t->name, sqlite3_errmsg(db));
		goto fail;
	}
	sqlite3_finalize(st);
	return send_batch(ch, t, t->names, b, err);
oom:
	pq_fail(err, "out of memory");
fail:
	sqlite3_finalize(st);
	return -1;
}

static int already_there(pq_ch *ch, const char *key, int *there, pq_error *err)
{
	char query[256], *out = NULL;

	snprintf(query, sizeof query, "SELECT count() FROM runs WHERE run_key = '%s'", key);
	if (pq_ch_exec(ch, query, NULL, 0, &out, err) != 0)
		return -1;
	*there = atoll(out) > 0;
	free(out);
	return 0;
}

/* The marker row: the run's description and how many event rows it has. */
static int marker(pq_ch *ch, sqlite3 *db, long long run_id, const pq_tsv *pre, long long rows,
		  pq_tsv *b, pq_error *err)
{
	static const char sql[] =
		"SELECT id, source, coalesce(source_path, ''), coalesce(hostname, ''), start_ns, end_ns "
		"FROM runs WHERE id = ?1";
	sqlite3_stmt *st;
	char num[32];
	int n, ok = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return pq_fail(err, "reading runs: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		ok = pq_tsv_raw(b, pre->data, pre->len) == 0;
		for (int i = 0; ok && i < 6; i++)
			ok = (i == 0 || pq_tsv_raw(b, "\t", 1) == 0) && pq_tsv_value(b, st, i) == 0;
		n = snprintf(num, sizeof num, "\t%lld\n", rows);
		ok = ok && pq_tsv_raw(b, num, (size_t)n) == 0;
	}
	sqlite3_finalize(st);
	if (!ok)
		return pq_fail(err, "run %lld: cannot read it", run_id);
	/* pq_ch_runs_names starts with the four common columns, which send_batch adds itself. */
	return send_batch(ch, NULL, pq_ch_runs_names + strlen("job, push_id, run_key, rank, "), b, err);
}

int pq_ch_push_run(pq_ch *ch, sqlite3 *db, long long run_id, const char *job, size_t batch_rows,
		   pq_ch_push_result *res, pq_error *err)
{
	sqlite3_stmt *st;
	pq_tsv pre = { 0 }, b = { 0 };
	char push_id[40];
	double t0 = now_s();
	int there, ret = -1;

	memset(res, 0, sizeof *res);
	res->rank = -1;
	if (pq_ch_run_key(db, run_id, res->run_key, sizeof res->run_key, err) != 0)
		return -1;
	if (sqlite3_prepare_v2(db, "SELECT rank FROM runs WHERE id = ?1", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, run_id);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_INTEGER)
			res->rank = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (already_there(ch, res->run_key, &there, err) != 0)
		return -1;
	if (there) {
		res->already_there = 1;
		res->seconds = now_s() - t0;
		return 0;
	}
	new_push_id(push_id, sizeof push_id);
	if (prefix(&pre, job, push_id, res->run_key, res->rank) != 0) {
		pq_fail(err, "out of memory");
		goto done;
	}
	if (batch_rows == 0)
		batch_rows = 1;
	for (const pq_ch_table *t = pq_ch_tables; t->name != NULL; t++)
		if (push_table(ch, db, t, run_id, &pre, batch_rows, &b, &res->rows, err) != 0)
			goto done;
	if (marker(ch, db, run_id, &pre, res->rows, &b, err) != 0)
		goto done;
	res->seconds = now_s() - t0;
	ret = 0;
done:
	free(pre.data);
	free(b.data);
	return ret;
}
