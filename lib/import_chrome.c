/* import_chrome.c - Chrome trace-event JSON (.json, .json.gz) -> one run: the top-level keys,
 * the run's time base, and the error policy. The document's shape is walked by the reader
 * thread (chrome_reader.c); events become rows in chrome_events.c.
 *
 * Streaming, in two stages. The reader thread reads the file through zlib in chunks
 * (chrome_stream.c), finds each event object with a scanner that respects strings and escapes,
 * parses it on its own with cJSON and digests it (chrome_fields.c), and hands batches of events
 * to this thread, which writes rows and applies the error policy in document order, so messages
 * and rows are what one thread would give. At most CHROME_READER_BATCHES batches exist. What
 * else stays in memory is what is still open: B/E and async begins without their end, the M
 * (metadata) events (one per process or thread, applied at the end so names do not depend on
 * their position), and up to PRELUDE_EVENTS events of look-ahead before the run begins (below).
 * Top-level values other than traceEvents are held whole while parsed.
 *
 * Document forms: {"traceEvents": [...], <other keys before or after>} and a bare [...] array,
 * whose closing bracket may be missing (Chrome's idiom for traces cut short). Trailing commas
 * and {} events are accepted, as Perfetto does.
 *
 * Timestamps (us, possibly fractional) are converted from their decimal text to integer ns
 * exactly (chrome_time.c); cJSON's doubles are never used for ts or dur.
 *
 * Time base. Kineto writes "baseTimeNanoseconds" (current libkineto: before traceEvents) and
 * event ts relative to it: unix_ns = baseTimeNanoseconds + ts_us * 1000 (HTA's
 * trace_event_timestamp_to_unixtime_ns does exactly this; PyTorch's profiler test recovers
 * ts = (absolute_ns - base_ns) / 1000). So with a baseTimeNanoseconds > 0 the run is 'unix',
 * every time is base + ts, and runs.time_offset_ns = base. Without one (PyTorch 1.9 traces write
 * epoch us directly; JAX writes us since an arbitrary start), the first event carrying a ts
 * decides: at or after 2000-01-01T00:00:00Z (946684800e9 ns) the trace is epoch based ('unix',
 * offset 0); before it, the clock is clearly not the epoch ('relative', offset 0). Run metadata
 * import.time_base records which rule applied.
 *
 * Look-ahead. The run begins (pq_store_begin_run needs time base, rank and version) when the
 * time base is known and, for Kineto traces, the host process too (chrome_events.c explains
 * GPU tracks); until then, up to PRELUDE_EVENTS events are held and then replayed. Keys that come
 * after traceEvents and change the run itself (baseTimeNanoseconds, distributedInfo.rank,
 * schemaVersion) are only seen at the end: when they differ from what the run began with, the run
 * is thrown away and the file read again knowing them (at most once).
 *
 * Errors: a corrupt or truncated gzip stream, text that is not JSON, an unclosed object form, or
 * a document that is not a trace fail the import; an event that cannot be read (invalid JSON,
 * missing ts, an X without dur, ...) fails it too, or with keep_going is skipped, counted in
 * stats.skipped and run metadata import.skipped_events, import.first_error. Messages say where:
 * "event N at byte B" (N counts events from 0; B is the offset in the decompressed JSON text).
 */
#include "import.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "chrome_import.h"
#include "chrome_parse.h"
#include "chrome_reader.h"
#include "chrome_time.h"

#define PRELUDE_EVENTS 1024
#define PRELUDE_BYTES (16u << 20)
#define EPOCH_2000_NS INT64_C(946684800000000000)
#define RESTART 1

/* Facts about the run that top-level keys give. */
typedef struct run_facts {
	int have_base, have_rank, have_version;
	int64_t base, rank;
	char version[64];
} run_facts;

typedef struct queued {
	size_t off, len;
	int64_t index;
	uint64_t pos;
} queued;

typedef struct importer {
	chrome_ctx c;
	chrome_reader rd;
	pq_json_arena arena;    /* held events, parsed again when replayed */
	pq_store *s;
	const char *path;
	const pq_import_options *opt;
	pq_import_stats *stats;
	pq_error *err;

	run_facts facts;        /* as known before the run began (incl. a previous attempt's) */
	run_facts late;         /* seen after the run began */
	int restart;
	cJSON *pending;         /* top-level keys seen before the run began: applied at begin */
	int run_open;

	int time_decided, relative;
	const char *time_rule;

	char *q;                /* look-ahead event texts */
	size_t q_len, q_cap;
	queued *qi;
	size_t qn, qcap;

	int64_t skipped, first_error_index;
	char first_error[512];
} importer;

/* Errors ------------------------------------------------------------------------------------ */

/* A bad event: fails the import, or under keep_going counts it and goes on. */
static int bad_event(importer *im, int64_t index, uint64_t pos, const char *why)
{
	char msg[sizeof(im->first_error)];

	snprintf(msg, sizeof(msg), "event %" PRId64 " at byte %" PRIu64 ": %s", index, pos, why);
	if (!im->opt->keep_going)
		return pq_fail(im->err, "%s", msg);
	/* Held look-ahead events are processed late: keep the error of the earliest event. */
	if (im->skipped++ == 0 || index < im->first_error_index) {
		memcpy(im->first_error, msg, sizeof(msg));
		im->first_error_index = index;
	}
	im->stats->skipped++;
	return 0;
}

/* Runs one event through chrome_events.c and the error policy. */
static int process(importer *im, const char *text, size_t len, const pq_chrome_members *m,
		   cJSON *json, const chrome_digest *dg, const chrome_x_args *xa, int64_t index,
		   uint64_t pos)
{
	chrome_event ev = { text, len, m, json, dg, xa };
	int rc = chrome_event_process(&im->c, &ev);

	if (rc == CHROME_BAD) {
		char why[sizeof(im->err->msg)];

		memcpy(why, im->err->msg, sizeof(why));
		return bad_event(im, index, pos, why);
	}
	return rc;
}

/* Devices and metadata from top-level keys --------------------------------------------------- */

static int64_t dev_int(const cJSON *d, const char *a, const char *b)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(d, a);

	if (v == NULL && b != NULL)
		v = cJSON_GetObjectItemCaseSensitive(d, b);
	/* chrome_int: an integer in int64 range, not a cast of inf or 1e300 (undefined). */
	return cJSON_IsNumber(v) ? chrome_int(v) : PQ_NULL;
}

/* deviceProperties (Kineto) / computeProperties (older): CUDA device properties by cudaDeviceProp
 * field names; clock rates there are kHz. */
static int write_devices(importer *im, const cJSON *list)
{
	const cJSON *d;

	cJSON_ArrayForEach(d, list) {
		pq_device dev;
		int64_t id;

		pq_device_init(&dev);
		dev.ordinal = dev_int(d, "id", "device");
		if (dev.ordinal == PQ_NULL)
			continue;
		dev.name = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(d, "name"))
				   ? cJSON_GetObjectItemCaseSensitive(d, "name")->valuestring
				   : NULL;
		dev.uuid = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(d, "uuid"))
				   ? cJSON_GetObjectItemCaseSensitive(d, "uuid")->valuestring
				   : NULL;
		dev.compute_major = dev_int(d, "computeMajor", "major");
		dev.compute_minor = dev_int(d, "computeMinor", "minor");
		dev.sm_count = dev_int(d, "numSms", "multiProcessorCount");
		dev.warp_size = dev_int(d, "warpSize", NULL);
		dev.max_threads_per_block = dev_int(d, "maxThreadsPerBlock", NULL);
		dev.max_threads_per_sm =
			dev_int(d, "maxThreadsPerMultiprocessor", "maxThreadsPerMultiProcessor");
		dev.max_blocks_per_sm =
			dev_int(d, "maxBlocksPerMultiprocessor", "maxBlocksPerMultiProcessor");
		dev.max_registers_per_block = dev_int(d, "regsPerBlock", NULL);
		dev.max_registers_per_sm = dev_int(d, "regsPerMultiprocessor", NULL);
		dev.max_shared_memory_per_block = dev_int(d, "sharedMemPerBlock", NULL);
		dev.max_shared_memory_per_sm = dev_int(d, "sharedMemPerMultiprocessor", NULL);
		dev.shared_memory_per_block_optin = dev_int(d, "sharedMemPerBlockOptin", NULL);
		dev.l2_cache_bytes = dev_int(d, "l2CacheSize", NULL);
		dev.global_memory_bytes = dev_int(d, "totalGlobalMem", NULL);
		dev.core_clock_hz = dev_int(d, "clockRate", NULL);
		if (dev.core_clock_hz != PQ_NULL)
			dev.core_clock_hz *= 1000;
		dev.memory_clock_hz = dev_int(d, "memoryClockRate", NULL);
		if (dev.memory_clock_hz != PQ_NULL)
			dev.memory_clock_hz *= 1000;
		dev.memory_bus_width_bits = dev_int(d, "memoryBusWidth", NULL);
		if (pq_store_device(im->s, &dev, &id, im->err) != 0)
			return -1;
		/* Kineto puts GPU activity on pid = device ordinal. */
		chrome_add_gpu_pid(&im->c, dev.ordinal);
	}
	return 0;
}

/* A top-level key the run stores once it is open: devices, or run_metadata. */
static int apply_key(importer *im, const char *key, const cJSON *v)
{
	char *text;
	int rc;

	if ((strcmp(key, "deviceProperties") == 0 || strcmp(key, "computeProperties") == 0) &&
	    cJSON_IsArray(v))
		return write_devices(im, v);
	if (cJSON_IsString(v) || cJSON_IsRaw(v)) {
		int64_t x;

		if (cJSON_IsRaw(v) &&
		    pq_chrome_parse_int(v->valuestring, strlen(v->valuestring), &x) == 0)
			return pq_store_set_metadata_int(im->s, key, x, im->err);
		return pq_store_set_metadata(im->s, key, v->valuestring, im->err);
	}
	text = cJSON_PrintUnformatted(v);
	if (text == NULL)
		return pq_fail(im->err, "out of memory");
	rc = pq_store_set_metadata(im->s, key, text, im->err);
	free(text);
	return rc;
}

/* Reads run facts from a top-level key into f; raw is the value's text (exact numbers). */
static void read_facts(run_facts *f, const char *key, const cJSON *v, const char *raw,
		       size_t rawlen)
{
	int64_t x;

	if (strcmp(key, "baseTimeNanoseconds") == 0) {
		if (rawlen >= 2 && raw[0] == '"')
			raw++, rawlen -= 2;
		if (pq_chrome_parse_int(raw, rawlen, &x) == 0 && x > 0) {
			f->have_base = 1;
			f->base = x;
		}
	} else if (strcmp(key, "distributedInfo") == 0) {
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(v, "rank");

		if (cJSON_IsNumber(r) && chrome_int(r) != PQ_NULL) {
			f->have_rank = 1;
			f->rank = chrome_int(r);
		}
	} else if (strcmp(key, "schemaVersion") == 0) {
		size_t n = rawlen < sizeof(f->version) - 1 ? rawlen : sizeof(f->version) - 1;

		if (cJSON_IsString(v))
			snprintf(f->version, sizeof(f->version), "%s", v->valuestring);
		else {
			memcpy(f->version, raw, n);
			f->version[n] = '\0';
		}
		f->have_version = 1;
	}
}

static int facts_differ(const run_facts *used, const run_facts *late)
{
	return (late->have_base && (!used->have_base || used->base != late->base)) ||
	       (late->have_rank && (!used->have_rank || used->rank != late->rank)) ||
	       (late->have_version &&
		(!used->have_version || strcmp(used->version, late->version) != 0));
}

static int top_key(importer *im, const char *key, const char *raw, size_t len, uint64_t pos)
{
	cJSON *v = pq_json_parse(raw, len);

	if (v == NULL)
		return pq_fail(im->err, "invalid JSON in top-level key \"%s\" at byte %llu", key,
			       (unsigned long long)pos);
	if (cJSON_IsNumber(v)) {
		/* Keep a number's text: cJSON's double would round baseTimeNanoseconds. */
		char *text = strndup(raw, len);

		cJSON_Delete(v);
		v = text ? cJSON_CreateRaw(text) : NULL;
		free(text);
		if (v == NULL)
			return pq_fail(im->err, "out of memory");
	}
	if (!im->run_open) {
		read_facts(&im->facts, key, v, raw, len);
		cJSON_AddItemToObject(im->pending, key, v);
		return 0;
	}
	read_facts(&im->late, key, v, raw, len);
	if (facts_differ(&im->facts, &im->late)) {
		im->restart = 1;
		read_facts(&im->facts, key, v, raw, len); /* what the next attempt begins with */
	}
	int rc = apply_key(im, key, v);

	cJSON_Delete(v);
	return rc;
}

/* The run ------------------------------------------------------------------------------------ */

static int begin_run(importer *im)
{
	pq_run_info info;
	const cJSON *v;

	pq_run_info_init(&info);
	info.source = "chrome-json";
	info.source_path = im->path;
	info.source_version = im->facts.have_version ? im->facts.version : NULL;
	info.rank = im->facts.have_rank ? im->facts.rank : PQ_NULL;
	if (im->facts.have_base) {
		info.relative_time = 0;
		info.time_offset_ns = im->facts.base;
		im->time_rule = "baseTimeNanoseconds + ts";
	} else if (im->time_decided) {
		info.relative_time = im->relative;
		im->time_rule = im->relative ? "relative: first ts before 2000-01-01"
					     : "unix: first ts at or after 2000-01-01";
	} else {
		im->time_rule = "unix: no event has a ts";
	}
	im->c.offset_ns = im->facts.have_base ? im->facts.base : 0;
	if (pq_store_begin_run(im->s, &info, &im->stats->run_id, im->err) != 0)
		return -1;
	im->run_open = 1;
	cJSON_ArrayForEach(v, im->pending) {
		if (apply_key(im, v->string, v) != 0)
			return -1;
	}
	if (pq_import_source_metadata(im->s, im->opt, im->err) != 0)
		return -1;
	return pq_store_set_metadata(im->s, "import.time_base", im->time_rule, im->err);
}

/* Look-ahead: what an event tells before the run begins. */
static void observe(importer *im, const chrome_event *ev)
{
	const cJSON *j = ev->json;
	const char *ph = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "ph"))
				 ? cJSON_GetObjectItemCaseSensitive(j, "ph")->valuestring
				 : "";
	size_t n;
	const char *ts = chrome_member_text(ev->text, ev->mem, "ts", &n);
	int64_t ns;

	if (!im->time_decided && !im->facts.have_base && ts != NULL) {
		if (n >= 2 && ts[0] == '"')
			ts++, n -= 2;
		if (pq_chrome_us_to_ns(ts, n, &ns) == 0) {
			im->time_decided = 1;
			im->relative = ns < EPOCH_2000_NS;
		}
	}
	if (!im->c.host_known) {
		const cJSON *pid = cJSON_GetObjectItemCaseSensitive(j, "pid");
		const cJSON *cat = cJSON_GetObjectItemCaseSensitive(j, "cat");
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(j, "name");
		const cJSON *args = cJSON_GetObjectItemCaseSensitive(j, "args");
		const cJSON *labels = cJSON_GetObjectItemCaseSensitive(args, "labels");
		int host = 0;

		if (strcmp(ph, "M") == 0)
			host = cJSON_IsString(name) && strcmp(name->valuestring, "process_labels") == 0 &&
			       cJSON_IsString(labels) && strstr(labels->valuestring, "CPU") != NULL;
		else if (ph[0] != '\0' && strchr("XBib", ph[0]) != NULL)
			host = cJSON_IsString(cat) && chrome_class_is_host(chrome_classify(cat->valuestring));
		if (host) {
			int64_t x = PQ_NULL;

			if (cJSON_IsNumber(pid))
				x = chrome_int(pid);
			else if (cJSON_IsString(pid) &&
				 pq_chrome_parse_int(pid->valuestring, strlen(pid->valuestring), &x) != 0)
				x = PQ_NULL;
			if (x != PQ_NULL) {
				im->c.host_known = 1;
				im->c.host_pid = x;
			}
		}
	}
}

static int prelude_ready(const importer *im)
{
	return ((im->facts.have_base || im->time_decided) && im->c.host_known) ||
	       im->qn >= PRELUDE_EVENTS || im->q_len >= PRELUDE_BYTES;
}

/* Begins the run and replays the held events. */
static int flush_prelude(importer *im)
{
	if (!im->run_open && begin_run(im) != 0)
		return -1;
	if (im->c.host_known &&
	    pq_store_set_metadata_int(im->s, "import.host_pid", im->c.host_pid, im->err) != 0)
		return -1;
	for (size_t i = 0; i < im->qn; i++) {
		const queued *e = &im->qi[i];
		const char *text = im->q + e->off;
		pq_chrome_members m;
		size_t len;
		cJSON *json;
		int rc;

		pq_chrome_scan_value(text, e->len, 1, &len, &m);
		pq_json_arena_reset(&im->arena);
		json = pq_json_parse_in(&im->arena, text, e->len, NULL);
		rc = process(im, text, e->len, &m, json, NULL, NULL, e->index, e->pos);
		if (rc != 0)
			return -1;
	}
	im->qn = im->q_len = 0;
	return 0;
}

static int hold(importer *im, const chrome_event *ev, int64_t index, uint64_t pos)
{
	if (im->q_len + ev->len > im->q_cap) {
		size_t cap = im->q_cap ? im->q_cap : 1u << 16;
		char *q;

		while (cap < im->q_len + ev->len)
			cap *= 2;
		q = realloc(im->q, cap);
		if (q == NULL)
			return pq_fail(im->err, "out of memory");
		im->q = q;
		im->q_cap = cap;
	}
	if (im->qn == im->qcap) {
		size_t cap = im->qcap ? im->qcap * 2 : 64;
		queued *qi = realloc(im->qi, cap * sizeof(*qi));

		if (qi == NULL)
			return pq_fail(im->err, "out of memory");
		im->qi = qi;
		im->qcap = cap;
	}
	memcpy(im->q + im->q_len, ev->text, ev->len);
	im->qi[im->qn++] = (queued){ im->q_len, ev->len, index, pos };
	im->q_len += ev->len;
	observe(im, ev);
	return prelude_ready(im) ? flush_prelude(im) : 0;
}

/* The events, from the reader thread ---------------------------------------------------------- */

/* One item of a batch, in document order. */
static int item(importer *im, const chrome_batch *b, const chrome_item *it)
{
	const char *text = chrome_item_text(b, it);

	switch (it->kind) {
	case CHROME_ITEM_EVENT:
		im->stats->events++;
		if (im->run_open) {
			chrome_x_args xa;

			if (it->has_xa) {
				xa = it->xa;
				xa.text = it->xa_text != SIZE_MAX ? b->text + it->xa_text : NULL;
			}
			return process(im, text, it->len, &it->m, it->json, &it->dg,
				       it->has_xa ? &xa : NULL, it->index, it->pos);
		} else {
			chrome_event ev = { text, it->len, &it->m, it->json, &it->dg, NULL };

			return hold(im, &ev, it->index, it->pos);
		}
	case CHROME_ITEM_BAD:
		if (it->counted)
			im->stats->events++;
		return bad_event(im, it->index, it->pos, text);
	case CHROME_ITEM_KEY:
		return top_key(im, b->text + it->key, text, it->len, it->pos);
	}
	return 0;
}

/* __builtin_prefetch, kept: GCC 12 deletes prefetches inlined into a loop (objdump showed none),
 * taking them for statements without effect; an empty volatile asm is one. */
static inline void prefetch(const void *p)
{
	__builtin_prefetch(p);
	__asm__ volatile("");
}

/* The first reads of an item are of memory the reader thread wrote from the other CPU, each a
 * cache miss: most of this thread's time beyond its instructions in the reading phase (perf: the
 * item's fields, its tree's nodes). Asked for ahead (the item five ahead, the nodes it points to
 * three ahead, reading only what the first stage fetched), they arrive while SQLite writes the
 * items before. Fetching the nodes' strings too cost more than it saved: a third stage has to
 * read the nodes. */
static void prefetch_item(const chrome_batch *b, size_t i)
{
	const char *p = (const char *)&b->items[i];

	if (i >= b->n)
		return;
	for (size_t at = 0; at < offsetof(chrome_item, m); at += 64)
		prefetch(p + at);
}

static void prefetch_nodes(const chrome_batch *b, size_t i)
{
	const chrome_item *it = &b->items[i];

	if (i >= b->n || it->kind != CHROME_ITEM_EVENT)
		return;
	/* the root and the members every event's row reads (a NULL one: no fault) */
	prefetch(it->json);
	prefetch(it->dg.f[CF_PH]);
	prefetch(it->dg.f[CF_NAME]);
	prefetch(it->dg.f[CF_CAT]);
	if (it->has_xa && it->xa_text != SIZE_MAX)
		prefetch(b->text + it->xa_text);
}

/* Consumes what the reader produces; the reader's own failure comes after its last batch. */
static int document(importer *im)
{
	chrome_batch *b;

	if (chrome_reader_start(&im->rd, im->path, 1, im->err) != 0)
		return -1;
	pq_progress_report(&im->opt->progress, PQ_PHASE_READ, 0, im->rd.in.file_size);
	while ((b = chrome_reader_next(&im->rd)) != NULL) {
		for (size_t i = 0; i < 5; i++)
			prefetch_item(b, i);
		for (size_t i = 0; i < b->n; i++) {
			prefetch_item(b, i + 5);
			prefetch_nodes(b, i + 3);
			if (item(im, b, &b->items[i]) != 0) {
				chrome_reader_release(&im->rd, b);
				return -1;
			}
		}
		/* Here, not in the reader thread: progress is reported on the caller's thread. */
		pq_progress_report(&im->opt->progress, PQ_PHASE_READ, b->file_read,
				   im->rd.in.file_size);
		chrome_reader_release(&im->rd, b);
	}
	if (im->rd.status != 0) {
		*im->err = im->rd.err;
		return -1;
	}
	return 0;
}

static int finish(importer *im)
{
	chrome_ctx *c = &im->c;

	pq_progress_report(&im->opt->progress, PQ_PHASE_WRITE, 0, 0);
	/* Closing what is still open counts the unclosed ones. */
	if (flush_prelude(im) != 0 || chrome_events_finish(c) != 0)
		return -1;
	struct {
		const char *key;
		int64_t v;
	} counts[] = {
		{ "import.unmatched_E", c->unmatched_e },
		{ "import.unclosed_B", c->unclosed_b },
		{ "import.unmatched_async_e", c->unmatched_async_e },
		{ "import.unclosed_async_b", c->unclosed_async_b },
		{ "import.non_numeric_counter_values", c->non_numeric_counters },
		{ "import.ignored_events_without_ts", c->ignored_events },
		{ "import.skipped_events", im->skipped },
		{ "import.clamped_ends", c->clamped_ends },
	};

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (counts[i].v > 0 &&
		    pq_store_set_metadata_int(im->s, counts[i].key, counts[i].v, im->err) != 0)
			return -1;
	if (im->skipped > 0 &&
	    pq_store_set_metadata(im->s, "import.first_error", im->first_error, im->err) != 0)
		return -1;
	im->stats->clamped = c->clamped_ends;
	if (im->stats->unmatched > 0 &&
	    pq_store_set_metadata_int(im->s, "import.unmatched_events", im->stats->unmatched,
				      im->err) != 0)
		return -1;
	return 0;
}

static int attempt(importer *im)
{
	int rc;

	if (chrome_events_init(&im->c) != 0)
		return -1;
	im->pending = cJSON_CreateObject();
	if (im->pending == NULL)
		return pq_fail(im->err, "out of memory");
	rc = document(im);
	/* The reader is done (or told to stop) before the run is finished or thrown away. */
	chrome_reader_stop(&im->rd);
	if (rc == 0)
		rc = finish(im);
	if (rc == 0 && im->restart)
		return RESTART;
	if (rc == 0)
		rc = pq_store_finish_run(im->s, im->err);
	return rc;
}

static void release(importer *im)
{
	chrome_events_free(&im->c);
	chrome_reader_stop(&im->rd);
	cJSON_Delete(im->pending);
	im->pending = NULL;
	pq_json_arena_free(&im->arena);
	free(im->q);
	free(im->qi);
	im->q = NULL;
	im->qi = NULL;
}

static int import_rounds(pq_store *s, const char *path, const pq_import_options *opt,
			 pq_import_stats *stats, pq_error *err)
{
	static const pq_import_options defaults;
	run_facts known = { 0 };
	int rc;

	for (int round = 0;; round++) {
		importer im;

		memset(&im, 0, sizeof(im));
		memset(stats, 0, sizeof(*stats));
		im.s = s;
		im.path = path;
		im.opt = opt ? opt : &defaults;
		im.stats = stats;
		im.err = err;
		im.c.s = s;
		im.c.keep_going = im.opt->keep_going;
		im.c.stats = stats;
		im.c.err = err;
		im.facts = known;
		rc = attempt(&im);
		known = im.facts;
		release(&im);
		if (rc != RESTART)
			return rc;
		if (round > 0)
			return pq_fail(err, "top-level keys after traceEvents changed between reads");
		/* The run began without facts that came after the events: start over with them. */
		if (pq_store_abort_run(s, err) != 0)
			return -1;
	}
}

int pq_import_chrome(pq_store *s, const char *path, const pq_import_options *opt,
		     pq_import_stats *stats, pq_error *err)
{
	int rc;

	/* A trace's events go to several tables in turn: held and written a table at a time. */
	pq_store_group_rows(s, 1);
	rc = import_rounds(s, path, opt, stats, err);
	pq_store_group_rows(s, 0);
	return rc;
}
