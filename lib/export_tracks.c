/* export_tracks.c - Chrome pids and tids for a run's processes, threads and GPUs, their M events,
 * and lanes.
 *
 * pids: with one run, a process keeps its OS pid and a GPU gets its device ordinal as pid (as
 * Kineto writes them, and as `profq import` reads them back); a process whose pid Chrome cannot
 * take (negative, or 2^30 and up) or that equals a device ordinal gets a synthetic pid from 2^30
 * up, and its name says the real one. With several runs every pid is synthetic and every process
 * name starts with "run N" (and the rank), so the runs stay apart. tids likewise: the OS tid, or
 * a synthetic one from 2^30 up; GPU tracks are "stream N" with tid N.
 *
 * M events (process_name, process_labels "CPU" / "GPU n", process_sort_index, thread_name,
 * thread_sort_index) are written when a process, GPU or thread is first used, so a trace names
 * only what it shows.
 */
#include "export_chrome.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int oom(xp_ctx *x)
{
	return pq_fail(x->err, "out of memory");
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * size);
	if (q == NULL)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static int64_t synthetic_pid(xp_ctx *x)
{
	return x->next_pid++;
}

/* Loading ---------------------------------------------------------------------------------- */

int xp_tracks_load(xp_ctx *x)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 0;
	int rc;

	xp_tracks_free(x);
	/* Devices (ordinals) first: a process must not take a GPU's pid. */
	if (xp_prepare(x, "SELECT id, ordinal, name FROM devices WHERE run_id = ?1 ORDER BY id", &st))
		return -1;
	sqlite3_bind_int64(st, 1, x->run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		size_t c1 = x->ndevs, c2 = x->ndevs;
		xp_gpu *g;

		if (grow((void **)&x->dev_ids, &c1, x->ndevs + 1, sizeof(int64_t)) ||
		    grow((void **)&x->dev_ordinals, &c2, x->ndevs + 1, sizeof(int64_t)))
			goto nomem;
		/* grow() doubles from the count given: keep both arrays the same size. */
		x->dev_ids[x->ndevs] = sqlite3_column_int64(st, 0);
		x->dev_ordinals[x->ndevs] = sqlite3_column_int64(st, 1);
		x->ndevs++;
		if ((g = xp_gpu_of(x, sqlite3_column_int64(st, 1))) == NULL)
			goto nomem;
		if (g->name == NULL && xp_text(st, 2) != NULL && (g->name = strdup(xp_text(st, 2))) == NULL)
			goto nomem;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return xp_sql_error(x);

	if (xp_prepare(x, "SELECT p.id, p.pid, s.value, p.sort_index FROM processes p "
			  "LEFT JOIN strings s ON s.id = p.name_id WHERE p.run_id = ?1 ORDER BY p.id",
		       &st))
		return -1;
	sqlite3_bind_int64(st, 1, x->run_id);
	cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		xp_proc *p;
		int clash = 0;

		if (grow((void **)&x->procs, &cap, x->nprocs + 1, sizeof(*x->procs)))
			goto nomem;
		p = &x->procs[x->nprocs];
		memset(p, 0, sizeof(*p));
		p->id = sqlite3_column_int64(st, 0);
		p->pid = sqlite3_column_int64(st, 1);
		p->sort_index = xp_int(st, 3);
		p->next_tid = XP_SYNTHETIC;
		p->own_tid = -1;
		if (xp_text(st, 2) != NULL && (p->name = strdup(xp_text(st, 2))) == NULL)
			goto nomem;
		x->nprocs++;
		for (size_t i = 0; i < x->ngpus; i++)
			clash |= x->gpus[i].ordinal == p->pid;
		p->cpid = !x->multi && !clash && p->pid >= 0 && p->pid < XP_SYNTHETIC
				  ? p->pid : synthetic_pid(x);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return xp_sql_error(x);

	if (xp_prepare(x, "SELECT t.id, t.process_id, t.tid, s.value, t.sort_index FROM threads t "
			  "LEFT JOIN strings s ON s.id = t.name_id WHERE t.run_id = ?1 ORDER BY t.id",
		       &st))
		return -1;
	sqlite3_bind_int64(st, 1, x->run_id);
	cap = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		xp_thread *t;
		xp_proc *p;

		if (grow((void **)&x->threads, &cap, x->nthreads + 1, sizeof(*x->threads)))
			goto nomem;
		t = &x->threads[x->nthreads];
		memset(t, 0, sizeof(*t));
		t->id = sqlite3_column_int64(st, 0);
		t->process_id = sqlite3_column_int64(st, 1);
		t->tid = sqlite3_column_int64(st, 2);
		t->sort_index = xp_int(st, 4);
		if (xp_text(st, 3) != NULL && (t->name = strdup(xp_text(st, 3))) == NULL)
			goto nomem;
		x->nthreads++;
		p = xp_proc_of(x, t->process_id);
		t->ctid = t->tid >= 0 && t->tid < XP_SYNTHETIC ? t->tid : p->next_tid++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return xp_sql_error(x);

	memset(&x->none, 0, sizeof(x->none));
	x->none.id = PQ_NULL;
	x->none.pid = -1;
	x->none.cpid = -1;   /* assigned when used */
	x->none.next_tid = XP_SYNTHETIC;
	x->none.own_tid = -1;
	return 0;
nomem:
	sqlite3_finalize(st);
	return oom(x);
}

void xp_tracks_free(xp_ctx *x)
{
	for (size_t i = 0; i < x->nprocs; i++)
		free(x->procs[i].name);
	for (size_t i = 0; i < x->nthreads; i++)
		free(x->threads[i].name);
	for (size_t i = 0; i < x->ngpus; i++)
		free(x->gpus[i].name);
	free(x->procs);
	free(x->threads);
	free(x->gpus);
	free(x->dev_ids);
	free(x->dev_ordinals);
	x->procs = NULL;
	x->threads = NULL;
	x->gpus = NULL;
	x->dev_ids = x->dev_ordinals = NULL;
	x->nprocs = x->nthreads = x->ngpus = x->ndevs = 0;
}

/* Lookups ---------------------------------------------------------------------------------- */

xp_proc *xp_proc_of(xp_ctx *x, int64_t process_id)
{
	size_t lo = 0, hi = x->nprocs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (x->procs[mid].id < process_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (process_id != PQ_NULL && lo < x->nprocs && x->procs[lo].id == process_id)
		return &x->procs[lo];
	return &x->none;
}

xp_thread *xp_thread_of(xp_ctx *x, int64_t thread_id)
{
	size_t lo = 0, hi = x->nthreads;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (x->threads[mid].id < thread_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (thread_id != PQ_NULL && lo < x->nthreads && x->threads[lo].id == thread_id)
		return &x->threads[lo];
	return NULL;
}

xp_gpu *xp_gpu_of(xp_ctx *x, int64_t ordinal)
{
	size_t cap = x->ngpus;
	xp_gpu *g;

	if (ordinal == PQ_NULL)
		ordinal = -1;
	for (size_t i = 0; i < x->ngpus; i++)
		if (x->gpus[i].ordinal == ordinal)
			return &x->gpus[i];
	if (grow((void **)&x->gpus, &cap, x->ngpus + 1, sizeof(*x->gpus)))
		return NULL;
	g = &x->gpus[x->ngpus++];
	memset(g, 0, sizeof(*g));
	g->ordinal = ordinal;
	g->next_tid = XP_SYNTHETIC;
	g->cpid = !x->multi && ordinal >= 0 && ordinal < XP_SYNTHETIC ? ordinal : synthetic_pid(x);
	return g;
}

int64_t xp_ordinal_of(const xp_ctx *x, int64_t device_id)
{
	for (size_t i = 0; i < x->ndevs; i++)
		if (x->dev_ids[i] == device_id)
			return x->dev_ordinals[i];
	return PQ_NULL;
}

/* M events --------------------------------------------------------------------------------- */

static void meta(xp_ctx *x, int64_t pid, int64_t tid, const char *what, const char *key,
		 const char *text, int64_t num)
{
	xp_event_begin(x, "M", pid, tid, what, NULL);
	xp_args_begin(x);
	if (text != NULL)
		xp_arg_str(x, key, text);
	else
		xp_arg_int(x, key, num);
	xp_args_end(x);
	xp_event_end(x);
}

/* "run 2, rank 1: " before names when the file has several runs. */
static void run_prefix(const xp_ctx *x, char *buf, size_t n)
{
	if (!x->multi)
		buf[0] = '\0';
	else if (x->rank != PQ_NULL)
		snprintf(buf, n, "run %" PRId64 ", rank %" PRId64 ": ", x->run_id, x->rank);
	else
		snprintf(buf, n, "run %" PRId64 ": ", x->run_id);
}

int64_t xp_proc_pid(xp_ctx *x, xp_proc *p)
{
	char name[1024], prefix[96];

	if (p->named)
		return p->cpid;
	p->named = 1;
	if (p->cpid < 0)
		p->cpid = synthetic_pid(x);
	run_prefix(x, prefix, sizeof(prefix));
	if (p == &x->none)
		snprintf(name, sizeof(name), "%sunknown process", prefix);
	else if (p->cpid != p->pid)
		snprintf(name, sizeof(name), "%s%s (pid %" PRId64 ")", prefix,
			 p->name ? p->name : "process", p->pid);
	else
		snprintf(name, sizeof(name), "%s%s", prefix, p->name ? p->name : "");
	if (name[0] != '\0')
		meta(x, p->cpid, 0, "process_name", "name", name, 0);
	meta(x, p->cpid, 0, "process_labels", "labels", "CPU", 0);
	if (x->multi)
		meta(x, p->cpid, 0, "process_sort_index", "sort_index", NULL,
		     x->run_index * 1000 + (p == &x->none ? 899 : (int64_t)(p - x->procs) % 899));
	else if (p->sort_index != PQ_NULL)
		meta(x, p->cpid, 0, "process_sort_index", "sort_index", NULL, p->sort_index);
	return p->cpid;
}

int64_t xp_gpu_pid(xp_ctx *x, xp_gpu *g)
{
	char name[1024], prefix[96], label[64];

	if (g->named)
		return g->cpid;
	g->named = 1;
	run_prefix(x, prefix, sizeof(prefix));
	if (g->ordinal < 0) {
		snprintf(name, sizeof(name), "%sGPU (unknown device)", prefix);
		snprintf(label, sizeof(label), "GPU ?");
	} else {
		if (g->name != NULL)
			snprintf(name, sizeof(name), "%sGPU %" PRId64 " (%s)", prefix, g->ordinal,
				 g->name);
		else
			snprintf(name, sizeof(name), "%sGPU %" PRId64, prefix, g->ordinal);
		snprintf(label, sizeof(label), "GPU %" PRId64, g->ordinal);
	}
	meta(x, g->cpid, 0, "process_name", "name", name, 0);
	meta(x, g->cpid, 0, "process_labels", "labels", label, 0);
	if (x->multi)
		meta(x, g->cpid, 0, "process_sort_index", "sort_index", NULL,
		     x->run_index * 1000 + 900 + (g->ordinal < 0 ? 99 : g->ordinal % 99));
	return g->cpid;
}

int64_t xp_thread_tid(xp_ctx *x, xp_proc *p, xp_thread *t)
{
	char name[1024];
	int64_t pid = xp_proc_pid(x, p);

	if (t == NULL) {
		if (p->own_tid < 0)
			p->own_tid = xp_proc_track(x, p, "(no thread)");
		return p->own_tid;
	}
	if (t->named)
		return t->ctid;
	t->named = 1;
	if (t->ctid != t->tid)
		snprintf(name, sizeof(name), "%s (tid %" PRId64 ")", t->name ? t->name : "thread",
			 t->tid);
	else
		snprintf(name, sizeof(name), "%s", t->name ? t->name : "");
	if (name[0] != '\0')
		meta(x, pid, t->ctid, "thread_name", "name", name, 0);
	if (t->sort_index != PQ_NULL)
		meta(x, pid, t->ctid, "thread_sort_index", "sort_index", NULL, t->sort_index);
	return t->ctid;
}

int64_t xp_proc_track(xp_ctx *x, xp_proc *p, const char *name)
{
	int64_t pid = xp_proc_pid(x, p), tid = p->next_tid++;

	meta(x, pid, tid, "thread_name", "name", name, 0);
	x->stats->lanes++;
	return tid;
}

int64_t xp_gpu_track(xp_ctx *x, xp_gpu *g, const char *name, int64_t sort_index)
{
	int64_t pid = xp_gpu_pid(x, g), tid = g->next_tid++;

	meta(x, pid, tid, "thread_name", "name", name, 0);
	meta(x, pid, tid, "thread_sort_index", "sort_index", NULL, sort_index);
	return tid;
}

/* Lanes ------------------------------------------------------------------------------------ */

void xp_lanes_reset(xp_lanes *l)
{
	for (size_t i = 0; i < l->n; i++) {
		l->v[i].n = 0;
		l->v[i].tid = -1;
	}
	l->n = 0;
}

void xp_lanes_free(xp_lanes *l)
{
	for (size_t i = 0; i < l->cap; i++)
		free(l->v[i].ends);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* First lane where [start, end) nests inside what is open (nest) or where nothing is open. */
int xp_lanes_place(xp_lanes *l, int64_t start, int64_t end, size_t *lane)
{
	size_t i;
	xp_lane *ln;

	for (i = 0; i < l->n; i++) {
		ln = &l->v[i];
		while (ln->n > 0 && ln->ends[ln->n - 1] <= start)
			ln->n--;
		if (ln->n == 0 || (l->nest && end <= ln->ends[ln->n - 1]))
			break;
	}
	if (i == l->n) {
		if (l->n == l->cap) {
			size_t cap = l->cap ? l->cap * 2 : 4;
			xp_lane *v = realloc(l->v, cap * sizeof(*v));

			if (v == NULL)
				return -1;
			memset(v + l->cap, 0, (cap - l->cap) * sizeof(*v));
			l->v = v;
			l->cap = cap;
		}
		l->v[l->n].n = 0;
		l->v[l->n].tid = -1;
		l->n++;
	}
	ln = &l->v[i];
	if (ln->n == ln->cap) {
		size_t cap = ln->cap ? ln->cap * 2 : 8;
		int64_t *e = realloc(ln->ends, cap * sizeof(*e));

		if (e == NULL)
			return -1;
		ln->ends = e;
		ln->cap = cap;
	}
	ln->ends[ln->n++] = end;
	*lane = i;
	return 0;
}
