/* nvtx_payload.c - NVTX extended payloads and counters (nvtx3/nvToolsExtPayload.h,
 * nvToolsExtCounters.h) the way an application uses them, for tests/collector/payload.t.
 *
 * Registers an enum, a flag enum and schemas with many field types, emits ranges and marks that
 * carry those payloads (core Ex calls with NVTX_PAYLOAD_TYPE_EXT, and the extension's own
 * nvtxRangePushPayload / nvtxMarkPayload), and counter samples. Prints what the database must
 * hold, computed here from the values it passed:
 *   event NAME                      an event (range or mark) named NAME carries args
 *   field NAME|PATH|SQL-LITERAL     json_extract(args, PATH) of that event equals the literal
 *   raw NAME|TEXT                   args contains TEXT verbatim (64-bit unsigned values)
 *   counter SERIES|SQL-LITERAL      the next counter sample (in time order)
 */
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCounters.h>
#include <nvtx3/nvToolsExtPayload.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct step_info {
	int32_t step;
	uint64_t tokens;
	double loss;
	float lr;
	char tag[8];
	const char *note;
	int32_t phase;
	uint32_t flags;
	int16_t dims[3];
	uint32_t n;
	int32_t vals[4];
	int8_t small;
	uint64_t huge;
};

struct iter_info {
	const char *what;
	int64_t iter;
};

struct outer {
	int32_t id;
	struct step_info inner;
};

struct mem_sample {
	uint64_t used;
	uint64_t total;
	float frac;
};

static nvtxDomainHandle_t dom;
static uint64_t step_schema, iter_schema, outer_schema, mem_schema, phase_enum, flag_enum;

static void reg(void)
{
	static const nvtxPayloadEnum_t phases[] = {
		{ "forward", 0, 0 }, { "backward", 1, 0 }, { "optimizer", 2, 0 },
	};
	static const nvtxPayloadEnum_t flags[] = { { "A", 1, 1 }, { "B", 2, 1 }, { "C", 4, 1 } };
	nvtxPayloadEnumAttr_t ea;
	nvtxPayloadSchemaAttr_t sa;

	memset(&ea, 0, sizeof(ea));
	ea.fieldMask = NVTX_PAYLOAD_ENUM_ATTR_FIELD_NAME | NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES |
		       NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES | NVTX_PAYLOAD_ENUM_ATTR_FIELD_SIZE;
	ea.name = "phase";
	ea.entries = phases;
	ea.numEntries = 3;
	ea.sizeOfEnum = sizeof(int32_t);
	phase_enum = nvtxPayloadEnumRegister(dom, &ea);
	ea.name = "flags";
	ea.entries = flags;
	ea.sizeOfEnum = sizeof(uint32_t);
	flag_enum = nvtxPayloadEnumRegister(dom, &ea);

	{
		/* tokens and loss give no offset: placed by natural alignment (8 and 16). */
		nvtxPayloadSchemaEntry_t e[] = {
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_INT32, "step", NULL, 0, offsetof(struct step_info, step), NULL, NULL },
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "tokens", NULL, 0, 0, NULL, NULL },
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE, "loss", NULL, 0, 0, NULL, NULL },
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_FLOAT, "lr", NULL, 0, offsetof(struct step_info, lr), NULL, NULL },
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_CSTRING, "tag", NULL, 8, offsetof(struct step_info, tag), NULL, NULL },
			{ NVTX_PAYLOAD_ENTRY_FLAG_POINTER, NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF8, "note", NULL, 0,
			  offsetof(struct step_info, note), NULL, NULL },
			{ 0, phase_enum, "phase", NULL, 0, offsetof(struct step_info, phase), NULL, NULL },
			{ 0, flag_enum, "flags", NULL, 0, offsetof(struct step_info, flags), NULL, NULL },
			{ NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_FIXED_SIZE, NVTX_PAYLOAD_ENTRY_TYPE_INT16, "dims", NULL, 3,
			  offsetof(struct step_info, dims), NULL, NULL },
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_UINT32, "n", NULL, 0, offsetof(struct step_info, n), NULL, NULL },
			{ NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_LENGTH_INDEX, NVTX_PAYLOAD_ENTRY_TYPE_INT32, "vals", NULL, 9,
			  offsetof(struct step_info, vals), NULL, NULL },
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_INT8, "small", NULL, 0, offsetof(struct step_info, small), NULL, NULL },
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "huge", NULL, 0, offsetof(struct step_info, huge), NULL, NULL },
		};
		memset(&sa, 0, sizeof(sa));
		sa.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE |
			       NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES |
			       NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE;
		sa.name = "step_info";
		sa.type = NVTX_PAYLOAD_SCHEMA_TYPE_STATIC;
		sa.entries = e;
		sa.numEntries = sizeof(e) / sizeof(e[0]);
		sa.payloadStaticSize = sizeof(struct step_info);
		step_schema = nvtxPayloadSchemaRegister(dom, &sa);
	}
	{
		nvtxPayloadSchemaEntry_t e[] = {
			{ NVTX_PAYLOAD_ENTRY_FLAG_POINTER | NVTX_PAYLOAD_ENTRY_FLAG_EVENT_MESSAGE,
			  NVTX_PAYLOAD_ENTRY_TYPE_CSTRING, "what", NULL, 0, offsetof(struct iter_info, what), NULL, NULL },
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_INT64, "iter", NULL, 0, offsetof(struct iter_info, iter), NULL, NULL },
		};
		memset(&sa, 0, sizeof(sa));
		/* a static id chosen by the program */
		sa.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE |
			       NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES |
			       NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID;
		sa.name = "iter_info";
		sa.type = NVTX_PAYLOAD_SCHEMA_TYPE_STATIC;
		sa.entries = e;
		sa.numEntries = 2;
		sa.schemaId = NVTX_PAYLOAD_SCHEMA_ID_STATIC_START + 7;
		iter_schema = nvtxPayloadSchemaRegister(dom, &sa);
	}
	{
		nvtxPayloadSchemaEntry_t e[] = {
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_INT32, "id", NULL, 0, offsetof(struct outer, id), NULL, NULL },
			{ 0, step_schema, "inner", NULL, 0, offsetof(struct outer, inner), NULL, NULL },
		};
		memset(&sa, 0, sizeof(sa));
		sa.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE |
			       NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES;
		sa.name = "outer";
		sa.type = NVTX_PAYLOAD_SCHEMA_TYPE_STATIC;
		sa.entries = e;
		sa.numEntries = 2;
		outer_schema = nvtxPayloadSchemaRegister(dom, &sa);
	}
	{
		nvtxPayloadSchemaEntry_t e[] = {
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "used", NULL, 0, offsetof(struct mem_sample, used), NULL, NULL },
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_UINT64, "total", NULL, 0, offsetof(struct mem_sample, total), NULL, NULL },
			{ 0, NVTX_PAYLOAD_ENTRY_TYPE_FLOAT, "frac", NULL, 0, offsetof(struct mem_sample, frac), NULL, NULL },
		};
		memset(&sa, 0, sizeof(sa));
		sa.fieldMask = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE | NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
			       NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES;
		sa.type = NVTX_PAYLOAD_SCHEMA_TYPE_STATIC;
		sa.entries = e;
		sa.numEntries = 3;
		mem_schema = nvtxPayloadSchemaRegister(dom, &sa);
	}
}

/* What the database must say about a step_info payload of event `ev` (at JSON path prefix p). */
static void expect_step(const char *ev, const char *p, const struct step_info *s)
{
	static const char *const phases[] = { "forward", "backward", "optimizer" };

	printf("field %s|%s.step|%d\n", ev, p, s->step);
	printf("field %s|%s.tokens|%llu\n", ev, p, (unsigned long long)s->tokens);
	printf("field %s|%s.loss|%.17g\n", ev, p, s->loss);
	printf("field %s|%s.lr|%.17g\n", ev, p, (double)s->lr);
	printf("field %s|%s.tag|'%.*s'\n", ev, p, (int)strnlen(s->tag, sizeof(s->tag)), s->tag);
	printf("field %s|%s.note|'%s'\n", ev, p, s->note);
	printf("field %s|%s.phase|'%s'\n", ev, p, phases[s->phase]);
	printf("field %s|%s.flags|'%s%s%s%s%s'\n", ev, p, s->flags & 1 ? "A" : "",
	       (s->flags & 1) && (s->flags & 6) ? "|" : "", s->flags & 2 ? "B" : "",
	       (s->flags & 2) && (s->flags & 4) ? "|" : "", s->flags & 4 ? "C" : "");
	for (int i = 0; i < 3; i++)
		printf("field %s|%s.dims[%d]|%d\n", ev, p, i, s->dims[i]);
	printf("field %s|json_array_length(args, '%s.vals')|%u\n", ev, p, s->n);
	for (unsigned i = 0; i < s->n; i++)
		printf("field %s|%s.vals[%u]|%d\n", ev, p, i, s->vals[i]);
	printf("field %s|%s.small|%d\n", ev, p, s->small);
	printf("raw %s|\"huge\":%llu\n", ev, (unsigned long long)s->huge);
}

/* What NVTX_PAYLOAD_EVTATTR_SET_DATA / _SET_MULTIPLE do. Those macros cannot be used from C with
 * the CUDA 13.0 headers: the C branch of NVTX_POINTER_AS_PAYLOAD_ULLVALUE in nvToolsExtPayload.h
 * has an unbalanced parenthesis. */
static void set_ext(nvtxEventAttributes_t *a, const nvtxPayloadData_t *pd, int32_t count)
{
	a->payloadType = NVTX_PAYLOAD_TYPE_EXT;
	a->reserved0 = count;
	a->payload.ullValue = (uint64_t)(uintptr_t)pd;
}

static nvtxEventAttributes_t attrs(const char *msg)
{
	nvtxEventAttributes_t a;

	memset(&a, 0, sizeof(a));
	a.version = NVTX_VERSION;
	a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
	a.messageType = NVTX_MESSAGE_TYPE_ASCII;
	a.message.ascii = msg;
	return a;
}

static void counters(void)
{
	nvtxCounterAttr_t ca;
	uint64_t tok, temp, mem, lat;
	struct mem_sample m;
	double l = 0.0625;

	memset(&ca, 0, sizeof(ca));
	ca.structSize = sizeof(ca);
	ca.name = "tokens_per_s";
	ca.schemaId = NVTX_PAYLOAD_ENTRY_TYPE_INT64;
	tok = nvtxCounterRegister(dom, &ca);
	ca.name = "temperature";
	ca.schemaId = NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE;
	temp = nvtxCounterRegister(dom, &ca);
	ca.name = "mem";
	ca.schemaId = mem_schema;
	mem = nvtxCounterRegister(dom, &ca);
	ca.name = "latency";
	ca.schemaId = NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE;
	ca.counterId = NVTX_COUNTER_ID_STATIC_START + 3;
	lat = nvtxCounterRegister(dom, &ca);

	for (int64_t v = 100; v <= 300; v += 100) {
		nvtxCounterSampleInt64(dom, tok, v);
		printf("counter tokens_per_s|%lld\n", (long long)v);
	}
	nvtxCounterSampleFloat64(dom, temp, 36.5);
	printf("counter temperature|%.17g\n", 36.5);
	nvtxCounterSampleFloat64(dom, temp, 37.25);
	printf("counter temperature|%.17g\n", 37.25);
	for (int i = 1; i <= 2; i++) {
		m.used = (uint64_t)i << 30;
		m.total = 16ull << 30;
		m.frac = (float)m.used / (float)m.total;
		nvtxCounterSample(dom, mem, &m, sizeof(m));
		printf("counter mem.used|%llu\n", (unsigned long long)m.used);
		printf("counter mem.total|%llu\n", (unsigned long long)m.total);
		printf("counter mem.frac|%.17g\n", (double)m.frac);
	}
	nvtxCounterSample(dom, lat, &l, sizeof(l));
	printf("counter latency|%.17g\n", l);
	nvtxCounterSampleNoValue(dom, lat, NVTX_COUNTER_SAMPLE_UNAVAILABLE);   /* no row */
}

int main(void)
{
	static const char note1[] = "warm \"up\"", note2[] = "steady";
	struct step_info s1 = { 1, 4096, 2.718281828459045, 0.125f, "fwd", note1, 0, 1 | 4,
				{ 8, -2, 512 }, 2, { 10, -20, 99, 99 }, -5, UINT64_MAX };
	struct step_info s2 = { 2, 1ull << 40, -0.5, 1e-3f, "bwd-long", note2, 1, 2,
				{ 1, 2, 3 }, 4, { 1, 2, 3, 4 }, 127, 1ull << 63 };
	struct iter_info it = { "iteration", 77 };
	struct outer o;
	double extra = 1.5;
	nvtxPayloadData_t pd[2];
	nvtxEventAttributes_t a;

	dom = nvtxDomainCreateA("profq.payload");
	reg();

	/* A push/pop range (core Ex call) with one extended payload. */
	a = attrs("train step");
	pd[0].schemaId = step_schema;
	pd[0].size = sizeof(s1);
	pd[0].payload = &s1;
	set_ext(&a, pd, 1);
	nvtxDomainRangePushEx(dom, &a);
	nvtxDomainRangePop(dom);
	printf("event train step\n");
	expect_step("train step", "$", &s1);

	/* A mark with two payloads: a schema and a predefined type; their fields share the args. */
	a = attrs("checkpoint");
	pd[0].schemaId = step_schema;
	pd[0].size = sizeof(s2);
	pd[0].payload = &s2;
	pd[1].schemaId = NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE;
	pd[1].size = sizeof(extra);
	pd[1].payload = &extra;
	set_ext(&a, pd, 2);
	nvtxDomainMarkEx(dom, &a);
	printf("event checkpoint\n");
	expect_step("checkpoint", "$", &s2);
	printf("field checkpoint|$.value1|%.17g\n", extra);

	/* A start/end range in the default domain (core call, payload in the default domain). */
	a = attrs("epoch");
	pd[0].schemaId = NVTX_PAYLOAD_ENTRY_TYPE_INT32;
	pd[0].size = sizeof(s1.step);
	pd[0].payload = &s1.step;
	set_ext(&a, pd, 1);
	nvtxRangeEnd(nvtxRangeStartEx(&a));
	printf("event epoch\n");
	printf("field epoch|$.value|%d\n", s1.step);

	/* The extension's own calls: the event name is the field flagged EVENT_MESSAGE ... */
	pd[0].schemaId = iter_schema;
	pd[0].size = sizeof(it);
	pd[0].payload = &it;
	nvtxRangePushPayload(dom, pd, 1);
	nvtxRangePopPayload(dom, NULL, 0);
	printf("event %s\n", it.what);
	printf("field %s|$.iter|%lld\n", it.what, (long long)it.iter);
	/* ... or, without one, the schema's name; nested schemas are nested objects. */
	o.id = 9;
	o.inner = s2;
	pd[0].schemaId = outer_schema;
	pd[0].size = sizeof(o);
	pd[0].payload = &o;
	nvtxMarkPayload(dom, pd, 1);
	printf("event outer\n");
	printf("field outer|$.id|%d\n", o.id);
	expect_step("outer", "$.inner", &o.inner);

	/* A payload shorter than its schema says: what lies outside it is null, nothing is read. */
	a = attrs("short");
	pd[0].schemaId = step_schema;
	pd[0].size = sizeof(s1.step);
	pd[0].payload = &s1;
	set_ext(&a, pd, 1);
	nvtxDomainMarkEx(dom, &a);
	printf("event short\n");
	printf("field short|$.step|%d\n", s1.step);
	printf("field short|json_type(args, '$.tokens')|'null'\n");
	printf("field short|json_type(args, '$.note')|'null'\n");

	counters();
	return 0;
}
