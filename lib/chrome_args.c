/* chrome_args.c - the args text of a row: the event's args as written, minified, without the keys
 * stored in columns, plus top-level fields without a column under "_event" (chrome_events.c). */
#include "chrome_import.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chrome_parse.h"
#include "chrome_time.h"

/* Scratch text ------------------------------------------------------------------------------ */

static int reserve(chrome_text *t, size_t need)
{
	if (need <= t->cap)
		return 0;
	size_t cap = t->cap ? t->cap : 4096;
	while (cap < need)
		cap *= 2;
	char *p = realloc(t->p, cap);
	if (p == NULL)
		return -1;
	t->p = p;
	t->cap = cap;
	return 0;
}

static int is_known(const char *key, size_t n, const char *const *known)
{
	/* the first byte first: a strlen per entry and key was most of this (the lists are short) */
	for (; *known != NULL; known++)
		if (n > 0 && (*known)[0] == key[0] && strlen(*known) == n &&
		    memcmp(*known, key, n) == 0)
			return 1;
	return 0;
}

/* Writes "{" and the args object's members (given, or NULL to scan for them) except the consumed
 * ones (their values are in columns) to t, minified; returns the length (no closing brace yet). */
static size_t args_body(chrome_text *t, const char *text, size_t len,
			const pq_chrome_members *given, const char *const *consumed)
{
	pq_chrome_members scanned;
	const pq_chrome_members *am = given;
	size_t alen, o;

	if (consumed != NULL && consumed[0] != NULL && am == NULL &&
	    pq_chrome_scan_value(text, len, 1, &alen, &scanned) == PQ_SCAN_OK)
		am = &scanned;
	if (consumed == NULL || consumed[0] == NULL || am == NULL || am->truncated) {
		o = pq_chrome_minify(text, len, t->p);
		return o - 1; /* drop the closing brace */
	}
	o = 0;
	t->p[o++] = '{';
	for (int i = 0; i < am->n; i++) {
		const pq_chrome_member *m = &am->m[i];

		if (is_known(text + m->key, m->key_len, consumed))
			continue;
		if (o > 1)
			t->p[o++] = ',';
		t->p[o++] = '"';
		memcpy(t->p + o, text + m->key, m->key_len);
		o += m->key_len;
		t->p[o++] = '"';
		t->p[o++] = ':';
		o += pq_chrome_minify(text + m->val, m->val_len, t->p + o);
	}
	return o;
}

/* Builds the args JSON text of a row into t (see the header comment); *out is NULL
 * when there is nothing to say. known lists the top-level fields the row stores elsewhere. */
int chrome_args_text(chrome_text *t, const char *text, const pq_chrome_members *mem,
		     const pq_chrome_args_members *am, const char *const *known,
		     const char *const *consumed, const char **out)
{
	size_t need = 16, o = 0, body;
	const pq_chrome_member *args = NULL;
	int n_unknown = 0;

	*out = NULL;
	for (int i = 0; i < mem->n; i++) {
		const pq_chrome_member *m = &mem->m[i];
		const char *k = text + m->key;

		if (m->key_len == 4 && memcmp(k, "args", 4) == 0 && text[m->val] == '{') {
			args = m;
			need += m->val_len;
		} else if (!is_known(k, m->key_len, known)) {
			n_unknown++;
			need += m->key_len + m->val_len + 8;
		}
	}
	if (args == NULL && n_unknown == 0)
		return 0;
	if (reserve(t, need + 16) != 0)
		return -1;
	if (args != NULL) {
		o = args_body(t, text + args->val, args->val_len,
			      am != NULL && am->member == (int)(args - mem->m) ? &am->m : NULL,
			      consumed);
	} else {
		t->p[o++] = '{';
	}
	body = o;
	if (n_unknown > 0) {
		if (o > 1)
			t->p[o++] = ',';
		memcpy(t->p + o, "\"_event\":{", 10);
		o += 10;
		for (int i = 0, first = 1; i < mem->n; i++) {
			const pq_chrome_member *m = &mem->m[i];
			const char *k = text + m->key;

			if ((m->key_len == 4 && memcmp(k, "args", 4) == 0 && m == args) ||
			    is_known(k, m->key_len, known))
				continue;
			if (!first)
				t->p[o++] = ',';
			first = 0;
			t->p[o++] = '"';
			memcpy(t->p + o, k, m->key_len);
			o += m->key_len;
			t->p[o++] = '"';
			t->p[o++] = ':';
			o += pq_chrome_minify(text + m->val, m->val_len, t->p + o);
		}
		t->p[o++] = '}';
	}
	if (o == 1 && body == 1)
		return 0; /* "{}": nothing */
	t->p[o++] = '}';
	t->p[o] = '\0';
	*out = t->p;
	return 0;
}

/* base's members replaced or extended by over's; returns a malloc'ed text (or NULL). */
char *chrome_merge_args(const char *base, const char *over)
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


int chrome_event_args(chrome_ctx *c, const chrome_event *ev, const char *const *known,
		      const char *const *consumed, const char **out)
{
	if (chrome_args_text(&c->scratch, ev->text, ev->mem, NULL, known, consumed, out) != 0)
		return pq_fail(c->err, "out of memory");
	return 0;
}
