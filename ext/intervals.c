/* intervals.c - the interval family's scalar and union functions, and the family's registration.
 *
 *   overlap_ns(a_start, a_end, b_start, b_end)   length of [a_start,a_end) ∩ [b_start,b_end)
 *   interval_union_ns(start, end)                 aggregate and window function: length of the union
 *
 * Intervals are half-open [start, end) in integer ns; end <= start is empty; touching intervals
 * merge. How arguments are read (INTEGER, REAL rounded, integer TEXT) is in iv_util.c.
 * priority_breakdown is in priority.c, interval_join in interval_join.c, interval_merge_ns in
 * interval_merge.c, interval_weighted_ns in interval_weighted.c, nest_parent and nest_sum in nest.c;
 * pq_ext_intervals_init registers them all. User documentation: docs/sql-functions.md.
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
 * sorted[0..nsorted): the frame's intervals as a multiset, sorted by start (not by end).
 * add[0..nadd): rows stepped in since the last xValue; rm[0..nrm): rows inverted out since then.
 * xValue folds add and rm into sorted (a few rows: binary search + memmove each; many: append and
 * re-sort, or a sorted multiset difference), then sweeps: O(w) per output row for a frame of w rows
 * when the frame slides by a row. A plain aggregate only appends to add and sorts it once in
 * xFinal (the array is moved, not copied). */
typedef struct {
	pq_iv *sorted;
	size_t nsorted, capsorted;
	pq_iv *add;
	size_t nadd, capadd;
	pq_iv *rm;
	size_t nrm, caprm;
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
	if (st == NULL || push(&st->add, &st->nadd, &st->capadd, x) != SQLITE_OK) {
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
	if (st == NULL || push(&st->rm, &st->nrm, &st->caprm, x) != SQLITE_OK) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	st->clean = 0;
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

/* First index i with sorted[i].start > t (upper) or >= t (lower). */
static size_t bound(const pq_iv *v, size_t n, sqlite3_int64 t, int upper)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].start < t || (upper && v[mid].start == t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void error_bad_inverse(sqlite3_context *ctx)
{
	sqlite3_result_error(ctx, "interval_union_ns: window frame removed a row it never added", -1);
}

/* Folds add and rm into sorted. */
static int fold_pending(sqlite3_context *ctx, union_state *st)
{
	size_t i;

	if (st->nadd > 0) {
		if (st->nsorted == 0) { /* move, do not copy (the plain aggregate case) */
			pq_iv *t = st->sorted;
			size_t tc = st->capsorted;
			st->sorted = st->add;
			st->capsorted = st->capadd;
			st->nsorted = st->nadd;
			st->add = t;
			st->capadd = tc;
			st->nadd = 0;
			if (sort_by_start(st->sorted, st->nsorted) != SQLITE_OK)
				goto nomem;
		} else if (st->nadd > 16 && st->nadd > st->nsorted / 16) {
			for (i = 0; i < st->nadd; i++)
				if (push(&st->sorted, &st->nsorted, &st->capsorted, st->add[i]) != SQLITE_OK)
					goto nomem;
			st->nadd = 0;
			if (sort_by_start(st->sorted, st->nsorted) != SQLITE_OK)
				goto nomem;
		} else {
			for (i = 0; i < st->nadd; i++) {
				size_t at = bound(st->sorted, st->nsorted, st->add[i].start, 1);
				if (push(&st->sorted, &st->nsorted, &st->capsorted, st->add[i]) != SQLITE_OK)
					goto nomem;
				memmove(st->sorted + at + 1, st->sorted + at,
					(st->nsorted - 1 - at) * sizeof(pq_iv));
				st->sorted[at] = st->add[i];
			}
			st->nadd = 0;
		}
	}
	if (st->nrm > 16 && st->nrm > st->nsorted / 16) {
		/* many removals: sorted multiset difference on (start, end) order */
		size_t j = 0, w = 0;
		qsort(st->sorted, st->nsorted, sizeof(pq_iv), cmp_iv);
		qsort(st->rm, st->nrm, sizeof(pq_iv), cmp_iv);
		for (i = 0; i < st->nsorted; i++) {
			if (j < st->nrm && cmp_iv(&st->rm[j], &st->sorted[i]) < 0)
				break; /* a removal that matches nothing */
			if (j < st->nrm && cmp_iv(&st->rm[j], &st->sorted[i]) == 0) {
				j++;
				continue;
			}
			st->sorted[w++] = st->sorted[i];
		}
		if (j != st->nrm) {
			st->nrm = 0;
			error_bad_inverse(ctx);
			return SQLITE_ERROR;
		}
		st->nsorted = w;
	} else {
		for (i = 0; i < st->nrm; i++) {
			size_t at = bound(st->sorted, st->nsorted, st->rm[i].start, 0);
			while (at < st->nsorted && st->sorted[at].start == st->rm[i].start &&
			       st->sorted[at].end != st->rm[i].end)
				at++;
			if (at == st->nsorted || st->sorted[at].start != st->rm[i].start) {
				st->nrm = 0;
				error_bad_inverse(ctx);
				return SQLITE_ERROR;
			}
			memmove(st->sorted + at, st->sorted + at + 1,
				(st->nsorted - 1 - at) * sizeof(pq_iv));
			st->nsorted--;
		}
	}
	st->nrm = 0;
	return SQLITE_OK;
nomem:
	sqlite3_result_error_nomem(ctx);
	return SQLITE_NOMEM;
}

/* Computes the union of the current frame into st->cached. */
static int union_compute(sqlite3_context *ctx, union_state *st)
{
	if (st->clean)
		return SQLITE_OK;
	if (fold_pending(ctx, st) != SQLITE_OK)
		return SQLITE_ERROR;
	if (union_of_sorted(st->sorted, st->nsorted, &st->cached)) {
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
	if (union_compute(ctx, st) == SQLITE_OK)
		sqlite3_result_int64(ctx, st->cached);
}

static void union_final(sqlite3_context *ctx)
{
	union_state *st = sqlite3_aggregate_context(ctx, 0);

	if (st == NULL) {
		sqlite3_result_int64(ctx, 0);
		return;
	}
	if (union_compute(ctx, st) == SQLITE_OK)
		sqlite3_result_int64(ctx, st->cached);
	sqlite3_free(st->sorted);
	sqlite3_free(st->add);
	sqlite3_free(st->rm);
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
	if (rc == SQLITE_OK)
		rc = pq_ext_interval_merge_init(db);
	if (rc == SQLITE_OK)
		rc = pq_ext_interval_weighted_init(db);
	if (rc == SQLITE_OK)
		rc = pq_ext_nest_init(db);
	return rc;
}
