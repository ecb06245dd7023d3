/* intervals.c - the interval family's scalar and union functions, and the family's registration.
 *
 *   overlap_ns(a_start, a_end, b_start, b_end)   length of [a_start,a_end) ∩ [b_start,b_end)
 *   interval_union_ns(start, end)                 aggregate and window function: length of the union
 *
 * Intervals are half-open [start, end) in integer ns; end <= start is empty; touching intervals
 * merge. How arguments are read (INTEGER, REAL rounded, integer TEXT) is in iv_util.c.
 * priority_breakdown is in priority.c, interval_join in interval_join.c; pq_ext_intervals_init
 * registers all three files. User documentation: docs/sql/intervals.md.
 */
#include "ext.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iv_util.h"

typedef struct {
	sqlite3_int64 start, end;
} pq_iv;

#define IV_START(x) ((x).start)
PQ_RADIX_SORT(sort_by_start, pq_iv, IV_START)

/* ---- overlap_ns ---- */

static void overlap_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static const char *const names[4] = { "a_start", "a_end", "b_start", "b_end" };
	sqlite3_int64 t[4], lo, hi, len;
	int i, null = 0;

	(void)argc;
	for (i = 0; i < 4; i++) {
		int rc = pq_iv_arg_ns(ctx, argv, i, "overlap_ns", names[i], &t[i]);
		if (rc == PQ_IV_ERR)
			return;
		if (rc == PQ_IV_NULL)
			null = 1;
	}
	if (null) {
		sqlite3_result_null(ctx);
		return;
	}
	lo = t[0] > t[2] ? t[0] : t[2];
	hi = t[1] < t[3] ? t[1] : t[3];
	if (hi <= lo) {
		sqlite3_result_int64(ctx, 0);
		return;
	}
	len = pq_iv_len(ctx, "overlap_ns", lo, hi);
	if (len >= 0)
		sqlite3_result_int64(ctx, len);
}

/* ---- interval_union_ns ---- */

/* Length of the union of v[0..n), which must be sorted by start and hold no empty intervals.
 * Returns 0, or 1 when the total does not fit in 64 bits. */
static int union_of_sorted(const pq_iv *v, size_t n, sqlite3_int64 *total)
{
	sqlite3_int64 sum = 0, cs, ce, len;
	size_t i;

	if (n == 0) {
		*total = 0;
		return 0;
	}
	cs = v[0].start;
	ce = v[0].end;
	for (i = 1; i <= n; i++) {
		if (i < n && v[i].start <= ce) { /* overlapping or touching: extend */
			if (v[i].end > ce)
				ce = v[i].end;
			continue;
		}
		if (__builtin_sub_overflow(ce, cs, &len) || __builtin_add_overflow(sum, len, &sum))
			return 1;
		if (i < n) {
			cs = v[i].start;
			ce = v[i].end;
		}
	}
	*total = sum;
	return 0;
}

/* Aggregate state (lives in sqlite3_aggregate_context, zeroed by SQLite).
 * live = v[head..n): the intervals in the frame, in arrival order, so that the usual window
 * xInverse (the oldest row leaves first) is an O(1) head move. Any other removal is parked in rm
 * and subtracted as a multiset at the next xValue. The union is recomputed only when dirty. */
typedef struct {
	pq_iv *v;
	size_t n, head, cap;
	pq_iv *rm;
	size_t nrm, caprm;
	pq_iv *scratch;
	size_t capscratch;
	sqlite3_int64 cached;
	int clean; /* cached is the union of the current frame */
} union_state;

static int push(pq_iv **v, size_t *n, size_t *cap, pq_iv x)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		pq_iv *nv = sqlite3_realloc64(*v, (sqlite3_uint64)nc * sizeof(pq_iv));
		if (nv == NULL)
			return SQLITE_NOMEM;
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = x;
	return SQLITE_OK;
}

/* Reads (start, end). Returns PQ_IV_OK with a non-empty interval, PQ_IV_NULL for a row to ignore
 * (a NULL argument or an empty interval), PQ_IV_ERR after setting the error. */
static int union_args(sqlite3_context *ctx, sqlite3_value **argv, pq_iv *x)
{
	int r1, r2;

	if (pq_iv_fast_ints(argv, &x->start, &x->end))
		return x->end > x->start ? PQ_IV_OK : PQ_IV_NULL;
	r1 = pq_iv_arg_ns(ctx, argv, 0, "interval_union_ns", "start", &x->start);
	if (r1 == PQ_IV_ERR)
		return PQ_IV_ERR;
	r2 = pq_iv_arg_ns(ctx, argv, 1, "interval_union_ns", "end", &x->end);
	if (r2 == PQ_IV_ERR)
		return PQ_IV_ERR;
	if (r1 == PQ_IV_NULL || r2 == PQ_IV_NULL || x->end <= x->start)
		return PQ_IV_NULL;
	return PQ_IV_OK;
}

static void union_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	union_state *st;
	pq_iv x;

	(void)argc;
	if (union_args(ctx, argv, &x) != PQ_IV_OK)
		return;
	st = sqlite3_aggregate_context(ctx, sizeof *st);
	if (st == NULL || push(&st->v, &st->n, &st->cap, x) != SQLITE_OK) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	st->clean = 0;
}

static void union_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	union_state *st;
	pq_iv x;

	(void)argc;
	if (union_args(ctx, argv, &x) != PQ_IV_OK)
		return;
	st = sqlite3_aggregate_context(ctx, sizeof *st);
	if (st == NULL) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	st->clean = 0;
	if (st->head < st->n && st->v[st->head].start == x.start && st->v[st->head].end == x.end) {
		st->head++;
		if (st->head == st->n)
			st->head = st->n = 0;
		return;
	}
	if (push(&st->rm, &st->nrm, &st->caprm, x) != SQLITE_OK)
		sqlite3_result_error_nomem(ctx);
}

static int cmp_iv(const void *pa, const void *pb)
{
	const pq_iv *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return 0;
}

/* Subtracts the multiset rm from live, leaving live sorted and compact (head = 0). */
static int apply_removals(sqlite3_context *ctx, union_state *st)
{
	size_t i, j = 0, w = 0;
	pq_iv *live = st->v + st->head;
	size_t n = st->n - st->head;

	qsort(live, n, sizeof(pq_iv), cmp_iv);
	qsort(st->rm, st->nrm, sizeof(pq_iv), cmp_iv);
	for (i = 0; i < n; i++) {
		while (j < st->nrm && cmp_iv(&st->rm[j], &live[i]) < 0)
			j++; /* a removal of a row that was never added: reported below */
		if (j < st->nrm && cmp_iv(&st->rm[j], &live[i]) == 0) {
			j++;
			continue;
		}
		st->v[w++] = live[i];
	}
	st->head = 0;
	st->n = w;
	if (w + st->nrm != n) {
		st->nrm = 0;
		sqlite3_result_error(ctx, "interval_union_ns: window frame removed a row it never added",
				     -1);
		return SQLITE_ERROR;
	}
	st->nrm = 0;
	return SQLITE_OK;
}

/* Computes the union of the current frame into st->cached. final: may sort v in place. */
static int union_compute(sqlite3_context *ctx, union_state *st, int final)
{
	pq_iv *arr;
	size_t n;

	if (st->clean)
		return SQLITE_OK;
	if (st->nrm > 0 && apply_removals(ctx, st) != SQLITE_OK)
		return SQLITE_ERROR;
	n = st->n - st->head;
	if (final) {
		arr = st->v + st->head;
	} else {
		if (st->capscratch < n) {
			pq_iv *s = sqlite3_realloc64(st->scratch, (sqlite3_uint64)n * sizeof(pq_iv));
			if (s == NULL) {
				sqlite3_result_error_nomem(ctx);
				return SQLITE_NOMEM;
			}
			st->scratch = s;
			st->capscratch = n;
		}
		if (n > 0)
			memcpy(st->scratch, st->v + st->head, n * sizeof(pq_iv));
		arr = st->scratch;
	}
	if (sort_by_start(arr, n) != SQLITE_OK) {
		sqlite3_result_error_nomem(ctx);
		return SQLITE_NOMEM;
	}
	if (union_of_sorted(arr, n, &st->cached)) {
		sqlite3_result_error(ctx, "interval_union_ns: total length overflows a 64-bit integer",
				     -1);
		return SQLITE_ERROR;
	}
	st->clean = 1;
	return SQLITE_OK;
}

static void union_value(sqlite3_context *ctx)
{
	union_state *st = sqlite3_aggregate_context(ctx, 0);

	if (st == NULL) {
		sqlite3_result_int64(ctx, 0);
		return;
	}
	if (union_compute(ctx, st, 0) == SQLITE_OK)
		sqlite3_result_int64(ctx, st->cached);
}

static void union_final(sqlite3_context *ctx)
{
	union_state *st = sqlite3_aggregate_context(ctx, 0);

	if (st == NULL) {
		sqlite3_result_int64(ctx, 0);
		return;
	}
	if (union_compute(ctx, st, 1) == SQLITE_OK)
		sqlite3_result_int64(ctx, st->cached);
	sqlite3_free(st->v);
	sqlite3_free(st->rm);
	sqlite3_free(st->scratch);
	memset(st, 0, sizeof *st);
}

int pq_ext_intervals_init(sqlite3 *db)
{
	int rc = sqlite3_create_function_v2(db, "overlap_ns", 4, PQ_FUNC_FLAGS, NULL, overlap_func,
					    NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_window_function(db, "interval_union_ns", 2, PQ_FUNC_FLAGS, NULL,
						    union_step, union_final, union_value,
						    union_inverse, NULL);
	if (rc == SQLITE_OK)
		rc = pq_ext_priority_init(db);
	if (rc == SQLITE_OK)
		rc = pq_ext_interval_join_init(db);
	return rc;
}
