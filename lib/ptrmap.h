/* ptrmap.h - a string -> pointer hash map that also deletes, for state that comes and goes
 * (the Chrome importer's open B/E stacks and async begins).
 *
 * Keys are copied in (the map owns its copies); values are borrowed pointers the caller owns.
 * Open addressing with linear probing and backward-shift deletion, so memory follows the number
 * of live keys. Not thread-safe.
 */
#ifndef PQ_PTRMAP_H
#define PQ_PTRMAP_H

#include <stddef.h>

typedef struct pq_ptrmap {
	char **keys;      /* owned copies; NULL = empty slot */
	size_t *lens;
	void **values;
	size_t cap;       /* a power of two, or 0 before the first insert */
	size_t len;
} pq_ptrmap;

/* A zeroed pq_ptrmap is an empty map. Frees the keys, not the values. */
void pq_ptrmap_free(pq_ptrmap *m);

/* The value for key, or NULL. */
void *pq_ptrmap_get(const pq_ptrmap *m, const char *key, size_t keylen);

/* Inserts or replaces; returns 0, or -1 when out of memory. value must not be NULL. */
int pq_ptrmap_put(pq_ptrmap *m, const char *key, size_t keylen, void *value);

/* Removes key (if present) and returns its value, or NULL. */
void *pq_ptrmap_del(pq_ptrmap *m, const char *key, size_t keylen);

/* Calls f for every entry, in slot order. */
void pq_ptrmap_each(const pq_ptrmap *m, void (*f)(void *ctx, const char *key, void *value),
		    void *ctx);

#endif
