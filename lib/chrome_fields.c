/* chrome_fields.c - an event's members by name, in one pass; values as integers, reals, text. */
#include "chrome_fields.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome_time.h"
#include "store.h"

_Static_assert(CA_N <= 32, "chrome_digest.columnable has a bit per chrome_arg");

const char *const chrome_arg_names[CA_N] = {
	[CA_DEVICE] = "device",
	[CA_STREAM] = "stream",
	[CA_CORRELATION] = "correlation",
	[CA_EXTERNAL_ID] = "External id",
	[CA_EXTERNAL_ID_LC] = "external id",
	[CA_REGISTERS] = "registers per thread",
	[CA_SHARED_MEMORY] = "shared memory",
	[CA_BLOCKS_PER_SM] = "blocks per SM",
	[CA_WARPS_PER_SM] = "warps per SM",
	[CA_GRID] = "grid",
	[CA_BLOCK] = "block",
	[CA_OCCUPANCY] = "est. achieved occupancy %",
	[CA_GRAPH_ID] = "graph id",
	[CA_GRAPH_NODE_ID] = "graph node id",
	[CA_BYTES] = "bytes",
	[CA_CBID] = "cbid",
	[CA_WAIT_EVENT] = "wait_on_cuda_event_id",
	[CA_MEM_BYTES] = "Bytes",
	[CA_ADDR] = "Addr",
	[CA_TOTAL_ALLOCATED] = "Total Allocated",
	[CA_TOTAL_RESERVED] = "Total Reserved",
	[CA_DEVICE_TYPE] = "Device Type",
	[CA_DEVICE_ID] = "Device Id",
};

static int is(const char *k, const char *name)
{
	return strcmp(k, name) == 0;
}

/* The chrome_field of an event key, or -1; dispatches on the first byte. */
static int field_of(const char *k)
{
	switch (k[0]) {
	case 'p': return is(k, "ph") ? CF_PH : is(k, "pid") ? CF_PID : -1;
	case 'n': return is(k, "name") ? CF_NAME : -1;
	case 'c': return is(k, "cat") ? CF_CAT : -1;
	case 't': return is(k, "tid") ? CF_TID : -1;
	case 'a': return is(k, "args") ? CF_ARGS : -1;
	case 'i': return is(k, "id") ? CF_ID : is(k, "id2") ? CF_ID2 : -1;
	case 's': return is(k, "s") ? CF_S : is(k, "scope") ? CF_SCOPE : -1;
	case 'b': return is(k, "bp") ? CF_BP : -1;
	default: return -1;
	}
}

/* The chrome_arg of an args key, or -1: a byte compare rules out all but one or two names. */
static int arg_of(const char *k)
{
	for (int i = 0; i < CA_N; i++)
		if (chrome_arg_names[i][0] == k[0] && strcmp(chrome_arg_names[i], k) == 0)
			return i;
	return -1;
}

int chrome_arg_named(const char *key, size_t len)
{
	for (int i = 0; i < CA_N; i++)
		if (chrome_arg_names[i][0] == key[0] && strlen(chrome_arg_names[i]) == len &&
		    memcmp(chrome_arg_names[i], key, len) == 0)
			return 1;
	return 0;
}

const char *chrome_member_text(const char *text, const pq_chrome_members *mem, const char *key,
			       size_t *len)
{
	size_t kl = strlen(key);

	for (int i = 0; i < mem->n; i++) {
		const pq_chrome_member *m = &mem->m[i];

		if (m->key_len == kl && memcmp(text + m->key, key, kl) == 0) {
			*len = m->val_len;
			return text + m->val;
		}
	}
	return NULL;
}

enum chrome_time_state chrome_time_member(const cJSON *json, const char *text,
					  const pq_chrome_members *mem, const char *key,
					  int64_t *ns)
{
	size_t n;
	const char *t = chrome_member_text(text, mem, key, &n);

	if (t == NULL) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(json, key);
		char buf[64];

		if (v == NULL || cJSON_IsNull(v))
			return CT_ABSENT;
		/* Beyond the scanner's member limit: the double is all there is. */
		if (!cJSON_IsNumber(v))
			return CT_BAD;
		snprintf(buf, sizeof(buf), "%.17g", v->valuedouble);
		return pq_chrome_us_to_ns(buf, strlen(buf), ns) == 0 ? CT_OK : CT_BAD;
	}
	if (n == 4 && memcmp(t, "null", 4) == 0)
		return CT_ABSENT;
	if (n >= 2 && t[0] == '"') { /* numeric strings are accepted, as Perfetto does */
		t++;
		n -= 2;
	}
	return pq_chrome_us_to_ns(t, n, ns) == 0 ? CT_OK : CT_BAD;
}

void chrome_digest_event(chrome_digest *d, const cJSON *json, const char *text,
			 const pq_chrome_members *mem)
{
	const cJSON *args;

	memset(d, 0, sizeof(*d));
	for (int k = 0; k < CA_N; k++) {
		d->ai[k] = PQ_NULL;
		d->ar[k] = NAN;
	}
	/* cJSON's lookup stops at a member without a name (an array's items). */
	for (const cJSON *v = json->child; v != NULL && v->string != NULL; v = v->next) {
		int k = field_of(v->string);

		if (k >= 0 && d->f[k] == NULL)
			d->f[k] = v;
	}
	args = d->f[CF_ARGS];
	if (args != NULL) {
		for (const cJSON *v = args->child; v != NULL && v->string != NULL; v = v->next) {
			int k = arg_of(v->string);

			if (k < 0 || d->a[k] != NULL)
				continue;
			d->a[k] = v;
			d->ai[k] = chrome_int(v);
			d->ar[k] = chrome_real(v);
			if (cJSON_IsArray(v) || d->ai[k] != PQ_NULL || !isnan(d->ar[k]))
				d->columnable |= UINT32_C(1) << k;
		}
	}
	for (int g = 0; g < 2; g++) {
		const cJSON *a = d->a[g == 0 ? CA_GRID : CA_BLOCK];

		if ((d->has_dim[g] = cJSON_IsArray(a)) != 0)
			for (int i = 0; i < 3; i++)
				d->dim[g][i] = chrome_int(cJSON_GetArrayItem(a, i));
	}
	d->pid = chrome_int(d->f[CF_PID]);
	d->tid = chrome_int(d->f[CF_TID]);
	d->ts_state = chrome_time_member(json, text, mem, "ts", &d->ts);
	d->dur_state = chrome_time_member(json, text, mem, "dur", &d->dur);
}

const char *chrome_str(const cJSON *v)
{
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

const char *chrome_str_of(const cJSON *o, const char *key)
{
	return chrome_str(cJSON_GetObjectItemCaseSensitive(o, key));
}

int64_t chrome_int(const cJSON *v)
{
	if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;

		if (isfinite(d) && d == floor(d) && fabs(d) < 9.2e18)
			return (int64_t)d;
		return PQ_NULL;
	}
	if (cJSON_IsString(v)) {
		int64_t x;

		if (pq_chrome_parse_int(v->valuestring, strlen(v->valuestring), &x) == 0)
			return x;
	}
	return PQ_NULL;
}

int64_t chrome_int_of(const cJSON *o, const char *key)
{
	return chrome_int(cJSON_GetObjectItemCaseSensitive(o, key));
}

double chrome_real(const cJSON *v)
{
	if (cJSON_IsNumber(v))
		return isfinite(v->valuedouble) ? v->valuedouble : NAN;
	if (cJSON_IsString(v) && v->valuestring[0] != '\0') {
		char *end;
		double d = strtod(v->valuestring, &end);

		if (*end == '\0' && isfinite(d))
			return d;
	}
	return NAN;
}
