/* chrome_parse.c - cJSON parses into arenas, serialised (cJSON's error position is global). */
#include "chrome_parse.h"

#include <pthread.h>
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

cJSON *pq_json_parse_in(pq_json_arena *a, const char *text, size_t n, size_t *err_at)
{
	const char *end = NULL;
	cJSON *json;

	pthread_once(&hooks_once, install_hooks);
	current = a;
	pthread_mutex_lock(&parse_lock);
	json = cJSON_ParseWithLengthOpts(text, n, &end, 0);
	pthread_mutex_unlock(&parse_lock);
	current = NULL;
	if (json == NULL && err_at != NULL)
		*err_at = end != NULL && end >= text && end <= text + n ? (size_t)(end - text) : 0;
	return json;
}

cJSON *pq_json_parse(const char *text, size_t n)
{
	cJSON *json;

	pthread_once(&hooks_once, install_hooks);
	pthread_mutex_lock(&parse_lock);
	json = cJSON_ParseWithLength(text, n);
	pthread_mutex_unlock(&parse_lock);
	return json;
}
