/* nest.c - nesting of ranges on a thread, as window functions over one sorted pass.
 *
 *   nest_parent(start, end, id) OVER (PARTITION BY part ORDER BY start, end DESC, id
 *                                     ROWS UNBOUNDED PRECEDING)
 *       the id of the innermost row enclosing the current one (NULL: none)
 *   nest_sum(start, end, id, weight) OVER (PARTITION BY part ORDER BY start DESC, end, id DESC
 *                                          ROWS UNBOUNDED PRECEDING)
 *       the total of weight over the rows the current one encloses (0.0: none)
 *
 * "Encloses" is interval_join's 'nests' mode (interval_join.c): y encloses x when y contains x
 * (y.start <= x.start and x.end <= y.end; a point x at p needs p < y.end, or y a point at p), y is
 * not x, and of two rows with the same interval the one with the smaller id is the outer. The
 * innermost enclosing row is the one with the latest start, then the earliest end, then the
 * largest id: what a stack of open rows gives, rows in (start, end DESC, id) order, popping
 * those that do not enclose the next row (a row overlapping the top partly pops it, and every
 * later row the popped one encloses is enclosed by that row too). nest_sum takes the rows in the
 * reverse order, so the rows a row encloses are the ones seen just before it: it walks back over
 * them while they start inside it. O(n) for the parent, O(n + pairs) for the sums.
 *
 * Both check the order the window gives them and raise an error on any other: a window with
 * another ORDER BY would give wrong numbers without it. The op-sum, module-view and memory-sum
 * definitions (tb_plugin's operator tree) used interval_join pairs and SQL joins over them.
 */
#include "ext.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "iv_util.h"

typedef struct {
	sqlite3_int64 start, end, id;
	double w;
} nrow;

typedef struct {
	nrow *a;
	size_t n, cap;
	int have_last;
	nrow last;         /* the previous row, for the order check */
	int have_result;
	sqlite3_int64 parent; /* nest_parent: the current row's parent */
	double sum;           /* nest_sum: the current row's total */
} nstate;

/* Whether y encloses x. */
static int encloses(const nrow *y, const nrow *x)
{
	int contains;

	if (x->start < x->end)
		contains = y->start <= x->start && x->end <= y->end;
	else
		contains = y->start <= x->start &&
			   (x->start < y->end || (y->start == y->end && y->end == x->start));
	return contains && y->id != x->id &&
	       (y->start < x->start || y->end > x->end || y->id < x->id);
}

static int push(nstate *st, const nrow *r)
{
	if (st->n == st->cap) {
		size_t nc = st->cap ? st->cap * 2 : 64;
		nrow *na = sqlite3_realloc64(st->a, (sqlite3_uint64)nc * sizeof(nrow));
		if (na == NULL)
			return SQLITE_NOMEM;
		st->a = na;
		st->cap = nc;
	}
	st->a[st->n++] = *r;
	return SQLITE_OK;
}

/* Reads (start, end, id [, weight]); 0 with nothing set for a row to skip (a NULL time or id),
 * -1 after setting an error. */
static int read_row(sqlite3_context *ctx, int argc, sqlite3_value **argv, const char *fn,
		    nrow *r)
{
	static const char *const names[3] = { "start", "end", "id" };
	sqlite3_int64 v[3];

	for (int i = 0; i < 3; i++) {
		int rc = pq_iv_arg_ns(ctx, argv, i, fn, names[i], &v[i]);
		if (rc == PQ_IV_ERR)
			return -1;
		if (rc == PQ_IV_NULL)
			return 0;
	}
	if (v[1] < v[0]) {
		char *msg = sqlite3_mprintf("%s: end before start (row id %lld)", fn, (long long)v[2]);
		sqlite3_result_error(ctx, msg ? msg : "out of memory", -1);
		sqlite3_free(msg);
		return -1;
	}
	r->start = v[0];
	r->end = v[1];
	r->id = v[2];
	r->w = argc > 3 ? sqlite3_value_double(argv[3]) : 0.0;
	return 1;
}

/* Whether b may follow a in the window: (start, end DESC, id) order, or its reverse. */
static int in_order(const nrow *a, const nrow *b, int reverse)
{
	if (reverse) {
		const nrow *t = a;
		a = b;
		b = t;
	}
	if (a->start != b->start)
		return a->start < b->start;
	if (a->end != b->end)
		return a->end > b->end;
	return a->id < b->id;
}

static int check_order(sqlite3_context *ctx, nstate *st, const nrow *r, int reverse)
{
	if (st->have_last && !in_order(&st->last, r, reverse)) {
		sqlite3_result_error(ctx, reverse ? "nest_sum: the window must be ORDER BY start DESC, "
						    "end, id DESC ROWS UNBOUNDED PRECEDING"
						  : "nest_parent: the window must be ORDER BY start, end "
						    "DESC, id ROWS UNBOUNDED PRECEDING", -1);
		return -1;
	}
	st->have_last = 1;
	st->last = *r;
	return 0;
}

static void parent_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	nstate *st = sqlite3_aggregate_context(ctx, sizeof *st);
	nrow r;
	int rc;

	if (st == NULL) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	st->have_result = 0;
	if ((rc = read_row(ctx, argc, argv, "nest_parent", &r)) <= 0)
		return;
	if (check_order(ctx, st, &r, 0) != 0)
		return;
	while (st->n > 0 && !encloses(&st->a[st->n - 1], &r))
		st->n--;
	if (st->n > 0) {
		st->have_result = 1;
		st->parent = st->a[st->n - 1].id;
	}
	if (push(st, &r) != SQLITE_OK)
		sqlite3_result_error_nomem(ctx);
}

static void parent_value(sqlite3_context *ctx)
{
	nstate *st = sqlite3_aggregate_context(ctx, 0);

	if (st != NULL && st->have_result)
		sqlite3_result_int64(ctx, st->parent);
	else
		sqlite3_result_null(ctx);
}

static void sum_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	nstate *st = sqlite3_aggregate_context(ctx, sizeof *st);
	nrow r;
	size_t i;
	int rc;

	if (st == NULL) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	st->sum = 0.0;
	if ((rc = read_row(ctx, argc, argv, "nest_sum", &r)) <= 0)
		return;
	if (check_order(ctx, st, &r, 1) != 0)
		return;
	/* The rows seen so far start at or after r; those starting inside it came last. */
	for (i = st->n; i > 0; i--) {
		const nrow *x = &st->a[i - 1];
		if (x->start > r.end)
			break;
		if (encloses(&r, x))
			st->sum += x->w;
	}
	if (push(st, &r) != SQLITE_OK)
		sqlite3_result_error_nomem(ctx);
}

static void sum_value(sqlite3_context *ctx)
{
	nstate *st = sqlite3_aggregate_context(ctx, 0);

	sqlite3_result_double(ctx, st != NULL ? st->sum : 0.0);
}

static void n_final(sqlite3_context *ctx)
{
	nstate *st = sqlite3_aggregate_context(ctx, 0);

	if (st != NULL)
		sqlite3_free(st->a);
	sqlite3_result_null(ctx);
}

static void no_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_error(ctx, "nest_parent and nest_sum need ROWS UNBOUNDED PRECEDING", -1);
}

int pq_ext_nest_init(sqlite3 *db)
{
	int rc = sqlite3_create_window_function(db, "nest_parent", 3, PQ_FUNC_FLAGS, NULL,
						parent_step, n_final, parent_value, no_inverse,
						NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_window_function(db, "nest_sum", 4, PQ_FUNC_FLAGS, NULL, sum_step,
						    n_final, sum_value, no_inverse, NULL);
	return rc;
}
