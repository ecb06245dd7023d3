/* chrome_ranges.c - B/E (a stack per pid/tid) and async b/e (a stack per cat, id and scope):
 * begins wait for their ends; what is still open at the end is written without an end. */
#include "chrome_import.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chrome_parse.h"
#include "chrome_time.h"

static const char *const known_be[] = { "ph", "name", "cat", "ts", "pid", "tid", NULL };
static const char *const known_async[] = { "ph", "name", "cat", "ts", "pid", "tid", NULL };


typedef struct open_range {
	int64_t start, depth, key;
	char *name, *cat, *args;
	chrome_where w;
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

static int push_open(chrome_ctx *c, pq_map *map, const char *key, size_t keylen,
		     open_range *o)
{
	open_stack *st = pq_map_get_ptr(map, key, keylen);

	if (st == NULL) {
		st = calloc(1, sizeof(*st));
		if (st == NULL || pq_map_put_ptr(map, key, keylen, st) != 0) {
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
static int pop_open(pq_map *map, const char *key, size_t keylen, const char *name,
		    open_range *out)
{
	open_stack *st = pq_map_get_ptr(map, key, keylen);
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
		pq_map_del(map, key, keylen, NULL);
		free(st->items);
		free(st);
	}
	return 1;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int chrome_begin_event(chrome_ctx *c, const chrome_event *ev, const char *name, const char *cat,
		       int async)
{
	const char *args_text;
	open_range o = { 0 };
	char key[256];
	int n, rc;

	if ((rc = chrome_event_ts(c, ev, async ? "b" : "B", &o.start)) != 0)
		return rc;
	if ((rc = chrome_locate(c, ev, chrome_classify(cat), 1, &o.w, 0)) != 0)
		return rc;
	if (chrome_event_args(c, ev, async ? known_async : known_be, NULL, &args_text) != 0)
		return -1;
	o.name = strdup(name);
	o.cat = dup_or_null(cat);
	o.args = dup_or_null(args_text);
	o.key = async ? chrome_id_key(ev) : PQ_NULL;
	if (o.name == NULL || (cat && !o.cat) || (args_text && !o.args)) {
		free_open(&o);
		return pq_fail(c->err, "out of memory");
	}
	if (async) {
		const char *scope = chrome_str(ev->dg->f[CF_SCOPE]);

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

int chrome_end_event(chrome_ctx *c, const chrome_event *ev, const char *name, const char *cat,
		     int async)
{
	const cJSON *args = ev->dg->f[CF_ARGS];
	const char *args_text;
	open_range o;
	chrome_where w;
	char key[256], *merged;
	int64_t end;
	int n, rc;

	if ((rc = chrome_event_ts(c, ev, async ? "e" : "E", &end)) != 0)
		return rc;
	if ((rc = chrome_locate(c, ev, chrome_classify(cat), 1, &w, 0)) != 0)
		return rc;
	if (async) {
		const char *scope = chrome_str(ev->dg->f[CF_SCOPE]);

		n = snprintf(key, sizeof(key), "%s\x1f%" PRId64 "\x1f%s", cat ? cat : "",
			     chrome_id_key(ev), scope ? scope : "");
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
	rc = chrome_check_end(c, async ? "async range (b/e)" : "B/E range", o.start, &end);
	if (rc != 0 || chrome_event_args(c, ev, async ? known_async : known_be, NULL, &args_text) != 0) {
		free_open(&o);
		return rc != 0 ? rc : -1;
	}
	merged = chrome_merge_args(o.args, args_text);
	{
		cJSON *margs = merged ? pq_json_parse(merged, strlen(merged) + 1) : NULL;
		int64_t corr, ext;

		chrome_args_ids(margs ? margs : args, &corr, &ext);
		rc = chrome_write_range(c, &o.w,
					async ? PQ_RANGE_ASYNC : chrome_range_kind(chrome_classify(o.cat)),
					o.name, o.cat, o.start, end, corr, ext, merged, o.depth, o.key,
					async ? w.thread_id : PQ_NULL);
		cJSON_Delete(margs);
	}
	free(merged);
	free_open(&o);
	return rc;
}

static void close_stack(void *ctx, const char *key, pq_map_value value)
{
	chrome_ctx *c = ((void **)ctx)[0];
	int *rc = ((void **)ctx)[1];
	int async = *(int *)((void **)ctx)[2];
	open_stack *st = value.p;

	(void)key;
	for (size_t i = 0; i < st->n; i++) {
		open_range *o = &st->items[i];
		cJSON *args = o->args ? pq_json_parse(o->args, strlen(o->args) + 1) : NULL;
		int64_t corr, ext;

		chrome_args_ids(args, &corr, &ext);
		if (*rc == 0)
			*rc = chrome_write_range(c, &o->w,
						 async ? PQ_RANGE_ASYNC
						       : chrome_range_kind(chrome_classify(o->cat)),
						 o->name, o->cat, o->start, PQ_NULL, corr, ext, o->args,
						 o->depth, o->key, PQ_NULL);
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


static void free_stack(void *ctx, const char *key, pq_map_value value)
{
	open_stack *st = value.p;

	(void)ctx;
	(void)key;
	for (size_t i = 0; i < st->n; i++)
		free_open(&st->items[i]);
	free(st->items);
	free(st);
}

int chrome_ranges_finish(chrome_ctx *c, int write)
{
	int rc = 0, async = 0;
	void *ctx[3] = { c, &rc, &async };

	pq_map_each(&c->open_be, write ? close_stack : free_stack, ctx);
	pq_map_free(&c->open_be);
	async = 1;
	pq_map_each(&c->open_async, write ? close_stack : free_stack, ctx);
	pq_map_free(&c->open_async);
	return rc != 0 ? -1 : 0;
}
