/* derive_hta.c - what the two HTA tables computed in C share (derive_idle.c, derive_temporal.c):
 * the runs to compute with HTA's clock, the step that cuts a run, and each GPU event's launching
 * call. Each reads with the views' own SQL expressions (hta_start_ns: HTA's µs clock for Kineto
 * runs) so that only the sorting and the sums are C's.
 */
#include "derive.h"

#include <stdint.h>
#include <stdlib.h>

static int fail_db(sqlite3 *db, pq_error *err)
{
	return pq_fail(err, "cannot write the derived tables: %s", sqlite3_errmsg(db));
}

sqlite3_stmt *pq_hta_query(sqlite3 *db, const char *sql, const pq_hta_run *run)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, run->id);
	sqlite3_bind_int(st, 2, run->us);
	sqlite3_bind_int64(st, 3, run->off);
	return st;
}

/* The last ProfilerStep#N start (any kind of range) when two or more such names exist. */
static int load_bound(sqlite3 *db, pq_hta_run *run, pq_error *err)
{
	sqlite3_stmt *st = pq_hta_query(db,
		"SELECT CASE WHEN count(DISTINCT n.value) >= 2 THEN max(CASE WHEN ?2 THEN "
		"hta_start_ns(r.start_ns, ?3) ELSE r.start_ns END) END "
		"FROM strings n CROSS JOIN ranges r ON r.name_id = n.id "
		"WHERE n.value GLOB 'ProfilerStep#[0-9]*' AND r.run_id = ?1", run);
	int rc;

	if (st == NULL)
		return fail_db(db, err);
	rc = sqlite3_step(st);
	run->has_bound = rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL;
	run->bound = run->has_bound ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : fail_db(db, err);
}

/* Calls by process (NULL first: the views match with IS), correlation id, then time. */
static int cmp_call(const void *pa, const void *pb)
{
	const pq_hta_call *a = pa, *b = pb;

	if (a->has_pid != b->has_pid)
		return a->has_pid - b->has_pid;
	if (a->has_pid && a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->corr != b->corr)
		return a->corr < b->corr ? -1 : 1;
	return a->t < b->t ? -1 : a->t > b->t;
}

/* Every API call of the run with a correlation id (any API: HTA's), its start on the clock. */
static int load_calls(sqlite3 *db, pq_hta_run *run, pq_error *err)
{
	sqlite3_stmt *st = pq_hta_query(db,
		"SELECT process_id, correlation_id, CASE WHEN ?2 THEN hta_start_ns(start_ns, ?3) "
		"ELSE start_ns END FROM api_calls WHERE run_id = ?1 AND correlation_id IS NOT NULL",
		run);
	size_t cap = 0;
	int rc;

	if (st == NULL)
		return fail_db(db, err);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 2) == SQLITE_NULL)
			continue; /* min() leaves it out */
		if (run->ncalls == cap) {
			size_t nc = cap ? cap * 2 : 4096;
			pq_hta_call *na = realloc(run->calls, nc * sizeof(pq_hta_call));

			if (na == NULL) {
				rc = SQLITE_NOMEM;
				break;
			}
			run->calls = na;
			cap = nc;
		}
		run->calls[run->ncalls++] = (pq_hta_call){
			.pid = sqlite3_column_int64(st, 0),
			.has_pid = sqlite3_column_type(st, 0) != SQLITE_NULL,
			.corr = sqlite3_column_int64(st, 1), .t = sqlite3_column_int64(st, 2) };
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc == SQLITE_NOMEM ? pq_fail(err, "out of memory") : fail_db(db, err);
	qsort(run->calls, run->ncalls, sizeof(pq_hta_call), cmp_call);
	return 0;
}

int pq_hta_launch(const pq_hta_run *run, int has_pid, sqlite3_int64 pid, int has_corr,
		  sqlite3_int64 corr, sqlite3_int64 *t)
{
	pq_hta_call key = { .pid = pid, .corr = corr, .has_pid = has_pid, .t = INT64_MIN };
	size_t lo = 0, hi = run->ncalls;

	if (!has_corr)
		return 0;
	while (lo < hi) { /* the first call not before key: the first of its key, if any */
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_call(&run->calls[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == run->ncalls)
		return 0;
	key.t = run->calls[lo].t;
	if (cmp_call(&run->calls[lo], &key) != 0)
		return 0;
	*t = key.t;
	return 1;
}

int pq_hta_each_run(sqlite3 *db, const char *runs,
		    int (*fn)(sqlite3 *db, const pq_hta_run *run, void *arg, pq_error *err),
		    void *arg, pq_error *err)
{
	char *sql = sqlite3_mprintf("SELECT id, source = 'chrome-json', coalesce(time_offset_ns, 0) "
				    "FROM runs WHERE id IN (%s) ORDER BY id", runs);
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (sql == NULL)
		return pq_fail(err, "out of memory");
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		rc = fail_db(db, err);
	sqlite3_free(sql);
	while (rc == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		pq_hta_run run = { .id = sqlite3_column_int64(st, 0), .us = sqlite3_column_int(st, 1),
				   .off = sqlite3_column_int64(st, 2) };

		rc = load_bound(db, &run, err);
		if (rc == 0)
			rc = load_calls(db, &run, err);
		if (rc == 0)
			rc = fn(db, &run, arg, err);
		free(run.calls);
	}
	if (rc == SQLITE_DONE)
		rc = 0;
	else if (rc > 0)
		rc = fail_db(db, err);
	sqlite3_finalize(st);
	return rc;
}
