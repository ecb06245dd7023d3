/* nvtx_ext.c - the NVTX extension entry point, InitializeInjectionNvtxExtension, and the handlers
 * of the payload and counters extensions.
 *
 * Mechanics (nvtx3/nvtxDetail/nvtxExtInit.h, nvtxExtImplPayload_v1.h, nvtxExtImplCounters_v1.h,
 * CUDA 13 toolkit): the first call of an extension function in an NVTX instance loads the library
 * named by NVTX_INJECTION64_PATH and calls InitializeInjectionNvtxExtension(moduleInfo) once per
 * module and instance; the tool writes its handlers into moduleInfo->segments[0].functionSlots,
 * indexed by the module's NVTX3EXT_CBID_* ids. Slots left empty become no-ops; returning 0 makes
 * the whole module a no-op (what happens to modules profq does not know, e.g. the memory one).
 *
 * Payload module (NVTX_EXT_PAYLOAD_MODULEID 2, nvToolsExtPayload.h): schema and enum registration
 * (nvtx_payload.c), and mark / push / start events whose payloads are decoded into the row's args.
 * A pop or end payload is accepted but not stored (the row was written when the range opened).
 * Counters module (NVTX_EXT_COUNTERS_MODULEID 4, nvToolsExtCounters.h): counters are registered
 * with a name and a payload schema (a predefined scalar type or a registered schema); each sample
 * becomes rows of the counters table: the counter's name for a scalar, "<name>.<field>" for each
 * numeric field of a schema. nvtxCounterSampleNoValue and nvtxCounterBatchSubmit are accepted and
 * ignored (no value; batch timestamps are on a clock profq cannot map).
 */
#include "nvtx_tool.h"

#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtPayload.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvtx_payload.h"

#define ARGS_MAX 8192
#define NAME_MAX_ 4096

/* Payload module ------------------------------------------------------------------------------ */

static uint64_t NVTX_API schema_register(nvtxDomainHandle_t d, const nvtxPayloadSchemaAttr_t *a)
{
	return pq_payload_schema_register(d, a);
}

static uint64_t NVTX_API enum_register(nvtxDomainHandle_t d, const nvtxPayloadEnumAttr_t *a)
{
	return pq_payload_enum_register(d, a);
}

/* The name of a payload-only event: a field flagged as the event message, else the schema's. */
#define DECODE(d, pd, n)                                                                        \
	char args[ARGS_MAX], name[NAME_MAX_];                                                   \
	const char *message = NULL;                                                             \
	pq_payload_json((d), (pd), (n), args, sizeof(args), name, sizeof(name), &message)

static void NVTX_API mark_payload(nvtxDomainHandle_t d, const nvtxPayloadData_t *pd, size_t n)
{
	DECODE(d, pd, n);
	pq_nvtx_mark_args(d, message != NULL ? message : "", args);
}

static int NVTX_API push_payload(nvtxDomainHandle_t d, const nvtxPayloadData_t *pd, size_t n)
{
	DECODE(d, pd, n);
	return pq_nvtx_push_args(d, message != NULL ? message : "", args);
}

static int NVTX_API pop_payload(nvtxDomainHandle_t d, const nvtxPayloadData_t *pd, size_t n)
{
	(void)pd, (void)n;
	return pq_nvtx_pop(d);
}

static nvtxRangeId_t NVTX_API start_payload(nvtxDomainHandle_t d, const nvtxPayloadData_t *pd,
					    size_t n)
{
	DECODE(d, pd, n);
	return pq_nvtx_start_args(d, message != NULL ? message : "", args);
}

static void NVTX_API end_payload(nvtxDomainHandle_t d, nvtxRangeId_t id,
				 const nvtxPayloadData_t *pd, size_t n)
{
	(void)pd, (void)n;
	pq_nvtx_end(d, id);
}

static uint8_t NVTX_API domain_enabled(nvtxDomainHandle_t d)
{
	(void)d;
	return 1;
}

static const pq_nvtx_slot payload_slots[] = {
	{ NVTX3EXT_CBID_nvtxPayloadSchemaRegister, PQ_NVTX_FN(schema_register) },
	{ NVTX3EXT_CBID_nvtxPayloadEnumRegister, PQ_NVTX_FN(enum_register) },
	{ NVTX3EXT_CBID_nvtxMarkPayload, PQ_NVTX_FN(mark_payload) },
	{ NVTX3EXT_CBID_nvtxRangePushPayload, PQ_NVTX_FN(push_payload) },
	{ NVTX3EXT_CBID_nvtxRangePopPayload, PQ_NVTX_FN(pop_payload) },
	{ NVTX3EXT_CBID_nvtxRangeStartPayload, PQ_NVTX_FN(start_payload) },
	{ NVTX3EXT_CBID_nvtxRangeEndPayload, PQ_NVTX_FN(end_payload) },
	{ NVTX3EXT_CBID_nvtxDomainIsEnabled, PQ_NVTX_FN(domain_enabled) },
};

/* Counters module ----------------------------------------------------------------------------- */

typedef struct counter {
	const void *domain;
	uint64_t id, schema;
	char *name;
	struct counter *next;
} counter;

static pthread_mutex_t counters_mtx = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(counter *) counters;      /* grows at its head only: lookups take no lock */
static uint64_t next_counter = NVTX_COUNTER_ID_DYNAMIC_START;

static const counter *find_counter(const void *d, uint64_t id)
{
	const counter *c = atomic_load_explicit(&counters, memory_order_acquire);

	for (; c != NULL; c = c->next)
		if (c->id == id && (id >= NVTX_COUNTER_ID_DYNAMIC_START || c->domain == d))
			return c;
	return NULL;
}

static uint64_t NVTX_API counter_register(nvtxDomainHandle_t d, const nvtxCounterAttr_t *a)
{
	counter *c;

	if (a == NULL || a->structSize < offsetof(nvtxCounterAttr_t, counterId) + sizeof(uint64_t) ||
	    a->name == NULL || (c = calloc(1, sizeof(*c))) == NULL)
		return NVTX_COUNTER_ID_NONE;
	if ((c->name = strdup(a->name)) == NULL) {
		free(c);
		return NVTX_COUNTER_ID_NONE;
	}
	c->domain = d;
	c->schema = a->schemaId;
	pthread_mutex_lock(&counters_mtx);
	c->id = a->counterId != NVTX_COUNTER_ID_NONE ? a->counterId : next_counter++;
	c->next = atomic_load_explicit(&counters, memory_order_relaxed);
	atomic_store_explicit(&counters, c, memory_order_release);
	pthread_mutex_unlock(&counters_mtx);
	return c->id;
}

static void NVTX_API sample_int64(nvtxDomainHandle_t d, uint64_t id, int64_t v)
{
	const counter *c = find_counter(d, id);

	if (c != NULL)
		pq_nvtx_counter(d, c->name, (double)v);
}

static void NVTX_API sample_float64(nvtxDomainHandle_t d, uint64_t id, double v)
{
	const counter *c = find_counter(d, id);

	if (c != NULL)
		pq_nvtx_counter(d, c->name, v);
}

typedef struct sample_ctx {
	const void *domain;
	const counter *c;
} sample_ctx;

static void one_field(void *ctx, const char *field, double value)
{
	sample_ctx *s = ctx;
	char series[NAME_MAX_];

	if (field == NULL) {
		pq_nvtx_counter(s->domain, s->c->name, value);
		return;
	}
	snprintf(series, sizeof(series), "%s.%s", s->c->name, field);
	pq_nvtx_counter(s->domain, series, value);
}

static void NVTX_API sample(nvtxDomainHandle_t d, uint64_t id, const void *value, size_t size)
{
	const counter *c = find_counter(d, id);
	sample_ctx s = { d, c };

	if (c != NULL)
		pq_payload_numeric_fields(d, c->schema, value, size, one_field, &s);
}

static void NVTX_API sample_no_value(nvtxDomainHandle_t d, uint64_t id, uint8_t reason)
{
	(void)d, (void)id, (void)reason;
}

static void NVTX_API batch_submit(nvtxDomainHandle_t d, const nvtxCounterBatch_t *b)
{
	(void)d, (void)b;
}

static const pq_nvtx_slot counter_slots[] = {
	{ NVTX3EXT_CBID_nvtxCounterRegister, PQ_NVTX_FN(counter_register) },
	{ NVTX3EXT_CBID_nvtxCounterSampleInt64, PQ_NVTX_FN(sample_int64) },
	{ NVTX3EXT_CBID_nvtxCounterSampleFloat64, PQ_NVTX_FN(sample_float64) },
	{ NVTX3EXT_CBID_nvtxCounterSample, PQ_NVTX_FN(sample) },
	{ NVTX3EXT_CBID_nvtxCounterSampleNoValue, PQ_NVTX_FN(sample_no_value) },
	{ NVTX3EXT_CBID_nvtxCounterBatchSubmit, PQ_NVTX_FN(batch_submit) },
};

/* Entry point ----------------------------------------------------------------------------------- */

static int install(nvtxExtModuleInfo_t *mi, const pq_nvtx_slot *s, size_t n)
{
	nvtxExtModuleSegment_t *seg;

	if (mi->segmentsCount < 1 || mi->segments == NULL)
		return 0;
	seg = &mi->segments[0];
	for (size_t i = 0; i < n; i++)
		if (s[i].id < seg->slotCount)
			seg->functionSlots[s[i].id] = (intptr_t)s[i].fn;
	return 1;
}

PQ_EXPORT int NVTX_API InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t *mi)
{
	if (mi == NULL || mi->structSize < sizeof(*mi) || pq_collector_start() != 0 ||
	    !(pq_cfg.kinds & PQ_K_NVTX))
		return 0;
	/* The struct layouts above are those of major version 1 of each extension (compatId 0x01xx). */
	if (mi->moduleId == NVTX_EXT_PAYLOAD_MODULEID && (mi->compatId >> 8) == 1)
		return install(mi, payload_slots, sizeof(payload_slots) / sizeof(payload_slots[0]));
	if (mi->moduleId == NVTX_EXT_COUNTERS_MODULEID && (mi->compatId >> 8) == 1)
		return install(mi, counter_slots, sizeof(counter_slots) / sizeof(counter_slots[0]));
	return 0;
}
