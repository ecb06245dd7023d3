/* chrome_complete.c - X (complete) events -> kernels, memcpys, memsets, API calls,
 * synchronizations and ranges; the range row shared with B/E and async events. */
#include "chrome_import.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chrome_parse.h"
#include "chrome_time.h"

void chrome_args_ids(const cJSON *args, int64_t *correlation_id, int64_t *external_id)
{
	*correlation_id = chrome_int_of(args, "correlation");
	*external_id = chrome_int_of(args, "External id");
	if (*external_id == PQ_NULL)
		*external_id = chrome_int_of(args, "external id");
}

/* External id, or external id (older traces). */
static int64_t external_id(const chrome_digest *dg)
{
	int64_t v = dg->ai[CA_EXTERNAL_ID];

	return v != PQ_NULL ? v : dg->ai[CA_EXTERNAL_ID_LC];
}

/* [x, y, z] (grid: 0, block: 1) -> three integers, when the args have it. */
static void dim3(const chrome_digest *dg, int g, int64_t *x, int64_t *y, int64_t *z)
{
	if (!dg->has_dim[g])
		return;
	*x = dg->dim[g][0];
	*y = dg->dim[g][1];
	*z = dg->dim[g][2];
}

/* Rows -------------------------------------------------------------------------------------------- */

static const char *const known_x[] = { "ph", "name", "cat", "ts", "dur", "pid", "tid", NULL };

int chrome_row_done(chrome_ctx *c, int rc)
{
	if (rc == 0)
		c->stats->rows++;
	return rc;
}

/* "Memcpy HtoD (Pageable -> Device)" -> copy kind and memory kinds (nsys ENUM numbering). */
static int64_t copy_kind_of(const char *name)
{
	static const char *const kinds[] = {
		NULL, "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP",
	};

	for (size_t i = 1; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const char *p = strstr(name, kinds[i]);
		size_t n = strlen(kinds[i]);

		if (p != NULL && (p == name || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return (int64_t)i;
	}
	return 0;
}

static int64_t memory_kind_of(const char *s, size_t n)
{
	static const struct {
		const char *name;
		int64_t id;
	} kinds[] = {
		{ "Pageable", 0 }, { "Pinned", 1 }, { "Device Static", 5 }, { "Device", 2 },
		{ "Array", 3 }, { "Managed Static", 6 }, { "Managed", 4 }, { "Unknown", 7 },
	};

	while (n > 0 && *s == ' ')
		s++, n--;
	while (n > 0 && s[n - 1] == ' ')
		n--;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strlen(kinds[i].name) == n && strncasecmp(s, kinds[i].name, n) == 0)
			return kinds[i].id;
	return PQ_NULL;
}

/* "(Pageable -> Device)" in name -> src, dst; "(Device)" -> src only. */
static void memory_kinds_of(const char *name, int64_t *src, int64_t *dst)
{
	const char *open = strrchr(name, '('), *close, *arrow;

	if (open == NULL || (close = strchr(open, ')')) == NULL)
		return;
	arrow = strstr(open, "->");
	if (arrow != NULL && arrow < close) {
		*src = memory_kind_of(open + 1, (size_t)(arrow - open - 1));
		*dst = memory_kind_of(arrow + 2, (size_t)(close - arrow - 2));
	} else {
		*src = memory_kind_of(open + 1, (size_t)(close - open - 1));
	}
}

static int64_t sync_type_of(const char *name)
{
	if (strcasecmp(name, "Event Sync") == 0 || strcasecmp(name, "Event Synchronize") == 0)
		return 1;
	if (strcasecmp(name, "Stream Wait Event") == 0)
		return 2;
	if (strcasecmp(name, "Stream Sync") == 0 || strcasecmp(name, "Stream Synchronize") == 0)
		return 3;
	if (strcasecmp(name, "Context Sync") == 0 || strcasecmp(name, "Context Synchronize") == 0)
		return 4;
	return PQ_NULL;
}

int chrome_write_range(chrome_ctx *c, const chrome_where *w, int64_t kind, const char *name,
		       const char *cat, int64_t start, int64_t end, int64_t correlation_id,
		       int64_t external_id, const char *args_text, int64_t depth, int64_t key,
		       int64_t end_thread)
{
	pq_range r;

	pq_range_init(&r);
	r.process_id = w->process_id;
	r.thread_id = w->thread_id;
	r.end_thread_id = end_thread;
	if (w->gpu) {
		r.device_id = w->device_id;
		r.stream_id = w->stream_id;
	}
	r.start_ns = start;
	r.end_ns = end;
	r.kind = kind;
	r.name = name;
	r.category = cat;
	r.depth = depth;
	r.range_key = key;
	r.correlation_id = correlation_id;
	r.external_id = external_id;
	r.args = args_text;
	return chrome_row_done(c, pq_store_range(c->s, &r, NULL, c->err));
}

/* The args keys whose values the row stores in columns (so the args text leaves them out):
 * those present with a number, numeric string or array value; into used (NULL-terminated). */
static const char *const *consumed_args(const chrome_digest *dg, enum chrome_class cc, int gpu,
					const char *used[16])
{
	static const enum chrome_arg kernel[] = {
		CA_DEVICE, CA_STREAM, CA_CORRELATION, CA_EXTERNAL_ID, CA_EXTERNAL_ID_LC,
		CA_REGISTERS, CA_SHARED_MEMORY, CA_BLOCKS_PER_SM, CA_WARPS_PER_SM, CA_GRID,
		CA_BLOCK, CA_OCCUPANCY, CA_GRAPH_ID, CA_GRAPH_NODE_ID, CA_N,
	};
	static const enum chrome_arg copy[] = {
		CA_DEVICE, CA_STREAM, CA_CORRELATION, CA_EXTERNAL_ID, CA_EXTERNAL_ID_LC, CA_BYTES,
		CA_N,
	};
	static const enum chrome_arg api[] = {
		CA_CBID, CA_CORRELATION, CA_EXTERNAL_ID, CA_EXTERNAL_ID_LC, CA_N,
	};
	static const enum chrome_arg sync[] = {
		CA_DEVICE, CA_STREAM, CA_CORRELATION, CA_EXTERNAL_ID, CA_EXTERNAL_ID_LC,
		CA_WAIT_EVENT, CA_N,
	};
	static const enum chrome_arg range_gpu[] = {
		CA_DEVICE, CA_STREAM, CA_CORRELATION, CA_EXTERNAL_ID, CA_EXTERNAL_ID_LC, CA_N,
	};
	static const enum chrome_arg *const range = range_gpu + 2;
	const enum chrome_arg *list;
	int n = 0;

	switch (cc) {
	case CC_KERNEL: list = kernel; break;
	case CC_MEMCPY: case CC_MEMSET: list = copy; break;
	case CC_RUNTIME: case CC_DRIVER: list = api; break;
	case CC_SYNC: list = sync; break;
	default: list = gpu ? range_gpu : range; break;
	}
	for (; *list != CA_N; list++)
		if (dg->columnable & (UINT32_C(1) << *list))
			used[n++] = chrome_arg_names[*list];
	used[n] = NULL;
	return used;
}

/* What an X event of class cc becomes, on a GPU track or not. */
static enum chrome_class row_class(enum chrome_class cc, int gpu, const char *name)
{
	if ((cc == CC_RUNTIME || cc == CC_DRIVER) && gpu)
		return CC_OTHER; /* a runtime event on a GPU track: kept as a range */
	if (cc == CC_SYNC && sync_type_of(name) == PQ_NULL)
		return CC_OTHER;
	return cc;
}

int chrome_x_args_guess(chrome_text *t, const char *text, const pq_chrome_members *mem,
			const pq_chrome_args_members *am, const chrome_digest *dg,
			chrome_x_args *xa)
{
	const cJSON *jn = dg->f[CF_NAME];
	enum chrome_class cc = chrome_classify(chrome_str(dg->f[CF_CAT]));
	const char *used[16];

	xa->memory = 0;
	xa->cat_cc = cc;
	xa->gpu = chrome_class_is_gpu(cc);
	xa->cc = row_class(cc, xa->gpu, cJSON_IsString(jn) ? jn->valuestring : "");
	return chrome_args_text(t, text, mem, am, known_x, consumed_args(dg, xa->cc, xa->gpu, used),
				&xa->text);
}

int chrome_complete_event(chrome_ctx *c, const chrome_event *ev, const char *name,
			  const char *cat)
{
	/* cat is the digest's, which the reader thread classified */
	const chrome_x_args *xa = ev->xa != NULL && !ev->xa->memory ? ev->xa : NULL;
	enum chrome_class cc = xa != NULL ? xa->cat_cc : chrome_classify(cat);
	const chrome_digest *dg = ev->dg;
	const char *args_text, *used[16];
	int64_t start, dur, end;
	chrome_where w;
	int rc;

	if ((rc = chrome_event_ts(c, ev, "X", &start)) != 0)
		return rc;
	rc = chrome_member_ns(c, ev, "dur", &dur);
	if (rc == 1)
		return pq_fail(c->err, "X event without dur"), CHROME_BAD;
	if (rc != 0)
		return rc;
	if (dur < 0 && (rc = chrome_check_end(c, "X event (negative dur)", 0, &dur)) != 0)
		return rc;
	if (__builtin_add_overflow(start, dur, &end))
		return pq_fail(c->err, "ts + dur out of range"), CHROME_BAD;
	if ((rc = chrome_locate(c, ev, cc, 1, &w, 0)) != 0)
		return rc;
	/* What the row becomes decides which args have columns (and leave args text): the
	 * reader thread's guess from the category alone is right unless the pid is a GPU track. */
	cc = row_class(cc, w.gpu, name);
	if (xa != NULL && xa->cc == cc && xa->gpu == w.gpu)
		args_text = xa->text;
	else if (chrome_event_args(c, ev, known_x, consumed_args(dg, cc, w.gpu, used),
				   &args_text) != 0)
		return -1;

	switch (cc) {
	case CC_KERNEL: {
		pq_kernel k;

		pq_kernel_init(&k);
		k.process_id = w.process_id;
		k.device_id = w.device_id;
		k.stream_id = w.stream_id;
		k.start_ns = start;
		k.end_ns = end;
		k.correlation_id = dg->ai[CA_CORRELATION];
		k.external_id = external_id(dg);
		k.name = name;
		dim3(dg, 0, &k.grid_x, &k.grid_y, &k.grid_z);
		dim3(dg, 1, &k.block_x, &k.block_y, &k.block_z);
		k.registers_per_thread = dg->ai[CA_REGISTERS];
		/* Kineto's "shared memory" is static + dynamic (CuptiActivity.cpp metadataJson):
		 * stored as static_shared_bytes, dynamic left NULL, so their sum is right. */
		k.static_shared_bytes = dg->ai[CA_SHARED_MEMORY];
		k.blocks_per_sm = dg->ar[CA_BLOCKS_PER_SM];
		k.warps_per_sm = dg->ar[CA_WARPS_PER_SM];
		k.est_occupancy_pct = dg->ar[CA_OCCUPANCY];
		k.graph_id = dg->ai[CA_GRAPH_ID];
		k.graph_node_id = dg->ai[CA_GRAPH_NODE_ID];
		k.args = args_text;
		return chrome_row_done(c, pq_store_kernel(c->s, &k, NULL, c->err));
	}
	case CC_MEMCPY: {
		pq_memcpy m;

		pq_memcpy_init(&m);
		m.process_id = w.process_id;
		m.device_id = w.device_id;
		m.stream_id = w.stream_id;
		m.start_ns = start;
		m.end_ns = end;
		m.correlation_id = dg->ai[CA_CORRELATION];
		m.external_id = external_id(dg);
		m.bytes = dg->ai[CA_BYTES];
		m.copy_kind = copy_kind_of(name);
		memory_kinds_of(name, &m.src_kind, &m.dst_kind);
		m.args = args_text;
		return chrome_row_done(c, pq_store_memcpy(c->s, &m, NULL, c->err));
	}
	case CC_MEMSET: {
		pq_memset m;
		int64_t unused = PQ_NULL;

		pq_memset_init(&m);
		m.process_id = w.process_id;
		m.device_id = w.device_id;
		m.stream_id = w.stream_id;
		m.start_ns = start;
		m.end_ns = end;
		m.correlation_id = dg->ai[CA_CORRELATION];
		m.external_id = external_id(dg);
		m.bytes = dg->ai[CA_BYTES];
		memory_kinds_of(name, &m.memory_kind, &unused);
		m.args = args_text;
		return chrome_row_done(c, pq_store_memset(c->s, &m, NULL, c->err));
	}
	case CC_RUNTIME:
	case CC_DRIVER: {
		pq_api_call a;

		pq_api_call_init(&a);
		a.process_id = w.process_id;
		a.thread_id = w.thread_id;
		a.start_ns = start;
		a.end_ns = end;
		a.api_kind = cc == CC_DRIVER ? PQ_API_DRIVER : PQ_API_RUNTIME;
		a.cbid = dg->ai[CA_CBID];
		a.name = name;
		a.correlation_id = dg->ai[CA_CORRELATION];
		a.external_id = external_id(dg);
		a.args = args_text;
		return chrome_row_done(c, pq_store_api_call(c->s, &a, NULL, c->err));
	}
	case CC_SYNC: {
		pq_sync y;

		/* Kineto's cuda_sync (CUPTI synchronization records); wait_on_stream and
		 * wait_on_cuda_event_record_corr_id stay in args. */
		pq_sync_init(&y);
		y.sync_type = sync_type_of(name);
		y.process_id = w.process_id;
		y.device_id = w.device_id;
		y.stream_id = w.stream_id;
		y.start_ns = start;
		y.end_ns = end;
		y.correlation_id = dg->ai[CA_CORRELATION];
		y.external_id = external_id(dg);
		y.event_id = dg->ai[CA_WAIT_EVENT];
		y.args = args_text;
		return chrome_row_done(c, pq_store_sync(c->s, &y, NULL, c->err));
	}
	default:
		break;
	}
	return chrome_write_range(c, &w, chrome_range_kind(cc), name, cat, start, end,
				  dg->ai[CA_CORRELATION], external_id(dg), args_text, PQ_NULL,
				  PQ_NULL, PQ_NULL);
}

