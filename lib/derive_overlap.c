/* derive_overlap.c - hta_comm_overlap for one run (v_hta_comm_overlap, default options: mode hta,
 * last step left out), from the kept events derive_hta.c read.
 *
 * The view (made from queries/comm-overlap.sql) is the definition and computes any run the table
 * does not hold. Here, as its SQL does: the COMMUNICATION and the COMPUTATION kernels, each class
 * merged as HTA's merge_kernel_intervals (in (ts, id) order, a new interval when ts is past the
 * largest end so far; an interval spans its first ts to its largest end), then HTA's sweep: +1 / -1
 * at a communication interval's start / end, +2 / -2 at a computation one's, summed per time
 * point; the overlap is the time from each point to the next where the running sum is 3.
 * comm: the communication intervals' total (NULL without any). tests/reports/derived.t checks it
 * gives the view's rows, hta_rules.t the ties.
 */
#include "derive.h"

#include <stdlib.h>

typedef struct {
	sqlite3_int64 ts, e, id;
	int comm;
} kern;

typedef struct {
	sqlite3_int64 t;
	int d;
} point;

/* By class, then the merge's order: ts, id. */
static int cmp_kern(const void *pa, const void *pb)
{
	const kern *a = pa, *b = pb;

	if (a->comm != b->comm)
		return a->comm - b->comm;
	if (a->ts != b->ts)
		return pq_derive_cmp(a->ts, b->ts);
	return pq_derive_cmp(a->id, b->id);
}

static int cmp_point(const void *pa, const void *pb)
{
	return pq_derive_cmp(((const point *)pa)->t, ((const point *)pb)->t);
}

/* Merges k[0..n) (one class, sorted) into points p (two per interval), adding the communication
 * intervals' lengths to *comm. Returns the number of points written. */
static size_t merge(const kern *k, size_t n, point *p, sqlite3_int64 *comm)
{
	size_t np = 0;
	sqlite3_int64 reach = 0, gs = 0, ge = 0;

	for (size_t i = 0; i < n; i++) {
		if (i > 0 && k[i].ts > reach) { /* SQL: ts > max(e) of the rows before */
			p[np++] = (point){ gs, k[i].comm ? 1 : 2 };
			p[np++] = (point){ ge, k[i].comm ? -1 : -2 };
			*comm += k[i].comm ? ge - gs : 0;
		}
		if (i == 0 || k[i].ts > reach) {
			gs = k[i].ts;
			ge = k[i].e;
		} else if (k[i].e > ge) {
			ge = k[i].e;
		}
		reach = i == 0 || k[i].e > reach ? k[i].e : reach;
	}
	if (n > 0) {
		p[np++] = (point){ gs, k[0].comm ? 1 : 2 };
		p[np++] = (point){ ge, k[0].comm ? -1 : -2 };
		*comm += k[0].comm ? ge - gs : 0;
	}
	return np;
}

int pq_hta_overlap(pq_hta_rows *out, sqlite3_int64 run, const pq_hta_event *ev, size_t n)
{
	kern *k = NULL;
	point *p = NULL;
	size_t nk = 0, ncomp = 0, np;
	sqlite3_int64 comm = 0, overlap = 0;
	int running = 0;

	for (size_t i = 0; i < n; i++)
		nk += ev[i].src == 0 && (ev[i].comp || ev[i].comm) && ev[i].has_ts && ev[i].has_e;
	if (nk > 0 && ((k = malloc(nk * sizeof(*k))) == NULL ||
		       (p = malloc(2 * nk * sizeof(*p))) == NULL)) {
		free(k);
		return -1;
	}
	nk = 0;
	for (size_t i = 0; i < n; i++)
		if (ev[i].src == 0 && (ev[i].comp || ev[i].comm) && ev[i].has_ts && ev[i].has_e)
			k[nk++] = (kern){ ev[i].ts, ev[i].e, ev[i].id, ev[i].comm };
	if (nk > 0)
		qsort(k, nk, sizeof(*k), cmp_kern);
	while (ncomp < nk && !k[ncomp].comm)
		ncomp++;
	np = merge(k, ncomp, p, &comm);
	np += merge(k + ncomp, nk - ncomp, p + np, &comm);
	if (np > 0)
		qsort(p, np, sizeof(*p), cmp_point);
	for (size_t i = 0, j; i < np; i = j) { /* one time point: its deltas summed */
		for (j = i; j < np && p[j].t == p[i].t; j++)
			running += p[j].d;
		if (running == 3 && j < np)
			overlap += p[j].t - p[i].t;
	}
	free(k);
	free(p);
	if (pq_derive_grow((void **)&out->overlap, &out->overlap_cap, out->noverlap,
			   sizeof(*out->overlap)) != 0)
		return -1;
	out->overlap[out->noverlap++] = (pq_overlap_row){ .run = run, .comm = comm, .overlap = overlap,
							  .has_comm = ncomp < nk };
	return 0;
}
