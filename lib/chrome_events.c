/* chrome_events.c - one Chrome trace event -> rows: Kineto / PyTorch profiler categories and the
 * generic trace-event phases (X, B/E, i, C, M, b/e/n, s/t/f).
 *
 * Formats: Chrome Trace Event Format (phases and fields, ../shared/notes/perfetto.md §6);
 * Kineto's writer, libkineto output_json.cpp / CuptiActivity.cpp (categories and args,
 * ../shared/notes/kineto_hta.md §1.1).
 *
 * GPU tracks. Kineto writes GPU activity (kernels, memcpys, memsets, gpu_user_annotation,
 * cuda_sync) with pid = the device ordinal and tid = the stream ("stream 7" in PyTorch 1.9
 * traces, 7 later); `args.device` / `args.stream` say the same. Those pids are not OS processes,
 * so such rows get device_id / stream_id (from args, else pid / tid), and process_id = the traced
 * host process, which launched them: a Kineto file is written by one process, and joining a
 * kernel to its launch by (process_id, correlation_id) needs both sides in the same process. The
 * host is the pid of the first host-category event (cpu_op, cuda_runtime, ...) or of the
 * process_labels "CPU" metadata event; the importer looks ahead for it before the run begins
 * (import_chrome.c). A pid is a GPU track when it is a device id in deviceProperties, the pid of
 * a GPU-category event, or labelled "GPU n"; other events on such a pid (flows, instants, other
 * ranges) get the device/stream where the table has those columns and thread NULL. M events
 * for GPU tracks become run_metadata "gpu_track.<pid>[.<tid>].<name>".
 *
 * args. The row's args column is the event's args object as written, whitespace removed (so
 * numbers keep their exact digits), including the fields also copied into columns. Top-level
 * fields the row has no column for (tts, cname, id of an instant, ...) are added under
 * "_event". An E event's args merge over its B's (the spec's rule); an async e's over its b's.
 */
#include "chrome_import.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chrome_parse.h"
#include "chrome_time.h"

/* Categories ------------------------------------------------------------------------------- */

static const struct {
	const char *name;
	enum chrome_class cc;
} categories[] = {
	{ "kernel", CC_KERNEL },
	{ "gpu_memcpy", CC_MEMCPY }, { "memcpy", CC_MEMCPY },
	{ "gpu_memset", CC_MEMSET }, { "memset", CC_MEMSET },
	{ "cuda_runtime", CC_RUNTIME }, { "runtime", CC_RUNTIME },
	{ "cuda_driver", CC_DRIVER },
	{ "cpu_op", CC_CPU_OP }, { "operator", CC_CPU_OP },
	{ "user_annotation", CC_USER_ANNOTATION },
	{ "gpu_user_annotation", CC_GPU_USER_ANNOTATION },
	{ "python_function", CC_PYTHON }, { "python", CC_PYTHON },
	{ "cuda_sync", CC_SYNC },
	{ "overhead", CC_OVERHEAD }, { "cuda_overhead", CC_OVERHEAD },
};

enum chrome_class chrome_classify(const char *cat)
{
	if (cat == NULL)
		return CC_OTHER;
	for (size_t i = 0; i < sizeof(categories) / sizeof(categories[0]); i++)
		if (strcasecmp(cat, categories[i].name) == 0)
			return categories[i].cc;
	return CC_OTHER;
}

int chrome_class_is_host(enum chrome_class cc)
{
	return cc == CC_RUNTIME || cc == CC_DRIVER || cc == CC_CPU_OP || cc == CC_USER_ANNOTATION ||
	       cc == CC_PYTHON;
}

static int class_is_gpu(enum chrome_class cc)
{
	return cc == CC_KERNEL || cc == CC_MEMCPY || cc == CC_MEMSET ||
	       cc == CC_GPU_USER_ANNOTATION || cc == CC_SYNC;
}

static int64_t range_kind(enum chrome_class cc)
{
	switch (cc) {
	case CC_CPU_OP: return PQ_RANGE_CPU_OP;
	case CC_USER_ANNOTATION: return PQ_RANGE_USER_ANNOTATION;
	case CC_GPU_USER_ANNOTATION: return PQ_RANGE_GPU_USER_ANNOTATION;
	case CC_PYTHON: return PQ_RANGE_PYTHON_FUNCTION;
	case CC_OVERHEAD: return PQ_RANGE_PROFILER_OVERHEAD;
	default: return PQ_RANGE_TRACE_EVENT;
	}
}

/* Small helpers ---------------------------------------------------------------------------- */

const char *chrome_member(const chrome_event *ev, const char *key, size_t *len)
{
	size_t kl = strlen(key);

	for (int i = 0; i < ev->mem->n; i++) {
		const pq_chrome_member *m = &ev->mem->m[i];

		if (m->key_len == kl && memcmp(ev->text + m->key, key, kl) == 0) {
			*len = m->val_len;
			return ev->text + m->val;
		}
	}
	return NULL;
}

static const char *str_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* An integer from a JSON number or numeric string; PQ_NULL otherwise. */
static int64_t int_of_item(const cJSON *v)
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

static int64_t int_arg(const cJSON *args, const char *key)
{
	return int_of_item(cJSON_GetObjectItemCaseSensitive(args, key));
}

/* A REAL from a number or numeric string ("inf", "N/A", ... -> NaN, i.e. NULL). */
static double real_of_item(const cJSON *v)
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

static double real_arg(const cJSON *args, const char *key)
{
	return real_of_item(cJSON_GetObjectItemCaseSensitive(args, key));
}

static int64_t external_id(const cJSON *args)
{
	int64_t v = int_arg(args, "External id");

	return v != PQ_NULL ? v : int_arg(args, "external id");
}

/* [x, y, z] -> three integers. */
static void dim3(const cJSON *args, const char *key, int64_t *x, int64_t *y, int64_t *z)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(args, key);

	if (!cJSON_IsArray(a))
		return;
	*x = int_of_item(cJSON_GetArrayItem(a, 0));
	*y = int_of_item(cJSON_GetArrayItem(a, 1));
	*z = int_of_item(cJSON_GetArrayItem(a, 2));
}

/* FNV-1a folded to a non-negative int64: the key of a non-numeric id. */
static int64_t text_key(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3u;
	return (int64_t)(h & INT64_MAX);
}

/* An id (flow or async): integers as they are, "0x..." hex strings as their value, anything else
 * hashed. id2 objects ({"local": x} / {"global": x}) use their inner value. */
static int64_t id_key(const cJSON *json)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(json, "id");
	int64_t x;

	if (v == NULL) {
		const cJSON *id2 = cJSON_GetObjectItemCaseSensitive(json, "id2");

		v = cJSON_GetObjectItemCaseSensitive(id2, "local");
		if (v == NULL)
			v = cJSON_GetObjectItemCaseSensitive(id2, "global");
	}
	if (v == NULL)
		return PQ_NULL;
	x = int_of_item(v);
	if (x != PQ_NULL)
		return x;
	if (cJSON_IsString(v)) {
		const char *s = v->valuestring;
		char *end;

		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2] != '\0') {
			unsigned long long u = strtoull(s + 2, &end, 16);

			if (*end == '\0')
				return (int64_t)(u & INT64_MAX);
		}
		return text_key(s, strlen(s));
	}
	return PQ_NULL;
}

int chrome_id(chrome_ctx *c, const cJSON *v, char kind, int64_t *id, const char **label)
{
	char key[512];
	int n;

	*label = NULL;
	if (v == NULL || cJSON_IsNull(v)) {
		*id = PQ_NULL;
		return 0;
	}
	*id = int_of_item(v);
	if (*id != PQ_NULL)
		return 0;
	if (!cJSON_IsString(v))
		return pq_fail(c->err, "pid/tid is neither a number nor a string");
	*label = v->valuestring;
	n = snprintf(key, sizeof(key), "%c%s", kind, v->valuestring);
	if (n < 0 || (size_t)n >= sizeof(key))
		n = (int)sizeof(key) - 1;
	if (!pq_strmap_get(&c->synthetic, key, (size_t)n, id)) {
		*id = --c->next_synthetic;
		if (pq_strmap_put(&c->synthetic, key, (size_t)n, *id) != 0)
			return pq_fail(c->err, "out of memory");
	}
	return 0;
}

void chrome_add_gpu_pid(chrome_ctx *c, int64_t pid)
{
	for (int i = 0; i < c->n_gpu_pids; i++)
		if (c->gpu_pids[i] == pid)
			return;
	if (c->n_gpu_pids < CHROME_MAX_GPU_PIDS)
		c->gpu_pids[c->n_gpu_pids++] = pid;
}

static int is_gpu_pid(const chrome_ctx *c, int64_t pid)
{
	if (pid == PQ_NULL || (c->host_known && pid == c->host_pid))
		return 0;
	for (int i = 0; i < c->n_gpu_pids; i++)
		if (c->gpu_pids[i] == pid)
			return 1;
	return 0;
}

/* Scratch text ------------------------------------------------------------------------------ */

static int reserve(chrome_ctx *c, size_t need)
{
	if (need <= c->scratch_cap)
		return 0;
	size_t cap = c->scratch_cap ? c->scratch_cap : 4096;
	while (cap < need)
		cap *= 2;
	char *p = realloc(c->scratch, cap);
	if (p == NULL)
		return pq_fail(c->err, "out of memory");
	c->scratch = p;
	c->scratch_cap = cap;
	return 0;
}

static int is_known(const char *key, size_t n, const char *const *known)
{
	for (; *known != NULL; known++)
		if (strlen(*known) == n && memcmp(*known, key, n) == 0)
			return 1;
	return 0;
}

/* Writes "{" and the args object's members except the consumed ones (their values are in
 * columns) to c->scratch, minified; returns the length (no closing brace yet). */
static size_t args_body(chrome_ctx *c, const char *text, size_t len, const char *const *consumed)
{
	pq_chrome_members am;
	size_t alen, o;

	if (consumed == NULL || consumed[0] == NULL ||
	    pq_chrome_scan_value(text, len, 1, &alen, &am) != PQ_SCAN_OK || am.truncated) {
		o = pq_chrome_minify(text, len, c->scratch);
		return o - 1; /* drop the closing brace */
	}
	o = 0;
	c->scratch[o++] = '{';
	for (int i = 0; i < am.n; i++) {
		const pq_chrome_member *m = &am.m[i];

		if (is_known(text + m->key, m->key_len, consumed))
			continue;
		if (o > 1)
			c->scratch[o++] = ',';
		c->scratch[o++] = '"';
		memcpy(c->scratch + o, text + m->key, m->key_len);
		o += m->key_len;
		c->scratch[o++] = '"';
		c->scratch[o++] = ':';
		o += pq_chrome_minify(text + m->val, m->val_len, c->scratch + o);
	}
	return o;
}

/* Builds the args JSON text of a row into c->scratch (see the header comment); *out is NULL
 * when there is nothing to say. known lists the top-level fields the row stores elsewhere. */
static int event_args(chrome_ctx *c, const chrome_event *ev, const char *const *known,
		      const char *const *consumed, const char **out)
{
	const pq_chrome_members *mem = ev->mem;
	size_t need = 16, o = 0, body;
	const pq_chrome_member *args = NULL;
	int n_unknown = 0;

	*out = NULL;
	for (int i = 0; i < mem->n; i++) {
		const pq_chrome_member *m = &mem->m[i];
		const char *k = ev->text + m->key;

		if (m->key_len == 4 && memcmp(k, "args", 4) == 0 && ev->text[m->val] == '{') {
			args = m;
			need += m->val_len;
		} else if (!is_known(k, m->key_len, known)) {
			n_unknown++;
			need += m->key_len + m->val_len + 8;
		}
	}
	if (args == NULL && n_unknown == 0)
		return 0;
	if (reserve(c, need + 16) != 0)
		return -1;
	if (args != NULL) {
		o = args_body(c, ev->text + args->val, args->val_len, consumed);
	} else {
		c->scratch[o++] = '{';
	}
	body = o;
	if (n_unknown > 0) {
		if (o > 1)
			c->scratch[o++] = ',';
		memcpy(c->scratch + o, "\"_event\":{", 10);
		o += 10;
		for (int i = 0, first = 1; i < mem->n; i++) {
			const pq_chrome_member *m = &mem->m[i];
			const char *k = ev->text + m->key;

			if ((m->key_len == 4 && memcmp(k, "args", 4) == 0 && m == args) ||
			    is_known(k, m->key_len, known))
				continue;
			if (!first)
				c->scratch[o++] = ',';
			first = 0;
			c->scratch[o++] = '"';
			memcpy(c->scratch + o, k, m->key_len);
			o += m->key_len;
			c->scratch[o++] = '"';
			c->scratch[o++] = ':';
			o += pq_chrome_minify(ev->text + m->val, m->val_len, c->scratch + o);
		}
		c->scratch[o++] = '}';
	}
	if (o == 1 && body == 1)
		return 0; /* "{}": nothing */
	c->scratch[o++] = '}';
	c->scratch[o] = '\0';
	*out = c->scratch;
	return 0;
}

/* base's members replaced or extended by over's; returns a malloc'ed text (or NULL). */
static char *merge_args(const char *base, const char *over)
{
	cJSON *b, *e;
	char *out;

	if (over == NULL)
		return base ? strdup(base) : NULL;
	if (base == NULL)
		return strdup(over);
	b = pq_json_parse(base, strlen(base) + 1);
	e = pq_json_parse(over, strlen(over) + 1);
	if (b == NULL || e == NULL) {
		cJSON_Delete(b);
		cJSON_Delete(e);
		return strdup(base);
	}
	for (cJSON *it = e->child; it != NULL; it = it->next) {
		cJSON *copy = cJSON_Duplicate(it, 1);

		if (copy == NULL)
			continue;
		if (cJSON_GetObjectItemCaseSensitive(b, it->string) != NULL)
			cJSON_ReplaceItemInObjectCaseSensitive(b, it->string, copy);
		else
			cJSON_AddItemToObject(b, it->string, copy);
	}
	out = cJSON_PrintUnformatted(b);
	cJSON_Delete(b);
	cJSON_Delete(e);
	return out;
}

/* Times -------------------------------------------------------------------------------------- */

/* A time member (us) -> ns; 0 ok, 1 absent, CHROME_BAD not a number. */
static int member_ns(chrome_ctx *c, const chrome_event *ev, const char *key, int64_t *ns)
{
	size_t n;
	const char *t = chrome_member(ev, key, &n);

	if (t == NULL) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(ev->json, key);
		char buf[64];

		if (v == NULL || cJSON_IsNull(v))
			return 1;
		/* Beyond the scanner's member limit: the double is all there is. */
		if (!cJSON_IsNumber(v))
			return pq_fail(c->err, "\"%s\" is not a number", key), CHROME_BAD;
		snprintf(buf, sizeof(buf), "%.17g", v->valuedouble);
		t = buf;
		n = strlen(buf);
		if (pq_chrome_us_to_ns(t, n, ns) != 0)
			return pq_fail(c->err, "\"%s\" is out of range", key), CHROME_BAD;
		return 0;
	}
	if (n == 4 && memcmp(t, "null", 4) == 0)
		return 1;
	if (n >= 2 && t[0] == '"') { /* numeric strings are accepted, as Perfetto does */
		t++;
		n -= 2;
	}
	if (pq_chrome_us_to_ns(t, n, ns) != 0)
		return pq_fail(c->err, "\"%s\" is not a number of microseconds: %.*s", key,
			       (int)(n > 40 ? 40 : n), t), CHROME_BAD;
	return 0;
}

/* ts + the run's offset; CHROME_BAD when missing. */
static int event_ts(chrome_ctx *c, const chrome_event *ev, const char *ph, int64_t *ns)
{
	int rc = member_ns(c, ev, "ts", ns);

	if (rc == 1)
		return pq_fail(c->err, "%s event without ts", ph), CHROME_BAD;
	if (rc != 0)
		return rc;
	if (__builtin_add_overflow(*ns, c->offset_ns, ns))
		return pq_fail(c->err, "ts out of range"), CHROME_BAD;
	return 0;
}

/* Dimensions ----------------------------------------------------------------------------------- */

typedef struct where {
	int64_t pid, tid;                /* as integers (synthetic for strings); PQ_NULL absent */
	const char *pid_label, *tid_label;
	int gpu;                         /* pid is a GPU track */
	int64_t process_id, thread_id;   /* host dims (thread NULL on GPU tracks) */
	int64_t device_id, stream_id;    /* GPU dims */
} where;

static int host_process(chrome_ctx *c, int64_t *id)
{
	if (!c->host_known) {
		*id = PQ_NULL;
		return 0;
	}
	if (c->host_process_id == PQ_NULL &&
	    pq_store_process(c->s, c->host_pid, NULL, &c->host_process_id, c->err) != 0)
		return -1;
	*id = c->host_process_id;
	return 0;
}

static int thread_dims(chrome_ctx *c, where *w, int process_only)
{
	unsigned h;
	chrome_thread_slot *slot;

	if (w->pid == PQ_NULL)
		return 0;
	if (process_only)
		return pq_store_process(c->s, w->pid, w->pid_label, &w->process_id, c->err);
	if (w->tid == PQ_NULL)
		w->tid = w->pid;
	h = (unsigned)((uint64_t)(w->pid * 31 + w->tid) * 0x9e3779b97f4a7c15u >> 56);
	slot = &c->threads[h];
	if (slot->used && slot->pid == w->pid && slot->tid == w->tid) {
		w->process_id = slot->process_id;
		w->thread_id = slot->thread_id;
		return 0;
	}
	if (pq_store_process(c->s, w->pid, w->pid_label, &w->process_id, c->err) != 0 ||
	    pq_store_thread(c->s, w->pid, w->tid, w->tid_label, &w->thread_id, c->err) != 0)
		return -1;
	slot->used = 1;
	slot->pid = w->pid;
	slot->tid = w->tid;
	slot->process_id = w->process_id;
	slot->thread_id = w->thread_id;
	return 0;
}

/* "stream 7" -> 7 */
static int64_t stream_of_label(const char *label)
{
	int64_t v;

	if (label != NULL && strncmp(label, "stream ", 7) == 0 &&
	    pq_chrome_parse_int(label + 7, strlen(label + 7), &v) == 0)
		return v;
	return PQ_NULL;
}

static int gpu_dims(chrome_ctx *c, const cJSON *args, where *w)
{
	int64_t dev = int_arg(args, "device"), stream = int_arg(args, "stream");

	if (dev == PQ_NULL)
		dev = w->pid_label == NULL ? w->pid : PQ_NULL;
	if (stream == PQ_NULL)
		stream = w->tid_label == NULL ? w->tid : stream_of_label(w->tid_label);
	if (stream != PQ_NULL && stream < 0)
		stream = PQ_NULL; /* Kineto writes -1 for "no stream" (e.g. Event Sync) */
	if (host_process(c, &w->process_id) != 0)
		return -1;
	w->thread_id = PQ_NULL;
	if (dev == PQ_NULL)
		return 0;
	if (c->last_valid && dev == c->last_dev && stream == c->last_stream &&
	    w->process_id == c->last_stream_process) {
		w->device_id = c->last_dev_id;
		w->stream_id = c->last_stream_id;
		return 0;
	}
	if (pq_store_device_ordinal(c->s, dev, &w->device_id, c->err) != 0)
		return -1;
	if (stream != PQ_NULL &&
	    pq_store_stream(c->s, w->process_id, w->device_id, stream, &w->stream_id, c->err) != 0)
		return -1;
	c->last_dev = dev;
	c->last_stream = stream;
	c->last_dev_id = w->device_id;
	c->last_stream_id = w->stream_id;
	c->last_stream_process = w->process_id;
	c->last_valid = 1;
	return 0;
}

/* Resolves pid/tid; GPU-class events and events on GPU tracks get GPU dims, others host dims
 * (only the process when process_only: counters are per process). */
static int locate_in(chrome_ctx *c, const chrome_event *ev, enum chrome_class cc,
		     const cJSON *args, where *w, int process_only)
{
	memset(w, 0, sizeof(*w));
	w->process_id = w->thread_id = w->device_id = w->stream_id = PQ_NULL;
	if (chrome_id(c, cJSON_GetObjectItemCaseSensitive(ev->json, "pid"), 'p', &w->pid,
		      &w->pid_label) != 0 ||
	    chrome_id(c, cJSON_GetObjectItemCaseSensitive(ev->json, "tid"), 't', &w->tid,
		      &w->tid_label) != 0)
		return CHROME_BAD;
	if (class_is_gpu(cc) && w->pid != PQ_NULL && w->pid_label == NULL)
		chrome_add_gpu_pid(c, w->pid);
	w->gpu = class_is_gpu(cc) || is_gpu_pid(c, w->pid);
	if (w->gpu)
		return gpu_dims(c, args, w);
	return thread_dims(c, w, process_only);
}

static int locate(chrome_ctx *c, const chrome_event *ev, enum chrome_class cc,
		  const cJSON *args, where *w)
{
	return locate_in(c, ev, cc, args, w, 0);
}

/* Rows -------------------------------------------------------------------------------------------- */

static const char *const known_x[] = { "ph", "name", "cat", "ts", "dur", "pid", "tid", NULL };
static const char *const known_be[] = { "ph", "name", "cat", "ts", "pid", "tid", NULL };
static const char *const known_i[] = { "ph", "name", "cat", "ts", "pid", "tid", "s", NULL };
static const char *const known_async[] = { "ph", "name", "cat", "ts", "pid", "tid", NULL };

static int row_done(chrome_ctx *c, int rc)
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

static int write_range(chrome_ctx *c, const where *w, int64_t kind, const char *name,
		       const char *cat, int64_t start, int64_t end, const cJSON *args,
		       const char *args_text, int64_t depth, int64_t key, int64_t end_thread)
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
	r.correlation_id = int_arg(args, "correlation");
	r.external_id = external_id(args);
	r.args = args_text;
	return row_done(c, pq_store_range(c->s, &r, NULL, c->err));
}

/* The args keys whose values the row stores in columns (so the args text leaves them out):
 * those present with a number, numeric string or array value. A static list, rebuilt per call. */
static const char *const *consumed_args(const cJSON *args, enum chrome_class cc, int gpu)
{
	static const char *const kernel[] = {
		"device", "stream", "correlation", "External id", "external id",
		"registers per thread", "shared memory", "blocks per SM", "warps per SM", "grid",
		"block", "est. achieved occupancy %", "graph id", "graph node id", NULL,
	};
	static const char *const copy[] = {
		"device", "stream", "correlation", "External id", "external id", "bytes", NULL,
	};
	static const char *const api[] = { "cbid", "correlation", "External id", "external id", NULL };
	static const char *const sync[] = {
		"device", "stream", "correlation", "External id", "external id",
		"wait_on_cuda_event_id", NULL,
	};
	static const char *const range_gpu[] = {
		"device", "stream", "correlation", "External id", "external id", NULL,
	};
	static const char *const *const range = range_gpu + 2;
	static const char *used[16];
	const char *const *list;
	int n = 0;

	switch (cc) {
	case CC_KERNEL: list = kernel; break;
	case CC_MEMCPY: case CC_MEMSET: list = copy; break;
	case CC_RUNTIME: case CC_DRIVER: list = api; break;
	case CC_SYNC: list = sync; break;
	default: list = gpu ? range_gpu : range; break;
	}
	for (; *list != NULL; list++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, *list);

		if (cJSON_IsArray(v) || int_of_item(v) != PQ_NULL || !isnan(real_of_item(v)))
			used[n++] = *list;
	}
	used[n] = NULL;
	return used;
}

static int complete_event(chrome_ctx *c, const chrome_event *ev, const char *name,
			  const char *cat)
{
	enum chrome_class cc = chrome_classify(cat);
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev->json, "args");
	const char *args_text;
	int64_t start, dur, end;
	where w;
	int rc;

	if ((rc = event_ts(c, ev, "X", &start)) != 0)
		return rc;
	rc = member_ns(c, ev, "dur", &dur);
	if (rc == 1)
		return pq_fail(c->err, "X event without dur"), CHROME_BAD;
	if (rc != 0)
		return rc;
	if (dur < 0)
		return pq_fail(c->err, "X event with a negative dur"), CHROME_BAD;
	if (__builtin_add_overflow(start, dur, &end))
		return pq_fail(c->err, "ts + dur out of range"), CHROME_BAD;
	if ((rc = locate(c, ev, cc, args, &w)) != 0)
		return rc;
	/* What the row becomes decides which args have columns (and leave args text). */
	if ((cc == CC_RUNTIME || cc == CC_DRIVER) && w.gpu)
		cc = CC_OTHER; /* a runtime event on a GPU track: kept as a range */
	if (cc == CC_SYNC && sync_type_of(name) == PQ_NULL)
		cc = CC_OTHER;
	if (event_args(c, ev, known_x, consumed_args(args, cc, w.gpu), &args_text) != 0)
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
		k.correlation_id = int_arg(args, "correlation");
		k.external_id = external_id(args);
		k.name = name;
		dim3(args, "grid", &k.grid_x, &k.grid_y, &k.grid_z);
		dim3(args, "block", &k.block_x, &k.block_y, &k.block_z);
		k.registers_per_thread = int_arg(args, "registers per thread");
		/* Kineto's "shared memory" is static + dynamic (CuptiActivity.cpp metadataJson):
		 * stored as static_shared_bytes, dynamic left NULL, so their sum is right. */
		k.static_shared_bytes = int_arg(args, "shared memory");
		k.blocks_per_sm = real_arg(args, "blocks per SM");
		k.warps_per_sm = real_arg(args, "warps per SM");
		k.est_occupancy_pct = real_arg(args, "est. achieved occupancy %");
		k.graph_id = int_arg(args, "graph id");
		k.graph_node_id = int_arg(args, "graph node id");
		k.args = args_text;
		return row_done(c, pq_store_kernel(c->s, &k, NULL, c->err));
	}
	case CC_MEMCPY: {
		pq_memcpy m;

		pq_memcpy_init(&m);
		m.process_id = w.process_id;
		m.device_id = w.device_id;
		m.stream_id = w.stream_id;
		m.start_ns = start;
		m.end_ns = end;
		m.correlation_id = int_arg(args, "correlation");
		m.external_id = external_id(args);
		m.bytes = int_arg(args, "bytes");
		m.copy_kind = copy_kind_of(name);
		memory_kinds_of(name, &m.src_kind, &m.dst_kind);
		m.args = args_text;
		return row_done(c, pq_store_memcpy(c->s, &m, NULL, c->err));
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
		m.correlation_id = int_arg(args, "correlation");
		m.external_id = external_id(args);
		m.bytes = int_arg(args, "bytes");
		memory_kinds_of(name, &m.memory_kind, &unused);
		m.args = args_text;
		return row_done(c, pq_store_memset(c->s, &m, NULL, c->err));
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
		a.cbid = int_arg(args, "cbid");
		a.name = name;
		a.correlation_id = int_arg(args, "correlation");
		a.external_id = external_id(args);
		a.args = args_text;
		return row_done(c, pq_store_api_call(c->s, &a, NULL, c->err));
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
		y.correlation_id = int_arg(args, "correlation");
		y.external_id = external_id(args);
		y.event_id = int_arg(args, "wait_on_cuda_event_id");
		y.args = args_text;
		return row_done(c, pq_store_sync(c->s, &y, NULL, c->err));
	}
	default:
		break;
	}
	return write_range(c, &w, range_kind(cc), name, cat, start, end, args, args_text, PQ_NULL,
			   PQ_NULL, PQ_NULL);
}

/* B/E: a stack per (pid, tid). ------------------------------------------------------------- */

typedef struct open_range {
	int64_t start, depth, key;
	char *name, *cat, *args;
	where w;
} open_range;

typedef struct open_stack {
	open_range *items;
	size_t n, cap;
} open_stack;

static void free_open(open_range *o)
{
	free(o->name);
	free(o->cat);
	free(o->args);
}

static int push_open(chrome_ctx *c, pq_ptrmap *map, const char *key, size_t keylen,
		     open_range *o)
{
	open_stack *st = pq_ptrmap_get(map, key, keylen);

	if (st == NULL) {
		st = calloc(1, sizeof(*st));
		if (st == NULL || pq_ptrmap_put(map, key, keylen, st) != 0) {
			free(st);
			return pq_fail(c->err, "out of memory");
		}
	}
	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 8;
		open_range *items = realloc(st->items, cap * sizeof(*items));

		if (items == NULL)
			return pq_fail(c->err, "out of memory");
		st->items = items;
		st->cap = cap;
	}
	o->depth = (int64_t)st->n;
	st->items[st->n++] = *o;
	return 0;
}

/* Pops the most recent entry named name (any when name is NULL); 1 when found. */
static int pop_open(pq_ptrmap *map, const char *key, size_t keylen, const char *name,
		    open_range *out)
{
	open_stack *st = pq_ptrmap_get(map, key, keylen);
	size_t i;

	if (st == NULL || st->n == 0)
		return 0;
	i = st->n;
	while (i > 0 && name != NULL && strcmp(st->items[i - 1].name, name) != 0)
		i--;
	if (i == 0)
		return 0;
	*out = st->items[i - 1];
	memmove(&st->items[i - 1], &st->items[i], (st->n - i) * sizeof(*st->items));
	st->n--;
	if (st->n == 0) {
		pq_ptrmap_del(map, key, keylen);
		free(st->items);
		free(st);
	}
	return 1;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int begin_event(chrome_ctx *c, const chrome_event *ev, const char *name, const char *cat,
		       int async)
{
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev->json, "args");
	const char *args_text;
	open_range o = { 0 };
	char key[256];
	int n, rc;

	if ((rc = event_ts(c, ev, async ? "b" : "B", &o.start)) != 0)
		return rc;
	if ((rc = locate(c, ev, chrome_classify(cat), args, &o.w)) != 0)
		return rc;
	if (event_args(c, ev, async ? known_async : known_be, NULL, &args_text) != 0)
		return -1;
	o.name = strdup(name);
	o.cat = dup_or_null(cat);
	o.args = dup_or_null(args_text);
	o.key = async ? id_key(ev->json) : PQ_NULL;
	if (o.name == NULL || (cat && !o.cat) || (args_text && !o.args)) {
		free_open(&o);
		return pq_fail(c->err, "out of memory");
	}
	if (async) {
		const char *scope = str_of(ev->json, "scope");

		n = snprintf(key, sizeof(key), "%s\x1f%" PRId64 "\x1f%s", cat ? cat : "", o.key,
			     scope ? scope : "");
	} else {
		n = snprintf(key, sizeof(key), "%" PRId64 "|%" PRId64, o.w.pid, o.w.tid);
	}
	if (n < 0 || (size_t)n >= sizeof(key))
		n = (int)sizeof(key) - 1;
	if (push_open(c, async ? &c->open_async : &c->open_be, key, (size_t)n, &o) != 0) {
		free_open(&o);
		return -1;
	}
	return 0;
}

static int end_event(chrome_ctx *c, const chrome_event *ev, const char *name, const char *cat,
		     int async)
{
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev->json, "args");
	const char *args_text;
	open_range o;
	where w;
	char key[256], *merged;
	int64_t end;
	int n, rc;

	if ((rc = event_ts(c, ev, async ? "e" : "E", &end)) != 0)
		return rc;
	if ((rc = locate(c, ev, chrome_classify(cat), args, &w)) != 0)
		return rc;
	if (async) {
		const char *scope = str_of(ev->json, "scope");

		n = snprintf(key, sizeof(key), "%s\x1f%" PRId64 "\x1f%s", cat ? cat : "",
			     id_key(ev->json), scope ? scope : "");
	} else {
		n = snprintf(key, sizeof(key), "%" PRId64 "|%" PRId64, w.pid, w.tid);
	}
	if (n < 0 || (size_t)n >= sizeof(key))
		n = (int)sizeof(key) - 1;
	/* B/E: E closes the innermost B of its thread (spec); async e: the innermost b with
	 * the same cat and id, and the same name when the e has one. */
	if (!pop_open(async ? &c->open_async : &c->open_be, key, (size_t)n, async ? name : NULL,
		      &o)) {
		if (async)
			c->unmatched_async_e++;
		else
			c->unmatched_e++;
		c->stats->unmatched++;
		return 0;
	}
	if (event_args(c, ev, async ? known_async : known_be, NULL, &args_text) != 0) {
		free_open(&o);
		return -1;
	}
	merged = merge_args(o.args, args_text);
	{
		cJSON *margs = merged ? pq_json_parse(merged, strlen(merged) + 1) : NULL;

		rc = write_range(c, &o.w, async ? PQ_RANGE_ASYNC : range_kind(chrome_classify(o.cat)),
				 o.name, o.cat, o.start, end, margs ? margs : args, merged,
				 o.depth, o.key, async ? w.thread_id : PQ_NULL);
		cJSON_Delete(margs);
	}
	free(merged);
	free_open(&o);
	return rc;
}

static void close_stack(void *ctx, const char *key, void *value)
{
	chrome_ctx *c = ((void **)ctx)[0];
	int *rc = ((void **)ctx)[1];
	int async = *(int *)((void **)ctx)[2];
	open_stack *st = value;

	(void)key;
	for (size_t i = 0; i < st->n; i++) {
		open_range *o = &st->items[i];
		cJSON *args = o->args ? pq_json_parse(o->args, strlen(o->args) + 1) : NULL;

		if (*rc == 0)
			*rc = write_range(c, &o->w,
					  async ? PQ_RANGE_ASYNC : range_kind(chrome_classify(o->cat)),
					  o->name, o->cat, o->start, PQ_NULL, args, o->args, o->depth,
					  o->key, PQ_NULL);
		cJSON_Delete(args);
		if (async)
			c->unclosed_async_b++;
		else
			c->unclosed_b++;
		c->stats->unmatched++;
		free_open(o);
	}
	free(st->items);
	free(st);
}

/* Instants, counters, flows ----------------------------------------------------------------- */

static int instant_event(chrome_ctx *c, const chrome_event *ev, const char *name,
			 const char *cat)
{
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev->json, "args");
	const char *args_text;
	int64_t ts;
	where w;
	int rc;

	if ((rc = event_ts(c, ev, "i", &ts)) != 0)
		return rc;
	if ((rc = locate(c, ev, CC_OTHER, args, &w)) != 0)
		return rc;
	/* PyTorch's allocator events: "[memory]" instants (kineto_hta.md §1.1). */
	if (strcmp(name, "[memory]") == 0 && cJSON_IsObject(args) &&
	    int_arg(args, "Bytes") != PQ_NULL) {
		pq_memory_event m;
		int64_t bytes = int_arg(args, "Bytes"), type = int_arg(args, "Device Type");
		int64_t dev = int_arg(args, "Device Id");
		const char *used[8];
		int n = 0;

		/* Keys whose values have columns; Device Type/Id only when they became
		 * memory_kind and device_id. */
		used[n++] = "Bytes";
		if (int_arg(args, "Addr") != PQ_NULL)
			used[n++] = "Addr";
		if (int_arg(args, "Total Allocated") != PQ_NULL)
			used[n++] = "Total Allocated";
		if (int_arg(args, "Total Reserved") != PQ_NULL)
			used[n++] = "Total Reserved";
		if (type == 0 || type == 1)
			used[n++] = "Device Type";
		if (type == 1 && dev != PQ_NULL && dev >= 0)
			used[n++] = "Device Id";
		used[n] = NULL;
		if (event_args(c, ev, known_i, used, &args_text) != 0)
			return -1;

		pq_memory_event_init(&m);
		m.process_id = w.process_id;
		m.thread_id = w.thread_id;
		m.ts_ns = ts;
		/* Negative Bytes is a free; the row stores the size with operation 'free'. */
		m.operation = bytes < 0 ? PQ_MEM_FREE : PQ_MEM_ALLOC;
		m.bytes = bytes < 0 ? -bytes : bytes;
		m.address = int_arg(args, "Addr");
		m.total_allocated = int_arg(args, "Total Allocated");
		m.total_reserved = int_arg(args, "Total Reserved");
		/* Device Type: c10 DeviceType, 0 CPU (host memory, pageable), 1 CUDA. */
		m.memory_kind = type == 1 ? 2 : type == 0 ? 0 : 7;
		if (type == 1 && dev != PQ_NULL && dev >= 0 &&
		    pq_store_device_ordinal(c->s, dev, &m.device_id, c->err) != 0)
			return -1;
		m.args = args_text;
		return row_done(c, pq_store_memory_event(c->s, &m, NULL, c->err));
	}
	if (event_args(c, ev, known_i, NULL, &args_text) != 0)
		return -1;
	{
		pq_mark m;

		pq_mark_init(&m);
		m.process_id = w.process_id;
		m.thread_id = w.thread_id;
		m.ts_ns = ts;
		m.kind = PQ_MARK_INSTANT;
		m.name = name;
		m.category = cat;
		m.scope = str_of(ev->json, "s");
		m.args = args_text;
		return row_done(c, pq_store_mark(c->s, &m, NULL, c->err));
	}
}

static int counter_event(chrome_ctx *c, const chrome_event *ev, const char *name)
{
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev->json, "args");
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(ev->json, "id");
	char series[1024], idtext[64] = "";
	int64_t ts;
	where w;
	int rc;

	if ((rc = event_ts(c, ev, "C", &ts)) != 0)
		return rc;
	if (!cJSON_IsObject(args))
		return pq_fail(c->err, "C event without args"), CHROME_BAD;
	if ((rc = locate_in(c, ev, CC_OTHER, NULL, &w, 1)) != 0)
		return rc;
	if (cJSON_IsString(id))
		snprintf(idtext, sizeof(idtext), "[%s]", id->valuestring);
	else if (cJSON_IsNumber(id))
		snprintf(idtext, sizeof(idtext), "[%.17g]", id->valuedouble);
	/* One series per args key: "<name>.<key>", or "<name>[<id>].<key>" with an id. */
	for (const cJSON *v = args->child; v != NULL; v = v->next) {
		pq_counter k;

		pq_counter_init(&k);
		k.value = real_of_item(v);
		if (isnan(k.value)) {
			c->non_numeric_counters++;
			continue;
		}
		snprintf(series, sizeof(series), "%s%s.%s", name, idtext, v->string);
		k.process_id = w.process_id;
		if (w.gpu)
			k.device_id = w.device_id;
		k.name = series;
		k.ts_ns = ts;
		if (row_done(c, pq_store_counter(c->s, &k, NULL, c->err)) != 0)
			return -1;
	}
	return 0;
}

static int flow_event(chrome_ctx *c, const chrome_event *ev, const char *ph, const char *name,
		      const char *cat)
{
	const char *bp = str_of(ev->json, "bp");
	pq_flow f;
	where w;
	int rc;

	pq_flow_init(&f);
	if ((rc = event_ts(c, ev, ph, &f.ts_ns)) != 0)
		return rc;
	f.flow_key = id_key(ev->json);
	if (f.flow_key == PQ_NULL)
		return pq_fail(c->err, "flow event without id"), CHROME_BAD;
	if ((rc = locate(c, ev, CC_OTHER, NULL, &w)) != 0)
		return rc;
	f.process_id = w.process_id;
	f.thread_id = w.thread_id;   /* NULL on a GPU track: the flow's end is on a stream */
	f.phase = ph;
	f.name = name[0] ? name : NULL;
	f.category = cat;
	/* s and t bind to the enclosing slice; f to the enclosing one with "bp":"e", else to
	 * the next slice (spec). */
	f.binds_enclosing = ph[0] != 'f' || (bp != NULL && strcmp(bp, "e") == 0);
	return row_done(c, pq_store_flow(c->s, &f, NULL, c->err));
}

/* An event of a phase no table holds (P samples, O/N/D objects, V/v dumps, c, ( ) ...): kept as
 * an instant mark with its phase under args._event, when it has a ts. */
static int other_event(chrome_ctx *c, const chrome_event *ev, const char *name, const char *cat)
{
	static const char *const known[] = { "name", "cat", "ts", "pid", "tid", NULL };
	const char *args_text;
	pq_mark m;
	where w;
	int rc;

	pq_mark_init(&m);
	rc = member_ns(c, ev, "ts", &m.ts_ns);
	if (rc == 1) {
		c->ignored_events++;
		return 0;
	}
	if (rc != 0 || __builtin_add_overflow(m.ts_ns, c->offset_ns, &m.ts_ns))
		return pq_fail(c->err, "bad ts"), CHROME_BAD;
	if ((rc = locate(c, ev, CC_OTHER, NULL, &w)) != 0)
		return rc;
	if (event_args(c, ev, known, NULL, &args_text) != 0)
		return -1;
	m.process_id = w.process_id;
	m.thread_id = w.thread_id;
	m.kind = PQ_MARK_INSTANT;
	m.name = name;
	m.category = cat;
	m.args = args_text;
	return row_done(c, pq_store_mark(c->s, &m, NULL, c->err));
}

/* The entry point ------------------------------------------------------------------------------ */

int chrome_event_process(chrome_ctx *c, const chrome_event *ev)
{
	const cJSON *j = ev->json, *jn;
	const char *ph, *name, *cat;

	if (!cJSON_IsObject(j))
		return pq_fail(c->err, "not an object"), CHROME_BAD;
	if (j->child == NULL)
		return 0; /* {} : nothing (JAX ends traces with one) */
	ph = str_of(j, "ph");
	if (ph == NULL || ph[0] == '\0')
		return pq_fail(c->err, "event without ph"), CHROME_BAD;
	jn = cJSON_GetObjectItemCaseSensitive(j, "name");
	name = cJSON_IsString(jn) ? jn->valuestring : "";
	cat = str_of(j, "cat");
	if (ph[1] != '\0')
		return other_event(c, ev, name, cat);

	switch (ph[0]) {
	case 'X':
		return complete_event(c, ev, name, cat);
	case 'B':
		return begin_event(c, ev, name, cat, 0);
	case 'E':
		return end_event(c, ev, cJSON_IsString(jn) ? name : NULL, cat, 0);
	case 'b':
	case 'S':
		return begin_event(c, ev, name, cat, 1);
	case 'e':
	case 'F':
		return end_event(c, ev, cJSON_IsString(jn) ? name : NULL, cat, 1);
	case 'i':
	case 'I':
	case 'R':
	case 'n':
	case 'T':
	case 'p':
		return instant_event(c, ev, name, cat);
	case 'C':
		return counter_event(c, ev, name);
	case 's':
	case 't':
	case 'f': {
		char p[2] = { ph[0], '\0' };

		return flow_event(c, ev, p, name, cat);
	}
	case 'M': {
		cJSON *copy = cJSON_Duplicate(j, 1);

		if (copy == NULL)
			return pq_fail(c->err, "out of memory");
		cJSON_AddItemToArray(c->deferred_m, copy);
		return 0;
	}
	default:
		return other_event(c, ev, name, cat);
	}
}

/* M events, at the end ------------------------------------------------------------------------ */

static int set_meta_text(chrome_ctx *c, const char *key, const cJSON *v)
{
	char *text;
	int rc;

	if (cJSON_IsString(v))
		return pq_store_set_metadata(c->s, key, v->valuestring, c->err);
	if (cJSON_IsNumber(v) && int_of_item(v) != PQ_NULL)
		return pq_store_set_metadata_int(c->s, key, int_of_item(v), c->err);
	text = v ? cJSON_PrintUnformatted(v) : NULL;
	rc = pq_store_set_metadata(c->s, key, text ? text : "null", c->err);
	free(text);
	return rc;
}

static int apply_m(chrome_ctx *c, const cJSON *m)
{
	const char *name = str_of(m, "name"), *label, *tlabel;
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(m, "args");
	int64_t pid, tid, pid_row, thread_row;
	char key[512];

	if (name == NULL)
		name = "";
	if (chrome_id(c, cJSON_GetObjectItemCaseSensitive(m, "pid"), 'p', &pid, &label) != 0 ||
	    chrome_id(c, cJSON_GetObjectItemCaseSensitive(m, "tid"), 't', &tid, &tlabel) != 0)
		return 0;
	if (pid == PQ_NULL)
		pid = 0;
	if (is_gpu_pid(c, pid)) {
		const cJSON *v = args && args->child ? args->child : args;

		if (strncmp(name, "thread_", 7) == 0 && tid != PQ_NULL)
			snprintf(key, sizeof(key), "gpu_track.%" PRId64 ".%" PRId64 ".%s", pid, tid,
				 name);
		else
			snprintf(key, sizeof(key), "gpu_track.%" PRId64 ".%s", pid, name);
		return set_meta_text(c, key, v);
	}
	if (strcmp(name, "process_name") == 0 && str_of(args, "name") != NULL)
		return pq_store_process(c->s, pid, str_of(args, "name"), &pid_row, c->err);
	if (strcmp(name, "thread_name") == 0 && str_of(args, "name") != NULL)
		return pq_store_thread(c->s, pid, tid == PQ_NULL ? pid : tid, str_of(args, "name"),
				       &thread_row, c->err);
	if (strcmp(name, "process_sort_index") == 0 && int_arg(args, "sort_index") != PQ_NULL)
		return pq_store_process(c->s, pid, label, &pid_row, c->err) ||
		       pq_store_set_sort_index(c->s, pid_row, PQ_NULL, int_arg(args, "sort_index"),
					       c->err);
	if (strcmp(name, "thread_sort_index") == 0 && int_arg(args, "sort_index") != PQ_NULL)
		return pq_store_thread(c->s, pid, tid == PQ_NULL ? pid : tid, tlabel, &thread_row,
				       c->err) ||
		       pq_store_set_sort_index(c->s, PQ_NULL, thread_row,
					       int_arg(args, "sort_index"), c->err);
	/* process_labels and anything else: run metadata "<name>.<pid>[.<tid>]". */
	if (strcmp(name, "process_labels") == 0 || tid == PQ_NULL)
		snprintf(key, sizeof(key), "%s.%" PRId64, name, pid);
	else
		snprintf(key, sizeof(key), "%s.%" PRId64 ".%" PRId64, name, pid, tid);
	if (strcmp(name, "process_labels") == 0 && str_of(args, "labels") != NULL)
		return set_meta_text(c, key, cJSON_GetObjectItemCaseSensitive(args, "labels"));
	return set_meta_text(c, key, args);
}

int chrome_events_finish(chrome_ctx *c)
{
	int rc = 0, async = 0;
	void *ctx[3] = { c, &rc, &async };
	const cJSON *m;

	pq_ptrmap_each(&c->open_be, close_stack, ctx);
	pq_ptrmap_free(&c->open_be);
	async = 1;
	pq_ptrmap_each(&c->open_async, close_stack, ctx);
	pq_ptrmap_free(&c->open_async);
	if (rc != 0)
		return -1;
	/* GPU tracks labelled "GPU n" count as GPU pids too. */
	cJSON_ArrayForEach(m, c->deferred_m) {
		const char *labels = str_of(cJSON_GetObjectItemCaseSensitive(m, "args"), "labels");
		const char *name = str_of(m, "name"), *label;
		int64_t pid;

		if (name && strcmp(name, "process_labels") == 0 && labels &&
		    strncmp(labels, "GPU ", 4) == 0 &&
		    chrome_id(c, cJSON_GetObjectItemCaseSensitive(m, "pid"), 'p', &pid, &label) == 0 &&
		    pid != PQ_NULL && label == NULL)
			chrome_add_gpu_pid(c, pid);
	}
	cJSON_ArrayForEach(m, c->deferred_m) {
		if (apply_m(c, m) != 0)
			return -1;
	}
	return 0;
}

int chrome_events_init(chrome_ctx *c)
{
	c->host_process_id = PQ_NULL;
	c->deferred_m = cJSON_CreateArray();
	if (c->deferred_m == NULL)
		return pq_fail(c->err, "out of memory");
	return 0;
}

static void free_stack(void *ctx, const char *key, void *value)
{
	open_stack *st = value;

	(void)ctx;
	(void)key;
	for (size_t i = 0; i < st->n; i++)
		free_open(&st->items[i]);
	free(st->items);
	free(st);
}

void chrome_events_free(chrome_ctx *c)
{
	pq_ptrmap_each(&c->open_be, free_stack, NULL);
	pq_ptrmap_free(&c->open_be);
	pq_ptrmap_each(&c->open_async, free_stack, NULL);
	pq_ptrmap_free(&c->open_async);
	cJSON_Delete(c->deferred_m);
	c->deferred_m = NULL;
	pq_strmap_free(&c->synthetic);
	free(c->scratch);
	c->scratch = NULL;
	c->scratch_cap = 0;
}
