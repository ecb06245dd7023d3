/* chrome_marks.c - instants (and PyTorch's [memory] allocator events), counters, flows, and
 * phases no table holds. */
#include "chrome_import.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chrome_parse.h"
#include "chrome_time.h"

static const char *const known_i[] = { "ph", "name", "cat", "ts", "pid", "tid", "s", NULL };

/* A [memory] instant (PyTorch's allocator events, kineto_hta.md §1.1) with the Bytes a row
 * needs. */
static int memory_event(const char *name, const chrome_digest *dg)
{
	return strcmp(name, "[memory]") == 0 && cJSON_IsObject(dg->f[CF_ARGS]) &&
	       dg->ai[CA_MEM_BYTES] != PQ_NULL;
}

/* The args a memory_events row stores in columns (used, NULL-ended): Device Type/Id only when
 * they became memory_kind and device_id. */
static const char *const *memory_consumed(const chrome_digest *dg, const char *used[8])
{
	int64_t type = dg->ai[CA_DEVICE_TYPE], dev = dg->ai[CA_DEVICE_ID];
	int n = 0;

	used[n++] = "Bytes";
	if (dg->ai[CA_ADDR] != PQ_NULL)
		used[n++] = "Addr";
	if (dg->ai[CA_TOTAL_ALLOCATED] != PQ_NULL)
		used[n++] = "Total Allocated";
	if (dg->ai[CA_TOTAL_RESERVED] != PQ_NULL)
		used[n++] = "Total Reserved";
	if (type == 0 || type == 1)
		used[n++] = "Device Type";
	if (type == 1 && dev != PQ_NULL && dev >= 0)
		used[n++] = "Device Id";
	used[n] = NULL;
	return used;
}

int chrome_memory_args_guess(chrome_text *t, const char *text, const pq_chrome_members *mem,
			     const pq_chrome_args_members *am, const chrome_digest *dg,
			     chrome_x_args *xa)
{
	const cJSON *jn = dg->f[CF_NAME];
	const char *used[8];

	xa->text = NULL;
	xa->memory = 1;
	if (!cJSON_IsString(jn) || !memory_event(jn->valuestring, dg))
		return 0;
	return chrome_args_text(t, text, mem, am, known_i, memory_consumed(dg, used), &xa->text);
}

int chrome_instant_event(chrome_ctx *c, const chrome_event *ev, const char *name,
			 const char *cat)
{
	const char *args_text;
	int64_t ts;
	chrome_where w;
	int rc;

	if ((rc = chrome_event_ts(c, ev, "i", &ts)) != 0)
		return rc;
	if ((rc = chrome_locate(c, ev, CC_OTHER, 1, &w, 0)) != 0)
		return rc;
	if (memory_event(name, ev->dg)) {
		pq_memory_event m;
		int64_t bytes = ev->dg->ai[CA_MEM_BYTES], type = ev->dg->ai[CA_DEVICE_TYPE];
		int64_t dev = ev->dg->ai[CA_DEVICE_ID];
		const char *used[8];

		/* The reader thread's text when it made one (the same event: the same test) */
		if (ev->xa != NULL && ev->xa->memory)
			args_text = ev->xa->text;
		else if (chrome_event_args(c, ev, known_i, memory_consumed(ev->dg, used),
					   &args_text) != 0)
			return -1;

		pq_memory_event_init(&m);
		m.process_id = w.process_id;
		m.thread_id = w.thread_id;
		m.ts_ns = ts;
		/* Negative Bytes is a free; the row stores the size with operation 'free'. */
		m.operation = bytes < 0 ? PQ_MEM_FREE : PQ_MEM_ALLOC;
		m.bytes = bytes < 0 ? -bytes : bytes;
		m.address = ev->dg->ai[CA_ADDR];
		m.total_allocated = ev->dg->ai[CA_TOTAL_ALLOCATED];
		m.total_reserved = ev->dg->ai[CA_TOTAL_RESERVED];
		/* Device Type: c10 DeviceType, 0 CPU (host memory, pageable), 1 CUDA. */
		m.memory_kind = type == 1 ? 2 : type == 0 ? 0 : 7;
		if (type == 1 && dev != PQ_NULL && dev >= 0 &&
		    chrome_device(c, dev, &m.device_id) != 0)
			return -1;
		m.args = args_text;
		return chrome_row_done(c, pq_store_memory_event(c->s, &m, NULL, c->err));
	}
	if (chrome_event_args(c, ev, known_i, NULL, &args_text) != 0)
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
		m.scope = chrome_str(ev->dg->f[CF_S]);
		m.args = args_text;
		return chrome_row_done(c, pq_store_mark(c->s, &m, NULL, c->err));
	}
}

int chrome_counter_event(chrome_ctx *c, const chrome_event *ev, const char *name)
{
	const cJSON *args = ev->dg->f[CF_ARGS];
	const cJSON *id = ev->dg->f[CF_ID];
	char series[1024], idtext[64] = "";
	int64_t ts;
	chrome_where w;
	int rc;

	if ((rc = chrome_event_ts(c, ev, "C", &ts)) != 0)
		return rc;
	if (!cJSON_IsObject(args))
		return pq_fail(c->err, "C event without args"), CHROME_BAD;
	if ((rc = chrome_locate(c, ev, CC_OTHER, 0, &w, 1)) != 0)
		return rc;
	if (cJSON_IsString(id))
		snprintf(idtext, sizeof(idtext), "[%s]", id->valuestring);
	else if (cJSON_IsNumber(id))
		snprintf(idtext, sizeof(idtext), "[%.17g]", id->valuedouble);
	/* One series per args key: "<name>.<key>", or "<name>[<id>].<key>" with an id. */
	for (const cJSON *v = args->child; v != NULL; v = v->next) {
		pq_counter k;

		pq_counter_init(&k);
		k.value = chrome_real(v);
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
		if (chrome_row_done(c, pq_store_counter(c->s, &k, NULL, c->err)) != 0)
			return -1;
	}
	return 0;
}

int chrome_flow_event(chrome_ctx *c, const chrome_event *ev, const char *ph, const char *name,
		      const char *cat)
{
	const char *bp = chrome_str(ev->dg->f[CF_BP]);
	pq_flow f;
	chrome_where w;
	int rc;

	pq_flow_init(&f);
	if ((rc = chrome_event_ts(c, ev, ph, &f.ts_ns)) != 0)
		return rc;
	f.flow_key = chrome_id_key(ev);
	if (f.flow_key == PQ_NULL)
		return pq_fail(c->err, "flow event without id"), CHROME_BAD;
	if ((rc = chrome_locate(c, ev, CC_OTHER, 0, &w, 0)) != 0)
		return rc;
	f.process_id = w.process_id;
	f.thread_id = w.thread_id;   /* NULL on a GPU track: the flow's end is on a stream */
	f.phase = ph;
	f.name = name[0] ? name : NULL;
	f.category = cat;
	/* s and t bind to the enclosing slice; f to the enclosing one with "bp":"e", else to
	 * the next slice (spec). */
	f.binds_enclosing = ph[0] != 'f' || (bp != NULL && strcmp(bp, "e") == 0);
	return chrome_row_done(c, pq_store_flow(c->s, &f, NULL, c->err));
}

/* An event of a phase no table holds (P samples, O/N/D objects, V/v dumps, c, ( ) ...): kept as
 * an instant mark with its phase under args._event, when it has a ts. */
int chrome_other_event(chrome_ctx *c, const chrome_event *ev, const char *name, const char *cat)
{
	static const char *const known[] = { "name", "cat", "ts", "pid", "tid", NULL };
	const char *args_text;
	pq_mark m;
	chrome_where w;
	int rc;

	pq_mark_init(&m);
	rc = chrome_member_ns(c, ev, "ts", &m.ts_ns);
	if (rc == 1) {
		c->ignored_events++;
		return 0;
	}
	if (rc != 0 || __builtin_add_overflow(m.ts_ns, c->offset_ns, &m.ts_ns))
		return pq_fail(c->err, "bad ts"), CHROME_BAD;
	if ((rc = chrome_locate(c, ev, CC_OTHER, 0, &w, 0)) != 0)
		return rc;
	if (chrome_event_args(c, ev, known, NULL, &args_text) != 0)
		return -1;
	m.process_id = w.process_id;
	m.thread_id = w.thread_id;
	m.kind = PQ_MARK_INSTANT;
	m.name = name;
	m.category = cat;
	m.args = args_text;
	return chrome_row_done(c, pq_store_mark(c->s, &m, NULL, c->err));
}

