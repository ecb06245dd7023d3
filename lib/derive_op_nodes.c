/* derive_op_nodes.c - v_tb_op_nodes evaluated in C, for the runs tb_op_sums is derived for.
 *
 * The view (schema/views.sql) stays the definition and computes every other run. On the 75 k-event
 * ResNet50 sample SQLite takes ~90 ms for it: a window over every node for the first node of each
 * external id, and a join of each device event with its runtime call. Here both are sorts and
 * binary searches over the host ranges (derive_host.c, read by derive_ops.c), api_calls,
 * kernels, memcpys and memsets. What a name is stays in SQL: each distinct one is asked of v_tb_host_names and
 * v_tb_tc_names. tests/reports/derived.t and op_nodes.t check tb_op_sums against the view.
 *
 * One difference, on malformed files only: the view joins a device event to the runtime calls of
 * any run with its process and correlation id, this to those of the runs derived (a process row
 * belongs to one run, so in a well-formed file they are the same calls).
 */
#include "derive_ops.h"

#include <stdio.h>
#include <stdlib.h>

/* A runtime call with an external id, and the (run, external id) group it adds to. */
typedef struct {
	sqlite3_int64 run, ext, process, corr, dur;
	int has_dur, matchable; /* matchable: process and correlation id both known */
	size_t group;
} rcall;

/* Per (run, external id) (the keys, first: pq_derive_lower_bound): the calls' time, the device
 * time they launched, and the lowest node id with that external id, the one node that owns them. */
typedef struct {
	sqlite3_int64 run, ext, first;
	int has_first;
	double rt, dev, tc, k;
} xgroup;

/* A matchable call's process and correlation id (the keys, first: pq_derive_lower_bound), and
 * its group. */
typedef struct {
	sqlite3_int64 process, corr;
	size_t group;
} corr_key;

typedef struct {
	const pq_host_range *c;
	size_t nc;
	rcall *a;
	size_t na, acap;
	corr_key *by_corr; /* the matchable calls, by (process, correlation id) */
	size_t nby;
	xgroup *g;
	size_t ng;
} loader;

static int cmp_group(const void *pa, const void *pb)
{
	const rcall *a = pa, *b = pb;

	return a->run != b->run ? pq_derive_cmp(a->run, b->run) : pq_derive_cmp(a->ext, b->ext);
}

static int cmp_corr(const void *pa, const void *pb)
{
	const corr_key *a = pa, *b = pb;

	return a->process != b->process ? pq_derive_cmp(a->process, b->process)
					: pq_derive_cmp(a->corr, b->corr);
}

/* The runtime calls with an external id, their groups and their time. */
static int load_calls(sqlite3 *db, const char *runs, loader *l, pq_error *err)
{
	sqlite3_stmt *st;
	int rc;

	if (pq_derive_prepare(db, "SELECT run_id, external_id, process_id, correlation_id, "
			      "end_ns - start_ns FROM api_calls WHERE run_id IN (%s) AND api_kind = 0 "
			      "AND external_id IS NOT NULL", runs, &st, err) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rcall *x;

		if (pq_derive_grow((void **)&l->a, &l->acap, l->na, sizeof(rcall)) != 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		x = &l->a[l->na++];
		x->run = sqlite3_column_int64(st, 0);
		x->ext = sqlite3_column_int64(st, 1);
		x->matchable = sqlite3_column_type(st, 2) != SQLITE_NULL &&
			       sqlite3_column_type(st, 3) != SQLITE_NULL;
		x->process = sqlite3_column_int64(st, 2);
		x->corr = sqlite3_column_int64(st, 3);
		x->has_dur = sqlite3_column_type(st, 4) != SQLITE_NULL;
		x->dur = sqlite3_column_int64(st, 4);
	}
	if (pq_derive_finish(db, st, rc, err) != 0)
		return -1;
	if (l->na == 0)
		return 0;
	qsort(l->a, l->na, sizeof(rcall), cmp_group);
	if ((l->g = calloc(l->na, sizeof(xgroup))) == NULL ||
	    (l->by_corr = malloc(l->na * sizeof(corr_key))) == NULL)
		return pq_fail(err, "out of memory");
	for (size_t i = 0; i < l->na; i++) {
		rcall *x = &l->a[i];

		if (l->ng == 0 || cmp_group(&l->a[i - 1], x) != 0)
			l->g[l->ng++] = (xgroup){ .run = x->run, .ext = x->ext };
		x->group = l->ng - 1;
		if (x->has_dur)
			l->g[x->group].rt += (double)x->dur;
		if (x->matchable)
			l->by_corr[l->nby++] = (corr_key){ x->process, x->corr, x->group };
	}
	qsort(l->by_corr, l->nby, sizeof(corr_key), cmp_corr);
	return 0;
}

/* Adds a device event's duration to the groups of the calls with its process and correlation id
 * (each of them, as the view's join does). */
static void add_device(loader *l, sqlite3_int64 process, sqlite3_int64 corr, double dur, int kernel,
		       int tc)
{
	size_t lo = pq_derive_lower_bound(l->by_corr, l->nby, sizeof(corr_key), process, corr);

	for (; lo < l->nby; lo++) {
		const corr_key *x = &l->by_corr[lo];
		xgroup *g = &l->g[x->group];

		if (x->process != process || x->corr != corr)
			break;
		g->dev += dur;
		if (kernel)
			g->k += dur;
		if (tc)
			g->tc += dur;
	}
}

/* The kernels' (with whether each uses Tensor Cores), memcpys' and memsets' time, to the calls
 * that launched them. */
static int load_device(sqlite3 *db, const char *runs, loader *l, pq_error *err)
{
	static const char *const tables[] = { "kernels", "memcpys", "memsets" };
	sqlite3_int64 *tc_ids = NULL;
	unsigned *tc = NULL;
	sqlite3_stmt *st;
	size_t n = 0, cap = 0;
	int rc;

	if (l->nby == 0)
		return 0;
	/* the kernel names first: which use Tensor Cores */
	if (pq_derive_prepare(db, "SELECT DISTINCT name_id FROM kernels WHERE run_id IN (%s)", runs,
			      &st, err) != 0)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (pq_derive_grow((void **)&tc_ids, &cap, n, sizeof(sqlite3_int64)) != 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		tc_ids[n++] = sqlite3_column_int64(st, 0);
	}
	if (pq_derive_finish(db, st, rc, err) != 0)
		goto fail;
	n = pq_derive_distinct(tc_ids, n);
	if ((tc = malloc((n ? n : 1) * sizeof(unsigned))) == NULL) {
		pq_fail(err, "out of memory");
		goto fail;
	}
	if (pq_derive_ask(db, "SELECT 1 FROM v_tb_tc_names WHERE id = ?1", tc_ids, n, tc, err) != 0)
		goto fail;

	for (size_t t = 0; t < 3; t++) {
		char fmt[256];

		snprintf(fmt, sizeof(fmt), "SELECT process_id, correlation_id, end_ns - start_ns, %s "
			 "FROM %s WHERE run_id IN (%%s) AND process_id IS NOT NULL AND correlation_id "
			 "IS NOT NULL", t == 0 ? "name_id" : "NULL", tables[t]);
		if (pq_derive_prepare(db, fmt, runs, &st, err) != 0)
			goto fail;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			size_t i = t == 0 ? pq_derive_find(tc_ids, n, sqlite3_column_int64(st, 3)) : n;

			add_device(l, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
				   (double)sqlite3_column_int64(st, 2), t == 0, i < n && tc[i] != 0);
		}
		if (pq_derive_finish(db, st, rc, err) != 0)
			goto fail;
	}
	free(tc_ids);
	free(tc);
	return 0;
fail:
	free(tc_ids);
	free(tc);
	return -1;
}

/* The group of (run, ext), or NULL. */
static xgroup *group_of(loader *l, sqlite3_int64 run, sqlite3_int64 ext)
{
	size_t lo = pq_derive_lower_bound(l->g, l->ng, sizeof(xgroup), run, ext);

	return lo < l->ng && l->g[lo].run == run && l->g[lo].ext == ext ? &l->g[lo] : NULL;
}

/* Whether v_tb_op_nodes makes a node of x: a cpu_op, a python-category range or an annotation. */
static int is_node(const pq_host_range *x)
{
	return x->known && (x->kind == 2 || (x->kind == 5 && x->python) || (x->kind == 3 && x->annot));
}

/* The nodes, with the runtime calls' and device time on the first node of each external id. */
static int nodes(loader *l, onode **out, size_t *n, pq_error *err)
{
	onode *a = malloc((l->nc ? l->nc : 1) * sizeof(onode));

	if (a == NULL)
		return pq_fail(err, "out of memory");
	*n = 0;
	for (size_t i = 0; i < l->nc; i++) {
		const pq_host_range *x = &l->c[i];
		xgroup *g;

		if (!is_node(x))
			continue;
		a[(*n)++] = (onode){ .run = x->run, .id = x->id, .thread = x->thread, .start = x->start,
				     .end = x->end, .name = x->name, .has_thread = x->has_thread,
				     .kind = x->kind, .listed = x->listed, .step = x->step,
				     .tcl = x->tcl, .parent = -1, .only = -1 };
		if (x->has_ext && (g = group_of(l, x->run, x->ext)) != NULL &&
		    (!g->has_first || x->id < g->first)) {
			g->first = x->id;
			g->has_first = 1;
		}
	}
	for (size_t i = 0, j = 0; i < l->nc; i++) { /* the same ranges again, the nodes in order */
		const pq_host_range *x = &l->c[i];
		xgroup *g;

		if (!is_node(x))
			continue;
		if (x->has_ext && (g = group_of(l, x->run, x->ext)) != NULL && g->first == x->id) {
			a[j].rt = g->rt;
			a[j].dev = g->dev;
			a[j].tc = g->tc;
			a[j].k = g->k;
		}
		j++;
	}
	*out = a;
	return 0;
}

int pq_op_nodes_load(sqlite3 *db, const char *runs, const pq_host_range *h, size_t nh,
		     onode **out, size_t *n, pq_error *err)
{
	loader l = { .c = h, .nc = nh };
	int rc = -1;

	*out = NULL;
	*n = 0;
	if (load_calls(db, runs, &l, err) == 0 && load_device(db, runs, &l, err) == 0)
		rc = nodes(&l, out, n, err);
	free(l.a);
	free(l.by_corr);
	free(l.g);
	return rc;
}
