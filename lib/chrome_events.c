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

/* Times -------------------------------------------------------------------------------------- */

/* A time member (us) -> ns; 0 ok, 1 absent, CHROME_BAD not a number. The digest has it
 * converted already; what is wrong is worked out again here, to say why. */
int chrome_member_ns(chrome_ctx *c, const chrome_event *ev, const char *key, int64_t *ns)
{
	const char *t;
	size_t n;

	/* "ts" or "dur", which the digest holds (the bytes compared: two per event) */
	int is_ts = key[0] == 't' && key[1] == 's' && key[2] == '\0';

	if (ev->dg != NULL && (is_ts || (key[0] == 'd' && strcmp(key, "dur") == 0))) {
		enum chrome_time_state st = is_ts ? ev->dg->ts_state : ev->dg->dur_state;

		if (st == CT_OK) {
			*ns = is_ts ? ev->dg->ts : ev->dg->dur;
			return 0;
		}
		if (st == CT_ABSENT)
			return 1;
	}
	switch (chrome_time_member(ev->json, ev->text, ev->mem, key, ns)) {
	case CT_OK: return 0;
	case CT_ABSENT: return 1;
	case CT_BAD: break;
	}
	t = chrome_member_text(ev->text, ev->mem, key, &n);
	if (t == NULL) {
		/* Beyond the scanner's member limit: the double is all there is. */
		if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(ev->json, key)))
			return pq_fail(c->err, "\"%s\" is not a number", key), CHROME_BAD;
		return pq_fail(c->err, "\"%s\" is out of range", key), CHROME_BAD;
	}
	if (n >= 2 && t[0] == '"') {
		t++;
		n -= 2;
	}
	return pq_fail(c->err, "\"%s\" is not a number of microseconds: %.*s", key,
		       (int)(n > 40 ? 40 : n), t), CHROME_BAD;
}

/* ts + the run's offset; CHROME_BAD when missing. */
int chrome_event_ts(chrome_ctx *c, const chrome_event *ev, const char *ph, int64_t *ns)
{
	int rc = chrome_member_ns(c, ev, "ts", ns);

	if (rc == 1)
		return pq_fail(c->err, "%s event without ts", ph), CHROME_BAD;
	if (rc != 0)
		return rc;
	if (__builtin_add_overflow(*ns, c->offset_ns, ns))
		return pq_fail(c->err, "ts out of range"), CHROME_BAD;
	return 0;
}

/* The entry point ------------------------------------------------------------------------------ */

int chrome_event_process(chrome_ctx *c, const chrome_event *ev_in)
{
	const cJSON *j = ev_in->json, *jn;
	const char *ph, *name, *cat;
	chrome_event digested;
	const chrome_event *ev = ev_in;
	chrome_digest dg;

	if (!cJSON_IsObject(j))
		return pq_fail(c->err, "not an object"), CHROME_BAD;
	if (j->child == NULL)
		return 0; /* {} : nothing (JAX ends traces with one) */
	if (ev->dg == NULL) {
		chrome_digest_event(&dg, j, ev->text, ev->mem);
		digested = *ev;
		digested.dg = &dg;
		ev = &digested;
	}
	ph = chrome_str(ev->dg->f[CF_PH]);
	if (ph == NULL || ph[0] == '\0')
		return pq_fail(c->err, "event without ph"), CHROME_BAD;
	jn = ev->dg->f[CF_NAME];
	name = cJSON_IsString(jn) ? jn->valuestring : "";
	cat = chrome_str(ev->dg->f[CF_CAT]);
	if (ph[1] != '\0')
		return chrome_other_event(c, ev, name, cat);

	switch (ph[0]) {
	case 'X':
		return chrome_complete_event(c, ev, name, cat);
	case 'B':
		return chrome_begin_event(c, ev, name, cat, 0);
	case 'E':
		return chrome_end_event(c, ev, cJSON_IsString(jn) ? name : NULL, cat, 0);
	case 'b':
	case 'S':
		return chrome_begin_event(c, ev, name, cat, 1);
	case 'e':
	case 'F':
		return chrome_end_event(c, ev, cJSON_IsString(jn) ? name : NULL, cat, 1);
	case 'i':
	case 'I':
	case 'R':
	case 'n':
	case 'T':
	case 'p':
		return chrome_instant_event(c, ev, name, cat);
	case 'C':
		return chrome_counter_event(c, ev, name);
	case 's':
	case 't':
	case 'f': {
		char p[2] = { ph[0], '\0' };

		return chrome_flow_event(c, ev, p, name, cat);
	}
	case 'M': {
		cJSON *copy = cJSON_Duplicate(j, 1);

		if (copy == NULL)
			return pq_fail(c->err, "out of memory");
		cJSON_AddItemToArray(c->deferred_m, copy);
		return 0;
	}
	default:
		return chrome_other_event(c, ev, name, cat);
	}
}

/* M events, at the end ------------------------------------------------------------------------ */

static int set_meta_text(chrome_ctx *c, const char *key, const cJSON *v)
{
	char *text;
	int rc;

	if (cJSON_IsString(v))
		return pq_store_set_metadata(c->s, key, v->valuestring, c->err);
	if (cJSON_IsNumber(v) && chrome_int(v) != PQ_NULL)
		return pq_store_set_metadata_int(c->s, key, chrome_int(v), c->err);
	text = v ? cJSON_PrintUnformatted(v) : NULL;
	rc = pq_store_set_metadata(c->s, key, text ? text : "null", c->err);
	free(text);
	return rc;
}

static int apply_m(chrome_ctx *c, const cJSON *m)
{
	const char *name = chrome_str_of(m, "name"), *label, *tlabel;
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
	if (chrome_is_gpu_pid(c, pid)) {
		const cJSON *v = args && args->child ? args->child : args;

		if (strncmp(name, "thread_", 7) == 0 && tid != PQ_NULL)
			snprintf(key, sizeof(key), "gpu_track.%" PRId64 ".%" PRId64 ".%s", pid, tid,
				 name);
		else
			snprintf(key, sizeof(key), "gpu_track.%" PRId64 ".%s", pid, name);
		return set_meta_text(c, key, v);
	}
	if (strcmp(name, "process_name") == 0 && chrome_str_of(args, "name") != NULL)
		return pq_store_process(c->s, pid, chrome_str_of(args, "name"), &pid_row, c->err);
	if (strcmp(name, "thread_name") == 0 && chrome_str_of(args, "name") != NULL)
		return pq_store_thread(c->s, pid, tid == PQ_NULL ? pid : tid, chrome_str_of(args, "name"),
				       &thread_row, c->err);
	if (strcmp(name, "process_sort_index") == 0 && chrome_int_of(args, "sort_index") != PQ_NULL)
		return pq_store_process(c->s, pid, label, &pid_row, c->err) ||
		       pq_store_set_sort_index(c->s, pid_row, PQ_NULL, chrome_int_of(args, "sort_index"),
					       c->err);
	if (strcmp(name, "thread_sort_index") == 0 && chrome_int_of(args, "sort_index") != PQ_NULL)
		return pq_store_thread(c->s, pid, tid == PQ_NULL ? pid : tid, tlabel, &thread_row,
				       c->err) ||
		       pq_store_set_sort_index(c->s, PQ_NULL, thread_row,
					       chrome_int_of(args, "sort_index"), c->err);
	/* process_labels and anything else: run metadata "<name>.<pid>[.<tid>]". */
	if (strcmp(name, "process_labels") == 0 || tid == PQ_NULL)
		snprintf(key, sizeof(key), "%s.%" PRId64, name, pid);
	else
		snprintf(key, sizeof(key), "%s.%" PRId64 ".%" PRId64, name, pid, tid);
	if (strcmp(name, "process_labels") == 0 && chrome_str_of(args, "labels") != NULL)
		return set_meta_text(c, key, cJSON_GetObjectItemCaseSensitive(args, "labels"));
	return set_meta_text(c, key, args);
}

int chrome_events_finish(chrome_ctx *c)
{
	const cJSON *m;

	if (chrome_ranges_finish(c, 1) != 0)
		return -1;
	/* GPU tracks labelled "GPU n" count as GPU pids too. */
	cJSON_ArrayForEach(m, c->deferred_m) {
		const char *labels = chrome_str_of(cJSON_GetObjectItemCaseSensitive(m, "args"), "labels");
		const char *name = chrome_str_of(m, "name"), *label;
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

int chrome_check_end(chrome_ctx *c, const char *what, int64_t start_ns, int64_t *end_ns)
{
	if (*end_ns >= start_ns)
		return 0;
	if (!c->keep_going)
		return pq_fail(c->err, "%s ends before it starts (%" PRId64 " ns early; "
			       "--keep-going keeps it with zero length)", what, start_ns - *end_ns),
		       CHROME_BAD;
	*end_ns = start_ns;
	c->clamped_ends++;
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

void chrome_events_free(chrome_ctx *c)
{
	chrome_ranges_finish(c, 0);
	cJSON_Delete(c->deferred_m);
	c->deferred_m = NULL;
	pq_map_free(&c->synthetic);
	free(c->scratch.p);
	c->scratch.p = NULL;
	c->scratch.cap = 0;
}

