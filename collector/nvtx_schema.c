/* nvtx_schema.c - registering NVTX payload schemas and enums (nvtxPayloadSchemaRegister,
 * nvtxPayloadEnumRegister in nvtx3/nvToolsExtPayload.h, CUDA 13 toolkit) and their layout.
 *
 * A schema is a list of entries (nvtxPayloadSchemaEntry_t) with a predefined type
 * (NVTX_PAYLOAD_ENTRY_TYPE_*) or another schema's id (nesting, enums); an entry without an offset
 * is placed by natural alignment after the previous one ("the NVTX handler will determine the
 * offset from natural alignment rules"). Type sizes are the LP64 ones of Linux x86-64/aarch64,
 * which is what the header's nvtxExtPayloadTypeInfo table holds there. Registered schemas and
 * enums are copied (nothing is kept by reference) and live until the process exits.
 */
#include "nvtx_schema.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t reg_mtx = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(schema *) schemas;     /* only grows at its head: readers need no lock */
static uint64_t next_dynamic = NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START;

size_t pq_schema_scalar_size(uint64_t t)
{
	switch (t) {
	case NVTX_PAYLOAD_ENTRY_TYPE_CHAR: case NVTX_PAYLOAD_ENTRY_TYPE_UCHAR:
	case NVTX_PAYLOAD_ENTRY_TYPE_INT8: case NVTX_PAYLOAD_ENTRY_TYPE_UINT8:
	case NVTX_PAYLOAD_ENTRY_TYPE_CHAR8: case NVTX_PAYLOAD_ENTRY_TYPE_BYTE:
		return 1;
	case NVTX_PAYLOAD_ENTRY_TYPE_SHORT: case NVTX_PAYLOAD_ENTRY_TYPE_USHORT:
	case NVTX_PAYLOAD_ENTRY_TYPE_INT16: case NVTX_PAYLOAD_ENTRY_TYPE_UINT16:
	case NVTX_PAYLOAD_ENTRY_TYPE_CHAR16: case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT16:
	case NVTX_PAYLOAD_ENTRY_TYPE_BF16:
		return 2;
	case NVTX_PAYLOAD_ENTRY_TYPE_INT: case NVTX_PAYLOAD_ENTRY_TYPE_UINT:
	case NVTX_PAYLOAD_ENTRY_TYPE_INT32: case NVTX_PAYLOAD_ENTRY_TYPE_UINT32:
	case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT: case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT32:
	case NVTX_PAYLOAD_ENTRY_TYPE_WCHAR: case NVTX_PAYLOAD_ENTRY_TYPE_CHAR32:
	case NVTX_PAYLOAD_ENTRY_TYPE_CATEGORY: case NVTX_PAYLOAD_ENTRY_TYPE_COLOR_ARGB:
	case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT32: case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT32:
	case NVTX_PAYLOAD_ENTRY_TYPE_TF32:
		return 4;
	case NVTX_PAYLOAD_ENTRY_TYPE_LONG: case NVTX_PAYLOAD_ENTRY_TYPE_ULONG:
	case NVTX_PAYLOAD_ENTRY_TYPE_LONGLONG: case NVTX_PAYLOAD_ENTRY_TYPE_ULONGLONG:
	case NVTX_PAYLOAD_ENTRY_TYPE_INT64: case NVTX_PAYLOAD_ENTRY_TYPE_UINT64:
	case NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE: case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT64:
	case NVTX_PAYLOAD_ENTRY_TYPE_SIZE: case NVTX_PAYLOAD_ENTRY_TYPE_ADDRESS:
	case NVTX_PAYLOAD_ENTRY_TYPE_SCOPE_ID: case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT64:
	case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT64:
	case NVTX_PAYLOAD_ENTRY_TYPE_NVTX_REGISTERED_STRING_HANDLE:
		return 8;
	case NVTX_PAYLOAD_ENTRY_TYPE_LONGDOUBLE: case NVTX_PAYLOAD_ENTRY_TYPE_INT128:
	case NVTX_PAYLOAD_ENTRY_TYPE_UINT128: case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT128:
		return 16;
	default:
		return 0;
	}
}

int pq_schema_is_cstring(uint64_t t)
{
	return t == NVTX_PAYLOAD_ENTRY_TYPE_CSTRING || t == NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF8;
}

const schema *pq_schema_find(const void *domain, uint64_t id)
{
	const schema *s = atomic_load_explicit(&schemas, memory_order_acquire);

	/* Dynamic ids are unique in the process; static ones are the domain's. */
	for (; s != NULL; s = s->next)
		if (s->id == id && (id >= NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START || s->domain == domain))
			return s;
	return NULL;
}

static char *dup_or_null(const char *s)
{
	return s != NULL ? strdup(s) : NULL;
}

/* Size and alignment of an entry's one element; 0 size when variable. */
void pq_schema_element_layout(const void *domain, const entry *e, size_t *size, size_t *align)
{
	const schema *sub;

	*size = *align = pq_schema_scalar_size(e->type);
	if (*size != 0) {
		if (*align > 8)
			*align = 16;
		return;
	}
	if (pq_schema_is_cstring(e->type)) {
		if (e->flags & NVTX_PAYLOAD_ENTRY_FLAG_POINTER) {
			*size = *align = sizeof(void *);
		} else {
			*size = (size_t)e->detail;   /* char[detail] */
			*align = 1;
		}
		return;
	}
	if ((sub = pq_schema_find(domain, e->type)) != NULL) {
		*size = sub->size;
		*align = sub->align ? sub->align : 1;
		return;
	}
	*size = 0;
	*align = 1;
}

static size_t align_up(size_t v, size_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

static void publish(schema *s)
{
	s->next = atomic_load_explicit(&schemas, memory_order_relaxed);
	atomic_store_explicit(&schemas, s, memory_order_release);
}

static uint64_t take_id(uint64_t mask, uint64_t field, uint64_t given)
{
	if ((mask & field) && given != 0)
		return given;
	return next_dynamic++;
}

uint64_t pq_payload_schema_register(const void *domain, const nvtxPayloadSchemaAttr_t *attr)
{
	schema *s;
	size_t end = 0, max_align = 1;

	if (attr == NULL || !(attr->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES) ||
	    attr->entries == NULL || (s = calloc(1, sizeof(*s))) == NULL)
		return 0;
	s->n = (attr->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES) ? attr->numEntries : 0;
	if (s->n == 0)   /* "numEntries ... or the entries array is terminated by a zero entry" */
		while (attr->entries[s->n].type != NVTX_PAYLOAD_ENTRY_TYPE_INVALID)
			s->n++;
	if ((s->e = calloc(s->n ? s->n : 1, sizeof(*s->e))) == NULL) {
		free(s);
		return 0;
	}
	s->domain = domain;
	s->name = (attr->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME) ? dup_or_null(attr->name) : NULL;
	pthread_mutex_lock(&reg_mtx);
	for (size_t i = 0; i < s->n; i++) {
		const nvtxPayloadSchemaEntry_t *src = &attr->entries[i];
		entry *e = &s->e[i];
		size_t el, al, count = 1;

		e->flags = src->flags;
		e->type = src->type;
		e->detail = src->arrayOrUnionDetail;
		e->name = dup_or_null(src->name);
		pq_schema_element_layout(domain, e, &el, &al);
		if (NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_TYPE(e->flags) == NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_FIXED_SIZE &&
		    !pq_schema_is_cstring(e->type))
			count = (size_t)e->detail;
		else if (NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_TYPE(e->flags) != 0 && !pq_schema_is_cstring(e->type))
			count = 0;   /* variable length: known only from the data */
		e->align = al;
		e->size = el * count;
		e->offset = (src->offset != 0 || i == 0) ? (size_t)src->offset : align_up(end, al);
		end = e->offset + e->size;
		if (al > max_align)
			max_align = al;
	}
	s->align = max_align;
	s->size = (attr->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE) && attr->payloadStaticSize
		? attr->payloadStaticSize : align_up(end, max_align);
	s->id = take_id(attr->fieldMask, NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID, attr->schemaId);
	publish(s);
	pthread_mutex_unlock(&reg_mtx);
	return s->id;
}

uint64_t pq_payload_enum_register(const void *domain, const nvtxPayloadEnumAttr_t *attr)
{
	schema *s;

	if (attr == NULL || !(attr->fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_ENTRIES) ||
	    !(attr->fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_NUM_ENTRIES) || attr->entries == NULL ||
	    (s = calloc(1, sizeof(*s))) == NULL)
		return 0;
	s->is_enum = 1;
	s->domain = domain;
	s->n = attr->numEntries;
	s->name = (attr->fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_NAME) ? dup_or_null(attr->name) : NULL;
	/* "sizeOfEnum: ... if not set, sizeof(int) is assumed" is C's default; keep it. */
	s->size = (attr->fieldMask & NVTX_PAYLOAD_ENUM_ATTR_FIELD_SIZE) && attr->sizeOfEnum
		? attr->sizeOfEnum : sizeof(int);
	s->align = s->size <= 8 ? s->size : 8;
	if ((s->en = calloc(s->n ? s->n : 1, sizeof(*s->en))) == NULL) {
		free(s);
		return 0;
	}
	for (size_t i = 0; i < s->n; i++) {
		s->en[i].name = dup_or_null(attr->entries[i].name);
		s->en[i].value = attr->entries[i].value;
		s->en[i].is_flag = attr->entries[i].isFlag;
	}
	pthread_mutex_lock(&reg_mtx);
	s->id = take_id(attr->fieldMask, NVTX_PAYLOAD_ENUM_ATTR_FIELD_SCHEMA_ID, attr->schemaId);
	publish(s);
	pthread_mutex_unlock(&reg_mtx);
	return s->id;
}
