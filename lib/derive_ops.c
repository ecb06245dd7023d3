/* derive_ops.c - tb_op_sums for finished runs: v_tb_op_sums evaluated in C.
 *
 * v_tb_op_sums (schema/views.sql) is the definition, and computes any run tb_op_sums does not hold.
 * SQLite needs ~250 ms for it on the 75 k-event ResNet50 sample (a dozen joins and two window
 * passes over ~24 k nodes, at ~1 us a row each), most of the import again. This file takes the
 * nodes and their own times (v_tb_op_nodes, computed by derive_op_nodes.c) and does what
 * v_tb_op_sums does with them: nesting (the innermost enclosing node, as nest_parent),
 * remove_dup_nodes chains, sums over enclosed nodes (as nest_sum), the listed operators' times
 * grouped by name and input shape, and the per-run Tensor Core ratio. Reading the input shapes
 * (the ranges' args) is most of its time. The same job writes tb_memory_sums from the same host
 * ranges (derive_memory.c). tests/reports/derived.t checks both give their views' rows exactly.
 */
#include "derive_ops.h"

#include <stdlib.h>
#include <string.h>

#include "chrome_stream.h"
#include "derive_memory.h"

typedef struct {
	sqlite3_int64 run, name, host_total;
	const char *shape; /* owned by the result's shapes array */
	double dev_self, dev_total, host_self, tc_self, tc_total;
	int elig;
} ostat;

static int cmp_tree(const void *pa, const void *pb)
{
	const onode *a = pa, *b = pb;

	if (a->has_thread != b->has_thread)
		return a->has_thread - b->has_thread; /* NULL thread first: one partition */
	if (a->thread != b->thread)
		return a->thread < b->thread ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int cmp_stat(const void *pa, const void *pb)
{
	const ostat *a = pa, *b = pb;

	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	return strcmp(a->shape, b->shape);
}

static int same_part(const onode *a, const onode *b)
{
	return a->has_thread == b->has_thread && a->thread == b->thread;
}

/* Whether y encloses x: interval_join's 'nests' (ext/interval_join.c, ext/nest.c). */
static int encloses(const onode *y, const onode *x)
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

/* Parents (a stack per thread, as nest_parent), children, remove_dup_nodes chains, and the sums
 * over enclosed nodes (as nest_sum over the kept nodes' effective times). */
static void build_tree(onode *a, size_t n, int *stack)
{
	size_t i, j, p0;

	for (p0 = 0; p0 < n; p0 = i) {
		size_t top = 0;

		for (i = p0; i < n && same_part(&a[i], &a[p0]); i++) {
			while (top > 0 && !encloses(&a[stack[top - 1]], &a[i]))
				top--;
			if (top > 0) {
				onode *p = &a[stack[top - 1]];
				a[i].parent = stack[top - 1];
				p->nkids++;
				p->kids_dur += (double)(a[i].end - a[i].start);
				if (p->only < 0 || a[i].id < a[p->only].id)
					p->only = (int)i;
			}
			stack[top++] = (int)i;
		}
	}
	for (i = 0; i < n; i++) {
		const onode *p = a[i].parent >= 0 ? &a[a[i].parent] : NULL;
		a[i].absorbed = p != NULL && p->nkids == 1 && a[i].kind == 2 && p->kind == 2 &&
				a[i].name == p->name;
	}
	for (i = 0; i < n; i++) { /* a kept node's own time and children: its chain's bottom's */
		int s = (int)i;
		if (a[i].absorbed)
			continue;
		while (a[s].nkids == 1 && a[a[s].only].absorbed)
			s = a[s].only;
		a[i].src = s;
		a[i].se = a[i].tcl || (a[i].kind == 2 && !a[i].step && a[s].tc > 0);
	}
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n && same_part(&a[j], &a[i]) && a[j].start <= a[i].end; j++) {
			const onode *x = &a[j];
			if (!encloses(&a[i], x))
				continue;
			a[i].sum_tcl += x->tcl;
			if (x->absorbed)
				continue;
			a[i].sum_dev += a[x->src].dev;
			a[i].sum_tc += a[x->src].tc;
			a[i].sum_se += x->se;
		}
	}
}

/* The view's value of args' member key (json_each's, the first member of that name) read off the
 * text by the boundary scanner, for the common case: an array or object written minified, as the
 * importer stores args (json_each renders such a value as its text). FOUND with the value's text,
 * ABSENT (no such member, or null: the view then tries the next key), or UNDECIDED (a string or
 * number, whitespace, an escaped key): then SQLite decides, with the view's own expression. m:
 * the scanner's members of args. */
enum member { FOUND, ABSENT, UNDECIDED };

static enum member member_text(const char *args, const pq_chrome_members *m, const char *key,
			       const char **v, size_t *vlen, char *scratch)
{
	size_t kl = strlen(key);

	for (int i = 0; i < m->n; i++) {
		const char *k = args + m->m[i].key, *t = args + m->m[i].val;
		size_t tl = m->m[i].val_len;

		if (memchr(k, '\\', m->m[i].key_len) != NULL)
			return UNDECIDED;
		if (m->m[i].key_len != kl || memcmp(k, key, kl) != 0)
			continue;
		if (tl == 4 && memcmp(t, "null", 4) == 0)
			return ABSENT;
		if ((t[0] != '[' && t[0] != '{') || pq_chrome_minify(t, tl, scratch) != tl)
			return UNDECIDED;
		*v = t;
		*vlen = tl;
		return FOUND;
	}
	return ABSENT;
}

/* v_tb_op_sums' input shape of an args text ?1 (schema/views.sql, stats). */
#define SHAPE_SQL "SELECT coalesce((SELECT value FROM json_each(?1) WHERE key = 'Input Dims'), " \
		  "(SELECT value FROM json_each(?1) WHERE key = 'Input dims'), '[]')"

typedef struct {
	sqlite3_int64 id;
	char *shape;
} id_shape;

static int cmp_id_shape(const void *a, const void *b)
{
	return pq_derive_cmp(((const id_shape *)a)->id, ((const id_shape *)b)->id);
}

/* ids[0..n) (distinct) and their shapes, put in id order: the rows are read in the run index's
 * order, as SQLite sorting them by id would sort their args texts too (on the 193 MB bench trace,
 * 96 MB of them: 0.2 s of the derive's 0.7 s). -1 when out of memory. */
static int sort_by_id(sqlite3_int64 *ids, char **shapes, size_t n)
{
	id_shape *p;
	size_t i;

	for (i = 1; i < n && ids[i - 1] < ids[i]; i++)
		;
	if (i >= n)
		return 0;
	if ((p = malloc(n * sizeof(*p))) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		p[i] = (id_shape){ ids[i], shapes[i] };
	qsort(p, n, sizeof(*p), cmp_id_shape);
	for (i = 0; i < n; i++) {
		ids[i] = p[i].id;
		shapes[i] = p[i].shape;
	}
	free(p);
	return 0;
}

/* The input shapes ("Input Dims", else "Input dims", else "[]") of the kind-2 nodes, by node id;
 * sorted by id. Parsing each op's args JSON in SQL was most of this job. */
static int load_shapes(sqlite3 *db, const char *pending, sqlite3_int64 **ids, char ***shapes,
		       size_t *n, pq_error *err)
{
	char *sql = sqlite3_mprintf("SELECT id, args FROM ranges WHERE run_id IN (%s) AND kind = 2",
				    pending);
	char *exact = sqlite3_mprintf("%s", SHAPE_SQL);
	sqlite3_stmt *st = NULL, *ex = NULL;
	char *scratch = NULL;
	size_t cap = 0, scap = 0;
	int rc;

	*ids = NULL;
	*shapes = NULL;
	*n = 0;
	if (sql == NULL || exact == NULL) {
		sqlite3_free(sql);
		sqlite3_free(exact);
		return pq_fail(err, "out of memory");
	}
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, exact, -1, &ex, NULL);
	sqlite3_free(sql);
	sqlite3_free(exact);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(st);
		return pq_derive_fail(db, err);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *args = (const char *)sqlite3_column_text(st, 1), *v = "[]";
		size_t an = (size_t)sqlite3_column_bytes(st, 1), vl = 2;
		enum member got = ABSENT;
		pq_chrome_members m;
		char *shape;
		size_t len;

		if (args != NULL && sqlite3_column_type(st, 1) == SQLITE_TEXT) {
			if (an + 1 > scap) {
				char *p = realloc(scratch, an + 1);
				if (p == NULL) {
					rc = SQLITE_NOMEM;
					break;
				}
				scratch = p;
				scap = an + 1;
			}
			/* one scan of the args' members for both keys */
			if (pq_chrome_scan_value(args, an, 1, &len, &m) != PQ_SCAN_OK ||
			    args[0] != '{' || m.truncated)
				got = UNDECIDED;
			else if ((got = member_text(args, &m, "Input Dims", &v, &vl, scratch)) == ABSENT)
				got = member_text(args, &m, "Input dims", &v, &vl, scratch);
			if (got == ABSENT) {
				v = "[]";
				vl = 2;
			}
		} else if (args != NULL) {
			got = UNDECIDED;
		}
		if (got == UNDECIDED) {
			sqlite3_bind_value(ex, 1, sqlite3_column_value(st, 1));
			if ((rc = sqlite3_step(ex)) != SQLITE_ROW)
				break; /* an error: one row always comes */
			v = (const char *)sqlite3_column_text(ex, 0);
			vl = v != NULL ? (size_t)sqlite3_column_bytes(ex, 0) : 0;
		}
		if (*n == cap) {
			size_t nc = cap ? cap * 2 : 1024;
			sqlite3_int64 *ni = realloc(*ids, nc * sizeof(**ids));
			char **ns;
			if (ni == NULL) {
				rc = SQLITE_NOMEM;
				break;
			}
			*ids = ni;
			if ((ns = realloc(*shapes, nc * sizeof(**shapes))) == NULL) {
				rc = SQLITE_NOMEM;
				break;
			}
			*shapes = ns;
			cap = nc;
		}
		if ((shape = malloc(vl + 1)) == NULL) {
			rc = SQLITE_NOMEM;
			break;
		}
		memcpy(shape, v, vl);
		shape[vl] = '\0';
		(*ids)[*n] = sqlite3_column_int64(st, 0);
		(*shapes)[(*n)++] = shape;
		if (got == UNDECIDED)
			sqlite3_reset(ex);
	}
	free(scratch);
	if (rc != SQLITE_DONE) { /* the message first: finalizing could replace it */
		rc = rc == SQLITE_NOMEM ? pq_fail(err, "out of memory") : pq_derive_fail(db, err);
		sqlite3_finalize(ex);
		sqlite3_finalize(st);
		return rc;
	}
	sqlite3_finalize(ex);
	sqlite3_finalize(st);
	return sort_by_id(*ids, *shapes, *n) != 0 ? pq_fail(err, "out of memory") : 0;
}

static const char *shape_of(const sqlite3_int64 *ids, char **shapes, size_t n, sqlite3_int64 id)
{
	size_t i = pq_derive_find(ids, n, id);

	return i < n ? shapes[i] : "[]";
}

/* The per-run Tensor Core ratio's two kernel times: "bottom" eligible nodes, listed operators. */
typedef struct {
	sqlite3_int64 run;
	double bottom_k, listed_k;
} orun;

static orun *run_of(orun *runs, size_t nruns, sqlite3_int64 run)
{
	for (size_t i = 0; i < nruns; i++)
		if (runs[i].run == run)
			return &runs[i];
	return NULL;
}

/* The job's rows: the listed operators, grouped per (run, name, shape) when inserted, and the
 * memory statistics (tb_memory_sums, from the same host ranges). */
typedef struct {
	ostat *s;
	size_t ns;
	orun *runs;
	size_t nruns;
	char **shapes;
	size_t nshapes;
	pq_memory_rows mem;
} op_sums;

static void op_sums_free(void *rows)
{
	op_sums *r = rows;

	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nshapes; i++)
		free(r->shapes[i]);
	free(r->shapes);
	free(r->runs);
	free(r->s);
	pq_memory_rows_free(&r->mem);
	free(r);
}

static int insert_sums(sqlite3 *db, const char *for_runs, ostat *s, size_t ns, orun *runs,
		       size_t nruns, pq_error *err)
{
	sqlite3_stmt *st = NULL;
	size_t i, j;
	int rc = 0;
	char *sql;

	if (ns == 0)
		return 0;
	qsort(s, ns, sizeof(ostat), cmp_stat);
	sql = sqlite3_mprintf("INSERT INTO tb_op_sums (run_id, name_id, input_shape, calls, "
			      "device_self_ns, device_total_ns, host_self_ns, host_total_ns, tc_eligible, "
			      "tc_self_ns, tc_total_ns, tc_eligible_ops_kernel_pct) SELECT ?1, ?2, ?3, ?4, "
			      "?5, ?6, ?7, ?8, ?9, ?10, ?11, coalesce(round(100.0 * ?12 / nullif(?13, 0), 2), "
			      "0.0) WHERE ?1 IN (%s)", for_runs);
	if (sql == NULL)
		return pq_fail(err, "out of memory");
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return pq_derive_fail(db, err);
	for (i = 0; i < ns && rc == 0; i = j) {
		double dev_self = 0, dev_total = 0, host_self = 0, tc_self = 0, tc_total = 0;
		sqlite3_int64 host_total = 0;
		int elig = 0;
		const orun *r = run_of(runs, nruns, s[i].run);

		for (j = i; j < ns && cmp_stat(&s[i], &s[j]) == 0; j++) {
			dev_self += s[j].dev_self;
			dev_total += s[j].dev_total;
			host_self += s[j].host_self;
			host_total += s[j].host_total;
			tc_self += s[j].tc_self;
			tc_total += s[j].tc_total;
			elig |= s[j].elig || s[j].tc_total > 0;
		}
		sqlite3_bind_int64(st, 1, s[i].run);
		sqlite3_bind_int64(st, 2, s[i].name);
		sqlite3_bind_text(st, 3, s[i].shape, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, (sqlite3_int64)(j - i));
		sqlite3_bind_double(st, 5, dev_self);
		sqlite3_bind_double(st, 6, dev_total);
		sqlite3_bind_double(st, 7, host_self);
		sqlite3_bind_int64(st, 8, host_total);
		sqlite3_bind_int(st, 9, elig);
		sqlite3_bind_double(st, 10, tc_self);
		sqlite3_bind_double(st, 11, tc_total);
		sqlite3_bind_double(st, 12, r ? r->bottom_k : 0.0);
		sqlite3_bind_double(st, 13, r ? r->listed_k : 0.0);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = pq_derive_fail(db, err);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

static int op_sums_compute(sqlite3 *db, const char *pending, pq_host_handoff *hosts, void **out,
			   pq_error *err)
{
	op_sums *r = calloc(1, sizeof *r);
	pq_host_range *h = NULL;
	onode *a = NULL;
	sqlite3_int64 *ids = NULL;
	int *stack = NULL, rc = -1;
	size_t n = 0, nh = 0, i;

	*out = NULL;
	if (r == NULL)
		return pq_fail(err, "out of memory");
	if (pq_host_ranges_take(db, pending, hosts, &h, &nh, err) != 0 ||
	    pq_op_nodes_load(db, pending, h, nh, &a, &n, err) != 0 ||
	    pq_memory_sums(db, pending, h, nh, &r->mem, err) != 0)
		goto done;
	free(h);
	h = NULL;
	if (n == 0) {
		rc = 0;
		goto done;
	}
	qsort(a, n, sizeof(onode), cmp_tree);
	if ((stack = malloc(n * sizeof(int))) == NULL || (r->s = malloc(n * sizeof(ostat))) == NULL ||
	    (r->runs = calloc(n, sizeof(orun))) == NULL) {
		pq_fail(err, "out of memory");
		goto done;
	}
	build_tree(a, n, stack);
	if (load_shapes(db, pending, &ids, &r->shapes, &r->nshapes, err) != 0)
		goto done;
	for (i = 0; i < n; i++) {
		const onode *x = &a[i], *o = &a[x->src];
		orun *run;

		if (x->absorbed)
			continue;
		if ((run = run_of(r->runs, r->nruns, x->run)) == NULL) {
			run = &r->runs[r->nruns++];
			run->run = x->run;
		}
		if (x->se && x->sum_se == 0)
			run->bottom_k += o->k;
		if (x->kind != 2 || !x->listed)
			continue;
		run->listed_k += o->k;
		r->s[r->ns++] = (ostat){ .run = x->run, .name = x->name, .host_total = x->end - x->start,
					 .shape = shape_of(ids, r->shapes, r->nshapes, x->id),
					 .dev_self = o->dev, .dev_total = o->dev + x->sum_dev,
					 .host_self = (double)(x->end - x->start) - o->kids_dur - o->rt,
					 .tc_self = o->tc, .tc_total = o->tc + x->sum_tc,
					 .elig = x->tcl || x->sum_tcl > 0 };
	}
	rc = 0;
done:
	free(h);
	free(ids);
	free(stack);
	free(a);
	if (rc == 0)
		*out = r;
	else
		op_sums_free(r);
	return rc;
}

/* rows were computed for the runs of either table (the job's), each inserts those of its own. */
static int op_sums_insert(sqlite3 *db, const char *table, const char *runs, void *rows,
			  pq_error *err)
{
	op_sums *r = rows;

	if (strcmp(table, "tb_memory_sums") == 0)
		return pq_memory_sums_insert(db, runs, &r->mem, err);
	return insert_sums(db, runs, r->s, r->ns, r->runs, r->nruns, err);
}

const pq_deriver pq_op_sums_deriver = { op_sums_compute, op_sums_insert, op_sums_free };
