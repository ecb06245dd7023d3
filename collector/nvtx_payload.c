/* nvtx_payload.c - decoding binary NVTX payloads into JSON text, by their registered schema
 * (nvtx_schema.c), and counter samples into numbers (nvtx_payload.h).
 *
 * Supported: static schemas; integers, floats, booleans-as-integers, category/colour/scope/pid/tid
 * values, addresses; fixed-size arrays and arrays whose length is another entry
 * (ARRAY_LENGTH_INDEX); C strings inline (char[N]) or by pointer (NVTX_PAYLOAD_ENTRY_FLAG_POINTER,
 * copied during the call); registered string handles; nested schemas; enums (flag enums as
 * "A|B"). Anything else (unions, UTF-16/32 strings, 128-bit and half floats) decodes as null.
 * Nothing outside a payload's given size is read.
 */
#include "nvtx_payload.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json_quote.h"
#include "nvtx_event.h"
#include "nvtx_schema.h"

#define MAX_DEPTH 4
#define MAX_ARRAY 4096
#define MAX_POINTED_STRING 4096

/* JSON text ------------------------------------------------------------------------------------ */

typedef struct jw {
	char *p;
	size_t n, cap;
	int over;
} jw;

static void put(jw *w, const char *s, size_t len)
{
	if (w->over || w->n + len + 1 > w->cap) {
		w->over = 1;
		return;
	}
	memcpy(w->p + w->n, s, len);
	w->n += len;
	w->p[w->n] = '\0';
}

static void puts_(jw *w, const char *s)
{
	put(w, s, strlen(s));
}

static void putf(jw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(jw *w, const char *fmt, ...)
{
	char b[64];
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (k > 0)
		put(w, b, (size_t)k < sizeof(b) ? (size_t)k : sizeof(b) - 1);
}

static void put_str(jw *w, const char *s, size_t len)
{
	size_t n;

	if (w->over)
		return;
	n = pq_json_quote(w->p + w->n, w->cap - w->n, s, len);
	if (w->n + n + 1 > w->cap) {
		w->over = 1;
		w->p[w->n] = '\0';
		return;
	}
	w->n += n;
}

static void put_real(jw *w, double d)
{
	if (isfinite(d))
		putf(w, "%.17g", d);
	else
		puts_(w, "null");
}

/* Decoding -------------------------------------------------------------------------------------- */

typedef struct dec {
	const void *domain;
	const uint8_t *base, *end;
	char *msg_buf;
	size_t msg_cap;
	const char **message;
} dec;

static int readable(const dec *d, const uint8_t *p, size_t n)
{
	return p >= d->base && p <= d->end && (size_t)(d->end - p) >= n;
}

/* Integer types: 1 and the value (sign-extended or not) in *u; 0 when t is not an integer. */
static int int_value(uint64_t t, const uint8_t *p, int64_t *v, int *is_unsigned)
{
	*is_unsigned = 0;
	switch (t) {
	case NVTX_PAYLOAD_ENTRY_TYPE_CHAR: case NVTX_PAYLOAD_ENTRY_TYPE_INT8: {
		int8_t x; memcpy(&x, p, 1); *v = x; return 1; }
	case NVTX_PAYLOAD_ENTRY_TYPE_UCHAR: case NVTX_PAYLOAD_ENTRY_TYPE_UINT8:
	case NVTX_PAYLOAD_ENTRY_TYPE_CHAR8: case NVTX_PAYLOAD_ENTRY_TYPE_BYTE: {
		uint8_t x; memcpy(&x, p, 1); *v = x; return 1; }
	case NVTX_PAYLOAD_ENTRY_TYPE_SHORT: case NVTX_PAYLOAD_ENTRY_TYPE_INT16: {
		int16_t x; memcpy(&x, p, 2); *v = x; return 1; }
	case NVTX_PAYLOAD_ENTRY_TYPE_USHORT: case NVTX_PAYLOAD_ENTRY_TYPE_UINT16:
	case NVTX_PAYLOAD_ENTRY_TYPE_CHAR16: {
		uint16_t x; memcpy(&x, p, 2); *v = x; return 1; }
	case NVTX_PAYLOAD_ENTRY_TYPE_INT: case NVTX_PAYLOAD_ENTRY_TYPE_INT32: {
		int32_t x; memcpy(&x, p, 4); *v = x; return 1; }
	case NVTX_PAYLOAD_ENTRY_TYPE_UINT: case NVTX_PAYLOAD_ENTRY_TYPE_UINT32:
	case NVTX_PAYLOAD_ENTRY_TYPE_WCHAR: case NVTX_PAYLOAD_ENTRY_TYPE_CHAR32:
	case NVTX_PAYLOAD_ENTRY_TYPE_CATEGORY: case NVTX_PAYLOAD_ENTRY_TYPE_COLOR_ARGB:
	case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT32: case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT32: {
		uint32_t x; memcpy(&x, p, 4); *v = x; return 1; }
	case NVTX_PAYLOAD_ENTRY_TYPE_LONG: case NVTX_PAYLOAD_ENTRY_TYPE_LONGLONG:
	case NVTX_PAYLOAD_ENTRY_TYPE_INT64: {
		int64_t x; memcpy(&x, p, 8); *v = x; return 1; }
	case NVTX_PAYLOAD_ENTRY_TYPE_ULONG: case NVTX_PAYLOAD_ENTRY_TYPE_ULONGLONG:
	case NVTX_PAYLOAD_ENTRY_TYPE_UINT64: case NVTX_PAYLOAD_ENTRY_TYPE_SIZE:
	case NVTX_PAYLOAD_ENTRY_TYPE_ADDRESS: case NVTX_PAYLOAD_ENTRY_TYPE_SCOPE_ID:
	case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT64: case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT64: {
		uint64_t x; memcpy(&x, p, 8); *v = (int64_t)x; *is_unsigned = 1; return 1; }
	default:
		return 0;
	}
}

static int real_value(uint64_t t, const uint8_t *p, double *v)
{
	switch (t) {
	case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT: case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT32: {
		float x; memcpy(&x, p, 4); *v = x; return 1; }
	case NVTX_PAYLOAD_ENTRY_TYPE_DOUBLE: case NVTX_PAYLOAD_ENTRY_TYPE_FLOAT64: {
		double x; memcpy(&x, p, 8); *v = x; return 1; }
	case NVTX_PAYLOAD_ENTRY_TYPE_LONGDOUBLE: {
		long double x; memcpy(&x, p, sizeof(x) < 16 ? sizeof(x) : 16); *v = (double)x; return 1; }
	default:
		return 0;
	}
}

static void put_enum(jw *w, const schema *s, uint64_t v)
{
	int any = 0;

	for (size_t i = 0; i < s->n; i++)
		if (!s->en[i].is_flag && s->en[i].value == v && s->en[i].name != NULL) {
			put_str(w, s->en[i].name, strlen(s->en[i].name));
			return;
		}
	/* Flag enums: the names of the set flags, "A|B". */
	for (size_t i = 0; i < s->n; i++)
		if (s->en[i].is_flag && s->en[i].value != 0 && (v & s->en[i].value) == s->en[i].value)
			any = 1;
	if (!any) {
		putf(w, "%" PRIu64, v);
		return;
	}
	put(w, "\"", 1);
	any = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->en[i].is_flag && s->en[i].value != 0 && (v & s->en[i].value) == s->en[i].value &&
		    s->en[i].name != NULL) {
			if (any++)
				put(w, "|", 1);
			put(w, s->en[i].name, strlen(s->en[i].name));
		}
	put(w, "\"", 1);
}

static void put_object(jw *w, dec *d, const schema *s, const uint8_t *p, int depth, int top);

/* One element of type t at p (bounds checked by the caller for `size` bytes). */
static void put_element(jw *w, dec *d, const entry *e, const uint8_t *p, size_t size, int depth)
{
	const schema *sub;
	int64_t iv;
	double dv;
	int uns;

	if (int_value(e->type, p, &iv, &uns)) {
		if (uns)
			putf(w, "%" PRIu64, (uint64_t)iv);
		else
			putf(w, "%" PRId64, iv);
	} else if (real_value(e->type, p, &dv)) {
		put_real(w, dv);
	} else if (e->type == NVTX_PAYLOAD_ENTRY_TYPE_NVTX_REGISTERED_STRING_HANDLE) {
		const pq_nv_string *reg;
		memcpy(&reg, p, sizeof(reg));
		if (reg != NULL && reg->text != NULL)
			put_str(w, reg->text, strlen(reg->text));
		else
			puts_(w, "null");
	} else if (pq_schema_is_cstring(e->type)) {
		const char *text;
		size_t len;
		if (e->flags & NVTX_PAYLOAD_ENTRY_FLAG_POINTER) {
			memcpy(&text, p, sizeof(text));
			len = text != NULL ? strnlen(text, MAX_POINTED_STRING) : 0;
		} else {
			text = (const char *)p;
			len = strnlen(text, size);
		}
		if (text == NULL) {
			puts_(w, "null");
			return;
		}
		put_str(w, text, len);
		if ((e->flags & (3 << 10)) == NVTX_PAYLOAD_ENTRY_FLAG_EVENT_MESSAGE && d->message != NULL &&
		    *d->message == NULL && d->msg_cap > 0) {
			size_t k = len < d->msg_cap - 1 ? len : d->msg_cap - 1;
			memcpy(d->msg_buf, text, k);
			d->msg_buf[k] = '\0';
			*d->message = d->msg_buf;
		}
	} else if ((sub = pq_schema_find(d->domain, e->type)) != NULL && sub->is_enum) {
		uint64_t v = 0;
		memcpy(&v, p, sub->size <= 8 ? sub->size : 8);   /* little-endian */
		put_enum(w, sub, v);
	} else if (sub != NULL && depth < MAX_DEPTH) {
		put_object(w, d, sub, p, depth + 1, 0);
	} else {
		puts_(w, "null");
	}
}

/* An entry's value: one element or an array. prior holds the integer values of earlier entries
 * (lengths of ARRAY_LENGTH_INDEX arrays). */
static void put_entry(jw *w, dec *d, const schema *s, size_t i, const uint8_t *base,
		      const int64_t *prior, int depth)
{
	const entry *e = &s->e[i];
	const uint8_t *p = base + e->offset;
	size_t el, al, count = 1;
	uint64_t arr = NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_TYPE(e->flags);

	pq_schema_element_layout(d->domain, e, &el, &al);
	if (pq_schema_is_cstring(e->type) && !(e->flags & NVTX_PAYLOAD_ENTRY_FLAG_POINTER) && el == 0)
		el = readable(d, p, 0) ? (size_t)(d->end - p) : 0;   /* NUL-terminated, inline */
	if (el == 0 || !readable(d, p, el)) {
		puts_(w, "null");
		return;
	}
	if (pq_schema_is_cstring(e->type) || arr == 0) {
		put_element(w, d, e, p, el, depth);
		return;
	}
	if (arr == NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_FIXED_SIZE)
		count = (size_t)e->detail;
	else if (arr == NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_LENGTH_INDEX && e->detail < i && e->detail < 64 &&
		 prior[e->detail] >= 0)
		count = (size_t)prior[e->detail];
	else if (arr == NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_ZERO_TERMINATED)
		for (count = 0; readable(d, p + count * el, el) && count < MAX_ARRAY; count++) {
			int64_t v;
			int uns;
			if (int_value(e->type, p + count * el, &v, &uns) && v == 0)
				break;
		}
	else
		count = 0;
	if (count > MAX_ARRAY || !readable(d, p, count * el)) {
		puts_(w, "null");
		return;
	}
	put(w, "[", 1);
	for (size_t k = 0; k < count; k++) {
		if (k)
			put(w, ",", 1);
		put_element(w, d, e, p + k * el, el, depth);
	}
	put(w, "]", 1);
}

static void put_object(jw *w, dec *d, const schema *s, const uint8_t *p, int depth, int top)
{
	int64_t prior[64];

	if (!top)
		put(w, "{", 1);
	for (size_t i = 0; i < s->n; i++) {
		const entry *e = &s->e[i];
		int64_t v;
		int uns;

		if (i < 64) {
			prior[i] = -1;
			if (e->size > 0 && e->size <= 8 && readable(d, p + e->offset, e->size) &&
			    int_value(e->type, p + e->offset, &v, &uns))
				prior[i] = v;
		}
		/* top: the fields of several payloads share the caller's object */
		if (i > 0 || (top && w->n > 1))
			put(w, ",", 1);
		if (e->name != NULL)
			put_str(w, e->name, strlen(e->name));
		else
			putf(w, "\"field%zu\"", i);
		put(w, ":", 1);
		put_entry(w, d, s, i, p, prior, depth);
	}
	if (!top)
		put(w, "}", 1);
}

size_t pq_payload_json(const void *domain, const nvtxPayloadData_t *pd, size_t count, char *out,
		       size_t cap, char *msg_buf, size_t msg_cap, const char **message)
{
	jw w = { out, 0, cap, 0 };
	dec d = { domain, NULL, NULL, msg_buf, msg_cap, message };

	if (message != NULL)
		*message = NULL;
	if (cap == 0)
		return 0;
	out[0] = '\0';
	put(&w, "{", 1);
	for (size_t k = 0; k < count && pd != NULL; k++) {
		const schema *s = pd[k].schemaId >= NVTX_PAYLOAD_SCHEMA_ID_STATIC_START
			? pq_schema_find(domain, pd[k].schemaId) : NULL;
		size_t size = pd[k].size;

		if (pd[k].payload == NULL)
			continue;
		if (s != NULL && !s->is_enum) {
			if (size == SIZE_MAX)   /* "MAX_SIZE": the tool determines it */
				size = s->size;
			d.base = pd[k].payload;
			d.end = d.base + size;
			put_object(&w, &d, s, d.base, 0, 1);
		} else {
			/* A predefined type (or an enum) as the whole payload: "value", "value1", ... */
			entry e = { 0, pd[k].schemaId, 0, 0, 0, 0, NULL };
			size_t el = s != NULL ? s->size : pq_schema_scalar_size(pd[k].schemaId);

			if (size == SIZE_MAX)
				size = el;
			d.base = pd[k].payload;
			d.end = d.base + size;
			if (w.n > 1)
				put(&w, ",", 1);
			if (k == 0)
				puts_(&w, "\"value\":");
			else
				putf(&w, "\"value%zu\":", k);
			if (el != 0 && readable(&d, d.base, el))
				put_element(&w, &d, &e, d.base, el, 0);
			else
				puts_(&w, "null");
		}
	}
	put(&w, "}", 1);
	if (message != NULL && *message == NULL && msg_cap > 0 && count > 0 && pd != NULL) {
		/* No field is the event message: the first payload's schema names the event. */
		const schema *s = pq_schema_find(domain, pd[0].schemaId);

		if (s != NULL && s->name != NULL) {
			snprintf(msg_buf, msg_cap, "%s", s->name);
			*message = msg_buf;
		}
	}
	if (w.over) {
		w.over = 0;
		w.n = 0;
		puts_(&w, "{\"truncated\":true}");
	}
	return w.n;
}

size_t pq_payload_numeric_fields(const void *domain, uint64_t schema_id, const void *data,
				 size_t size, pq_payload_field_fn fn, void *ctx)
{
	const schema *s = schema_id >= NVTX_PAYLOAD_SCHEMA_ID_STATIC_START ? pq_schema_find(domain, schema_id) : NULL;
	const uint8_t *p = data;
	size_t calls = 0;
	int64_t iv;
	double dv;
	int uns;

	if (data == NULL)
		return 0;
	if (s == NULL) {
		size_t el = pq_schema_scalar_size(schema_id);
		if (el == 0 || size < el)
			return 0;
		if (int_value(schema_id, p, &iv, &uns))
			fn(ctx, NULL, uns ? (double)(uint64_t)iv : (double)iv);
		else if (real_value(schema_id, p, &dv))
			fn(ctx, NULL, dv);
		else
			return 0;
		return 1;
	}
	if (s->is_enum)
		return 0;
	if (size == SIZE_MAX)
		size = s->size;
	for (size_t i = 0; i < s->n; i++) {
		const entry *e = &s->e[i];
		size_t el = pq_schema_scalar_size(e->type);

		if (el == 0 || NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_TYPE(e->flags) != 0 || e->offset + el > size)
			continue;
		if (int_value(e->type, p + e->offset, &iv, &uns))
			fn(ctx, e->name, uns ? (double)(uint64_t)iv : (double)iv);
		else if (real_value(e->type, p + e->offset, &dv))
			fn(ctx, e->name, dv);
		else
			continue;
		calls++;
	}
	return calls;
}
