/* nvtx_proj_load.c - reads what the NVTX projection needs, per thread: the ranges (one scan of
 * the table, which also gives each run's last NVTX timestamp for the ranges never closed) and the
 * GPU operations with their launching API calls; then sorts each thread's rows by start.
 */
#include "nvtx_proj.h"

#include <stdlib.h>
#include <string.h>

/* Every NVTX range of the run(s); column 5 says whether it is projected (it ended on its own
 * thread), but all of them count for the run's last NVTX timestamp. */
static const char ranges_sql[] =
	"SELECT id, thread_id, start_ns, end_ns, run_id,"
	" thread_id IS NOT NULL AND (end_thread_id IS NULL OR end_thread_id = thread_id)"
	" FROM ranges WHERE kind IN (0, 1) AND (?1 IS NULL OR run_id = ?1)";

/* The latest NVTX mark per run: needed only when a range was never closed. */
static const char marks_sql[] =
	"SELECT run_id, max(ts_ns) FROM marks WHERE kind = 0 AND (?1 IS NULL OR run_id = ?1)"
	" GROUP BY run_id";

static const char ops_sql[] =
	"SELECT a.thread_id, a.start_ns, a.end_ns, g.start_ns, g.end_ns, g.correlation_id, g.id FROM ("
	" SELECT run_id, process_id, correlation_id, start_ns, end_ns, id FROM kernels"
	" WHERE ?1 IS NULL OR run_id = ?1 UNION ALL"
	" SELECT run_id, process_id, correlation_id, start_ns, end_ns, -1 FROM memcpys"
	" WHERE (?1 IS NULL OR run_id = ?1) AND NOT ?2 UNION ALL"
	" SELECT run_id, process_id, correlation_id, start_ns, end_ns, -1 FROM memsets"
	" WHERE (?1 IS NULL OR run_id = ?1) AND NOT ?2) g"
	" JOIN api_calls a ON a.process_id = g.process_id AND a.correlation_id = g.correlation_id"
	" AND a.run_id = g.run_id"
	" WHERE g.correlation_id IS NOT NULL AND a.thread_id IS NOT NULL";

int pq_pr_grow(void **buf, size_t *cap, size_t n, size_t sz)
{
	void *p;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 256;
	p = sqlite3_realloc64(*buf, (sqlite3_uint64)c * sz);
	if (p == NULL)
		return -1;
	*buf = p;
	*cap = c;
	return 0;
}

static size_t slot_of(int64_t id, size_t cslot)
{
	return (size_t)(((uint64_t)id * 0x9E3779B97F4A7C15u) >> 32) & (cslot - 1);
}

/* The index of thread id in in->t, or -1: absent (create 0) or out of memory (create 1). */
static ptrdiff_t thread_index(pr_input *in, int64_t id, int create)
{
	size_t s;

	if (in->cslot > 0)
		for (s = slot_of(id, in->cslot); in->slot[s] != 0; s = (s + 1) & (in->cslot - 1))
			if (in->t[in->slot[s] - 1].id == id)
				return (ptrdiff_t)in->slot[s] - 1;
	if (!create || in->nt >= UINT32_MAX - 1)
		return -1;
	if (2 * (in->nt + 1) > in->cslot) { /* keep the table at most half full */
		size_t c = in->cslot ? in->cslot * 2 : 64;
		uint32_t *slot = sqlite3_malloc64((sqlite3_uint64)c * sizeof(*slot));

		if (slot == NULL)
			return -1;
		memset(slot, 0, c * sizeof(*slot));
		for (size_t i = 0; i < in->nt; i++) {
			for (s = slot_of(in->t[i].id, c); slot[s] != 0; s = (s + 1) & (c - 1))
				;
			slot[s] = (uint32_t)i + 1;
		}
		sqlite3_free(in->slot);
		in->slot = slot;
		in->cslot = c;
	}
	if (pq_pr_grow((void **)&in->t, &in->ct, in->nt, sizeof(*in->t)) != 0)
		return -1;
	memset(&in->t[in->nt], 0, sizeof(in->t[in->nt]));
	in->t[in->nt].id = id;
	for (s = slot_of(id, in->cslot); in->slot[s] != 0; s = (s + 1) & (in->cslot - 1))
		;
	in->slot[s] = (uint32_t)in->nt + 1;
	return (ptrdiff_t)in->nt++;
}

void pq_pr_input_free(pr_input *in)
{
	for (size_t i = 0; i < in->nt; i++) {
		sqlite3_free(in->t[i].r);
		sqlite3_free(in->t[i].o);
	}
	sqlite3_free(in->t);
	sqlite3_free(in->slot);
	memset(in, 0, sizeof(*in));
}

/* A run's last NVTX timestamp (latest range start or end, latest mark): where open ranges end. */
typedef struct pr_last {
	int64_t run, ts;
} pr_last;

typedef struct pr_lasts {
	pr_last *v;
	size_t n, cap;
} pr_lasts;

/* Raises run's last timestamp to at least ts; runs are few, so a linear search does. */
static int raise_last(pr_lasts *l, int64_t run, int64_t ts)
{
	for (size_t i = l->n; i-- > 0;)
		if (l->v[i].run == run) {
			if (ts > l->v[i].ts)
				l->v[i].ts = ts;
			return 0;
		}
	if (pq_pr_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v)) != 0)
		return -1;
	l->v[l->n++] = (pr_last){ run, ts };
	return 0;
}

static int64_t last_of(const pr_lasts *l, int64_t run)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].run == run)
			return l->v[i].ts;
	return INT64_MIN; /* not reached: every open range's run has an entry */
}

/* A range never closed: where it is, and its run. */
typedef struct pr_unclosed {
	size_t thread, i;
	int64_t run;
} pr_unclosed;

/* Ends the ranges never closed at their run's last NVTX timestamp, marks included. */
static int close_open(sqlite3 *db, sqlite3_value *run, pr_input *in, pr_lasts *last,
		      const pr_unclosed *open, size_t nopen)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, marks_sql, -1, &st, NULL);

	if (rc == SQLITE_OK && run != NULL)
		rc = sqlite3_bind_value(st, 1, run);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		rc = raise_last(last, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1)) == 0
			? SQLITE_OK : SQLITE_NOMEM;
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc;
	for (size_t i = 0; i < nopen; i++)
		in->t[open[i].thread].r[open[i].i].end = last_of(last, open[i].run);
	return SQLITE_OK;
}

static int load_ranges(sqlite3 *db, sqlite3_value *run, pr_input *in)
{
	sqlite3_stmt *st = NULL;
	pr_lasts last = { 0 };
	pr_unclosed *open = NULL;
	size_t nopen = 0, copen = 0;
	ptrdiff_t ti = -1;
	int rc = sqlite3_prepare_v2(db, ranges_sql, -1, &st, NULL);

	if (rc == SQLITE_OK && run != NULL)
		rc = sqlite3_bind_value(st, 1, run);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int closed = sqlite3_column_type(st, 3) != SQLITE_NULL;
		int64_t start = sqlite3_column_int64(st, 2), run_id = sqlite3_column_int64(st, 4);
		int64_t end = sqlite3_column_int64(st, 3), thread;
		pr_thread *t;

		rc = SQLITE_NOMEM;
		if (raise_last(&last, run_id, closed ? end : start) != 0)
			break;
		if (!sqlite3_column_int(st, 5))
			{ rc = SQLITE_OK; continue; }
		thread = sqlite3_column_int64(st, 1);
		if (ti < 0 || in->t[ti].id != thread) /* rows of one thread tend to come together */
			if ((ti = thread_index(in, thread, 1)) < 0)
				break;
		t = &in->t[ti];
		if (pq_pr_grow((void **)&t->r, &t->cr, t->nr, sizeof(*t->r)) != 0)
			break;
		if (!closed) {
			if (pq_pr_grow((void **)&open, &copen, nopen, sizeof(*open)) != 0)
				break;
			open[nopen++] = (pr_unclosed){ (size_t)ti, t->nr, run_id };
		}
		t->r[t->nr++] = (pr_range){ sqlite3_column_int64(st, 0), start, end };
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		rc = nopen > 0 ? close_open(db, run, in, &last, open, nopen) : SQLITE_OK;
	sqlite3_free(last.v);
	sqlite3_free(open);
	return rc;
}

/* Reads the GPU operations launched from threads that have ranges. */
static int load_ops(sqlite3 *db, sqlite3_value *run, int kernels_only, pr_input *in)
{
	sqlite3_stmt *st = NULL;
	ptrdiff_t ti = -1;
	int rc = sqlite3_prepare_v2(db, ops_sql, -1, &st, NULL);

	if (rc == SQLITE_OK && run != NULL)
		rc = sqlite3_bind_value(st, 1, run);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, 2, kernels_only);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t thread = sqlite3_column_int64(st, 0);
		pr_thread *t;

		rc = SQLITE_OK;
		if (ti < 0 || in->t[ti].id != thread)
			if ((ti = thread_index(in, thread, 0)) < 0)
				continue;
		t = &in->t[ti];
		if (pq_pr_grow((void **)&t->o, &t->co, t->no, sizeof(*t->o)) != 0)
			{ rc = SQLITE_NOMEM; break; }
		t->o[t->no++] = (pr_op){ sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
					 sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4),
					 sqlite3_column_int64(st, 5), sqlite3_column_int64(st, 6) };
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Start order; on a tie the longer range first (it is the parent), then the id. */
static int cmp_range(const void *a, const void *b)
{
	const pr_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_op(const void *a, const void *b)
{
	const pr_op *x = a, *y = b;

	if (x->astart != y->astart)
		return x->astart < y->astart ? -1 : 1;
	if (x->aend != y->aend)
		return x->aend < y->aend ? -1 : 1;
	return x->corr < y->corr ? -1 : x->corr > y->corr;
}

int pq_pr_load(sqlite3 *db, sqlite3_value *run, int kernels_only, pr_input *in, char **msg)
{
	int rc = load_ranges(db, run, in);

	/* Sorted before the operations are read, so qsort's scratch and them never coexist. */
	for (size_t i = 0; rc == SQLITE_OK && i < in->nt; i++)
		qsort(in->t[i].r, in->t[i].nr, sizeof(*in->t[i].r), cmp_range);
	if (rc == SQLITE_OK)
		rc = load_ops(db, run, kernels_only, in);
	for (size_t i = 0; rc == SQLITE_OK && i < in->nt; i++)
		if (in->t[i].no > 0)
			qsort(in->t[i].o, in->t[i].no, sizeof(*in->t[i].o), cmp_op);
	if (rc != SQLITE_OK && rc != SQLITE_NOMEM)
		*msg = sqlite3_mprintf("nvtx_gpu_proj: %s", sqlite3_errmsg(db));
	return rc;
}
