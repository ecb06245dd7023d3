/* interval_weighted.c - interval_weighted_ns(start, end, weight [, cap [, window_start, window_end]]).
 *
 * Aggregate: the time integral of min(level, cap) where level is the sum of the weights of the
 * intervals covering each instant (no cap: the sum itself), over the window [window_start,
 * window_end) or, without one, the intervals' span; instants where the level is not > 0 count
 * nothing. Returns REAL; NULL when no instant of the window has a level > 0 (no rows, say). This is the TensorBoard plugin's "Est. SM Efficiency"
 * (tb_plugin gpu_metrics_parser.py, range_utils.merge_ranges_with_value: the kernels' "blocks per
 * SM" summed, capped at 1, over the steps span), which the gpu-summary definition used to compute
 * with two window-function passes over every kernel's two endpoints.
 *
 * Exactly as that SQL did, so the doubles come out the same: endpoints sorted by time, starts
 * before ends, then in row order (starts of all rows before their ends); the level is a running
 * double sum in that order; each segment between an endpoint and the next one's time adds
 * min(level, cap) * (its overlap with the window), in time order. Rows with a NULL argument, an
 * empty interval or a weight that is not > 0 are ignored (tb_plugin skips them too).
 */
#include "ext.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iv_util.h"

#define FN "interval_weighted_ns"

typedef struct {
	sqlite3_int64 t;
	double v;
	size_t seq; /* starts 0..n-1 in row order, then ends n..2n-1 */
} wpoint;

typedef struct {
	sqlite3_int64 start, end;
	double w;
} wrow;

typedef struct {
	wrow *rows;
	size_t n, cap;
	int has_cap, has_win;
	double level_cap;
	sqlite3_int64 ws, we;
} wstate;

/* The points in (t, seq) order: made in seq order, then sorted by t alone, stably (qsort's
 * comparisons of (t, seq) were most of the gpu-summary's SM efficiency on 0.3 M kernels). */
#define POINT_T(x) ((x).t)
PQ_RADIX_SORT(sort_points, wpoint, POINT_T)

static void w_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	static const char *const names[6] = { "start", "end", "weight", "cap", "window_start",
					       "window_end" };
	sqlite3_int64 s, e, ws = 0, we = 0;
	int rs, re, rws = PQ_IV_NULL, rwe = PQ_IV_NULL;
	wstate *st;
	double w;

	if ((rs = pq_iv_arg_ns(ctx, argv, 0, FN, names[0], &s)) == PQ_IV_ERR ||
	    (re = pq_iv_arg_ns(ctx, argv, 1, FN, names[1], &e)) == PQ_IV_ERR)
		return;
	if (argc == 6 && ((rws = pq_iv_arg_ns(ctx, argv, 4, FN, names[4], &ws)) == PQ_IV_ERR ||
			  (rwe = pq_iv_arg_ns(ctx, argv, 5, FN, names[5], &we)) == PQ_IV_ERR))
		return;
	st = sqlite3_aggregate_context(ctx, sizeof *st);
	if (st == NULL) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (argc >= 4 && !st->has_cap && sqlite3_value_type(argv[3]) != SQLITE_NULL) {
		st->has_cap = 1;
		st->level_cap = sqlite3_value_double(argv[3]);
	}
	if (rws == PQ_IV_OK && rwe == PQ_IV_OK && !st->has_win) {
		st->has_win = 1;
		st->ws = ws;
		st->we = we;
	}
	if (rs != PQ_IV_OK || re != PQ_IV_OK || e <= s || sqlite3_value_type(argv[2]) == SQLITE_NULL)
		return;
	w = sqlite3_value_double(argv[2]);
	if (!(w > 0.0))
		return;
	if (st->n == st->cap) {
		size_t nc = st->cap ? st->cap * 2 : 64;
		wrow *nr = sqlite3_realloc64(st->rows, (sqlite3_uint64)nc * sizeof(wrow));
		if (nr == NULL) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
		st->rows = nr;
		st->cap = nc;
	}
	st->rows[st->n++] = (wrow){ s, e, w };
}

static void w_final(sqlite3_context *ctx)
{
	wstate *st = sqlite3_aggregate_context(ctx, 0);
	sqlite3_int64 ws, we;
	wpoint *p;
	double level = 0.0, total = 0.0;
	size_t i, n, counted = 0;

	if (st == NULL || st->n == 0) {
		sqlite3_result_null(ctx);
		goto done;
	}
	n = st->n;
	if ((p = sqlite3_malloc64((sqlite3_uint64)2 * n * sizeof(wpoint))) == NULL) {
		sqlite3_result_error_nomem(ctx);
		goto done;
	}
	ws = st->rows[0].start;
	we = st->rows[0].end;
	for (i = 0; i < n; i++) {
		p[i] = (wpoint){ st->rows[i].start, st->rows[i].w, i };
		p[n + i] = (wpoint){ st->rows[i].end, -st->rows[i].w, n + i };
		if (st->rows[i].start < ws)
			ws = st->rows[i].start;
		if (st->rows[i].end > we)
			we = st->rows[i].end;
	}
	if (st->has_win) {
		ws = st->ws;
		we = st->we;
	}
	if (sort_points(p, 2 * n) != 0) {
		sqlite3_free(p);
		sqlite3_result_error_nomem(ctx);
		goto done;
	}
	for (i = 0; i < 2 * n; i++) {
		level += p[i].v;
		if (i + 1 < 2 * n && p[i + 1].t > p[i].t && level > 0.0 && p[i + 1].t > ws &&
		    p[i].t < we) {
			sqlite3_int64 a = p[i].t > ws ? p[i].t : ws;
			sqlite3_int64 b = p[i + 1].t < we ? p[i + 1].t : we;
			double l = st->has_cap && level > st->level_cap ? st->level_cap : level;
			sqlite3_int64 len = pq_iv_len(ctx, FN, a, b);

			if (len < 0) {
				sqlite3_free(p);
				goto done;
			}
			total += l * (double)len;
			counted++;
		}
	}
	sqlite3_free(p);
	if (counted == 0)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_double(ctx, total);
done:
	if (st != NULL)
		sqlite3_free(st->rows);
}

int pq_ext_interval_weighted_init(sqlite3 *db)
{
	static const int nargs[3] = { 3, 4, 6 };
	int rc = SQLITE_OK;

	for (int i = 0; i < 3 && rc == SQLITE_OK; i++)
		rc = sqlite3_create_function_v2(db, FN, nargs[i], PQ_FUNC_FLAGS, NULL, NULL, w_step,
						w_final, NULL);
	return rc;
}
