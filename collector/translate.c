/* translate.c - CUPTI activity records to rows (see translate.h). Runs on the writer thread. */
#include "translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libstdc++'s demangler (the collector links the C++ runtime). */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

typedef struct kname {
	char *name, *demangled, *short_name;
	/* Their strings.ids in store at its strings epoch (pq_kernel's name_id), 0 until interned. */
	const pq_store *store;
	uint64_t epoch;
	int64_t name_id, demangled_id, short_id;
} kname;

struct pq_translate {
	uint64_t gen;
	pq_translate_stats stats;
	int64_t device_ids[64];      /* deviceId -> devices.id (0: unknown) */
	int64_t allocated[64];       /* running device memory total for memory_events */
	pq_u64map streams;           /* (device+1) << 32 | stream -> streams.id */
	pq_u64map threads;           /* pid << 32 | tid -> threads.id */
	pq_u64map contexts;          /* contextId + 1 -> deviceId */
	pq_u64map api_names;         /* (api kind << 32 | cbid) + 1 -> index into names */
	pq_u64map kernel_names;      /* name pointer -> index into knames */
	kname *knames;
	size_t nknames, capknames;
	char **names;
	size_t nnames, capnames;
};

char *pq_demangle(const char *mangled)
{
	int status = 0;
	char *out;

	if (mangled == NULL || mangled[0] != '_' || mangled[1] != 'Z')
		return NULL;
	out = __cxa_demangle(mangled, NULL, NULL, &status);
	if (status != 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* "void ns::foo<int>(float*, int)" -> "foo": drop the parameters, template arguments, scopes and
 * the return type, each only at nesting depth 0. */
char *pq_short_name(const char *sig)
{
	size_t n = strlen(sig), end = n, start = 0;
	int depth = 0;
	char *out;

	for (size_t i = 0; i < n; i++) {
		if (sig[i] == '<')
			depth++;
		else if (sig[i] == '>' && depth > 0)
			depth--;
		else if (sig[i] == '(' && depth == 0 && i > 0) {
			end = i;
			break;
		}
	}
	while (end > 0 && sig[end - 1] == '>') {   /* template arguments of the function */
		size_t i = end - 1;
		int d = 0;
		do {
			if (sig[i] == '>')
				d++;
			else if (sig[i] == '<')
				d--;
		} while (d > 0 && i-- > 0);
		if (d != 0)
			break;
		end = i;
	}
	depth = 0;
	for (size_t i = 0; i < end; i++) {
		if (sig[i] == '<' || sig[i] == '(')
			depth++;
		else if ((sig[i] == '>' || sig[i] == ')') && depth > 0)
			depth--;
		else if (depth == 0 && (sig[i] == ' ' || (sig[i] == ':' && i + 1 < end && sig[i + 1] == ':')))
			start = sig[i] == ' ' ? i + 1 : i + 2;
	}
	if (start >= end) {
		start = 0;
		end = n;
	}
	if ((out = malloc(end - start + 1)) == NULL)
		return NULL;
	memcpy(out, sig + start, end - start);
	out[end - start] = '\0';
	return out;
}

int64_t pq_memory_kind(uint32_t k)
{
	return k >= 1 && k <= 7 ? (int64_t)k - 1 : 7;
}

static pq_translate *tr(pq_wctx *w)
{
	if (w->tr == NULL)
		w->tr = calloc(1, sizeof(*w->tr));
	if (w->tr != NULL && w->tr->gen != w->gen) {
		/* ids cached for another store / process are invalid */
		memset(w->tr->device_ids, 0, sizeof(w->tr->device_ids));
		pq_u64map_free(&w->tr->streams);
		pq_u64map_free(&w->tr->threads);
		w->tr->gen = w->gen;
	}
	return w->tr;
}

void pq_translate_free(pq_translate *t)
{
	if (t == NULL)
		return;
	pq_u64map_free(&t->streams);
	pq_u64map_free(&t->threads);
	pq_u64map_free(&t->contexts);
	pq_u64map_free(&t->api_names);
	pq_u64map_free(&t->kernel_names);
	for (size_t i = 0; i < t->nknames; i++) {
		free(t->knames[i].name);
		free(t->knames[i].demangled);
		free(t->knames[i].short_name);
	}
	free(t->knames);
	for (size_t i = 0; i < t->nnames; i++)
		free(t->names[i]);
	free(t->names);
	free(t);
}

const pq_translate_stats *pq_translate_get_stats(pq_wctx *w)
{
	static const pq_translate_stats none;
	pq_translate *t = tr(w);

	return t != NULL ? &t->stats : &none;
}

static int64_t device_id(pq_wctx *w, pq_translate *t, uint32_t dev)
{
	int64_t id;
	pq_error err;

	if (dev < 64 && t->device_ids[dev] != 0)
		return t->device_ids[dev];
	if (pq_store_device_ordinal(w->store, dev, &id, &err) != 0) {
		pq_wctx_failed(w, &err);
		return PQ_NULL;
	}
	if (dev < 64)
		t->device_ids[dev] = id;
	return id;
}

static int64_t stream_id(pq_wctx *w, pq_translate *t, int64_t dev_id, uint32_t dev, uint32_t stream)
{
	uint64_t key = ((uint64_t)dev + 1) << 32 | stream;
	int64_t id;
	pq_error err;

	if (pq_u64map_get(&t->streams, key, &id))
		return id;
	if (pq_store_stream(w->store, w->process_id, dev_id, stream, &id, &err) != 0) {
		pq_wctx_failed(w, &err);
		return PQ_NULL;
	}
	pq_u64map_put(&t->streams, key, id);
	return id;
}

static int64_t thread_id(pq_wctx *w, pq_translate *t, uint32_t pid, uint32_t tid)
{
	uint64_t key = (uint64_t)pid << 32 | tid;
	int64_t id;
	pq_error err;

	if (key != 0 && pq_u64map_get(&t->threads, key, &id))
		return id;
	if (pq_store_thread(w->store, pid, tid, NULL, &id, &err) != 0) {
		pq_wctx_failed(w, &err);
		return PQ_NULL;
	}
	if (key != 0)
		pq_u64map_put(&t->threads, key, id);
	return id;
}

static int64_t or_null(uint64_t v)
{
	return v == 0 ? PQ_NULL : (int64_t)v;
}

static kname *kernel_name(pq_translate *t, const char *name)
{
	int64_t i;
	kname *k;

	if (name == NULL)
		name = "<unknown kernel>";
	/* CUPTI shares one name pointer across records of a kernel; the text is checked too, in
	 * case a module unload let the pointer be reused. */
	if (pq_u64map_get(&t->kernel_names, (uint64_t)(uintptr_t)name, &i) &&
	    strcmp(t->knames[i].name, name) == 0)
		return &t->knames[i];
	if (t->nknames == t->capknames) {
		size_t cap = t->capknames ? t->capknames * 2 : 64;
		kname *grown = realloc(t->knames, cap * sizeof(*grown));
		if (grown == NULL)
			return NULL;
		t->knames = grown;
		t->capknames = cap;
	}
	k = &t->knames[t->nknames];
	memset(k, 0, sizeof(*k));
	if ((k->name = strdup(name)) == NULL)
		return NULL;
	k->demangled = pq_demangle(name);
	k->short_name = pq_short_name(k->demangled != NULL ? k->demangled : name);
	pq_u64map_put(&t->kernel_names, (uint64_t)(uintptr_t)name, (int64_t)t->nknames);
	return &t->knames[t->nknames++];
}

/* "cudaLaunchKernel_v7000" -> "cudaLaunchKernel"; cached per (api kind, cbid). */
static const char *api_name(pq_translate *t, int driver, uint32_t cbid)
{
	uint64_t key = ((uint64_t)driver << 32 | cbid) + 1;
	const char *raw = NULL;
	char *name, *v;
	int64_t i;

	if (pq_u64map_get(&t->api_names, key, &i))
		return t->names[i];
	if (cuptiGetCallbackName(driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API,
				 cbid, &raw) != CUPTI_SUCCESS || raw == NULL) {
		char buf[48];
		snprintf(buf, sizeof(buf), "%s_cbid_%u", driver ? "cu" : "cuda", cbid);
		name = strdup(buf);
	} else {
		name = strdup(raw);
		if (name != NULL && (v = strrchr(name, '_')) != NULL && v[1] == 'v' && v[2] >= '0' &&
		    v[2] <= '9' && strspn(v + 2, "0123456789") == strlen(v + 2))
			*v = '\0';
	}
	if (name == NULL)
		return "?";
	if (t->nnames == t->capnames) {
		size_t cap = t->capnames ? t->capnames * 2 : 64;
		char **grown = realloc(t->names, cap * sizeof(*grown));
		if (grown == NULL) {
			free(name);
			return "?";
		}
		t->names = grown;
		t->capnames = cap;
	}
	t->names[t->nnames] = name;
	pq_u64map_put(&t->api_names, key, (int64_t)t->nnames);
	return t->names[t->nnames++];
}

static int done(pq_wctx *w, pq_translate *t, int rc, const pq_error *err)
{
	if (rc != 0)
		pq_wctx_failed(w, err);
	else
		t->stats.written++;
	return rc;
}

/* The kernel's names as strings ids, interned once per name and store (a kernel's three names
 * were ~5 % of the writer's time looked up on every record). */
static void kernel_name_ids(pq_wctx *w, kname *n, pq_kernel *k)
{
	pq_error err;
	uint64_t epoch = pq_store_strings_epoch(w->store);

	if (n->store != w->store || n->epoch != epoch) {
		n->name_id = n->demangled_id = n->short_id = 0;
		if (pq_store_intern(w->store, n->name, &n->name_id, &err) != 0 ||
		    (n->demangled != NULL &&
		     pq_store_intern(w->store, n->demangled, &n->demangled_id, &err) != 0) ||
		    (n->short_name != NULL &&
		     pq_store_intern(w->store, n->short_name, &n->short_id, &err) != 0)) {
			n->name_id = n->demangled_id = n->short_id = 0; /* the store interns the texts */
			return;
		}
		n->store = w->store;
		n->epoch = epoch;
	}
	k->name_id = n->name_id;
	k->demangled_name_id = n->demangled_id;
	k->short_name_id = n->short_id;
}

static void kernel(pq_wctx *w, pq_translate *t, const CUpti_ActivityKernel10 *r)
{
	kname *n;
	pq_kernel k;
	pq_error err;

	if (r->start == 0 && r->end == 0) {
		t->stats.no_timing++;
		return;
	}
	if ((n = kernel_name(t, r->name)) == NULL)
		return;
	pq_kernel_init(&k);
	k.process_id = w->process_id;
	k.device_id = device_id(w, t, r->deviceId);
	k.stream_id = stream_id(w, t, k.device_id, r->deviceId, r->streamId);
	k.start_ns = (int64_t)r->start;
	k.end_ns = (int64_t)r->end;
	k.correlation_id = r->correlationId;
	k.name = n->name;
	k.demangled_name = n->demangled;
	k.short_name = n->short_name;
	kernel_name_ids(w, n, &k);
	k.grid_x = r->gridX;
	k.grid_y = r->gridY;
	k.grid_z = r->gridZ;
	k.block_x = r->blockX;
	k.block_y = r->blockY;
	k.block_z = r->blockZ;
	if (r->clusterX != 0) {
		k.cluster_x = r->clusterX;
		k.cluster_y = r->clusterY;
		k.cluster_z = r->clusterZ;
	}
	k.registers_per_thread = r->registersPerThread;
	k.static_shared_bytes = r->staticSharedMemory;
	k.dynamic_shared_bytes = r->dynamicSharedMemory;
	k.local_bytes_per_thread = r->localMemoryPerThread;
	k.launch_type = r->launchType;
	k.grid_id = r->gridId;
	k.graph_id = or_null(r->graphId);
	k.graph_node_id = or_null(r->graphNodeId);
	k.queued_ns = or_null(r->queued);
	k.submitted_ns = or_null(r->submitted);
	done(w, t, pq_store_kernel(w->store, &k, NULL, &err), &err);
}

static void api(pq_wctx *w, pq_translate *t, const CUpti_ActivityAPI *r, int driver)
{
	pq_api_call a;
	pq_error err;

	pq_api_call_init(&a);
	a.process_id = (int64_t)r->processId == w->pid || r->processId == 0 ? w->process_id : PQ_NULL;
	if (a.process_id == PQ_NULL && pq_store_process(w->store, r->processId, NULL, &a.process_id, &err) != 0)
		a.process_id = PQ_NULL;
	a.thread_id = thread_id(w, t, r->processId != 0 ? r->processId : (uint32_t)w->pid, r->threadId);
	a.start_ns = (int64_t)r->start;
	a.end_ns = (int64_t)r->end;
	a.api_kind = driver ? PQ_API_DRIVER : PQ_API_RUNTIME;
	a.cbid = r->cbid;
	a.name = r->kind == CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API ? "internal launch"
								     : api_name(t, driver, r->cbid);
	a.correlation_id = r->correlationId;
	a.return_value = r->returnValue;
	done(w, t, pq_store_api_call(w->store, &a, NULL, &err), &err);
}

static void memcpy_row(pq_wctx *w, pq_translate *t, const CUpti_ActivityMemcpy6 *r)
{
	pq_memcpy m;
	pq_error err;

	if (r->start == 0 && r->end == 0) {
		t->stats.no_timing++;
		return;
	}
	pq_memcpy_init(&m);
	m.process_id = w->process_id;
	m.device_id = device_id(w, t, r->deviceId);
	m.stream_id = stream_id(w, t, m.device_id, r->deviceId, r->streamId);
	m.start_ns = (int64_t)r->start;
	m.end_ns = (int64_t)r->end;
	m.correlation_id = r->correlationId;
	m.bytes = (int64_t)r->bytes;
	m.copy_kind = r->copyKind <= 10 ? r->copyKind : 0;
	m.src_kind = pq_memory_kind(r->srcKind);
	m.dst_kind = pq_memory_kind(r->dstKind);
	m.is_async = (r->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0;
	m.copy_count = r->copyCount != 0 ? (int64_t)r->copyCount : PQ_NULL;
	m.graph_node_id = or_null(r->graphNodeId);
	done(w, t, pq_store_memcpy(w->store, &m, NULL, &err), &err);
}

static void peer_copy(pq_wctx *w, pq_translate *t, const CUpti_ActivityMemcpyPtoP4 *r)
{
	pq_memcpy m;
	pq_error err;

	if (r->start == 0 && r->end == 0) {
		t->stats.no_timing++;
		return;
	}
	pq_memcpy_init(&m);
	m.process_id = w->process_id;
	m.device_id = device_id(w, t, r->deviceId);
	m.stream_id = stream_id(w, t, m.device_id, r->deviceId, r->streamId);
	m.start_ns = (int64_t)r->start;
	m.end_ns = (int64_t)r->end;
	m.correlation_id = r->correlationId;
	m.bytes = (int64_t)r->bytes;
	m.copy_kind = r->copyKind <= 10 ? r->copyKind : 10;
	m.src_kind = pq_memory_kind(r->srcKind);
	m.dst_kind = pq_memory_kind(r->dstKind);
	m.src_device_id = device_id(w, t, r->srcDeviceId);
	m.dst_device_id = device_id(w, t, r->dstDeviceId);
	m.is_async = (r->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0;
	m.graph_node_id = or_null(r->graphNodeId);
	done(w, t, pq_store_memcpy(w->store, &m, NULL, &err), &err);
}

static void memset_row(pq_wctx *w, pq_translate *t, const CUpti_ActivityMemset4 *r)
{
	pq_memset m;
	pq_error err;

	if (r->start == 0 && r->end == 0) {
		t->stats.no_timing++;
		return;
	}
	pq_memset_init(&m);
	m.process_id = w->process_id;
	m.device_id = device_id(w, t, r->deviceId);
	m.stream_id = stream_id(w, t, m.device_id, r->deviceId, r->streamId);
	m.start_ns = (int64_t)r->start;
	m.end_ns = (int64_t)r->end;
	m.correlation_id = r->correlationId;
	m.bytes = (int64_t)r->bytes;
	m.value = r->value;
	m.memory_kind = pq_memory_kind(r->memoryKind);
	m.is_async = (r->flags & CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC) != 0;
	m.graph_node_id = or_null(r->graphNodeId);
	done(w, t, pq_store_memset(w->store, &m, NULL, &err), &err);
}

static void memory(pq_wctx *w, pq_translate *t, const CUpti_ActivityMemory4 *r)
{
	pq_memory_event e;
	pq_error err;
	int64_t *total = r->deviceId < 64 ? &t->allocated[r->deviceId] : NULL;

	pq_memory_event_init(&e);
	if (r->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION)
		e.operation = PQ_MEM_ALLOC;
	else if (r->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE)
		e.operation = PQ_MEM_FREE;
	else {
		t->stats.skipped_kinds++;
		return;
	}
	e.process_id = w->process_id;
	e.device_id = device_id(w, t, r->deviceId);
	if (r->streamId != 0)
		e.stream_id = stream_id(w, t, e.device_id, r->deviceId, r->streamId);
	e.ts_ns = (int64_t)r->timestamp;
	e.address = (int64_t)r->address;
	e.bytes = (int64_t)r->bytes;
	e.memory_kind = pq_memory_kind(r->memoryKind);
	e.correlation_id = or_null(r->correlationId);
	if (total != NULL) {
		*total += e.operation == PQ_MEM_ALLOC ? e.bytes : -e.bytes;
		e.total_allocated = *total;
	}
	done(w, t, pq_store_memory_event(w->store, &e, NULL, &err), &err);
}

static void sync_row(pq_wctx *w, pq_translate *t, const CUpti_ActivitySynchronization2 *r)
{
	pq_sync s;
	pq_error err;
	int64_t dev;

	pq_sync_init(&s);
	s.process_id = w->process_id;
	if (pq_u64map_get(&t->contexts, (uint64_t)r->contextId + 1, &dev)) {
		s.device_id = device_id(w, t, (uint32_t)dev);
		if (r->streamId != UINT32_MAX)
			s.stream_id = stream_id(w, t, s.device_id, (uint32_t)dev, r->streamId);
	}
	s.start_ns = (int64_t)r->start;
	s.end_ns = (int64_t)r->end;
	s.sync_type = r->type <= 4 ? r->type : 0;
	s.correlation_id = r->correlationId;
	s.event_id = r->cudaEventId != UINT32_MAX ? (int64_t)r->cudaEventId : PQ_NULL;
	s.return_value = r->returnValue;
	done(w, t, pq_store_sync(w->store, &s, NULL, &err), &err);
}

static const char *overhead_name(uint32_t kind)
{
	switch (kind) {
	case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER: return "CUDA driver compiler";
	case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH: return "CUPTI buffer flush";
	case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION: return "CUPTI instrumentation";
	case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE: return "CUPTI resource";
	case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING: return "module loading";
	case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING: return "lazy function loading";
	case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL: return "command buffer full";
	case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST: return "activity buffer request";
	case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT: return "UVM activity init";
	default: return "CUPTI overhead";
	}
}

static void overhead(pq_wctx *w, pq_translate *t, const CUpti_ActivityOverhead3 *r)
{
	pq_range g;
	pq_error err;

	pq_range_init(&g);
	g.process_id = w->process_id;
	if (r->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || r->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS) {
		if (r->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD)
			g.thread_id = thread_id(w, t, r->objectId.pt.processId ? r->objectId.pt.processId
									      : (uint32_t)w->pid,
						r->objectId.pt.threadId);
	} else if (r->objectKind == CUPTI_ACTIVITY_OBJECT_DEVICE ||
		   r->objectKind == CUPTI_ACTIVITY_OBJECT_CONTEXT ||
		   r->objectKind == CUPTI_ACTIVITY_OBJECT_STREAM) {
		g.device_id = device_id(w, t, r->objectId.dcs.deviceId);
	}
	g.start_ns = (int64_t)r->start;
	g.end_ns = (int64_t)r->end;
	g.kind = PQ_RANGE_PROFILER_OVERHEAD;
	g.name = overhead_name(r->overheadKind);
	g.correlation_id = or_null(r->correlationId);
	done(w, t, pq_store_range(w->store, &g, NULL, &err), &err);
}

static void device(pq_wctx *w, pq_translate *t, const CUpti_ActivityDevice5 *r)
{
	pq_device d;
	pq_error err;
	int64_t id;
	char uuid[48];
	const unsigned char *u = (const unsigned char *)r->uuid.bytes;

	/* nvidia-smi's form: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx */
	snprintf(uuid, sizeof(uuid),
		 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
		 u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
	pq_device_init(&d);
	d.ordinal = r->id;
	d.name = r->name;
	d.uuid = uuid;
	d.compute_major = r->computeCapabilityMajor;
	d.compute_minor = r->computeCapabilityMinor;
	d.sm_count = r->numMultiprocessors;
	d.warp_size = r->numThreadsPerWarp;
	d.max_threads_per_block = r->maxThreadsPerBlock;
	d.max_threads_per_sm = (int64_t)r->maxWarpsPerMultiprocessor * r->numThreadsPerWarp;
	d.max_blocks_per_sm = r->maxBlocksPerMultiprocessor;
	d.max_registers_per_block = r->maxRegistersPerBlock;
	d.max_registers_per_sm = r->maxRegistersPerMultiprocessor;
	d.max_shared_memory_per_block = r->maxSharedMemoryPerBlock;
	d.max_shared_memory_per_sm = r->maxSharedMemoryPerMultiprocessor;
	d.l2_cache_bytes = r->l2CacheSize;
	d.global_memory_bytes = (int64_t)r->globalMemorySize;
	d.core_clock_hz = (int64_t)r->coreClockRate * 1000;              /* kHz */
	d.memory_bandwidth_bytes_per_s = (int64_t)r->globalMemoryBandwidth * 1000; /* kB/s */
	done(w, t, pq_store_device(w->store, &d, &id, &err), &err);
	if (r->id < 64)
		t->device_ids[r->id] = id;
}

void pq_translate_record(pq_wctx *w, const CUpti_Activity *rec)
{
	pq_translate *t = tr(w);
	int64_t ignored;

	if (t == NULL || w->store == NULL || pq_wctx_process(w) == PQ_NULL)
		return;
	t->stats.records++;
	switch (rec->kind) {
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
	case CUPTI_ACTIVITY_KIND_KERNEL:
		kernel(w, t, (const CUpti_ActivityKernel10 *)rec);
		break;
	case CUPTI_ACTIVITY_KIND_RUNTIME:
		api(w, t, (const CUpti_ActivityAPI *)rec, 0);
		break;
	case CUPTI_ACTIVITY_KIND_DRIVER:
	case CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API:
		api(w, t, (const CUpti_ActivityAPI *)rec, 1);
		break;
	case CUPTI_ACTIVITY_KIND_MEMCPY:
		memcpy_row(w, t, (const CUpti_ActivityMemcpy6 *)rec);
		break;
	case CUPTI_ACTIVITY_KIND_MEMCPY2:
		peer_copy(w, t, (const CUpti_ActivityMemcpyPtoP4 *)rec);
		break;
	case CUPTI_ACTIVITY_KIND_MEMSET:
		memset_row(w, t, (const CUpti_ActivityMemset4 *)rec);
		break;
	case CUPTI_ACTIVITY_KIND_MEMORY2:
		memory(w, t, (const CUpti_ActivityMemory4 *)rec);
		break;
	case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
		sync_row(w, t, (const CUpti_ActivitySynchronization2 *)rec);
		break;
	case CUPTI_ACTIVITY_KIND_OVERHEAD:
		overhead(w, t, (const CUpti_ActivityOverhead3 *)rec);
		break;
	case CUPTI_ACTIVITY_KIND_DEVICE: {
		const CUpti_ActivityDevice5 *d = (const CUpti_ActivityDevice5 *)rec;
		device(w, t, d);
		free((void *)d->name);  /* the client's to free (cupti_activity.h, Device5.name) */
		break;
	}
	case CUPTI_ACTIVITY_KIND_CONTEXT: {
		const CUpti_ActivityContext3 *c = (const CUpti_ActivityContext3 *)rec;
		pq_u64map_put(&t->contexts, (uint64_t)c->contextId + 1, c->deviceId);
		device_id(w, t, c->deviceId);
		t->stats.written++;
		break;
	}
	case CUPTI_ACTIVITY_KIND_STREAM: {
		const CUpti_ActivityStream *s = (const CUpti_ActivityStream *)rec;
		int64_t dev;
		if (pq_u64map_get(&t->contexts, (uint64_t)s->contextId + 1, &dev))
			stream_id(w, t, device_id(w, t, (uint32_t)dev), (uint32_t)dev, s->streamId);
		t->stats.written++;
		break;
	}
	case CUPTI_ACTIVITY_KIND_GRAPH_TRACE: {
		const CUpti_ActivityGraphTrace2 *g = (const CUpti_ActivityGraphTrace2 *)rec;
		pq_range r;
		pq_error err;
		char args[64];
		pq_range_init(&r);
		r.process_id = w->process_id;
		r.device_id = device_id(w, t, g->deviceId);
		r.stream_id = stream_id(w, t, r.device_id, g->deviceId, g->streamId);
		r.start_ns = (int64_t)g->start;
		r.end_ns = (int64_t)g->end;
		r.kind = PQ_RANGE_TRACE_EVENT;
		r.name = "CUDA graph";
		r.correlation_id = g->correlationId;
		snprintf(args, sizeof(args), "{\"graph_id\":%u}", g->graphId);
		r.args = args;
		done(w, t, pq_store_range(w->store, &r, &ignored, &err), &err);
		break;
	}
	default:
		t->stats.skipped_kinds++;
		break;
	}
}

size_t pq_translate_buffer(pq_wctx *w, uint8_t *buf, size_t valid)
{
	CUpti_Activity *rec = NULL;
	CUptiResult st;
	size_t n = 0;

	if (buf == NULL || valid == 0)
		return 0;
	for (;;) {
		st = cuptiActivityGetNextRecord(buf, valid, &rec);
		if (st != CUPTI_SUCCESS)
			break;
		pq_translate_record(w, rec);
		n++;
	}
	if (st != CUPTI_ERROR_MAX_LIMIT_REACHED && tr(w) != NULL)
		tr(w)->stats.invalid++;
	return n;
}
