/* nvtx_rows.c - NVTX events (nvtx_event.h) to rows: push/pop and start/end pairing, nesting,
 * domains, categories, thread names. Runs on the writer thread only.
 *
 * A range row is written when it opens (end_ns NULL) and closed with pq_store_range_end: live
 * readers see open ranges, and a child's parent_id is known when the child is written. Start/end
 * ranges may end on another thread, whose buffer can be drained first: such ends wait in
 * orphan_ends until their start arrives.
 */
#include <stdlib.h>

#include "nvtx_event.h"
#include "writer.h"

typedef struct stack {
	int64_t *ids;
	size_t n, cap;
} stack;

typedef struct tstate {
	uint64_t gen;
	int64_t thread_id;
	stack stacks[PQ_MAX_DOMAIN_SLOTS];
} tstate;

static tstate *state_of(pq_wctx *w, pq_tbuf *t)
{
	tstate *s = t->wstate;
	pq_error err;

	if (s == NULL) {
		if ((s = calloc(1, sizeof(*s))) == NULL)
			return NULL;
		t->wstate = s;
	}
	if (s->gen != w->gen || s->thread_id == 0) {
		for (int i = 0; i < PQ_MAX_DOMAIN_SLOTS; i++)
			s->stacks[i].n = 0;
		if (pq_store_thread(w->store, w->pid, t->tid, NULL, &s->thread_id, &err) != 0) {
			pq_wctx_failed(w, &err);
			s->thread_id = 0;
			return NULL;
		}
		s->gen = w->gen;
	}
	return s;
}

void pq_nvtx_rows_forget(void *ctx, pq_tbuf *t)
{
	tstate *s = t->wstate;

	(void)ctx;
	if (s == NULL)
		return;
	for (int i = 0; i < PQ_MAX_DOMAIN_SLOTS; i++)
		free(s->stacks[i].ids);
	free(s);
	t->wstate = NULL;
}

static int64_t domain_id(pq_wctx *w, const pq_nv_domain *cd)
{
	pq_nv_domain *d = (pq_nv_domain *)cd;  /* store_id/store_gen are the writer's */
	pq_error err;

	if (d == NULL)
		return PQ_NULL;
	if (d->store_gen != w->gen || d->store_id == 0) {
		if (pq_store_nvtx_domain(w->store, w->process_id, d->name, &d->store_id, &err) != 0) {
			pq_wctx_failed(w, &err);
			return PQ_NULL;
		}
		d->store_gen = w->gen;
	}
	return d->store_id;
}

static pq_value payload(const pq_nv_event *e)
{
	pq_value v = { PQ_VALUE_NULL, 0, 0 };

	if (e->payload_type == PQ_NV_PAY_INT) {
		v.type = PQ_VALUE_INT;
		v.i = e->payload.i;
	} else if (e->payload_type == PQ_NV_PAY_REAL) {
		v.type = PQ_VALUE_REAL;
		v.d = e->payload.d;
	}
	return v;
}

static int push_id(stack *st, int64_t id)
{
	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 16;
		int64_t *ids = realloc(st->ids, cap * sizeof(*ids));
		if (ids == NULL)
			return -1;
		st->ids = ids;
		st->cap = cap;
	}
	st->ids[st->n++] = id;
	return 0;
}

static void open_range(pq_wctx *w, tstate *s, const pq_nv_event *e)
{
	stack *st = &s->stacks[e->domain != NULL ? e->domain->slot : 0];
	const char *name = pq_nv_text(e);
	pq_range r;
	int64_t id = 0, end_ts, end_tid;
	pq_error err;

	pq_range_init(&r);
	r.process_id = w->process_id;
	r.thread_id = s->thread_id;
	r.start_ns = (int64_t)e->ts;
	r.name = name != NULL ? name : "";
	r.domain_id = domain_id(w, e->domain);
	r.nvtx_category = e->category != 0 ? e->category : PQ_NULL;
	r.color = e->has_color ? (int64_t)e->color : PQ_NULL;
	r.payload = payload(e);
	r.args = pq_nv_args(e);
	if (e->type == PQ_NV_PUSH) {
		r.kind = PQ_RANGE_NVTX_PUSH_POP;
		r.depth = (int64_t)st->n;
		r.parent_id = st->n > 0 ? st->ids[st->n - 1] : PQ_NULL;
	} else {
		r.kind = PQ_RANGE_NVTX_START_END;
		r.range_key = (int64_t)e->id;
		if (pq_u64map_get(&w->orphan_ends, e->id, &end_ts)) {
			r.end_ns = end_ts;
			if (pq_u64map_get(&w->orphan_tids, e->id, &end_tid))
				r.end_thread_id = end_tid;
			pq_u64map_del(&w->orphan_ends, e->id);
			pq_u64map_del(&w->orphan_tids, e->id);
		}
	}
	if (pq_store_range(w->store, &r, &id, &err) != 0) {
		pq_wctx_failed(w, &err);
		id = 0;
	}
	if (e->type == PQ_NV_PUSH) {
		if (push_id(st, id) != 0)
			w->nvtx_unmatched++;
	} else if (r.end_ns == PQ_NULL && id != 0) {
		pq_u64map_put(&w->starts, e->id, id);
	}
}

static void close_range(pq_wctx *w, tstate *s, const pq_nv_event *e)
{
	int64_t id;
	pq_error err;

	if (e->type == PQ_NV_POP) {
		stack *st = &s->stacks[e->domain != NULL ? e->domain->slot : 0];

		if (st->n == 0) {   /* pushed before a fork or before the capture started */
			w->nvtx_unmatched++;
			return;
		}
		id = st->ids[--st->n];
		if (id != 0 && pq_store_range_end(w->store, id, (int64_t)e->ts, PQ_NULL, &err) != 0)
			pq_wctx_failed(w, &err);
		return;
	}
	if (pq_u64map_get(&w->starts, e->id, &id)) {
		pq_u64map_del(&w->starts, e->id);
		if (pq_store_range_end(w->store, id, (int64_t)e->ts, s->thread_id, &err) != 0)
			pq_wctx_failed(w, &err);
	} else {
		pq_u64map_put(&w->orphan_ends, e->id, (int64_t)e->ts);
		pq_u64map_put(&w->orphan_tids, e->id, s->thread_id);
	}
}

static void write_mark(pq_wctx *w, tstate *s, const pq_nv_event *e)
{
	const char *name = pq_nv_text(e);
	pq_mark m;
	pq_error err;

	pq_mark_init(&m);
	m.process_id = w->process_id;
	m.thread_id = s->thread_id;
	m.ts_ns = (int64_t)e->ts;
	m.kind = PQ_MARK_NVTX;
	m.name = name != NULL ? name : "";
	m.domain_id = domain_id(w, e->domain);
	m.nvtx_category = e->category != 0 ? e->category : PQ_NULL;
	m.color = e->has_color ? (int64_t)e->color : PQ_NULL;
	m.payload = payload(e);
	m.args = pq_nv_args(e);
	if (pq_store_mark(w->store, &m, NULL, &err) != 0)
		pq_wctx_failed(w, &err);
}

/* nvtxNameCu* / nvtxNameCuda*: one cuda_names row per call. */
static void write_cuda_name(pq_wctx *w, tstate *s, const pq_nv_event *e, const char *text)
{
	static const struct { const char *resource, *api; } kinds[] = {
		[PQ_NV_RES_CU_DEVICE] = { "device", "driver" },
		[PQ_NV_RES_CU_CONTEXT] = { "context", "driver" },
		[PQ_NV_RES_CU_STREAM] = { "stream", "driver" },
		[PQ_NV_RES_CU_EVENT] = { "event", "driver" },
		[PQ_NV_RES_CUDA_DEVICE] = { "device", "runtime" },
		[PQ_NV_RES_CUDA_STREAM] = { "stream", "runtime" },
		[PQ_NV_RES_CUDA_EVENT] = { "event", "runtime" },
	};
	pq_cuda_name n;
	pq_error err;

	if (text == NULL || e->category == 0 || e->category >= sizeof(kinds) / sizeof(kinds[0]))
		return;
	pq_cuda_name_init(&n);
	n.process_id = w->process_id;
	n.thread_id = s->thread_id;
	n.ts_ns = (int64_t)e->ts;
	n.resource = kinds[e->category].resource;
	n.api = kinds[e->category].api;
	n.handle = (int64_t)e->id;
	n.cupti_id = e->payload_type == PQ_NV_PAY_INT ? e->payload.i : PQ_NULL;
	n.name = text;
	if (pq_store_cuda_name(w->store, &n, NULL, &err) != 0)
		pq_wctx_failed(w, &err);
}

void pq_nvtx_rows_event(void *ctx, pq_tbuf *t, const void *event)
{
	pq_wctx *w = ctx;
	const pq_nv_event *e = event;
	const char *text = pq_nv_text(e);
	tstate *s;
	int64_t ignored;
	pq_error err;
	int rc = 0;

	w->nvtx_events++;
	if (w->store == NULL || pq_wctx_process(w) == PQ_NULL || (s = state_of(w, t)) == NULL)
		return;
	switch (e->type) {
	case PQ_NV_PUSH:
	case PQ_NV_START:
		open_range(w, s, e);
		break;
	case PQ_NV_POP:
	case PQ_NV_END:
		close_range(w, s, e);
		break;
	case PQ_NV_MARK:
		write_mark(w, s, e);
		break;
	case PQ_NV_NAME_CATEGORY:
		if (text != NULL)
			rc = pq_store_nvtx_category(w->store, w->process_id, domain_id(w, e->domain),
						    (int64_t)e->id, text, &err);
		break;
	case PQ_NV_COUNTER:
		if (text != NULL) {
			pq_counter c;

			pq_counter_init(&c);
			c.process_id = w->process_id;
			c.name = text;
			c.ts_ns = (int64_t)e->ts;
			c.value = e->payload.d;
			rc = pq_store_counter(w->store, &c, NULL, &err);
		}
		break;
	case PQ_NV_NAME_RESOURCE:
		write_cuda_name(w, s, e, text);
		break;
	case PQ_NV_NAME_THREAD:
		if (text != NULL)
			rc = pq_store_thread(w->store, w->pid, (int64_t)e->id, text, &ignored, &err);
		break;
	default:
		break;
	}
	if (rc != 0)
		pq_wctx_failed(w, &err);
}
