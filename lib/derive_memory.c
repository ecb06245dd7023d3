/* derive_memory.c - v_tb_memory_sums evaluated in C (tb_plugin's memory statistics per operator),
 * for the runs tb_op_sums is derived for: the operator sums' job reads the host ranges once
 * (derive_ops.c) and hands them here with the run's memory events.
 *
 * The view (schema/views.sql) stays the definition and computes every other run; on the ResNet50
 * sample SQLite takes ~90 ms for it, most of it pairing each event with every node that contains
 * it and ranking those by depth. Here the events and nodes of each thread are swept once in time
 * order: the nodes that started and have not ended contain the event, the one that starts last
 * (then ends first, then has the largest id) is its innermost, as the view's row_number() ranks
 * them. Partial overlaps need no nesting: every open node counts. tests/reports/derived.t checks
 * tb_memory_sums against the view. */
#include "derive_memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "radix_sort.h"

/* A memory event: delta is the view's (bytes, negated for a free; has_delta 0: NULL). dev: 0 CPU
 * (no device), 1 a GPU (ordinal), 2 a device without a devices row (the view's NULL device). */
typedef struct {
	sqlite3_int64 run, thread, ts, id, delta, ordinal;
	int has_delta, dev;
} mevent;

/* A node of the tree on a thread: a tnodes row of the view. */
typedef struct {
	sqlite3_int64 run, thread, start, end, id, name;
	int counted; /* kind 2 and listed: its memory is reported under its name */
} mnode;

/* The view's tnodes (with or without a thread): cpu_ops, python ranges, the annotations that are
 * tree nodes. A name without a strings row is no annotation, and a listed operator (unlisted
 * reads the names that are there). */
static int is_node(const pq_host_range *x)
{
	return x->kind == 2 || (x->kind == 5 && x->python) || (x->kind == 3 && x->known && x->annot);
}

static int counted(const pq_host_range *x)
{
	return x->kind == 2 && (!x->known || x->listed);
}

static int cmp_sum(const void *pa, const void *pb)
{
	const pq_memory_sum *a = pa, *b = pb;

	if (a->run != b->run)
		return pq_derive_cmp(a->run, b->run);
	if (a->dev != b->dev)
		return a->dev - b->dev;
	if (a->ordinal != b->ordinal)
		return pq_derive_cmp(a->ordinal, b->ordinal);
	return pq_derive_cmp(a->name, b->name);
}

static int cmp_call(const void *pa, const void *pb)
{
	const pq_memory_call *a = pa, *b = pb;

	return a->run != b->run ? pq_derive_cmp(a->run, b->run) : pq_derive_cmp(a->name, b->name);
}

/* Events and nodes in (run, thread, time) order: stable radix sorts by time, then thread, then
 * run (qsort's comparisons were most of this job's time). Ties need no order: sums do not care. */
#define KEY_TS(x) ((x).ts)
#define KEY_START(x) ((x).start)
#define KEY_THREAD(x) ((x).thread)
#define KEY_RUN(x) ((x).run)
#define KEY_NAME(x) ((x).name)
PQ_RADIX_SORT(events_by_ts, mevent, KEY_TS)
PQ_RADIX_SORT(events_by_thread, mevent, KEY_THREAD)
PQ_RADIX_SORT(events_by_run, mevent, KEY_RUN)
PQ_RADIX_SORT(nodes_by_start, mnode, KEY_START)
PQ_RADIX_SORT(nodes_by_thread, mnode, KEY_THREAD)
PQ_RADIX_SORT(nodes_by_run, mnode, KEY_RUN)
PQ_RADIX_SORT(calls_by_name, pq_memory_call, KEY_NAME)
PQ_RADIX_SORT(calls_by_run, pq_memory_call, KEY_RUN)

/* Whether node a is inner to node b among the nodes containing one event: the view's depth
 * order, start descending, then end ascending, then id descending. */
static int inner(const mnode *a, const mnode *b)
{
	if (a->start != b->start)
		return a->start > b->start;
	if (a->end != b->end)
		return a->end < b->end;
	return a->id > b->id;
}

/* The groups: (run, device, name) -> sums, an open-addressing table. */
static size_t slot(const pq_memory_sum *g, size_t cap, const pq_memory_sum *key)
{
	uint64_t h = (uint64_t)key->run * 0x9E3779B97F4A7C15u ^ (uint64_t)key->name * 0xC2B2AE3D27D4EB4Fu ^
		     (uint64_t)(key->ordinal * 4 + key->dev) * 0x165667B19E3779F9u;
	size_t i = (size_t)(h ^ (h >> 29)) & (cap - 1);

	while (g[i].used && !(g[i].run == key->run && g[i].name == key->name &&
			      g[i].dev == key->dev && g[i].ordinal == key->ordinal))
		i = (i + 1) & (cap - 1);
	return i;
}

static pq_memory_sum *group(pq_memory_rows *r, const mevent *e, const mnode *n)
{
	pq_memory_sum key = { .run = n->run, .name = n->name, .dev = e->dev,
			      .ordinal = e->dev == 1 ? e->ordinal : 0 };
	size_t i;

	if (2 * (r->n + 1) > r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		pq_memory_sum *g = calloc(cap, sizeof(*g));

		if (g == NULL)
			return NULL;
		for (size_t k = 0; k < r->cap; k++)
			if (r->g[k].used)
				g[slot(g, cap, &r->g[k])] = r->g[k];
		free(r->g);
		r->g = g;
		r->cap = cap;
	}
	i = slot(r->g, r->cap, &key);
	if (!r->g[i].used) {
		r->g[i] = key;
		r->g[i].used = 1;
		r->n++;
	}
	return &r->g[i];
}

static void add(pq_memory_sum *g, const mevent *e, int self)
{
	if (!e->has_delta)
		return;
	g->has_size = 1;
	g->size += e->delta;
	if (self)
		g->self_size += e->delta;
	if (e->delta > 0) {
		g->alloc_count++;
		g->alloc_size += e->delta;
		if (self) {
			g->self_alloc_count++;
			g->self_alloc_size += e->delta;
		}
	}
}

/* The run's memory events on a thread (the view pairs no event without one); 1 when a value is
 * not an integer: the view computes then. */
static int load_events(sqlite3 *db, const char *runs, mevent **out, size_t *n, pq_error *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc, odd = 0;

	if (pq_derive_prepare(db, "SELECT m.run_id, m.thread_id, m.ts_ns, m.id, "
			      "CASE WHEN m.operation = (SELECT id FROM memory_operations WHERE name = "
			      "'free') THEN -m.bytes ELSE m.bytes END, m.device_id IS NULL, d.ordinal "
			      "FROM memory_events m LEFT JOIN devices d ON d.id = m.device_id "
			      "WHERE m.run_id IN (%s) AND m.thread_id IS NOT NULL", runs, &st, err) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int dt = sqlite3_column_type(st, 4), ot = sqlite3_column_type(st, 6);
		mevent *e;

		if (sqlite3_column_type(st, 2) != SQLITE_INTEGER || (dt != SQLITE_INTEGER && dt != SQLITE_NULL) ||
		    (ot != SQLITE_INTEGER && ot != SQLITE_NULL))
			odd = 1;
		if (pq_derive_grow((void **)out, &cap, *n, sizeof(mevent)) != 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		e = &(*out)[(*n)++];
		*e = (mevent){ .run = sqlite3_column_int64(st, 0), .thread = sqlite3_column_int64(st, 1),
			       .ts = sqlite3_column_int64(st, 2), .id = sqlite3_column_int64(st, 3),
			       .delta = sqlite3_column_int64(st, 4), .has_delta = dt == SQLITE_INTEGER,
			       .ordinal = sqlite3_column_int64(st, 6),
			       .dev = sqlite3_column_int(st, 5) ? 0 : ot == SQLITE_INTEGER ? 1 : 2 };
	}
	if (pq_derive_finish(db, st, rc, err) != 0)
		return -1;
	return odd;
}

/* Calls per (run, name): the kind-2 nodes, with or without a thread. */
static int count_calls(pq_memory_rows *r, const pq_host_range *h, size_t nh)
{
	pq_memory_call *c = NULL;
	size_t n = 0, k = 0;

	for (size_t i = 0; i < nh; i++)
		n += is_node(&h[i]) && h[i].kind == 2;
	if (n == 0)
		return 0;
	if ((c = malloc(n * sizeof(*c))) == NULL)
		return -1;
	for (size_t i = 0; i < nh; i++)
		if (is_node(&h[i]) && h[i].kind == 2)
			c[k++] = (pq_memory_call){ .run = h[i].run, .name = h[i].name, .calls = 1 };
	if (calls_by_name(c, n) != 0 || calls_by_run(c, n) != 0) {
		free(c);
		return -1;
	}
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k > 0 && c[k - 1].run == c[i].run && c[k - 1].name == c[i].name)
			c[k - 1].calls++;
		else
			c[k++] = c[i];
	}
	r->calls = c;
	r->ncalls = k;
	return 0;
}

/* The sweep of one thread's events e[0..ne) (by ts) and nodes d[0..nd) (by start). */
static int sweep(pq_memory_rows *r, const mevent *e, size_t ne, const mnode *d, size_t nd,
		 const mnode **open, size_t *nopen)
{
	size_t next = 0;

	*nopen = 0;
	for (size_t i = 0; i < ne; i++) {
		const mnode *in = NULL;
		size_t k = 0;

		while (next < nd && d[next].start <= e[i].ts)
			open[(*nopen)++] = &d[next++];
		for (size_t j = 0; j < *nopen; j++) /* those ended are closed for good: ts only grows */
			if (open[j]->end > e[i].ts)
				open[k++] = open[j];
		*nopen = k;
		for (size_t j = 0; j < k; j++)
			if (in == NULL || inner(open[j], in))
				in = open[j];
		for (size_t j = 0; j < k; j++) {
			pq_memory_sum *g;

			if (!open[j]->counted)
				continue;
			if ((g = group(r, &e[i], open[j])) == NULL)
				return -1;
			add(g, &e[i], open[j] == in);
		}
	}
	return 0;
}

int pq_memory_sums(sqlite3 *db, const char *runs, const pq_host_range *h, size_t nh,
		   pq_memory_rows *r, pq_error *err)
{
	mevent *e = NULL;
	mnode *d = NULL;
	const mnode **open = NULL;
	size_t ne = 0, nd = 0, i = 0, j = 0, nopen;
	int rc = -1, got;

	memset(r, 0, sizeof(*r));
	if ((got = load_events(db, runs, &e, &ne, err)) != 0) {
		free(e);
		if (got < 0)
			return -1;
		r->use_view = 1;
		return 0;
	}
	if (ne == 0) { /* no event, no row: nor calls to count */
		free(e);
		return 0;
	}
	if (count_calls(r, h, nh) != 0)
		goto oom;
	if ((d = malloc((nh ? nh : 1) * sizeof(*d))) == NULL ||
	    (open = malloc((nh ? nh : 1) * sizeof(*open))) == NULL)
		goto oom;
	for (size_t k = 0; k < nh; k++)
		if (is_node(&h[k]) && h[k].has_thread && h[k].end > h[k].start)
			d[nd++] = (mnode){ .run = h[k].run, .thread = h[k].thread, .start = h[k].start,
					   .end = h[k].end, .id = h[k].id, .name = h[k].name,
					   .counted = counted(&h[k]) };
	if (events_by_ts(e, ne) != 0 || events_by_thread(e, ne) != 0 || events_by_run(e, ne) != 0 ||
	    nodes_by_start(d, nd) != 0 || nodes_by_thread(d, nd) != 0 || nodes_by_run(d, nd) != 0)
		goto oom;
	while (i < ne) { /* thread by thread (threads are per run) */
		size_t i1 = i, j1;

		while (i1 < ne && e[i1].run == e[i].run && e[i1].thread == e[i].thread)
			i1++;
		while (j < nd && (d[j].run < e[i].run || (d[j].run == e[i].run && d[j].thread < e[i].thread)))
			j++;
		for (j1 = j; j1 < nd && d[j1].run == e[i].run && d[j1].thread == e[i].thread; j1++)
			;
		if (sweep(r, &e[i], i1 - i, &d[j], j1 - j, open, &nopen) != 0)
			goto oom;
		i = i1;
		j = j1;
	}
	/* the groups to the front, in key order (rows written in the same order for every run, as
	 * two imports of one file must be): the table has done its job */
	for (size_t k = 0, m = 0; k < r->cap; k++)
		if (r->g[k].used)
			r->g[m++] = r->g[k];
	qsort(r->g, r->n, sizeof(*r->g), cmp_sum);
	rc = 0;
oom:
	if (rc != 0)
		pq_fail(err, "out of memory");
	free(e);
	free(d);
	free(open);
	return rc;
}

static void bind_sum(sqlite3_stmt *st, const void *rows, size_t i)
{
	const pq_memory_rows *r = rows;
	const pq_memory_sum *g = &r->g[i];
	pq_memory_call key = { .run = g->run, .name = g->name }, *c;

	c = bsearch(&key, r->calls, r->ncalls, sizeof(*r->calls), cmp_call);
	sqlite3_bind_int64(st, 1, g->run);
	if (g->dev == 0)
		sqlite3_bind_text(st, 2, "CPU", 3, SQLITE_STATIC);
	else if (g->dev == 1) {
		char name[32];

		snprintf(name, sizeof(name), "GPU%lld", (long long)g->ordinal);
		sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
	} else
		sqlite3_bind_null(st, 2);
	if (g->dev == 1)
		sqlite3_bind_int64(st, 3, g->ordinal);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_int64(st, 4, g->name);
	sqlite3_bind_int64(st, 5, c != NULL ? c->calls : 0);
	if (g->has_size)
		sqlite3_bind_int64(st, 6, g->size);
	else
		sqlite3_bind_null(st, 6);
	sqlite3_bind_int64(st, 7, g->self_size);
	sqlite3_bind_int64(st, 8, g->alloc_count);
	sqlite3_bind_int64(st, 9, g->self_alloc_count);
	sqlite3_bind_int64(st, 10, g->alloc_size);
	sqlite3_bind_int64(st, 11, g->self_alloc_size);
}

int pq_memory_sums_insert(sqlite3 *db, const char *runs, const pq_memory_rows *r, pq_error *err)
{
	if (r->use_view) {
		char *sql = sqlite3_mprintf("INSERT INTO tb_memory_sums SELECT * FROM v_tb_memory_sums "
					    "WHERE run_id IN (%s)", runs);
		int rc = sql != NULL ? pq_db_exec(db, sql, "cannot write the derived tables", err)
				     : pq_fail(err, "out of memory");

		sqlite3_free(sql);
		return rc;
	}
	return pq_derive_insert(db, "INSERT INTO tb_memory_sums (run_id, device, ordinal, name_id, "
				"calls, size_increase_bytes, self_size_increase_bytes, allocation_count, "
				"self_allocation_count, allocation_size_bytes, self_allocation_size_bytes) "
				"SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11 WHERE ?1 IN (%s)",
				runs, r->n, bind_sum, r, err);
}

void pq_memory_rows_free(pq_memory_rows *r)
{
	free(r->g);
	free(r->calls);
	memset(r, 0, sizeof(*r));
}
