/* derive_steps.c - tb_steps and tb_step_times for finished runs: v_tb_steps and v_tb_step_times
 * evaluated in C.
 *
 * The views (schema/views.sql) are the definitions and compute every other run. On the 75 k-event
 * ResNet50 sample SQLite takes ~60 ms for the two (index probes per runtime call and device event,
 * then priority_breakdown over rows it produces one by one), on the writer's CPU while the other
 * one derives the rest. Here: one read of the run's host ranges (derive_host.c), runtime calls and
 * device events, then
 *  - the steps: tb_plugin's host steps, the runtime calls inside each, the device events they
 *    launched (same process and correlation id), the steps extended over their device work and
 *    the trailing ones dropped, as v_tb_steps says;
 *  - the breakdown: each instant of a step charged to the lowest priority covering it (Kernel 0,
 *    Memcpy 1, Memset 2, Communication 3, Runtime 4, DataLoader 5, CPU Exec 6), the rest "other",
 *    as priority_breakdown does for v_tb_step_times (each role is one category there).
 * tests/reports/derived.t and steps.t check both tables against the views.
 */
#include "derive.h"
#include "radix_sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NROLES 7 /* the priorities, in tb_step_times' column order */

typedef struct {
	sqlite3_int64 run, process, corr, start, end;
	int matchable; /* process and correlation id both known */
} scall;

typedef struct {
	sqlite3_int64 run, process, corr, start, end, ext;
	int matchable, has_ext, table; /* 0 kernels, 1 memcpys, 2 memsets */
} sdev;

typedef struct {
	sqlite3_int64 step, hs, he, ds, de, n;
	int has_dev;
} hstep;

typedef struct { /* a call in a host step: its keys first (pq_derive_lower_bound), the step */
	sqlite3_int64 process, corr;
	size_t idx;
} stepped;

typedef struct {
	sqlite3_int64 run, index, step, start, end;
} step_row;

typedef struct {
	sqlite3_int64 run, index, step, ns[NROLES], other, total;
} time_row;

typedef struct {
	step_row *steps;
	size_t nsteps, steps_cap;
	time_row *times;
	size_t ntimes, times_cap;
} steps_rows;

typedef struct {
	sqlite3_int64 t;
	int prio, delta;
} boundary;

#define RANGE_RUN(x) ((x).run)
#define CALL_RUN(x) ((x).run)
#define DEV_RUN(x) ((x).run)
#define BOUNDARY_T(x) ((x).t)
PQ_RADIX_SORT(sort_ranges, pq_host_range, RANGE_RUN)
PQ_RADIX_SORT(sort_calls, scall, CALL_RUN)
PQ_RADIX_SORT(sort_devices, sdev, DEV_RUN)
PQ_RADIX_SORT(sort_boundaries, boundary, BOUNDARY_T)

/* Host steps in time order (ties: by step number, which the view leaves to SQLite). */
static int cmp_hstep(const void *pa, const void *pb)
{
	const hstep *a = pa, *b = pb;

	if (a->hs != b->hs)
		return pq_derive_cmp(a->hs, b->hs);
	if (a->he != b->he)
		return pq_derive_cmp(a->he, b->he);
	return pq_derive_cmp(a->step, b->step);
}

static int cmp_stepped(const void *pa, const void *pb)
{
	const stepped *a = pa, *b = pb;

	if (a->process != b->process)
		return pq_derive_cmp(a->process, b->process);
	if (a->corr != b->corr)
		return pq_derive_cmp(a->corr, b->corr);
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int load_calls(sqlite3 *db, const char *runs, scall **out, size_t *n, pq_error *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	if (pq_derive_prepare(db, "SELECT run_id, process_id, correlation_id, start_ns, end_ns FROM "
			      "api_calls WHERE run_id IN (%s) AND api_kind = 0", runs, &st, err) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (pq_derive_grow((void **)out, &cap, *n, sizeof(scall)) != 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		(*out)[(*n)++] = (scall){ .run = sqlite3_column_int64(st, 0),
					  .matchable = sqlite3_column_type(st, 1) != SQLITE_NULL &&
						       sqlite3_column_type(st, 2) != SQLITE_NULL,
					  .process = sqlite3_column_int64(st, 1),
					  .corr = sqlite3_column_int64(st, 2),
					  .start = sqlite3_column_int64(st, 3),
					  .end = sqlite3_column_int64(st, 4) };
	}
	return pq_derive_finish(db, st, rc, err);
}

static int load_devices(sqlite3 *db, const char *runs, sdev **out, size_t *n, pq_error *err)
{
	static const char *const tables[] = { "kernels", "memcpys", "memsets" };
	size_t cap = 0;

	for (int t = 0; t < 3; t++) {
		sqlite3_stmt *st;
		char fmt[200];
		int rc;

		snprintf(fmt, sizeof(fmt), "SELECT run_id, process_id, correlation_id, start_ns, end_ns, "
			 "%s FROM %s WHERE run_id IN (%%s)", t == 0 ? "external_id" : "NULL", tables[t]);
		if (pq_derive_prepare(db, fmt, runs, &st, err) != 0)
			return -1;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (pq_derive_grow((void **)out, &cap, *n, sizeof(sdev)) != 0) {
				rc = SQLITE_NOMEM;
				break;
			}
			(*out)[(*n)++] = (sdev){ .run = sqlite3_column_int64(st, 0),
						 .matchable = sqlite3_column_type(st, 1) != SQLITE_NULL &&
							      sqlite3_column_type(st, 2) != SQLITE_NULL,
						 .process = sqlite3_column_int64(st, 1),
						 .corr = sqlite3_column_int64(st, 2),
						 .start = sqlite3_column_int64(st, 3),
						 .end = sqlite3_column_int64(st, 4),
						 .has_ext = sqlite3_column_type(st, 5) != SQLITE_NULL,
						 .ext = sqlite3_column_int64(st, 5),
						 .table = t };
		}
		if (pq_derive_finish(db, st, rc, err) != 0)
			return -1;
	}
	return 0;
}

/* One run's events: slices of the loaded arrays. */
typedef struct {
	sqlite3_int64 run;
	const pq_host_range *h;
	size_t nh;
	const scall *a;
	size_t na;
	const sdev *d;
	size_t nd;
} run_events;

/* Scratch reused from run to run. */
typedef struct {
	hstep *hs;
	size_t nhs, hs_cap;
	sqlite3_int64 *pmax; /* running max of the host steps' ends, in time order */
	stepped *sp;
	size_t nsp, sp_cap;
	boundary *b;
	size_t nb, b_cap;
	sqlite3_int64 *comm; /* external ids of the communication ranges */
	size_t ncomm, comm_cap;
	size_t *act; /* the steps the sweep is in */
	size_t act_cap;
} scratch;

static int is_host_event(const pq_host_range *x)
{
	return x->kind == 2 || x->kind == 3 || (x->kind == 5 && x->python);
}

/* The host steps: the ProfilerStep#N cpu_op / user_annotation ranges, else one step 0 over the
 * cpu_op and python ranges; in time order. 0, or -1 when out of memory. */
static int host_steps(const run_events *e, scratch *s)
{
	sqlite3_int64 lo = 0, hi = 0;
	int any = 0;

	s->nhs = 0;
	for (size_t i = 0; i < e->nh; i++) {
		const pq_host_range *x = &e->h[i];

		if (!x->known || !x->has_step_number || (x->kind != 2 && x->kind != 3))
			continue;
		if (pq_derive_grow((void **)&s->hs, &s->hs_cap, s->nhs, sizeof(hstep)) != 0)
			return -1;
		s->hs[s->nhs++] = (hstep){ .step = x->step_number, .hs = x->start, .he = x->end };
	}
	if (s->nhs == 0) {
		for (size_t i = 0; i < e->nh; i++) {
			const pq_host_range *x = &e->h[i];

			if (x->kind != 2 && !(x->kind == 5 && x->python))
				continue;
			lo = !any || x->start < lo ? x->start : lo;
			hi = !any || x->end > hi ? x->end : hi;
			any = 1;
		}
		if (any) {
			if (pq_derive_grow((void **)&s->hs, &s->hs_cap, 0, sizeof(hstep)) != 0)
				return -1;
			s->hs[s->nhs++] = (hstep){ .step = 0, .hs = lo, .he = hi };
		}
	}
	if (s->nhs > 1)
		qsort(s->hs, s->nhs, sizeof(hstep), cmp_hstep);
	free(s->pmax);
	if ((s->pmax = malloc((s->nhs + 1) * sizeof(sqlite3_int64))) == NULL)
		return -1;
	for (size_t i = 0; i < s->nhs; i++)
		s->pmax[i] = i == 0 || s->hs[i].he > s->pmax[i - 1] ? s->hs[i].he : s->pmax[i - 1];
	return 0;
}

/* The runtime calls inside a host step (start and end within it), with the step, by process and
 * correlation id. */
static int stepped_calls(const run_events *e, scratch *s)
{
	s->nsp = 0;
	for (size_t i = 0; i < e->na; i++) {
		const scall *c = &e->a[i];
		size_t lo = 0, hi = s->nhs;

		if (!c->matchable)
			continue;
		while (lo < hi) { /* the steps starting at or before the call */
			size_t mid = lo + (hi - lo) / 2;
			if (s->hs[mid].hs <= c->start)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t j = lo; j-- > 0 && s->pmax[j] >= c->start;) {
			const hstep *h = &s->hs[j];

			if (c->start > h->he || c->end > h->he)
				continue;
			if (pq_derive_grow((void **)&s->sp, &s->sp_cap, s->nsp, sizeof(stepped)) != 0)
				return -1;
			s->sp[s->nsp++] = (stepped){ c->process, c->corr, j };
		}
	}
	if (s->nsp > 1)
		qsort(s->sp, s->nsp, sizeof(stepped), cmp_stepped);
	return 0;
}

/* The first stepped call with (process, corr), or s->nsp. */
static size_t first_stepped(const scratch *s, sqlite3_int64 process, sqlite3_int64 corr)
{
	return pq_derive_lower_bound(s->sp, s->nsp, sizeof(stepped), process, corr);
}

/* tb_plugin's steps of one run (v_tb_steps), appended to out. */
static int steps_of(const run_events *e, scratch *s, steps_rows *out)
{
	sqlite3_int64 unowned = 0, prev_end, e_prev = 0, run_max = 0;
	size_t used_last = 0, keep;
	int used = 0, has_unowned = 0;

	if (host_steps(e, s) != 0 || stepped_calls(e, s) != 0)
		return -1;
	if (s->nhs == 0)
		return 0;
	for (size_t i = 0; i < e->nd; i++) { /* each device event to the steps its calls lie in */
		const sdev *d = &e->d[i];
		size_t k = d->matchable ? first_stepped(s, d->process, d->corr) : s->nsp;

		for (; k < s->nsp && s->sp[k].process == d->process && s->sp[k].corr == d->corr; k++) {
			hstep *h = &s->hs[s->sp[k].idx];

			h->n++;
			h->ds = !h->has_dev || d->start < h->ds ? d->start : h->ds;
			h->de = !h->has_dev || d->end > h->de ? d->end : h->de;
			h->has_dev = 1;
		}
	}
	for (size_t i = 0; i < s->nhs; i++)
		if (s->hs[i].n > 0) {
			used = 1;
			used_last = i;
		}
	/* the last device event launched by no step that ends before the first step's device work */
	if (s->hs[0].has_dev)
		for (size_t i = 0; i < e->nd; i++) {
			const sdev *d = &e->d[i];
			size_t k = d->matchable ? first_stepped(s, d->process, d->corr) : s->nsp;

			if (k < s->nsp && s->sp[k].process == d->process && s->sp[k].corr == d->corr)
				continue; /* launched in a step */
			if (d->start < s->hs[0].ds && d->end < s->hs[0].ds &&
			    (!has_unowned || d->end > unowned)) {
				unowned = d->end;
				has_unowned = 1;
			}
		}
	prev_end = has_unowned && unowned > s->hs[0].hs ? unowned : s->hs[0].hs;

	if (!used || s->nhs <= 1)
		keep = s->nhs;
	else if (used_last > 0 && (double)s->hs[used_last - 1].n * 0.8 > (double)s->hs[used_last].n)
		keep = used_last;
	else
		keep = used_last + 1;
	for (size_t i = 0; i < keep; i++) {
		const hstep *h = &s->hs[i];
		sqlite3_int64 reach = h->has_dev && h->de > h->he ? h->de : h->he, end, start;

		run_max = i == 0 || reach > run_max ? reach : run_max;
		end = prev_end > run_max ? prev_end : run_max;
		start = i == 0 ? prev_end : e_prev;
		start = h->hs > start ? h->hs : start;
		e_prev = end;
		if (pq_derive_grow((void **)&out->steps, &out->steps_cap, out->nsteps, sizeof(step_row)))
			return -1;
		out->steps[out->nsteps++] = (step_row){ e->run, (sqlite3_int64)i, h->step,
							used ? start : h->hs, used ? end : h->he };
	}
	return 0;
}

static int in_ids(const sqlite3_int64 *ids, size_t n, sqlite3_int64 id)
{
	return pq_derive_find(ids, n, id) < n;
}

static int add_event(scratch *s, sqlite3_int64 start, sqlite3_int64 end, int prio)
{
	if (end <= start)
		return 0; /* priority_breakdown charges nothing for it */
	if (pq_derive_grow((void **)&s->b, &s->b_cap, s->nb + 1, sizeof(boundary)) != 0)
		return -1;
	s->b[s->nb++] = (boundary){ start, prio, 1 };
	s->b[s->nb++] = (boundary){ end, prio, -1 };
	return 0;
}

/* tb_plugin's step time breakdown of one run's steps (v_tb_step_times): the steps are the last
 * nsteps rows of out->steps. */
static int times_of(const run_events *e, scratch *s, steps_rows *out, size_t first, size_t nsteps)
{
	sqlite3_int64 count[NROLES] = { 0 }, prev = 0;
	size_t w0 = out->ntimes;

	if (nsteps == 0)
		return 0;
	s->ncomm = 0;
	s->nb = 0;
	for (size_t i = 0; i < e->nh; i++) { /* the communication ops' external ids */
		const pq_host_range *x = &e->h[i];

		if (x->role != PQ_TB_ROLE_COMM || !x->has_ext || !is_host_event(x))
			continue;
		if (pq_derive_grow((void **)&s->comm, &s->comm_cap, s->ncomm, sizeof(sqlite3_int64)))
			return -1;
		s->comm[s->ncomm++] = x->ext;
	}
	s->ncomm = pq_derive_distinct(s->comm, s->ncomm);
	for (size_t i = 0; i < e->nd; i++) {
		const sdev *d = &e->d[i];
		int prio = d->table == 0 ? (d->has_ext && in_ids(s->comm, s->ncomm, d->ext) ? 3 : 0)
					 : d->table; /* memcpys 1, memsets 2 */

		if (add_event(s, d->start, d->end, prio) != 0)
			return -1;
	}
	for (size_t i = 0; i < e->na; i++)
		if (add_event(s, e->a[i].start, e->a[i].end, 4) != 0)
			return -1;
	for (size_t i = 0; i < e->nh; i++) {
		const pq_host_range *x = &e->h[i];
		int prio;

		if (!is_host_event(x) || (x->kind != 5 && x->role == PQ_TB_ROLE_STEP))
			continue;
		prio = x->kind != 5 && x->role == PQ_TB_ROLE_DL ? 5 : x->role == PQ_TB_ROLE_COMM ? 3 : 6;
		if (add_event(s, x->start, x->end, prio) != 0)
			return -1;
	}
	if (sort_boundaries(s->b, s->nb) != 0)
		return -1;

	for (size_t j = 0; j < nsteps; j++) {
		const step_row *st = &out->steps[first + j];

		if (pq_derive_grow((void **)&out->times, &out->times_cap, out->ntimes, sizeof(time_row)))
			return -1;
		out->times[out->ntimes++] = (time_row){ .run = e->run, .index = st->index,
							.step = st->step,
							.total = st->end > st->start ? st->end - st->start : 0 };
	}
	/* The sweep: each piece between two boundaries to the lowest priority open over it, in each
	 * step it overlaps. The steps start in order (a step starts at or after the one before: at
	 * its host start, or where the one before ended), so the steps a piece may overlap are those
	 * started before its end and not ended before its start: `act`, kept as the sweep goes. */
	if (pq_derive_grow((void **)&s->act, &s->act_cap, nsteps, sizeof(size_t)) != 0)
		return -1;
	for (size_t i = 0, next = 0, nact = 0; i < s->nb;) {
		sqlite3_int64 t = s->b[i].t;
		int win = -1;

		for (int p = 0; p < NROLES && win < 0; p++)
			if (count[p] > 0)
				win = p;
		for (; win >= 0 && next < nsteps && out->steps[first + next].start < t; next++)
			if (out->steps[first + next].end > out->steps[first + next].start)
				s->act[nact++] = next;
		for (size_t k = 0; win >= 0 && k < nact;) {
			const step_row *st = &out->steps[first + s->act[k]];
			sqlite3_int64 a = prev > st->start ? prev : st->start;
			sqlite3_int64 b = t < st->end ? t : st->end;

			if (st->end <= prev) { /* ended: no later piece reaches it */
				s->act[k] = s->act[--nact];
				continue;
			}
			if (b > a)
				out->times[w0 + s->act[k]].ns[win] += b - a;
			k++;
		}
		for (; i < s->nb && s->b[i].t == t; i++)
			count[s->b[i].prio] += s->b[i].delta;
		prev = t;
	}
	for (size_t j = 0; j < nsteps; j++) {
		time_row *r = &out->times[w0 + j];
		sqlite3_int64 covered = 0;

		for (int p = 0; p < NROLES; p++)
			covered += r->ns[p];
		r->other = r->total - covered;
	}
	return 0;
}

static void steps_free(void *rows)
{
	steps_rows *r = rows;

	if (r == NULL)
		return;
	free(r->steps);
	free(r->times);
	free(r);
}

static int compute(sqlite3 *db, const char *runs, pq_host_handoff *hosts, void **out,
		   pq_error *err)
{
	steps_rows *r = calloc(1, sizeof(*r));
	pq_host_range *h = NULL;
	scall *a = NULL;
	sdev *d = NULL;
	size_t nh = 0, na = 0, nd = 0, ih = 0, ia = 0, id = 0;
	scratch s = { 0 };
	int rc = -1;

	*out = NULL;
	if (r == NULL)
		return pq_fail(err, "out of memory");
	if (pq_host_ranges_load(db, runs, &h, &nh, err) != 0 ||
	    load_calls(db, runs, &a, &na, err) != 0 || load_devices(db, runs, &d, &nd, err) != 0)
		goto done;
	if (sort_ranges(h, nh) != 0 || sort_calls(a, na) != 0 || sort_devices(d, nd) != 0) {
		pq_fail(err, "out of memory");
		goto done;
	}
	/* run by run: the host ranges say which runs have steps */
	while (ih < nh) {
		run_events e = { .run = h[ih].run, .h = &h[ih] };
		size_t first = r->nsteps;

		while (ih < nh && h[ih].run == e.run)
			ih++, e.nh++;
		while (ia < na && a[ia].run < e.run)
			ia++;
		e.a = &a[ia];
		while (ia < na && a[ia].run == e.run)
			ia++, e.na++;
		while (id < nd && d[id].run < e.run)
			id++;
		e.d = &d[id];
		while (id < nd && d[id].run == e.run)
			id++, e.nd++;
		if (steps_of(&e, &s, r) != 0 || times_of(&e, &s, r, first, r->nsteps - first) != 0) {
			pq_fail(err, "out of memory");
			goto done;
		}
	}
	rc = 0;
done:
	if (rc == 0)
		pq_host_ranges_leave(db, runs, hosts, h, nh);
	else
		free(h);
	free(a);
	free(d);
	free(s.hs);
	free(s.pmax);
	free(s.sp);
	free(s.b);
	free(s.comm);
	free(s.act);
	if (rc == 0)
		*out = r;
	else
		steps_free(r);
	return rc;
}

static void bind_step(sqlite3_stmt *st, const void *rows, size_t i)
{
	const step_row *x = &((const steps_rows *)rows)->steps[i];

	sqlite3_bind_int64(st, 1, x->run);
	sqlite3_bind_int64(st, 2, x->index);
	sqlite3_bind_int64(st, 3, x->step);
	sqlite3_bind_int64(st, 4, x->start);
	sqlite3_bind_int64(st, 5, x->end);
}

static void bind_time(sqlite3_stmt *st, const void *rows, size_t i)
{
	const time_row *x = &((const steps_rows *)rows)->times[i];

	sqlite3_bind_int64(st, 1, x->run);
	sqlite3_bind_int64(st, 2, x->index);
	sqlite3_bind_int64(st, 3, x->step);
	for (int p = 0; p < NROLES; p++)
		sqlite3_bind_int64(st, 4 + p, x->ns[p]);
	sqlite3_bind_int64(st, 11, x->other);
	sqlite3_bind_int64(st, 12, x->total);
}

/* The rows of table for the runs the query runs selects. */
static int insert(sqlite3 *db, const char *table, const char *runs, void *rows, pq_error *err)
{
	const steps_rows *r = rows;

	if (strcmp(table, "tb_steps") == 0)
		return pq_derive_insert(db, "INSERT INTO tb_steps (run_id, step_index, step, start_ns, "
					"end_ns) SELECT ?1, ?2, ?3, ?4, ?5 WHERE ?1 IN (%s)", runs,
					r->nsteps, bind_step, r, err);
	return pq_derive_insert(db, "INSERT INTO tb_step_times (run_id, step_index, step, kernel_ns, "
				"memcpy_ns, memset_ns, communication_ns, runtime_ns, dataloader_ns, "
				"cpu_exec_ns, other_ns, total_ns) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
				"?9, ?10, ?11, ?12 WHERE ?1 IN (%s)", runs, r->ntimes, bind_time, r, err);
}

const pq_deriver pq_steps_deriver = { compute, insert, steps_free };
