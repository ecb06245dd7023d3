/* chrome_parse.c - cJSON parses into arenas, serialised (cJSON's error position is global). */
#define _GNU_SOURCE 1  /* memmem */
#include "chrome_parse.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t parse_lock = PTHREAD_MUTEX_INITIALIZER;
/* The arena cJSON allocates from in this thread; NULL outside pq_json_parse_in(). */
static _Thread_local pq_json_arena *current;

static void *arena_alloc(pq_json_arena *a, size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (a->used + n <= a->cap) {
		p = a->block + a->used;
		a->used += n;
		return p;
	}
	/* Overflow: a separate block, remembered so the next reset can size the arena. */
	if (a->n_extra == a->cap_extra) {
		size_t cap = a->cap_extra ? a->cap_extra * 2 : 16;
		void **e = realloc(a->extra, cap * sizeof(*e));

		if (e == NULL)
			return NULL;
		a->extra = e;
		a->cap_extra = cap;
	}
	p = malloc(n);
	if (p == NULL)
		return NULL;
	a->extra[a->n_extra++] = p;
	a->peak += n;
	return p;
}

static void *arena_take(void *a, size_t n)
{
	return arena_alloc(a, n);
}

static void *hook_malloc(size_t n)
{
	return current != NULL ? arena_alloc(current, n) : malloc(n);
}

static void hook_free(void *p)
{
	/* Inside an arena parse everything goes at the next reset (cJSON only frees nodes of
	 * the tree it is building there). */
	if (current == NULL)
		free(p);
}

static void install_hooks(void)
{
	cJSON_Hooks hooks = { hook_malloc, hook_free };

	cJSON_InitHooks(&hooks);
}

void pq_json_arena_reset(pq_json_arena *a)
{
	size_t want = a->used + a->peak;

	for (size_t i = 0; i < a->n_extra; i++)
		free(a->extra[i]);
	a->n_extra = 0;
	a->peak = 0;
	a->used = 0;
	if (want > a->cap) {
		size_t cap = a->cap ? a->cap : 1u << 16;
		char *b;

		while (cap < want)
			cap *= 2;
		b = malloc(cap);
		if (b != NULL) {
			free(a->block);
			a->block = b;
			a->cap = cap;
		}
	}
}

void pq_json_arena_free(pq_json_arena *a)
{
	pq_json_arena_reset(a);
	free(a->block);
	free(a->extra);
	memset(a, 0, sizeof(*a));
}

/* A JSON string may hold \u0000, which cJSON decodes into a NUL that silently ends the C string
 * there. Such escapes become \ufffd (U+FFFD, the same six bytes) in a copy of the text, so the
 * rest of the string survives and the NUL shows as a replacement character. Returns text itself
 * when there is none (the common case, found with one memmem), else *copy (caller frees; NULL and
 * text returned when out of memory). */
static const char *without_nul_escapes(const char *text, size_t n, char **copy)
{
	const char *p = text, *hit;

	*copy = NULL;
	while ((hit = memmem(p, n - (size_t)(p - text), "u0000", 5)) != NULL) {
		size_t slashes = 0;

		/* An escape only when preceded by an odd run of backslashes ("\\u0000" is text). */
		while ((size_t)(hit - text) > slashes && hit[-1 - (ptrdiff_t)slashes] == '\\')
			slashes++;
		if (slashes % 2 == 1) {
			if (*copy == NULL) {
				if ((*copy = malloc(n)) == NULL)
					return text;
				memcpy(*copy, text, n);
			}
			memcpy(*copy + (hit - text) + 1, "fffd", 4);
		}
		p = hit + 5;
	}
	return *copy != NULL ? *copy : text;
}

cJSON *pq_json_parse_in(pq_json_arena *a, const char *text, size_t n, size_t *err_at)
{
	const char *end = NULL, *src;
	char *copy;
	cJSON *json;

	pthread_once(&hooks_once, install_hooks);
	src = without_nul_escapes(text, n, &copy);
	current = a;
	pthread_mutex_lock(&parse_lock);
	json = cJSON_ParseWithLengthOpts(src, n, &end, 0);
	pthread_mutex_unlock(&parse_lock);
	current = NULL;
	if (json == NULL && err_at != NULL)
		*err_at = end != NULL && end >= src && end <= src + n ? (size_t)(end - src) : 0;
	free(copy);
	return json;
}

cJSON *pq_json_parse_fast_in(pq_json_arena *a, pq_json_fast *f, const char *text, size_t n,
			     pq_json_keep_fn keep, size_t *err_at)
{
	cJSON *json = NULL;
	int oom;

	if (f != NULL) {
		pthread_once(&hooks_once, install_hooks);
		current = a; /* cJSON_Delete() of a part built in the arena frees nothing */
		json = pq_json_fast_tree_in(f, arena_take, a, text, n, keep, &oom);
		current = NULL;
	}
	/* Refused (or out of memory): cJSON decides, as without simdjson. */
	return json != NULL ? json : pq_json_parse_in(a, text, n, err_at);
}

cJSON *pq_json_parse(const char *text, size_t n)
{
	const char *src;
	char *copy;
	cJSON *json;

	pthread_once(&hooks_once, install_hooks);
	src = without_nul_escapes(text, n, &copy);
	pthread_mutex_lock(&parse_lock);
	json = cJSON_ParseWithLength(src, n);
	pthread_mutex_unlock(&parse_lock);
	free(copy);
	return json;
}
