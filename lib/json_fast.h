/* json_fast.h - simdjson (libsimdjson-dev) behind a C interface, for the Chrome importer's hot path.
 *
 * cJSON was most of the parsing thread's time (issue 15): a strncmp per literal tried on each
 * value, a localeconv() and strtod() per number, a node for every item of every "Input Dims" and
 * "Call stack". simdjson validates the whole text several times faster; the tree the importer
 * reads is then built from simdjson's document as cJSON's parser would lay it out, so every
 * consumer keeps seeing cJSON. Only texts simdjson accepts get a tree here; for any other
 * (invalid UTF-8, raw control characters, leading zeros, numbers beyond 64-bit integers or
 * doubles, nesting deeper than PQ_JSON_FAST_DEPTH) the caller asks cJSON, which keeps deciding
 * what is valid and where the error is. tests/import/json_fast.t checks that whatever simdjson accepts cJSON accepts too, with
 * the same tree.
 */
#ifndef PQ_JSON_FAST_H
#define PQ_JSON_FAST_H

#include <stddef.h>

#include <cJSON.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Deeper texts go to cJSON (whose limit is 1000), so a text accepted here is never one cJSON
 * would refuse for its depth. */
#define PQ_JSON_FAST_DEPTH 256

/* A parser with its buffers (one per thread: not thread-safe). */
typedef struct pq_json_fast pq_json_fast;

pq_json_fast *pq_json_fast_new(void);   /* NULL when out of memory */
void pq_json_fast_free(pq_json_fast *f);

/* Which members of an object named "args" at the root to build: 1 to build it. */
typedef int (*pq_json_keep_fn)(const char *key, size_t len);

/* Validates text[0..n) and builds the tree cJSON would parse from it, through cJSON's allocation
 * hooks (so in an arena inside pq_json_parse_fast_in()). With keep, the members of each "args"
 * object of the root object are built only when keep() says so (the whole text is still
 * validated). \u0000 in a string becomes U+FFFD, as pq_json_parse() does. Returns NULL when
 * simdjson refuses the text or memory runs out (*oom set to 1 then, else 0). */
cJSON *pq_json_fast_tree(pq_json_fast *f, const char *text, size_t n, pq_json_keep_fn keep,
			 int *oom);

/* The same, its nodes and texts from alloc(ctx, bytes) instead of cJSON's allocator (an arena:
 * the tree is then never given to cJSON_Delete(), and cJSON's hooks must not free there). */
typedef void *(*pq_json_alloc_fn)(void *ctx, size_t n);
cJSON *pq_json_fast_tree_in(pq_json_fast *f, pq_json_alloc_fn alloc, void *ctx, const char *text,
			    size_t n, pq_json_keep_fn keep, int *oom);

#ifdef __cplusplus
}
#endif

#endif
