/* strmap.h - a string -> int64 hash map, the store's cache of interned strings and dimension ids.
 *
 * Keys are copied in (the map owns its copies); values are caller-defined ids. Open addressing with
 * linear probing; grows at 50% load. Not thread-safe.
 */
#ifndef PQ_STRMAP_H
#define PQ_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct pq_strmap {
	char **keys;      /* owned copies; NULL = empty slot */
	int64_t *values;
	size_t cap;       /* a power of two, or 0 before the first insert */
	size_t len;
} pq_strmap;

/* A zeroed pq_strmap is an empty map. */
void pq_strmap_free(pq_strmap *m);

/* Returns 1 and sets *value when key is present, else 0. */
int pq_strmap_get(const pq_strmap *m, const char *key, size_t keylen, int64_t *value);

/* Inserts or replaces; returns 0, or -1 when out of memory. */
int pq_strmap_put(pq_strmap *m, const char *key, size_t keylen, int64_t value);

#endif
