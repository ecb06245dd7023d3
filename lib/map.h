/* map.h - the one string-keyed hash map: interned strings and dimension ids in the store, the
 * Chrome importer's open B/E stacks and async begins, the nsys importer's counts.
 *
 * Keys are byte strings copied in (the map owns its copies, NUL-terminated for printing; a key
 * may not contain NUL). A value is an int64 or a borrowed pointer the caller owns, as the caller
 * chooses per map. Open addressing with linear probing, grown at 50% load, backward-shift
 * deletion (memory follows the number of live keys); each slot keeps its key's hash, so growing
 * and probing compare lengths and hashes before bytes. Not thread-safe.
 */
#ifndef PQ_MAP_H
#define PQ_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef union pq_map_value {
	int64_t i;
	void *p;
} pq_map_value;

typedef struct pq_map_slot {
	char *key;        /* owned copy; NULL = empty slot */
	size_t len;
	uint64_t hash;
	pq_map_value v;
} pq_map_slot;

typedef struct pq_map {
	pq_map_slot *slots;
	size_t cap;       /* a power of two, or 0 before the first insert */
	size_t len;
} pq_map;

/* A zeroed pq_map is an empty map. Frees the keys, never what pointer values point at. */
void pq_map_free(pq_map *m);

/* The value stored for key, or NULL; valid until the next put or del. */
pq_map_value *pq_map_find(const pq_map *m, const char *key, size_t keylen);

/* pq_map_find, and *stored (when found) the map's own copy of key: it stays where it is until
 * the key is deleted or the map freed. */
pq_map_value *pq_map_find_key(const pq_map *m, const char *key, size_t keylen,
			      const char **stored);

/* Inserts or replaces; returns 0, or -1 when out of memory. */
int pq_map_put(pq_map *m, const char *key, size_t keylen, pq_map_value v);

/* Removes key; returns 1 (and *old, when not NULL) when it was there, else 0. */
int pq_map_del(pq_map *m, const char *key, size_t keylen, pq_map_value *old);

/* Calls f for every entry, in slot order. */
void pq_map_each(const pq_map *m, void (*f)(void *ctx, const char *key, pq_map_value v),
		 void *ctx);

/* int64 values: 1 and *value when present, else 0. */
static inline int pq_map_get_int(const pq_map *m, const char *key, size_t keylen, int64_t *value)
{
	pq_map_value *v = pq_map_find(m, key, keylen);

	if (v == NULL)
		return 0;
	*value = v->i;
	return 1;
}

static inline int pq_map_put_int(pq_map *m, const char *key, size_t keylen, int64_t value)
{
	pq_map_value v = { .i = value };

	return pq_map_put(m, key, keylen, v);
}

/* Pointer values: NULL when absent. */
static inline void *pq_map_get_ptr(const pq_map *m, const char *key, size_t keylen)
{
	pq_map_value *v = pq_map_find(m, key, keylen);

	return v != NULL ? v->p : NULL;
}

static inline int pq_map_put_ptr(pq_map *m, const char *key, size_t keylen, void *value)
{
	pq_map_value v = { .p = value };

	return pq_map_put(m, key, keylen, v);
}

#endif
