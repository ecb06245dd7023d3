/* nvtx.c - the NVTX tool: InitializeInjectionNvtx2 fills NVTX's function tables with handlers that
 * append events to the calling thread's buffer. Built with NVTX_NO_IMPL: the collector never calls
 * NVTX itself (that would re-enter its own initialisation; notes §3.5).
 *
 * NVTX mechanics (nvtx3/nvtxDetail/nvtxInit.h, nvtxImpl.h in the CUDA 13.0 toolkit): every
 * executable or shared library built with the v3 headers is its own NVTX instance and calls
 * InitializeInjectionNvtx2 once, with its own export table; so the tables are filled on every call
 * while the process-wide state (domains, buffers, writer) is made once. Slots left empty become
 * no-ops, hence every A, W, Ex and Domain variant is provided.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "collector.h"
#include "nvtx_event.h"
#include "nvtx_payload.h"
#include "nvtx_tool.h"

#define MAX_TEXT 4096

static pthread_mutex_t obj_mtx = PTHREAD_MUTEX_INITIALIZER;
static pq_nv_domain *domains;
static pq_nv_string *strings;
static int next_slot = 1;
static _Atomic uint64_t next_range_id = 1;
static _Atomic uint64_t capture_range_id;   /* start/end range that opened the capture */

size_t pq_wide_to_utf8(const wchar_t *w, char *out, size_t cap)
{
	size_t n = 0;

	for (; *w != 0; w++) {
		uint32_t c = (uint32_t)*w;
		char b[4];
		size_t k;

		if (c < 0x80) {
			b[0] = (char)c;
			k = 1;
		} else if (c < 0x800) {
			b[0] = (char)(0xC0 | (c >> 6));
			b[1] = (char)(0x80 | (c & 0x3F));
			k = 2;
		} else if (c < 0x10000) {
			b[0] = (char)(0xE0 | (c >> 12));
			b[1] = (char)(0x80 | ((c >> 6) & 0x3F));
			b[2] = (char)(0x80 | (c & 0x3F));
			k = 3;
		} else if (c < 0x110000) {
			b[0] = (char)(0xF0 | (c >> 18));
			b[1] = (char)(0x80 | ((c >> 12) & 0x3F));
			b[2] = (char)(0x80 | ((c >> 6) & 0x3F));
			b[3] = (char)(0x80 | (c & 0x3F));
			k = 4;
		} else {
			continue;
		}
		if (n + k + 1 > cap)
			break;
		memcpy(out + n, b, k);
		n += k;
	}
	out[n] = '\0';
	return n;
}

/* What an event says: text (ASCII or wide) or a registered handle, plus optional attributes. */
typedef struct msg {
	const char *a;
	const wchar_t *w;
	const pq_nv_string *reg;
	const nvtxEventAttributes_t *attr;
	const char *args;          /* decoded extended payload (JSON), stored after the text */
} msg;

static msg from_attr(const nvtxEventAttributes_t *a)
{
	msg m = { NULL, NULL, NULL, NULL, NULL };

	if (a == NULL || a->size < NVTX_EVENT_ATTRIB_STRUCT_SIZE)
		return m;
	m.attr = a;
	switch (a->messageType) {
	case NVTX_MESSAGE_TYPE_ASCII: m.a = a->message.ascii; break;
	case NVTX_MESSAGE_TYPE_UNICODE: m.w = a->message.unicode; break;
	case NVTX_MESSAGE_TYPE_REGISTERED:
		m.reg = (const pq_nv_string *)a->message.registered;
		break;
	default: break;
	}
	return m;
}

static void set_attrs(pq_nv_event *e, const nvtxEventAttributes_t *a)
{
	e->category = 0;
	e->has_color = 0;
	e->payload_type = PQ_NV_PAY_NONE;
	if (a == NULL)
		return;
	e->category = a->category;
	if (a->colorType == NVTX_COLOR_ARGB) {
		e->has_color = 1;
		e->color = a->color;
	}
	switch (a->payloadType) {
	case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64:
		e->payload_type = PQ_NV_PAY_INT;
		e->payload.i = (int64_t)a->payload.ullValue;
		break;
	case NVTX_PAYLOAD_TYPE_INT64:
		e->payload_type = PQ_NV_PAY_INT;
		e->payload.i = a->payload.llValue;
		break;
	case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32:
		e->payload_type = PQ_NV_PAY_INT;
		e->payload.i = a->payload.uiValue;
		break;
	case NVTX_PAYLOAD_TYPE_INT32:
		e->payload_type = PQ_NV_PAY_INT;
		e->payload.i = a->payload.iValue;
		break;
	case NVTX_PAYLOAD_TYPE_DOUBLE:
		e->payload_type = PQ_NV_PAY_REAL;
		e->payload.d = a->payload.dValue;
		break;
	case NVTX_PAYLOAD_TYPE_FLOAT:
		e->payload_type = PQ_NV_PAY_REAL;
		e->payload.d = a->payload.fValue;
		break;
	default: break;
	}
}

static void record_ext(pq_tbuf *t, int type, const pq_nv_domain *d, msg m, uint64_t id);

/* Appends one event; the hot path. extra (rare events only) replaces the attributes: category and
 * payload. Forced inline: as a call (gcc 12 stopped inlining it once it grew the extended-payload
 * branch) the push+pop pair cost ~60 more instructions (callgrind, bench/nvtx_bench). */
static inline __attribute__((always_inline)) void record_ex(pq_tbuf *t, int type, const pq_nv_domain *d, msg m, uint64_t id,
			     const pq_nv_event *extra)
{
	size_t len = 0, room, alen = 0;
	pq_nv_event *e;

	if (__builtin_expect(m.attr != NULL && m.args == NULL &&
			     m.attr->payloadType == NVTX_PAYLOAD_TYPE_EXT, 0)) {
		record_ext(t, type, d, m, id);
		return;
	}
	if (m.args != NULL)
		alen = strlen(m.args) + 1;
	if (m.a != NULL) {
		len = strnlen(m.a, MAX_TEXT - 1);
		room = (sizeof(*e) + len + 1 + 7) & ~(size_t)7;
	} else if (m.w != NULL) {
		len = wcslen(m.w) * 4;
		room = (sizeof(*e) + (len < MAX_TEXT ? len : MAX_TEXT) + 1 + 7) & ~(size_t)7;
	} else {
		room = sizeof(*e);
	}
	room = (room + alen + 7) & ~(size_t)7;
	e = pq_tbuf_reserve(t, room);
	if (e == NULL)
		return;
	e->type = (uint8_t)type;
	e->ts = pq_now_ns();
	e->id = id;
	e->domain = d;
	e->reg = m.reg;
	set_attrs(e, m.attr);
	if (extra != NULL) {
		e->category = extra->category;
		e->payload_type = extra->payload_type;
		e->payload = extra->payload;
	}
	if (m.a != NULL) {
		memcpy(e + 1, m.a, len);
		((char *)(e + 1))[len] = '\0';
		e->msg = PQ_NV_MSG_TEXT;
	} else if (m.w != NULL) {
		len = pq_wide_to_utf8(m.w, (char *)(e + 1), room - sizeof(*e) - alen);
		room = (sizeof(*e) + len + 1 + 7) & ~(size_t)7;
		e->msg = PQ_NV_MSG_TEXT;
	} else {
		e->msg = m.reg != NULL ? PQ_NV_MSG_REGISTERED : PQ_NV_MSG_NONE;
	}
	if (alen != 0) {
		size_t at = sizeof(*e) + (e->msg == PQ_NV_MSG_TEXT ? len + 1 : 0);

		memcpy((char *)e + at, m.args, alen);
		e->payload_type = PQ_NV_PAY_EXT;
		e->payload.i = (int64_t)at;
		room = (at + alen + 7) & ~(size_t)7;
	}
	e->size = (uint32_t)room;
	pq_tbuf_commit(t, room);
}

#define HOT static inline __attribute__((always_inline))

HOT void record(pq_tbuf *t, int type, const pq_nv_domain *d, msg m, uint64_t id)
{
	record_ex(t, type, d, m, id, NULL);
}

#define ARGS_MAX 8192

/* An event whose attributes carry extended payloads (payloadType NVTX_PAYLOAD_TYPE_EXT,
 * nvtx3/nvToolsExtPayload.h: payload.ullValue points at reserved0 nvtxPayloadData_t): decoded to
 * JSON now, while the payload's memory is valid. Off the hot path. */
static __attribute__((noinline)) void record_ext(pq_tbuf *t, int type, const pq_nv_domain *d,
						 msg m, uint64_t id)
{
	char args[ARGS_MAX], name[MAX_TEXT];
	const char *message = NULL;
	const nvtxPayloadData_t *pd =
		(const nvtxPayloadData_t *)(uintptr_t)m.attr->payload.ullValue;
	size_t count = m.attr->reserved0 > 0 ? (size_t)m.attr->reserved0 : 1;

	pq_payload_json(d, pd, count, args, sizeof(args), name, sizeof(name), &message);
	m.args = args;
	if (m.a == NULL && m.w == NULL && m.reg == NULL)
		m.a = message;
	record_ex(t, type, d, m, id, NULL);
}

/* Capture gate (--capture-range nvtx:NAME): does this opening range start the capture? */
static int opens_capture(msg m)
{
	const char *text = m.a != NULL ? m.a : m.reg != NULL ? m.reg->text : NULL;
	char buf[sizeof(pq_cfg.capture_nvtx)];

	if (text == NULL && m.w != NULL) {
		pq_wide_to_utf8(m.w, buf, sizeof(buf));
		text = buf;
	}
	return text != NULL && strcmp(text, pq_cfg.capture_nvtx) == 0;
}

static int capturing(void)
{
	return atomic_load_explicit(&pq_capturing, memory_order_relaxed);
}

static int slot_of(const pq_nv_domain *d)
{
	return d == NULL ? 0 : d->slot;
}

/* push, pop, start, end and mark are inlined into each NVTX handler, so a handler's constant
 * message shape (A, W, attributes) folds away the branches it does not need. */
HOT int push(const pq_nv_domain *d, msg m)
{
	pq_tbuf *t = pq_tbuf_self();
	int level;

	if (t == NULL)
		return -1;
	level = t->depth[slot_of(d)]++;
	if (!capturing()) {
		if (pq_cfg.capture_nvtx[0] == '\0' || !opens_capture(m))
			return level;
		t->capture_depth = level * PQ_MAX_DOMAIN_SLOTS + slot_of(d);
		pq_capture_set(1);
	}
	record(t, PQ_NV_PUSH, d, m, 0);
	return level;
}

HOT int pop(const pq_nv_domain *d)
{
	pq_tbuf *t = pq_tbuf_self();
	int level;

	if (t == NULL || t->depth[slot_of(d)] <= 0)
		return -1;
	level = --t->depth[slot_of(d)];
	if (capturing()) {
		record(t, PQ_NV_POP, d, (msg){ NULL, NULL, NULL, NULL, NULL }, 0);
		if (t->capture_depth == level * PQ_MAX_DOMAIN_SLOTS + slot_of(d)) {
			t->capture_depth = -1;
			pq_capture_set(0);
		}
	}
	return level;
}

HOT nvtxRangeId_t start(const pq_nv_domain *d, msg m)
{
	pq_tbuf *t = pq_tbuf_self();
	uint64_t id = atomic_fetch_add_explicit(&next_range_id, 1, memory_order_relaxed);

	if (t == NULL)
		return 0;
	if (!capturing()) {
		if (pq_cfg.capture_nvtx[0] == '\0' || !opens_capture(m))
			return id;
		atomic_store(&capture_range_id, id);
		pq_capture_set(1);
	}
	record(t, PQ_NV_START, d, m, id);
	return id;
}

HOT void end(const pq_nv_domain *d, nvtxRangeId_t id)
{
	pq_tbuf *t = pq_tbuf_self();

	if (t == NULL || !capturing())
		return;
	record(t, PQ_NV_END, d, (msg){ NULL, NULL, NULL, NULL, NULL }, id);
	if (id == atomic_load(&capture_range_id)) {
		atomic_store(&capture_range_id, 0);
		pq_capture_set(0);
	}
}

HOT void mark(const pq_nv_domain *d, msg m)
{
	pq_tbuf *t = pq_tbuf_self();

	if (t != NULL && capturing())
		record(t, PQ_NV_MARK, d, m, 0);
}

/* Naming events are recorded whatever the capture state: later ranges refer to them. */
static void name_event(int type, const pq_nv_domain *d, uint64_t id, msg m)
{
	pq_tbuf *t = pq_tbuf_self();

	if (t != NULL)
		record(t, type, d, m, id);
}

void pq_nvtx_name_resource(unsigned resource, uint64_t handle, int64_t cupti_id, const char *a,
			   const wchar_t *w)
{
	pq_tbuf *t = pq_tbuf_self();
	pq_nv_event extra;

	if (t == NULL || (a == NULL && w == NULL))
		return;
	memset(&extra, 0, sizeof(extra));
	extra.category = resource;
	if (cupti_id >= 0) {
		extra.payload_type = PQ_NV_PAY_INT;
		extra.payload.i = cupti_id;
	}
	record_ex(t, PQ_NV_NAME_RESOURCE, NULL, (msg){ a, w, NULL, NULL, NULL }, handle, &extra);
}

/* For the payload and counters extensions (nvtx_ext.c). */
int pq_nvtx_push_args(const void *d, const char *text, const char *args)
{
	return push(d, (msg){ text, NULL, NULL, NULL, args });
}

int pq_nvtx_pop(const void *d)
{
	return pop(d);
}

uint64_t pq_nvtx_start_args(const void *d, const char *text, const char *args)
{
	return start(d, (msg){ text, NULL, NULL, NULL, args });
}

void pq_nvtx_end(const void *d, uint64_t id)
{
	end(d, id);
}

void pq_nvtx_mark_args(const void *d, const char *text, const char *args)
{
	mark(d, (msg){ text, NULL, NULL, NULL, args });
}

void pq_nvtx_counter(const void *d, const char *series, double value)
{
	pq_tbuf *t = pq_tbuf_self();
	pq_nv_event extra;

	if (t == NULL || series == NULL || !capturing())
		return;
	memset(&extra, 0, sizeof(extra));
	extra.payload_type = PQ_NV_PAY_REAL;
	extra.payload.d = value;
	record_ex(t, PQ_NV_COUNTER, d, (msg){ series, NULL, NULL, NULL, NULL }, 0, &extra);
}

#define A(s) ((msg){ (s), NULL, NULL, NULL, NULL })
#define W(s) ((msg){ NULL, (s), NULL, NULL, NULL })

/* Core module. */
static void NVTX_API mark_ex(const nvtxEventAttributes_t *a) { mark(NULL, from_attr(a)); }
static void NVTX_API mark_a(const char *s) { mark(NULL, A(s)); }
static void NVTX_API mark_w(const wchar_t *s) { mark(NULL, W(s)); }
static nvtxRangeId_t NVTX_API start_ex(const nvtxEventAttributes_t *a) { return start(NULL, from_attr(a)); }
static nvtxRangeId_t NVTX_API start_a(const char *s) { return start(NULL, A(s)); }
static nvtxRangeId_t NVTX_API start_w(const wchar_t *s) { return start(NULL, W(s)); }
static void NVTX_API end_(nvtxRangeId_t id) { end(NULL, id); }
static int NVTX_API push_ex(const nvtxEventAttributes_t *a) { return push(NULL, from_attr(a)); }
static int NVTX_API push_a(const char *s) { return push(NULL, A(s)); }
static int NVTX_API push_w(const wchar_t *s) { return push(NULL, W(s)); }
static int NVTX_API pop_(void) { return pop(NULL); }
static void NVTX_API name_category_a(uint32_t c, const char *s) { name_event(PQ_NV_NAME_CATEGORY, NULL, c, A(s)); }
static void NVTX_API name_category_w(uint32_t c, const wchar_t *s) { name_event(PQ_NV_NAME_CATEGORY, NULL, c, W(s)); }
static void NVTX_API name_thread_a(uint32_t tid, const char *s) { name_event(PQ_NV_NAME_THREAD, NULL, tid, A(s)); }
static void NVTX_API name_thread_w(uint32_t tid, const wchar_t *s) { name_event(PQ_NV_NAME_THREAD, NULL, tid, W(s)); }

/* Core2 module: domains. */
#define DOM(h) ((const pq_nv_domain *)(h))
static void NVTX_API d_mark_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { mark(DOM(d), from_attr(a)); }
static nvtxRangeId_t NVTX_API d_start_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { return start(DOM(d), from_attr(a)); }
static void NVTX_API d_end(nvtxDomainHandle_t d, nvtxRangeId_t id) { end(DOM(d), id); }
static int NVTX_API d_push_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { return push(DOM(d), from_attr(a)); }
static int NVTX_API d_pop(nvtxDomainHandle_t d) { return pop(DOM(d)); }
static void NVTX_API d_name_category_a(nvtxDomainHandle_t d, uint32_t c, const char *s) { name_event(PQ_NV_NAME_CATEGORY, DOM(d), c, A(s)); }
static void NVTX_API d_name_category_w(nvtxDomainHandle_t d, uint32_t c, const wchar_t *s) { name_event(PQ_NV_NAME_CATEGORY, DOM(d), c, W(s)); }

static char *dup_text(const char *a, const wchar_t *w)
{
	char *s;

	if (a != NULL)
		return strdup(a);
	if (w == NULL || (s = malloc(wcslen(w) * 4 + 1)) == NULL)
		return NULL;
	pq_wide_to_utf8(w, s, wcslen(w) * 4 + 1);
	return s;
}

static nvtxStringHandle_t register_string(const char *a, const wchar_t *w)
{
	pq_nv_string *s = calloc(1, sizeof(*s));

	if (s == NULL || (s->text = dup_text(a, w)) == NULL) {
		free(s);
		return NULL;
	}
	pthread_mutex_lock(&obj_mtx);
	s->next = strings;
	strings = s;
	pthread_mutex_unlock(&obj_mtx);
	return (nvtxStringHandle_t)s;
}

static nvtxStringHandle_t NVTX_API d_register_a(nvtxDomainHandle_t d, const char *s) { (void)d; return register_string(s, NULL); }
static nvtxStringHandle_t NVTX_API d_register_w(nvtxDomainHandle_t d, const wchar_t *s) { (void)d; return register_string(NULL, s); }

/* One handle per name in the process, whichever NVTX instance asks. */
static nvtxDomainHandle_t create_domain(const char *a, const wchar_t *w)
{
	char *name = dup_text(a, w);
	pq_nv_domain *d;

	if (name == NULL)
		return NULL;
	pthread_mutex_lock(&obj_mtx);
	for (d = domains; d != NULL; d = d->next)
		if (strcmp(d->name, name) == 0)
			break;
	if (d == NULL && (d = calloc(1, sizeof(*d))) != NULL) {
		d->name = name;
		name = NULL;
		d->slot = next_slot < PQ_MAX_DOMAIN_SLOTS - 1 ? next_slot++ : PQ_MAX_DOMAIN_SLOTS - 1;
		d->next = domains;
		domains = d;
	}
	pthread_mutex_unlock(&obj_mtx);
	free(name);
	return (nvtxDomainHandle_t)d;
}

static nvtxDomainHandle_t NVTX_API d_create_a(const char *s) { return create_domain(s, NULL); }
static nvtxDomainHandle_t NVTX_API d_create_w(const wchar_t *s) { return create_domain(NULL, s); }
/* Kept: events already buffered point at it, and another instance may share the handle. */
static void NVTX_API d_destroy(nvtxDomainHandle_t d) { (void)d; }
static void NVTX_API initialize(const void *reserved) { (void)reserved; }

typedef pq_nvtx_slot slot;
#define F(f) PQ_NVTX_FN(f)

static const slot core_slots[] = {
	{ NVTX_CBID_CORE_MarkEx, F(mark_ex) }, { NVTX_CBID_CORE_MarkA, F(mark_a) },
	{ NVTX_CBID_CORE_MarkW, F(mark_w) }, { NVTX_CBID_CORE_RangeStartEx, F(start_ex) },
	{ NVTX_CBID_CORE_RangeStartA, F(start_a) }, { NVTX_CBID_CORE_RangeStartW, F(start_w) },
	{ NVTX_CBID_CORE_RangeEnd, F(end_) }, { NVTX_CBID_CORE_RangePushEx, F(push_ex) },
	{ NVTX_CBID_CORE_RangePushA, F(push_a) }, { NVTX_CBID_CORE_RangePushW, F(push_w) },
	{ NVTX_CBID_CORE_RangePop, F(pop_) }, { NVTX_CBID_CORE_NameCategoryA, F(name_category_a) },
	{ NVTX_CBID_CORE_NameCategoryW, F(name_category_w) },
	{ NVTX_CBID_CORE_NameOsThreadA, F(name_thread_a) },
	{ NVTX_CBID_CORE_NameOsThreadW, F(name_thread_w) },
};

static const slot core2_slots[] = {
	{ NVTX_CBID_CORE2_DomainMarkEx, F(d_mark_ex) },
	{ NVTX_CBID_CORE2_DomainRangeStartEx, F(d_start_ex) },
	{ NVTX_CBID_CORE2_DomainRangeEnd, F(d_end) },
	{ NVTX_CBID_CORE2_DomainRangePushEx, F(d_push_ex) },
	{ NVTX_CBID_CORE2_DomainRangePop, F(d_pop) },
	{ NVTX_CBID_CORE2_DomainNameCategoryA, F(d_name_category_a) },
	{ NVTX_CBID_CORE2_DomainNameCategoryW, F(d_name_category_w) },
	{ NVTX_CBID_CORE2_DomainRegisterStringA, F(d_register_a) },
	{ NVTX_CBID_CORE2_DomainRegisterStringW, F(d_register_w) },
	{ NVTX_CBID_CORE2_DomainCreateA, F(d_create_a) },
	{ NVTX_CBID_CORE2_DomainCreateW, F(d_create_w) },
	{ NVTX_CBID_CORE2_DomainDestroy, F(d_destroy) },
	{ NVTX_CBID_CORE2_Initialize, F(initialize) },
};

int pq_nvtx_fill(const NvtxExportTableCallbacks *cb, NvtxCallbackModule module, const slot *s,
		 size_t n)
{
	NvtxFunctionTable table = NULL;
	unsigned size = 0;

	if (!cb->GetModuleFunctionTable(module, &table, &size) || table == NULL)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i].id < size && table[s[i].id] != NULL)
			*table[s[i].id] = s[i].fn;
	return 1;
}

PQ_EXPORT int NVTX_API InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
	const NvtxExportTableCallbacks *cb;

	if (pq_collector_start() != 0 || !(pq_cfg.kinds & PQ_K_NVTX))
		return 0;   /* NVTX then makes every call a no-op in this instance */
	cb = get_export_table(NVTX_ETID_CALLBACKS);
	if (cb == NULL || cb->struct_size < sizeof(*cb))
		return 0;
	if (!pq_nvtx_fill(cb, NVTX_CB_MODULE_CORE, core_slots,
			  sizeof(core_slots) / sizeof(core_slots[0])) ||
	    !pq_nvtx_fill(cb, NVTX_CB_MODULE_CORE2, core2_slots,
			  sizeof(core2_slots) / sizeof(core2_slots[0])))
		return 0;
	/* Optional modules: an instance without them just keeps those calls no-ops. */
	pq_nvtx_cuda_fill(cb);
	return 1;
}
