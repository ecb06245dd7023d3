/* interval_merge.c - interval_merge_ns and interval_merge_end: HTA's merge_kernel_intervals.
 *
 *   interval_merge_ns(start, end [, key1 [, key2]])    aggregate: total length of the merged groups
 *   interval_merge_end(start, end [, key1 [, key2]])   aggregate: end of the last merged group
 *
 * Rows are taken in (start, key1, key2, input order) order; a row whose start is past the largest
 * end seen so far opens a new group, any other row joins the current one (touching rows merge).
 * A group counts max(end) - its first start. Unlike interval_union_ns, a row with end < start is
 * kept: alone in its group it counts a negative length, as Holistic Trace Analysis does with
 * events it rounded to -1 µs (hta/utils/utils.py merge_kernel_intervals; the reports' temporal
 * breakdown needs its numbers). The keys only order rows with equal starts, which matters for
 * such rows. Rows with a NULL start or end are ignored; no rows give 0 (ns) and NULL (end).
 * Sorted once, swept once: O(n log n). The reports used two window passes over SQLite's sorter.
 */
#include "ext.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "iv_util.h"

typedef struct {
	sqlite3_int64 start, end, k1, k2;
	size_t seq;
} mrow;

typedef struct {
	mrow *rows;
	size_t n, cap;
} merge_state;

static int cmp_mrow(const void *pa, const void *pb)
{
	const mrow *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->k1 != b->k1)
		return a->k1 < b->k1 ? -1 : 1;
	if (a->k2 != b->k2)
		return a->k2 < b->k2 ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void merge_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *fn = sqlite3_user_data(ctx) ? "interval_merge_end" : "interval_merge_ns";
	static const char *const names[4] = { "start", "end", "key1", "key2" };
	sqlite3_int64 v[4] = { 0, 0, 0, 0 };
	merge_state *st;
	int i;

	for (i = 0; i < argc; i++) {
		int rc = pq_iv_arg_ns(ctx, argv, i, fn, names[i], &v[i]);
		if (rc == PQ_IV_ERR)
			return;
		if (rc == PQ_IV_NULL && i < 2)
			return;
	}
	st = sqlite3_aggregate_context(ctx, sizeof *st);
	if (st == NULL)
		goto nomem;
	if (st->n == st->cap) {
		size_t nc = st->cap ? st->cap * 2 : 64;
		mrow *nr = sqlite3_realloc64(st->rows, (sqlite3_uint64)nc * sizeof(mrow));
		if (nr == NULL)
			goto nomem;
		st->rows = nr;
		st->cap = nc;
	}
	st->rows[st->n] = (mrow){ v[0], v[1], v[2], v[3], st->n };
	st->n++;
	return;
nomem:
	sqlite3_result_error_nomem(ctx);
}

static void merge_final(sqlite3_context *ctx)
{
	int want_end = sqlite3_user_data(ctx) != NULL;
	merge_state *st = sqlite3_aggregate_context(ctx, 0);
	sqlite3_int64 total = 0, gs, gm, reach, len;
	size_t i;

	if (st == NULL || st->n == 0) {
		if (want_end)
			sqlite3_result_null(ctx);
		else
			sqlite3_result_int64(ctx, 0);
		goto done;
	}
	qsort(st->rows, st->n, sizeof(mrow), cmp_mrow);
	gs = st->rows[0].start;
	gm = reach = st->rows[0].end;
	for (i = 1; i <= st->n; i++) {
		const mrow *r = i < st->n ? &st->rows[i] : NULL;
		if (r != NULL && r->start <= reach) {
			if (r->end > gm)
				gm = r->end;
			if (r->end > reach)
				reach = r->end;
			continue;
		}
		if (__builtin_sub_overflow(gm, gs, &len) || __builtin_add_overflow(total, len, &total)) {
			sqlite3_result_error(ctx, want_end ? "interval_merge_end: total length overflows "
					     "a 64-bit integer" : "interval_merge_ns: total length "
					     "overflows a 64-bit integer", -1);
			goto done;
		}
		if (r != NULL) {
			gs = r->start;
			gm = r->end;
			if (r->end > reach)
				reach = r->end;
		}
	}
	if (want_end)
		sqlite3_result_int64(ctx, gm);
	else
		sqlite3_result_int64(ctx, total);
done:
	if (st != NULL)
		sqlite3_free(st->rows);
}

int pq_ext_interval_merge_init(sqlite3 *db)
{
	static int end_flag;
	int rc = SQLITE_OK, n;

	for (n = 2; n <= 4 && rc == SQLITE_OK; n++) {
		rc = sqlite3_create_function_v2(db, "interval_merge_ns", n, PQ_FUNC_FLAGS, NULL, NULL,
						merge_step, merge_final, NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_create_function_v2(db, "interval_merge_end", n, PQ_FUNC_FLAGS,
							&end_flag, NULL, merge_step, merge_final,
							NULL);
	}
	return rc;
}
