/* u64map.h - uint64 -> int64 hash map (open addressing, linear probing, backward-shift delete).
 * Key 0 is reserved. Owned by one thread (the writer). */
#ifndef PQ_U64MAP_H
#define PQ_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct pq_u64map {
	uint64_t *keys;
	int64_t *vals;
	size_t cap, len;
} pq_u64map;

int pq_u64map_get(const pq_u64map *m, uint64_t key, int64_t *val);
int pq_u64map_put(pq_u64map *m, uint64_t key, int64_t val);   /* 0, or -1 out of memory */
int pq_u64map_del(pq_u64map *m, uint64_t key);                /* 1 when it was there */
void pq_u64map_free(pq_u64map *m);

#endif
