/* chrome_reader.c - the reader thread: the document's shape, its values, batches of parsed
 * events (see chrome_reader.h; the document forms are described in import_chrome.c). */
#include "chrome_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

/* Batches ------------------------------------------------------------------------------------ */

static void batch_free(chrome_batch *b)
{
	free(b->items);
	free(b->text);
	pq_json_arena_free(&b->arena);
	free(b);
}

/* A batch to fill: a free one, a new one while fewer than CHROME_READER_BATCHES exist, else
 * waits for the importer to give one back. NULL when the importer stopped (or out of memory,
 * err set). */
static chrome_batch *batch_get(chrome_reader *r)
{
	chrome_batch *b = NULL;

	pthread_mutex_lock(&r->mu);
	while (!r->stop && r->free_list == NULL && r->n_batches >= CHROME_READER_BATCHES)
		pthread_cond_wait(&r->cv, &r->mu);
	if (!r->stop && r->free_list != NULL) {
		b = r->free_list;
		r->free_list = b->next;
	} else if (!r->stop) {
		b = calloc(1, sizeof(*b));
		if (b != NULL)
			r->n_batches++;
		else
			pq_fail(&r->err, "out of memory");
	}
	pthread_mutex_unlock(&r->mu);
	if (b == NULL)
		return NULL;
	b->n = 0;
	b->text_len = 0;
	b->next = NULL;
	pq_json_arena_reset(&b->arena);
	return b;
}

/* Queues the batch being filled (when it has anything); -1 when the importer stopped. */
static int batch_push(chrome_reader *r)
{
	chrome_batch *b = r->cur;
	int stop;

	r->cur = NULL;
	pthread_mutex_lock(&r->mu);
	stop = r->stop;
	if (b != NULL && b->n > 0 && !stop) {
		b->file_read = r->in.file_read;
		if (r->tail != NULL)
			r->tail->next = b;
		else
			r->head = b;
		r->tail = b;
	} else if (b != NULL) {
		b->next = r->free_list;
		r->free_list = b;
	}
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return stop ? -1 : 0;
}

/* A new item in the current batch, with text[0..n) (+ NUL) copied into it (room for n bytes
 * when text is NULL); the batch is queued first when it is full. NULL on stop or out of
 * memory. */
static chrome_item *item_add(chrome_reader *r, enum chrome_item_kind kind, const char *text,
			     size_t n)
{
	chrome_batch *b = r->cur;
	chrome_item *it;

	if (b != NULL && (b->n >= CHROME_BATCH_EVENTS || b->text_len >= CHROME_BATCH_TEXT)) {
		if (batch_push(r) != 0)
			return NULL;
		b = NULL;
	}
	if (b == NULL && (b = r->cur = batch_get(r)) == NULL)
		return NULL;
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		chrome_item *items = realloc(b->items, cap * sizeof(*items));

		if (items == NULL)
			return pq_fail(&r->err, "out of memory"), NULL;
		b->items = items;
		b->cap = cap;
	}
	if (b->text_len + n + 1 > b->text_cap) {
		size_t cap = b->text_cap ? b->text_cap : CHROME_BATCH_TEXT + (64u << 10);
		char *t;

		while (cap < b->text_len + n + 1)
			cap *= 2;
		t = realloc(b->text, cap);
		if (t == NULL)
			return pq_fail(&r->err, "out of memory"), NULL;
		b->text = t;
		b->text_cap = cap;
	}
	it = &b->items[b->n++];
	it->kind = kind;
	it->counted = 0;
	it->index = -1;
	it->pos = 0;
	it->text = b->text_len;
	it->len = n;
	it->key = 0;
	it->json = NULL;
	it->has_xa = 0;
	it->xa_text = SIZE_MAX;
	if (text != NULL)
		memcpy(b->text + b->text_len, text, n);
	b->text[b->text_len + n] = '\0';
	b->text_len += n + 1;
	return it;
}

/* Appends text[0..n) + NUL to batch b's text (never queues it: the text belongs to the item
 * just added); its offset, or SIZE_MAX when out of memory. */
static size_t text_add(chrome_batch *b, const char *text, size_t n)
{
	size_t off = b->text_len;

	if (b->text_len + n + 1 > b->text_cap) {
		size_t cap = b->text_cap;
		char *t;

		while (cap < b->text_len + n + 1)
			cap *= 2;
		t = realloc(b->text, cap);
		if (t == NULL)
			return SIZE_MAX;
		b->text = t;
		b->text_cap = cap;
	}
	memcpy(b->text + off, text, n);
	b->text[off + n] = '\0';
	b->text_len += n + 1;
	return off;
}

/* Reading ---------------------------------------------------------------------------------- */

static int is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* The next byte that is not whitespace (and not a comma when skip_commas), without consuming
 * it: 0..255, or -1 at the end, -2 on a read error. */
static int peek(chrome_reader *r, int skip_commas)
{
	pq_chrome_stream *in = &r->in;

	for (;;) {
		while (in->pos < in->len &&
		       (is_ws(in->buf[in->pos]) || (skip_commas && in->buf[in->pos] == ',')))
			in->pos++;
		if (in->pos < in->len)
			return (unsigned char)in->buf[in->pos];
		int m = pq_chrome_stream_more(in, &r->err);

		if (m < 0)
			return -2;
		if (m == 0)
			return -1;
	}
}

static uint64_t here(const chrome_reader *r)
{
	return pq_chrome_stream_offset(&r->in, r->in.pos);
}

/* Scans the value at in->pos, reading more as needed: 0 with *len, 1 when the text ends inside
 * it, -1 on errors (err set). */
static int value_at(chrome_reader *r, size_t *len, pq_chrome_members *m, const char *what)
{
	pq_chrome_stream *in = &r->in;

	for (;;) {
		enum pq_chrome_scan s = pq_chrome_scan_event(in->buf + in->pos, in->len - in->pos,
							     in->eof, len, m, &r->args);
		if (s == PQ_SCAN_OK)
			return 0;
		if (s == PQ_SCAN_BAD) {
			if (in->eof && *len >= in->len - in->pos)
				return 1;
			return pq_fail(&r->err, "invalid JSON in %s at byte %llu", what,
				       (unsigned long long)(here(r) + *len));
		}
		if (pq_chrome_stream_more(in, &r->err) < 0)
			return -1;
	}
}

/* Items ------------------------------------------------------------------------------------ */

static int bad(chrome_reader *r, int64_t index, uint64_t pos, int counted, const char *why)
{
	chrome_item *it = item_add(r, CHROME_ITEM_BAD, why, strlen(why));

	if (it == NULL)
		return -1;
	it->index = index;
	it->pos = pos;
	it->counted = counted;
	return 0;
}

/* An X event, told from the scanner's members: the first "ph" is "X", and no key before it is
 * written with escapes (one could be a "ph" that cJSON's lookup finds first). */
static int x_event(const char *text, const pq_chrome_members *m)
{
	for (int i = 0; i < m->n; i++) {
		const char *k = text + m->m[i].key;

		if (memchr(k, '\\', m->m[i].key_len) != NULL)
			return 0;
		if (m->m[i].key_len == 2 && k[0] == 'p' && k[1] == 'h')
			return m->m[i].val_len == 3 && memcmp(text + m->m[i].val, "\"X\"", 3) == 0;
	}
	return 0;
}

/* The event object at in->pos, of len bytes, its members in m. */
static int event(chrome_reader *r, size_t len, const pq_chrome_members *m)
{
	const char *text = r->in.buf + r->in.pos;
	uint64_t pos = here(r);
	int64_t index = r->index++;
	chrome_item *it = item_add(r, CHROME_ITEM_EVENT, text, len);
	const char *ph;
	size_t at;

	if (it == NULL)
		return -1;
	it->index = index;
	it->pos = pos;
	it->m = *m;
	/* An X event's digest reads only the args that have columns, and its args text is copied
	 * from the text: the other args (call stacks, input shapes) are validated, not built. */
	it->json = pq_json_parse_fast_in(&r->cur->arena, r->fast, r->cur->text + it->text, len,
					 r->digest && x_event(text, m) ? chrome_arg_named : NULL,
					 &at);
	if (it->json == NULL) {
		char why[96];

		r->cur->n--; /* the event becomes a BAD item */
		r->cur->text_len = it->text;
		snprintf(why, sizeof(why), "invalid JSON near byte %llu",
			 (unsigned long long)(pos + at));
		return bad(r, index, pos, 1, why);
	}
	/* The members by name, and the args text of an X event (what most Kineto events are) or a
	 * [memory] instant: work the importer's thread would otherwise do. */
	it->has_xa = 0;
	if (!r->digest || !cJSON_IsObject(it->json)) {
		it->dg = (chrome_digest){ 0 };
		return 0;
	}
	chrome_digest_event(&it->dg, it->json, r->cur->text + it->text, &it->m);
	ph = chrome_str(it->dg.f[CF_PH]);
	if (ph == NULL || (strcmp(ph, "X") != 0 && strcmp(ph, "i") != 0 && strcmp(ph, "I") != 0))
		return 0;
	if ((ph[0] == 'X' ? chrome_x_args_guess : chrome_memory_args_guess)(
		    &r->scratch, r->cur->text + it->text, &it->m, &r->args, &it->dg, &it->xa) != 0)
		return pq_fail(&r->err, "out of memory");
	it->xa_text = SIZE_MAX;
	if (it->xa.text != NULL &&
	    (it->xa_text = text_add(r->cur, it->xa.text, strlen(it->xa.text))) == SIZE_MAX)
		return pq_fail(&r->err, "out of memory");
	it->xa.text = NULL;
	it->has_xa = 1;
	return 0;
}

/* A top-level key and its value's text at in->pos: the item's text is "key\0value". */
static int key_value(chrome_reader *r, const char *key, size_t len)
{
	size_t kl = strlen(key);
	chrome_item *it = item_add(r, CHROME_ITEM_KEY, NULL, kl + 1 + len);
	char *t;

	if (it == NULL)
		return -1;
	t = r->cur->text + it->text;
	memcpy(t, key, kl + 1);
	memcpy(t + kl + 1, r->in.buf + r->in.pos, len);
	it->key = it->text;
	it->text += kl + 1;
	it->len = len;
	it->pos = here(r);
	return 0;
}

/* The document ----------------------------------------------------------------------------- */

static int events_array(chrome_reader *r)
{
	pq_chrome_members m;
	size_t len;
	int c, v;

	r->saw_events = 1;
	r->in.pos++; /* '[' */
	for (;;) {
		c = peek(r, 1);
		if (c == -2)
			return -1;
		if (c == -1) {
			if (r->array_form)
				return 0; /* the closing bracket may be missing */
			return pq_fail(&r->err, "truncated: traceEvents is not closed at byte %llu",
				       (unsigned long long)here(r));
		}
		if (c == ']') {
			r->in.pos++;
			return 0;
		}
		v = value_at(r, &len, c == '{' ? &m : NULL, "traceEvents");
		if (v < 0)
			return -1;
		if (v == 1) {
			if (bad(r, r->index++, here(r), 0, "truncated event at the end of the file") != 0)
				return -1;
			r->in.pos = r->in.len;
			if (!r->array_form)
				return pq_fail(&r->err, "truncated: traceEvents is not closed at byte %llu",
					       (unsigned long long)here(r));
			return 0;
		}
		if (c != '{') {
			if (bad(r, r->index++, here(r), 0, "not an object") != 0)
				return -1;
		} else if (event(r, len, &m) != 0) {
			return -1;
		}
		r->in.pos += len;
	}
}

static int object_form(chrome_reader *r)
{
	char key[256];
	size_t len;
	int c, v;

	r->in.pos++; /* '{' */
	for (;;) {
		c = peek(r, 0);
		if (c == -2)
			return -1;
		if (c == '}') {
			r->in.pos++;
			return 0;
		}
		if (c != '"')
			goto bad;
		if ((v = value_at(r, &len, NULL, "the top-level object")) != 0)
			return v < 0 ? -1 : pq_fail(&r->err, "truncated at byte %llu",
						    (unsigned long long)here(r));
		snprintf(key, sizeof(key), "%.*s", (int)(len - 2 < 255 ? len - 2 : 255),
			 r->in.buf + r->in.pos + 1);
		r->in.pos += len;
		if (peek(r, 0) != ':')
			goto bad;
		r->in.pos++;
		c = peek(r, 0);
		if (c < 0)
			goto bad;
		if (strcmp(key, "traceEvents") == 0 && c == '[') {
			if (events_array(r) != 0)
				return -1;
		} else {
			if ((v = value_at(r, &len, NULL, "the top-level object")) != 0)
				return v < 0 ? -1 : pq_fail(&r->err, "truncated at byte %llu",
							    (unsigned long long)here(r));
			if (key_value(r, key, len) != 0)
				return -1;
			r->in.pos += len;
		}
		c = peek(r, 0);
		if (c == ',') {
			r->in.pos++;
			continue;
		}
		if (c == '}') {
			r->in.pos++;
			return 0;
		}
		goto bad;
	}
bad:
	if (c == -2)
		return -1;
	if (c == -1 || r->in.pos >= r->in.len)
		return pq_fail(&r->err, "truncated: the JSON object is not closed at byte %llu",
			       (unsigned long long)here(r));
	return pq_fail(&r->err, "invalid JSON at byte %llu", (unsigned long long)here(r));
}

static int document(chrome_reader *r)
{
	int c;

	if (pq_chrome_stream_more(&r->in, &r->err) < 0)
		return -1;
	if (r->in.len >= 3 && memcmp(r->in.buf, "\xef\xbb\xbf", 3) == 0)
		r->in.pos = 3;
	c = peek(r, 0);
	if (c == -2)
		return -1;
	if (c == '[') {
		r->array_form = 1;
		if (events_array(r) != 0)
			return -1;
	} else if (c == '{') {
		if (object_form(r) != 0)
			return -1;
		if (!r->saw_events)
			return pq_fail(&r->err, "not a Chrome trace: the JSON object has no "
					       "traceEvents array");
	} else {
		return pq_fail(&r->err, c == -1 ? "empty file" : "not a Chrome trace: not JSON");
	}
	c = peek(r, 0);
	if (c == -2)
		return -1;
	if (c != -1)
		return pq_fail(&r->err, "unexpected text after the JSON at byte %llu",
			       (unsigned long long)here(r));
	return 0;
}

static void *reader_main(void *arg)
{
	chrome_reader *r = arg;
	int rc;

	prctl(PR_SET_NAME, "profq-reader"); /* so top and perf tell the two stages apart */
	rc = document(r);

	batch_push(r);
	pthread_mutex_lock(&r->mu);
	r->status = rc;
	r->finished = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

/* The importer's side ------------------------------------------------------------------------ */

int chrome_reader_start(chrome_reader *r, const char *path, int digest, pq_error *err)
{
	int e;

	memset(r, 0, sizeof(*r));
	r->digest = digest;
	if ((r->fast = pq_json_fast_new()) == NULL)
		return pq_fail(err, "out of memory");
	if (pq_chrome_stream_open(&r->in, path, err) != 0) {
		pq_chrome_stream_close(&r->in);
		pq_json_fast_free(r->fast);
		return -1;
	}
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	e = pthread_create(&r->thread, NULL, reader_main, r);
	if (e != 0) {
		pthread_mutex_destroy(&r->mu);
		pthread_cond_destroy(&r->cv);
		pq_chrome_stream_close(&r->in);
		pq_json_fast_free(r->fast);
		return pq_fail(err, "cannot start the reader thread: %s", strerror(e));
	}
	r->started = 1;
	return 0;
}

chrome_batch *chrome_reader_next(chrome_reader *r)
{
	chrome_batch *b;

	pthread_mutex_lock(&r->mu);
	while (r->head == NULL && !r->finished)
		pthread_cond_wait(&r->cv, &r->mu);
	b = r->head;
	if (b != NULL) {
		r->head = b->next;
		if (r->head == NULL)
			r->tail = NULL;
		b->next = NULL;
	}
	pthread_mutex_unlock(&r->mu);
	return b;
}

void chrome_reader_release(chrome_reader *r, chrome_batch *b)
{
	pthread_mutex_lock(&r->mu);
	b->next = r->free_list;
	r->free_list = b;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

void chrome_reader_stop(chrome_reader *r)
{
	chrome_batch *b, *next;

	if (!r->started)
		return;
	pthread_mutex_lock(&r->mu);
	r->stop = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->thread, NULL);
	for (b = r->head; b != NULL; b = next) {
		next = b->next;
		batch_free(b);
	}
	for (b = r->free_list; b != NULL; b = next) {
		next = b->next;
		batch_free(b);
	}
	if (r->cur != NULL)
		batch_free(r->cur);
	free(r->scratch.p);
	pq_json_fast_free(r->fast);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	pq_chrome_stream_close(&r->in);
	r->started = 0;
}
