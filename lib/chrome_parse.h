/* chrome_parse.h - cJSON parses of event text, into arenas, from two threads.
 *
 * The import parses millions of small objects; one malloc per cJSON node was a quarter of the
 * parse time, so a tree is built in an arena (pq_json_arena) and dropped with it. cJSON's
 * allocation hooks are process-wide, so they are installed once (before any second thread
 * exists) and dispatch on a thread-local arena: set only inside pq_json_parse_in(), so every
 * other cJSON call, in any thread, keeps using malloc/free.
 *
 * cJSON's parse functions also write a global error position (cJSON_GetErrorPtr), so every parse
 * of the import goes through these functions, which serialise them with one mutex; nothing else
 * in cJSON touches global state.
 */
#ifndef PQ_CHROME_PARSE_H
#define PQ_CHROME_PARSE_H

#include <stddef.h>

#include <cJSON.h>

#include "json_fast.h"

/* Blocks that hold parse trees: one grows to the largest content seen; overflow during a fill
 * goes to extra blocks, freed (and the main block resized) at the next reset. Zero-initialised
 * is empty. */
typedef struct pq_json_arena {
	char *block;
	size_t cap, used, peak;
	void **extra;
	size_t n_extra, cap_extra;
} pq_json_arena;

/* Forgets every tree in a (their memory is reused). */
void pq_json_arena_reset(pq_json_arena *a);
/* Frees a's memory; a is empty afterwards. */
void pq_json_arena_free(pq_json_arena *a);

/* Parses text[0..n) into a; the tree lives until a is reset, never cJSON_Delete() it. Returns
 * NULL when the text is not valid JSON, with *err_at (may be NULL) the offset of the byte where
 * cJSON stopped. */
cJSON *pq_json_parse_in(pq_json_arena *a, const char *text, size_t n, size_t *err_at);

/* pq_json_parse_in() with simdjson first (json_fast.h) when f is not NULL: the same tree, built
 * from simdjson's document, for every text simdjson accepts; cJSON parses the others (and says
 * where they fail). keep (may be NULL) limits the members built of the root's "args" objects. */
cJSON *pq_json_parse_fast_in(pq_json_arena *a, pq_json_fast *f, const char *text, size_t n,
			     pq_json_keep_fn keep, size_t *err_at);

/* Parses text[0..n) with malloc'ed nodes (free with cJSON_Delete()); NULL when invalid. */
cJSON *pq_json_parse(const char *text, size_t n);

#endif
