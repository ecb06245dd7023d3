/* nvtx_proj.c - nvtx_gpu_proj: NVTX ranges projected onto the GPU work launched inside them.
 *
 *   SELECT range_id, proj_start_ns, proj_end_ns, num_gpu_ops, level, parent_id, num_child
 *   FROM nvtx_gpu_proj            -- every run
 *   FROM nvtx_gpu_proj(2)         -- run 2 only (NULL: every run)
 *
 * Definition (Nsight Systems' nvtx_gpu_proj_trace, /work/shared/notes/nsys.md §2.4, paraphrased):
 * - ranges: NVTX push/pop and start/end ranges (ranges.kind 0, 1) that end on the thread they
 *   started on (end_thread_id NULL or equal to thread_id); a range never closed ends at the run's
 *   last NVTX timestamp (latest range start/end or NVTX mark);
 * - GPU operations: kernels, memcpys and memsets joined to their launching API call
 *   (run, process, correlation_id); an operation whose API row is missing is not projected;
 * - an operation belongs to every range on the API call's thread whose [start, end] contains the
 *   API call's [start, end] (closed intervals, nested ranges all get it);
 * - per range: proj_start_ns = min(op start), proj_end_ns = max(op end), num_gpu_ops = number of
 *   distinct correlation ids; only ranges with at least one operation are returned.
 * - level (0 = outermost), parent_id and num_child describe the nesting of all selected ranges of
 *   the thread: the parent is the innermost range that contains the range (ties in start: the
 *   longer one is the parent). nsys picks the enclosing range with the smallest "slack"; for
 *   properly nested ranges (push/pop always are) both are the same range.
 *
 *
 *   SELECT range_id, kernel_id FROM nvtx_kernel_ranges[(run)]
 * gives the pairs instead: every (range, kernel) with the kernel's launching call inside the range,
 * same definition (memcpys and memsets left out) -- what nvtx-kern-sum groups.
 *
 * Algorithm: ranges and operations are sorted by (thread, start) and swept once per thread with
 * the set of ranges open at the API call's start: O((n + m) log(n + m) + hits), no range join.
 * Memory: about 80 bytes per range and 40 per operation.
 */
#include "ext.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct pr_range {
	int64_t id, thread, start, end;
} pr_range;

typedef struct pr_acc {
	int64_t pmin, pmax, last_corr, parent_id;
	int32_t nops, level, nchild, pad;
} pr_acc;

typedef struct pr_op {
	int64_t thread, astart, aend, gstart, gend, corr, kernel_id; /* kernel_id -1: not a kernel */
} pr_op;

typedef struct pr_out {
	int64_t range_id, pmin, pmax, parent_id;
	int32_t nops, level, nchild, pad;
} pr_out;

typedef struct pr_cursor {
	sqlite3_vtab_cursor base;
	pr_out *rows;     /* nvtx_gpu_proj */
	int64_t *pairs;   /* nvtx_kernel_ranges: (range id, kernel id) pairs */
	size_t n, i, cap;
	int pairs_mode;
} pr_cursor;

typedef struct pr_vtab {
	sqlite3_vtab base;
	sqlite3 *db;
	int pairs_mode;
} pr_vtab;

enum { COL_RANGE_ID, COL_PSTART, COL_PEND, COL_NOPS, COL_LEVEL, COL_PARENT, COL_NCHILD, COL_RUN };

static int cmp_range(const void *a, const void *b)
{
	const pr_range *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1; /* the longer first: it is the parent */
	return x->id < y->id ? -1 : x->id > y->id;
}

static int cmp_op(const void *a, const void *b)
{
	const pr_op *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->astart != y->astart)
		return x->astart < y->astart ? -1 : 1;
	if (x->aend != y->aend)
		return x->aend < y->aend ? -1 : 1;
	return x->corr < y->corr ? -1 : x->corr > y->corr;
}

static const char ranges_sql[] =
	"WITH last AS (SELECT run_id, max(ts) AS ts FROM ("
	" SELECT run_id, max(coalesce(end_ns, start_ns)) AS ts FROM ranges WHERE kind IN (0, 1)"
	" GROUP BY run_id UNION ALL"
	" SELECT run_id, max(ts_ns) FROM marks WHERE kind = 0 GROUP BY run_id) GROUP BY run_id)"
	" SELECT r.id, r.thread_id, r.start_ns, coalesce(r.end_ns, l.ts)"
	" FROM ranges r JOIN last l ON l.run_id = r.run_id"
	" WHERE r.kind IN (0, 1) AND r.thread_id IS NOT NULL"
	" AND (r.end_thread_id IS NULL OR r.end_thread_id = r.thread_id)"
	" AND (?1 IS NULL OR r.run_id = ?1)";

static const char ops_sql[] =
	"SELECT a.thread_id, a.start_ns, a.end_ns, g.start_ns, g.end_ns, g.correlation_id, g.id FROM ("
	" SELECT run_id, process_id, correlation_id, start_ns, end_ns, id FROM kernels"
	" WHERE ?1 IS NULL OR run_id = ?1 UNION ALL"
	" SELECT run_id, process_id, correlation_id, start_ns, end_ns, -1 FROM memcpys"
	" WHERE (?1 IS NULL OR run_id = ?1) AND NOT ?2 UNION ALL"
	" SELECT run_id, process_id, correlation_id, start_ns, end_ns, -1 FROM memsets"
	" WHERE (?1 IS NULL OR run_id = ?1) AND NOT ?2) g"
	" JOIN api_calls a ON a.process_id = g.process_id AND a.correlation_id = g.correlation_id"
	" AND a.run_id = g.run_id"
	" WHERE g.correlation_id IS NOT NULL AND a.thread_id IS NOT NULL";

/* Grows *buf (of *cap elements of size sz) to hold n + 1; returns -1 when out of memory. */
static int grow(void **buf, size_t *cap, size_t n, size_t sz)
{
	void *p;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 1024;
	p = sqlite3_realloc64(*buf, (sqlite3_uint64)c * sz);
	if (p == NULL)
		return -1;
	*buf = p;
	*cap = c;
	return 0;
}

typedef struct pr_input {
	pr_range *r;
	size_t nr, cr;
	pr_op *o;
	size_t no, co;
} pr_input;

/* Reads the ranges and the operations; run NULL (C) means every run: ?1 stays unbound, NULL. */
static int load(sqlite3 *db, sqlite3_value *run, int kernels_only, pr_input *in, char **msg)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db, ranges_sql, -1, &st, NULL);
	if (rc == SQLITE_OK && run != NULL)
		rc = sqlite3_bind_value(st, 1, run);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		pr_range *x;

		if (sqlite3_column_type(st, 3) == SQLITE_NULL)
			{ rc = SQLITE_OK; continue; }
		if (grow((void **)&in->r, &in->cr, in->nr, sizeof(*in->r)) != 0)
			{ rc = SQLITE_NOMEM; break; }
		x = &in->r[in->nr++];
		x->id = sqlite3_column_int64(st, 0);
		x->thread = sqlite3_column_int64(st, 1);
		x->start = sqlite3_column_int64(st, 2);
		x->end = sqlite3_column_int64(st, 3);
		rc = SQLITE_OK;
	}
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	if (rc != SQLITE_OK && rc != SQLITE_NOMEM)
		*msg = sqlite3_mprintf("nvtx_gpu_proj: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_prepare_v2(db, ops_sql, -1, &st, NULL);
	if (rc == SQLITE_OK && run != NULL)
		rc = sqlite3_bind_value(st, 1, run);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, 2, kernels_only);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		pr_op *x;

		if (grow((void **)&in->o, &in->co, in->no, sizeof(*in->o)) != 0)
			{ rc = SQLITE_NOMEM; break; }
		x = &in->o[in->no++];
		x->thread = sqlite3_column_int64(st, 0);
		x->astart = sqlite3_column_int64(st, 1);
		x->aend = sqlite3_column_int64(st, 2);
		x->gstart = sqlite3_column_int64(st, 3);
		x->gend = sqlite3_column_int64(st, 4);
		x->corr = sqlite3_column_int64(st, 5);
		x->kernel_id = sqlite3_column_int64(st, 6);
		rc = SQLITE_OK;
	}
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	if (rc != SQLITE_OK && rc != SQLITE_NOMEM)
		*msg = sqlite3_mprintf("nvtx_gpu_proj: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc;
}

/* Sweeps the sorted input and fills cur->rows. */
static int project(pr_input *in, pr_cursor *cur)
{
	pr_acc *acc = sqlite3_malloc64((sqlite3_uint64)(in->nr ? in->nr : 1) * sizeof(*acc));
	size_t *stack = NULL, *active = NULL, cs = 0, ca = 0, ri = 0, oi = 0, nout = 0;
	int rc = SQLITE_OK;

	if (acc == NULL)
		return SQLITE_NOMEM;
	/* Nesting: one stack per thread. */
	for (size_t i = 0, depth = 0; i < in->nr; i++) {
		pr_range *x = &in->r[i];

		if (i == 0 || in->r[i - 1].thread != x->thread)
			depth = 0;
		while (depth > 0 && in->r[stack[depth - 1]].end < x->end)
			depth--;
		acc[i] = (pr_acc){ .pmin = INT64_MAX, .pmax = INT64_MIN, .last_corr = INT64_MIN,
				   .parent_id = 0, .level = (int32_t)depth, .nchild = 0 };
		if (depth > 0) {
			acc[i].parent_id = in->r[stack[depth - 1]].id;
			acc[stack[depth - 1]].nchild++;
		} else {
			acc[i].parent_id = -1;
		}
		if (grow((void **)&stack, &cs, depth, sizeof(*stack)) != 0)
			{ rc = SQLITE_NOMEM; goto done; }
		stack[depth++] = i;
	}
	/* Operations: per thread, ranges open at the API call's start. */
	while (oi < in->no) {
		int64_t t = in->o[oi].thread;
		size_t na = 0;

		while (ri < in->nr && in->r[ri].thread < t)
			ri++;
		for (; oi < in->no && in->o[oi].thread == t; oi++) {
			pr_op *op = &in->o[oi];
			size_t k = 0;

			while (ri < in->nr && in->r[ri].thread == t && in->r[ri].start <= op->astart) {
				if (grow((void **)&active, &ca, na, sizeof(*active)) != 0)
					{ rc = SQLITE_NOMEM; goto done; }
				active[na++] = ri++;
			}
			for (size_t j = 0; j < na; j++) {
				pr_range *x = &in->r[active[j]];
				pr_acc *a = &acc[active[j]];

				if (x->end < op->astart)
					continue; /* over for good: later calls start later */
				active[k++] = active[j];
				if (x->end < op->aend)
					continue;
				if (cur->pairs_mode) {
					if (grow((void **)&cur->pairs, &cur->cap, cur->n * 2 + 1,
						 sizeof(*cur->pairs)) != 0)
						{ rc = SQLITE_NOMEM; goto done; }
					cur->pairs[cur->n * 2] = x->id;
					cur->pairs[cur->n * 2 + 1] = op->kernel_id;
					cur->n++;
					continue;
				}
				if (op->gstart < a->pmin)
					a->pmin = op->gstart;
				if (op->gend > a->pmax)
					a->pmax = op->gend;
				if (a->nops == 0 || a->last_corr != op->corr) {
					if (a->nops == 0)
						nout++;
					a->nops++;
					a->last_corr = op->corr;
				}
			}
			na = k;
		}
	}
	if (cur->pairs_mode)
		goto done;
	cur->rows = sqlite3_malloc64((sqlite3_uint64)(nout ? nout : 1) * sizeof(*cur->rows));
	if (cur->rows == NULL)
		{ rc = SQLITE_NOMEM; goto done; }
	for (size_t i = 0; i < in->nr; i++) {
		if (acc[i].nops == 0)
			continue;
		cur->rows[cur->n++] = (pr_out){ in->r[i].id, acc[i].pmin, acc[i].pmax,
						acc[i].parent_id, acc[i].nops, acc[i].level,
						acc[i].nchild, 0 };
	}
done:
	sqlite3_free(acc);
	sqlite3_free(stack);
	sqlite3_free(active);
	return rc;
}

static int pr_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **out, char **err)
{
	pr_vtab *v;
	int rc;

	(void)argc, (void)argv, (void)err;
	rc = sqlite3_declare_vtab(db, aux != NULL
		? "CREATE TABLE x(range_id, kernel_id, run HIDDEN)"
		: "CREATE TABLE x(range_id, proj_start_ns, proj_end_ns, "
		  "num_gpu_ops, level, parent_id, num_child, run HIDDEN)");
	if (rc != SQLITE_OK)
		return rc;
	v = sqlite3_malloc(sizeof(*v));
	if (v == NULL)
		return SQLITE_NOMEM;
	memset(v, 0, sizeof(*v));
	v->db = db;
	v->pairs_mode = aux != NULL;
	*out = &v->base;
	return SQLITE_OK;
}

static int pr_disconnect(sqlite3_vtab *v)
{
	sqlite3_free(v);
	return SQLITE_OK;
}

static int pr_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
	pr_cursor *c = sqlite3_malloc(sizeof(*c));

	(void)v;
	if (c == NULL)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	*out = &c->base;
	return SQLITE_OK;
}

static int pr_close(sqlite3_vtab_cursor *base)
{
	pr_cursor *c = (pr_cursor *)base;

	sqlite3_free(c->rows);
	sqlite3_free(c->pairs);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int pr_filter(sqlite3_vtab_cursor *base, int idx, const char *idxstr, int argc,
		     sqlite3_value **argv)
{
	pr_cursor *c = (pr_cursor *)base;
	pr_vtab *v = (pr_vtab *)base->pVtab;
	pr_input in = { 0 };
	sqlite3_value *run = NULL;
	char *msg = NULL;
	int rc;

	(void)idxstr;
	sqlite3_free(c->rows);
	sqlite3_free(c->pairs);
	c->rows = NULL;
	c->pairs = NULL;
	c->n = c->i = c->cap = 0;
	c->pairs_mode = v->pairs_mode;
	if (idx == 1 && argc == 1) {
		run = argv[0];
		if (sqlite3_value_type(run) != SQLITE_NULL &&
		    sqlite3_value_type(run) != SQLITE_INTEGER) {
			sqlite3_free(v->base.zErrMsg);
			v->base.zErrMsg = sqlite3_mprintf("nvtx_gpu_proj: the run must be an "
							  "integer run id or NULL");
			return SQLITE_ERROR;
		}
	}
	rc = load(v->db, run, v->pairs_mode, &in, &msg);
	if (rc == SQLITE_OK) {
		/* qsort must not get a NULL array, even an empty one. */
		if (in.nr > 0)
			qsort(in.r, in.nr, sizeof(*in.r), cmp_range);
		if (in.no > 0)
			qsort(in.o, in.no, sizeof(*in.o), cmp_op);
		rc = project(&in, c);
	}
	sqlite3_free(in.r);
	sqlite3_free(in.o);
	if (msg != NULL) {
		sqlite3_free(v->base.zErrMsg);
		v->base.zErrMsg = msg;
	}
	return rc;
}

static int pr_next(sqlite3_vtab_cursor *base)
{
	((pr_cursor *)base)->i++;
	return SQLITE_OK;
}

static int pr_eof(sqlite3_vtab_cursor *base)
{
	pr_cursor *c = (pr_cursor *)base;

	return c->i >= c->n;
}

static int pr_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	pr_cursor *c = (pr_cursor *)base;
	const pr_out *r;

	if (c->pairs_mode) {
		if (col <= 1)
			sqlite3_result_int64(ctx, c->pairs[c->i * 2 + (size_t)col]);
		else
			sqlite3_result_null(ctx);
		return SQLITE_OK;
	}
	r = &c->rows[c->i];
	switch (col) {
	case COL_RANGE_ID: sqlite3_result_int64(ctx, r->range_id); break;
	case COL_PSTART: sqlite3_result_int64(ctx, r->pmin); break;
	case COL_PEND: sqlite3_result_int64(ctx, r->pmax); break;
	case COL_NOPS: sqlite3_result_int64(ctx, r->nops); break;
	case COL_LEVEL: sqlite3_result_int64(ctx, r->level); break;
	case COL_PARENT:
		if (r->parent_id < 0)
			sqlite3_result_null(ctx);
		else
			sqlite3_result_int64(ctx, r->parent_id);
		break;
	case COL_NCHILD: sqlite3_result_int64(ctx, r->nchild); break;
	default: sqlite3_result_null(ctx); break;
	}
	return SQLITE_OK;
}

static int pr_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
	*rowid = (sqlite3_int64)((pr_cursor *)base)->i + 1;
	return SQLITE_OK;
}

static int pr_best_index(sqlite3_vtab *v, sqlite3_index_info *info)
{
	int run_col = ((pr_vtab *)v)->pairs_mode ? 2 : COL_RUN;

	info->idxNum = 0;
	for (int i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *k = &info->aConstraint[i];

		if (k->iColumn != run_col || k->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (!k->usable)
			return SQLITE_CONSTRAINT;
		info->aConstraintUsage[i].argvIndex = 1;
		info->aConstraintUsage[i].omit = 1;
		info->idxNum = 1;
	}
	info->estimatedCost = 1e6;
	return SQLITE_OK;
}

static sqlite3_module pr_module = {
	.iVersion = 0,
	.xConnect = pr_connect,
	.xBestIndex = pr_best_index,
	.xDisconnect = pr_disconnect,
	.xOpen = pr_open,
	.xClose = pr_close,
	.xFilter = pr_filter,
	.xNext = pr_next,
	.xEof = pr_eof,
	.xColumn = pr_column,
	.xRowid = pr_rowid,
};

int pq_ext_nvtx_proj_init(sqlite3 *db)
{
	static int pairs_tag;
	int rc = sqlite3_create_module(db, "nvtx_gpu_proj", &pr_module, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_create_module(db, "nvtx_kernel_ranges", &pr_module, &pairs_tag);
	return rc;
}
