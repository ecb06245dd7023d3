/* derive_temporal.c - hta_temporal_breakdown's merges for one run (v_hta_temporal_breakdown,
 * default options: mode hta, last step left out), from the kept events derive_hta.c read.
 *
 * The view (made from queries/temporal-breakdown.sql) is the definition and computes any run the
 * table does not hold (~0.7 s on an nsys export of 400 k GPU events). Here, per GPU, what
 * interval_merge_ns / interval_merge_end do (ext/interval_merge.c: HTA's merge_kernel_intervals,
 * events in (ts, table, id) order, a group ending where the next starts joining it): kernel =
 * the last merged group's end - the first ts, busy = the merged length of all events, compute =
 * of the COMPUTATION kernels; idle = kernel - busy, non-compute = busy - compute.
 * tests/reports/derived.t checks it gives the view's rows, hta_rules.t the ties.
 */
#include "derive.h"

#include <stdlib.h>

/* By device (the GROUP BY's groups), then the merges' order: ts, table, id. */
static int cmp_event(const void *pa, const void *pb)
{
	const pq_hta_event *a = pa, *b = pb;

	if (a->has_device != b->has_device)
		return a->has_device - b->has_device;
	if (a->has_device && a->device != b->device)
		return pq_derive_cmp(a->device, b->device);
	if (a->has_ts != b->has_ts)
		return a->has_ts - b->has_ts;
	if (a->has_ts && a->ts != b->ts)
		return pq_derive_cmp(a->ts, b->ts);
	if (a->src != b->src)
		return a->src - b->src;
	return pq_derive_cmp(a->id, b->id);
}

static int same_device(const pq_hta_event *a, const pq_hta_event *b)
{
	return a->has_device == b->has_device && (!a->has_device || a->device == b->device);
}

/* interval_merge_ns over a[0..n) (sorted), of the computation events only when comp_only; *end
 * the last group's end (interval_merge_end). 0 with *has_end 0 when no event counts. */
static sqlite3_int64 merge(const pq_hta_event *a, size_t n, int comp_only, sqlite3_int64 *end,
			   int *has_end)
{
	sqlite3_int64 total = 0, gs = 0, gm = 0, reach = 0;
	int open = 0;

	for (size_t i = 0; i < n; i++) {
		const pq_hta_event *x = &a[i];

		if (!x->has_ts || !x->has_e || (comp_only && !x->comp))
			continue;
		if (open && x->ts <= reach) {
			gm = x->e > gm ? x->e : gm;
			reach = x->e > reach ? x->e : reach;
			continue;
		}
		if (open)
			total += gm - gs;
		gs = x->ts;
		gm = x->e;
		reach = open && reach > x->e ? reach : x->e;
		open = 1;
	}
	if (open)
		total += gm - gs;
	*end = gm;
	*has_end = open;
	return total;
}

int pq_hta_temporal(pq_hta_rows *out, sqlite3_int64 run, pq_hta_event *a, size_t n)
{
	if (n > 0) /* a is NULL without events */
		qsort(a, n, sizeof(*a), cmp_event);
	for (size_t i = 0, j; i < n; i = j) {
		sqlite3_int64 end, unused, busy, compute, first = 0;
		int has_end, none, has_first = 0;
		pq_temporal_row *row;

		for (j = i; j < n && same_device(&a[i], &a[j]); j++)
			if (a[j].has_ts && (!has_first || a[j].ts < first)) {
				first = a[j].ts;
				has_first = 1;
			}
		busy = merge(a + i, j - i, 0, &end, &has_end);
		compute = merge(a + i, j - i, 1, &unused, &none);
		if (pq_derive_grow((void **)&out->temporal, &out->temporal_cap, out->ntemporal,
				   sizeof(*out->temporal)) != 0)
			return -1;
		row = &out->temporal[out->ntemporal++];
		*row = (pq_temporal_row){ .run = run, .device = a[i].device,
					  .has_device = a[i].has_device, .compute = compute,
					  .non_compute = busy - compute, .has_kernel = has_end && has_first };
		if (row->has_kernel) {
			row->kernel = end - first;
			row->idle = row->kernel - busy;
		}
	}
	return 0;
}
