/* nvtx_proj.c - nvtx_gpu_proj: NVTX ranges projected onto the GPU work launched inside them.
 *
 *   SELECT range_id, proj_start_ns, proj_end_ns, num_gpu_ops, level, parent_id, num_child,
 *          range_end_ns
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
 *   distinct correlation ids; only ranges with at least one operation are returned;
 *   range_end_ns = the range's end (a range never closed: the run's last NVTX timestamp).
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
 * Algorithm: ranges and operations are sorted by start per thread and swept once per thread with
 * the set of ranges open at the API call's start: O((n + m) log(n + m) + hits), no range join
 * (nvtx_proj_load.c, nvtx_proj_sweep.c). Memory: about 28 bytes per range, 48 per operation and
 * 48 per row. Rows come in range id order, the table's own, so joining them back to ranges
 * walks the table forward.
 */
#include "nvtx_proj.h"

#include <stdlib.h>
#include <string.h>

typedef struct pr_cursor {
	sqlite3_vtab_cursor base;
	pr_result res;
	size_t i;
} pr_cursor;

typedef struct pr_vtab {
	sqlite3_vtab base;
	sqlite3 *db;
	int pairs_mode;
} pr_vtab;

enum {
	COL_RANGE_ID, COL_PSTART, COL_PEND, COL_NOPS, COL_LEVEL, COL_PARENT, COL_NCHILD, COL_END,
	COL_RUN
};

static int cmp_out(const void *a, const void *b)
{
	const pr_out *x = a, *y = b;

	return x->range_id < y->range_id ? -1 : x->range_id > y->range_id;
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
		  "num_gpu_ops, level, parent_id, num_child, range_end_ns, run HIDDEN)");
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

	sqlite3_free(c->res.rows);
	sqlite3_free(c->res.pairs);
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
	sqlite3_free(c->res.rows);
	sqlite3_free(c->res.pairs);
	memset(&c->res, 0, sizeof(c->res));
	c->i = 0;
	c->res.pairs_mode = v->pairs_mode;
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
	rc = pq_pr_load(v->db, run, v->pairs_mode, &in, &msg);
	for (size_t t = 0; rc == SQLITE_OK && t < in.nt; t++)
		rc = pq_pr_sweep(&in.t[t], &c->res);
	pq_pr_input_free(&in);
	if (rc == SQLITE_OK && !c->res.pairs_mode && c->res.n > 0)
		qsort(c->res.rows, c->res.n, sizeof(*c->res.rows), cmp_out);
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

	return c->i >= c->res.n;
}

static int pr_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	pr_cursor *c = (pr_cursor *)base;
	const pr_out *r;

	if (c->res.pairs_mode) {
		if (col <= 1)
			sqlite3_result_int64(ctx, c->res.pairs[c->i * 2 + (size_t)col]);
		else
			sqlite3_result_null(ctx);
		return SQLITE_OK;
	}
	r = &c->res.rows[c->i];
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
	case COL_END: sqlite3_result_int64(ctx, r->end); break;
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
