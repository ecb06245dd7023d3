/* chrome_where.c - where an event happened: pid/tid to process and thread rows, GPU tracks to
 * device and stream rows, and flow/async ids (the GPU-track rules are in chrome_events.c). */
#include "chrome_import.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chrome_parse.h"
#include "chrome_time.h"

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
int64_t chrome_id_key(const chrome_event *ev)
{
	const cJSON *v = ev->dg->f[CF_ID];
	int64_t x;

	if (v == NULL) {
		const cJSON *id2 = ev->dg->f[CF_ID2];

		v = cJSON_GetObjectItemCaseSensitive(id2, "local");
		if (v == NULL)
			v = cJSON_GetObjectItemCaseSensitive(id2, "global");
	}
	if (v == NULL)
		return PQ_NULL;
	x = chrome_int(v);
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
	*id = chrome_int(v);
	if (*id != PQ_NULL)
		return 0;
	if (!cJSON_IsString(v))
		return pq_fail(c->err, "pid/tid is neither a number nor a string");
	*label = v->valuestring;
	n = snprintf(key, sizeof(key), "%c%s", kind, v->valuestring);
	if (n < 0 || (size_t)n >= sizeof(key))
		n = (int)sizeof(key) - 1;
	if (!pq_map_get_int(&c->synthetic, key, (size_t)n, id)) {
		*id = --c->next_synthetic;
		if (pq_map_put_int(&c->synthetic, key, (size_t)n, *id) != 0)
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

int chrome_is_gpu_pid(const chrome_ctx *c, int64_t pid)
{
	if (pid == PQ_NULL || (c->host_known && pid == c->host_pid))
		return 0;
	for (int i = 0; i < c->n_gpu_pids; i++)
		if (c->gpu_pids[i] == pid)
			return 1;
	return 0;
}

/* Dimensions ----------------------------------------------------------------------------------- */

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

static int thread_dims(chrome_ctx *c, chrome_where *w, int process_only)
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

int chrome_device(chrome_ctx *c, int64_t ordinal, int64_t *id)
{
	if (c->device_valid && ordinal == c->device_ordinal) {
		*id = c->device_id;
		return 0;
	}
	if (pq_store_device_ordinal(c->s, ordinal, id, c->err) != 0)
		return -1;
	c->device_ordinal = ordinal;
	c->device_id = *id;
	c->device_valid = 1;
	return 0;
}

static int gpu_dims(chrome_ctx *c, const chrome_digest *dg, chrome_where *w)
{
	int64_t dev = dg ? dg->ai[CA_DEVICE] : PQ_NULL;
	int64_t stream = dg ? dg->ai[CA_STREAM] : PQ_NULL;

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
	if (chrome_device(c, dev, &w->device_id) != 0)
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

int chrome_locate(chrome_ctx *c, const chrome_event *ev, enum chrome_class cc, int with_args,
		  chrome_where *w, int process_only)
{
	*w = (chrome_where){ .process_id = PQ_NULL, .thread_id = PQ_NULL, .device_id = PQ_NULL,
			     .stream_id = PQ_NULL };
	/* Numeric pids and tids come converted; chrome_id() handles the rest. */
	if ((w->pid = ev->dg->pid) == PQ_NULL &&
	    chrome_id(c, ev->dg->f[CF_PID], 'p', &w->pid, &w->pid_label) != 0)
		return CHROME_BAD;
	if ((w->tid = ev->dg->tid) == PQ_NULL &&
	    chrome_id(c, ev->dg->f[CF_TID], 't', &w->tid, &w->tid_label) != 0)
		return CHROME_BAD;
	w->gpu = chrome_class_is_gpu(cc);
	if (w->gpu && w->pid != PQ_NULL && w->pid_label == NULL)
		chrome_add_gpu_pid(c, w->pid);
	w->gpu = w->gpu || chrome_is_gpu_pid(c, w->pid);
	if (w->gpu)
		return gpu_dims(c, with_args ? ev->dg : NULL, w);
	return thread_dims(c, w, process_only);
}
