/* derive_idle.c - hta_idle_breakdown's sums for one run (v_hta_idle_breakdown, default options:
 * mode hta, last step left out, 30 µs kernel delay), from the kept events derive_hta.c read.
 *
 * The view (made from queries/idle-breakdown.sql) is the definition and computes any run the table
 * does not hold; its window sort of the events per stream is most of its ~1.5 s on an nsys export
 * of 400 k GPU events. Here: the kernels, memcpys and memsets on a stream, per stream in the
 * view's order (ts, exact start, table, id), each gap to the previous one's end summed into host
 * wait (its launching call started after that end), kernel wait (gap < 30 µs) or other, negative
 * gaps too. tests/reports/derived.t checks it gives the view's rows, hta_rules.t the ties.
 */
#include "derive.h"

#include <stdlib.h>

#define KERNEL_DELAY_NS (30 * 1000) /* the report's consecutive-kernel-delay-us default */

static int counted(const pq_hta_event *e)
{
	return e->src != 3 && e->has_stream;
}

/* The counted events first, by stream, then ts (NULL first, as SQL sorts), start, table, id. */
static int cmp_event(const void *pa, const void *pb)
{
	const pq_hta_event *a = pa, *b = pb;

	if (counted(a) != counted(b))
		return counted(b) - counted(a);
	if (a->stream != b->stream)
		return pq_derive_cmp(a->stream, b->stream);
	if (a->has_ts != b->has_ts)
		return a->has_ts - b->has_ts;
	if (a->has_ts && a->ts != b->ts)
		return pq_derive_cmp(a->ts, b->ts);
	if (a->start != b->start)
		return pq_derive_cmp(a->start, b->start);
	if (a->src != b->src)
		return a->src - b->src;
	return pq_derive_cmp(a->id, b->id);
}

int pq_hta_idle(pq_hta_rows *out, sqlite3_int64 run, pq_hta_event *a, size_t n)
{
	if (n > 0) /* a is NULL without events */
		qsort(a, n, sizeof(*a), cmp_event);
	for (size_t i = 0, j; i < n && counted(&a[i]); i = j) {
		pq_idle_row *row;

		if (pq_derive_grow((void **)&out->idle, &out->idle_cap, out->nidle,
				   sizeof(*out->idle)) != 0)
			return -1;
		row = &out->idle[out->nidle++];
		*row = (pq_idle_row){ .run = run, .stream = a[i].stream };
		for (j = i + 1; j < n && counted(&a[j]) && a[j].stream == a[i].stream; j++) {
			const pq_hta_event *p = &a[j - 1], *x = &a[j];
			sqlite3_int64 gap;

			if (!p->has_e || !x->has_ts)
				continue; /* the gap is NULL: no category */
			gap = x->ts - p->e;
			if (x->has_rt && x->rt > p->e)
				row->host += gap;
			else if (gap < KERNEL_DELAY_NS)
				row->kernel += gap;
			else
				row->other += gap;
		}
	}
	return 0;
}
