/* nvtx_proj_sweep.c - one thread's projection: ranges (sorted by start) enter the open set as the
 * operations' API calls (sorted by start) pass their start, and are nested on the way in (level
 * and parent from a stack of enclosing ranges, children counted on the parent). A range leaves
 * the open set once a call starts after its end; then nothing more can land in it, and all its
 * children have started, so its row is complete and is written. Only open ranges carry
 * accumulators; per range there is just its child count.
 */
#include "nvtx_proj.h"

#include <string.h>

/* A range in the open set, with what has landed in it so far. */
typedef struct pr_open {
	size_t ri;
	int64_t pmin, pmax, last_corr, parent_id;
	int32_t nops, level;
} pr_open;

typedef struct pr_sweep {
	const pr_thread *t;
	int32_t *nchild;
	size_t *stack, depth, cstack;
	pr_open *open;
	size_t nopen, copen;
	pr_result *res;
} pr_sweep;

/* Nests range ri (the next by start) under the innermost range that contains it. */
static int nest(pr_sweep *s, size_t ri, int32_t *level, int64_t *parent_id)
{
	const pr_range *r = s->t->r;

	while (s->depth > 0 && r[s->stack[s->depth - 1]].end < r[ri].end)
		s->depth--;
	*level = (int32_t)s->depth;
	*parent_id = -1;
	if (s->depth > 0) {
		*parent_id = r[s->stack[s->depth - 1]].id;
		s->nchild[s->stack[s->depth - 1]]++;
	}
	if (pq_pr_grow((void **)&s->stack, &s->cstack, s->depth, sizeof(*s->stack)) != 0)
		return SQLITE_NOMEM;
	s->stack[s->depth++] = ri;
	return SQLITE_OK;
}

static int enter(pr_sweep *s, size_t ri)
{
	pr_open o = { .ri = ri, .pmin = INT64_MAX, .pmax = INT64_MIN, .last_corr = INT64_MIN };

	if (nest(s, ri, &o.level, &o.parent_id) != SQLITE_OK ||
	    pq_pr_grow((void **)&s->open, &s->copen, s->nopen, sizeof(*s->open)) != 0)
		return SQLITE_NOMEM;
	s->open[s->nopen++] = o;
	return SQLITE_OK;
}

/* Writes the row of a range that has left the open set, if anything landed in it. */
static int leave(pr_sweep *s, const pr_open *o)
{
	pr_result *res = s->res;

	if (o->nops == 0 || res->pairs_mode)
		return SQLITE_OK;
	if (pq_pr_grow((void **)&res->rows, &res->cap, res->n, sizeof(*res->rows)) != 0)
		return SQLITE_NOMEM;
	res->rows[res->n++] = (pr_out){ s->t->r[o->ri].id, o->pmin, o->pmax, o->parent_id,
					s->t->r[o->ri].end, o->nops, o->level, s->nchild[o->ri], 0 };
	return SQLITE_OK;
}

static int land(pr_sweep *s, pr_open *o, const pr_op *op)
{
	pr_result *res = s->res;

	if (res->pairs_mode) {
		if (pq_pr_grow((void **)&res->pairs, &res->cap, res->n * 2 + 1, sizeof(*res->pairs)) != 0)
			return SQLITE_NOMEM;
		res->pairs[res->n * 2] = s->t->r[o->ri].id;
		res->pairs[res->n * 2 + 1] = op->kernel_id;
		res->n++;
		return SQLITE_OK;
	}
	if (op->gstart < o->pmin)
		o->pmin = op->gstart;
	if (op->gend > o->pmax)
		o->pmax = op->gend;
	if (o->nops == 0 || o->last_corr != op->corr) { /* operations come in call order */
		o->nops++;
		o->last_corr = op->corr;
	}
	return SQLITE_OK;
}

static int run(pr_sweep *s)
{
	const pr_thread *t = s->t;
	size_t ri = 0;
	int rc = SQLITE_OK;

	for (size_t oi = 0; oi < t->no && rc == SQLITE_OK; oi++) {
		const pr_op *op = &t->o[oi];
		size_t k = 0;

		while (rc == SQLITE_OK && ri < t->nr && t->r[ri].start <= op->astart)
			rc = enter(s, ri++);
		for (size_t j = 0; j < s->nopen && rc == SQLITE_OK; j++) {
			pr_open *o = &s->open[j];

			if (t->r[o->ri].end < op->astart) { /* over for good: later calls start later */
				rc = leave(s, o);
				continue;
			}
			s->open[k] = *o;
			if (t->r[o->ri].end >= op->aend)
				rc = land(s, &s->open[k], op);
			k++;
		}
		s->nopen = k;
	}
	/* The ranges no call reached still count as children of the open ones. */
	for (; rc == SQLITE_OK && ri < t->nr; ri++) {
		int32_t level;
		int64_t parent_id;

		rc = nest(s, ri, &level, &parent_id);
	}
	for (size_t j = 0; j < s->nopen && rc == SQLITE_OK; j++)
		rc = leave(s, &s->open[j]);
	return rc;
}

int pq_pr_sweep(const pr_thread *t, pr_result *res)
{
	pr_sweep s = { .t = t, .res = res };
	int rc;

	if (t->no == 0)
		return SQLITE_OK; /* no operation: no row, no pair */
	s.nchild = sqlite3_malloc64((sqlite3_uint64)t->nr * sizeof(*s.nchild));
	if (s.nchild == NULL)
		return SQLITE_NOMEM;
	memset(s.nchild, 0, t->nr * sizeof(*s.nchild));
	rc = run(&s);
	sqlite3_free(s.nchild);
	sqlite3_free(s.stack);
	sqlite3_free(s.open);
	return rc;
}
