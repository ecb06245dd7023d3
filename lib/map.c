/* map.c - open-addressing string hash map (see map.h). */
#include "map.h"

#include <stdlib.h>
#include <string.h>

/* Eight bytes a step (kernel names run to hundreds of bytes, and the writer hashes every
 * record's), each mixed by a multiply and a shift; the tail zero-padded. Only this map's slots
 * depend on it: nothing hashed here is stored. */
static uint64_t hash(const char *s, size_t n)
{
	const uint64_t k = 0x9e3779b97f4a7c15u;  /* 2^64 / the golden ratio */
	uint64_t h = n * k, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * k;
		h ^= h >> 29;
	}
	if (i < n) {
		w = 0;
		memcpy(&w, s + i, n - i);
		h = (h ^ w) * k;
		h ^= h >> 29;
	}
	return h ^ (h >> 32);
}

/* The slot holding key, or the empty slot where it would go. */
static size_t probe(const pq_map_slot *slots, size_t cap, const char *key, size_t keylen,
		    uint64_t h)
{
	size_t i = h & (cap - 1);

	while (slots[i].key != NULL &&
	       !(slots[i].hash == h && slots[i].len == keylen &&
		 memcmp(slots[i].key, key, keylen) == 0))
		i = (i + 1) & (cap - 1);
	return i;
}

void pq_map_free(pq_map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

pq_map_value *pq_map_find(const pq_map *m, const char *key, size_t keylen)
{
	return pq_map_find_key(m, key, keylen, NULL);
}

pq_map_value *pq_map_find_key(const pq_map *m, const char *key, size_t keylen,
			      const char **stored)
{
	size_t i;

	if (m->cap == 0)
		return NULL;
	i = probe(m->slots, m->cap, key, keylen, hash(key, keylen));
	if (m->slots[i].key == NULL)
		return NULL;
	if (stored != NULL)
		*stored = m->slots[i].key;
	return &m->slots[i].v;
}

static int grow(pq_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	pq_map_slot *slots = calloc(cap, sizeof(*slots));

	if (slots == NULL)
		return -1;
	for (size_t i = 0; i < m->cap; i++) {
		const pq_map_slot *s = &m->slots[i];
		size_t j;

		if (s->key == NULL)
			continue;
		for (j = s->hash & (cap - 1); slots[j].key != NULL; j = (j + 1) & (cap - 1))
			;
		slots[j] = *s;
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int pq_map_put(pq_map *m, const char *key, size_t keylen, pq_map_value v)
{
	uint64_t h = hash(key, keylen);
	pq_map_slot *s;
	char *copy;

	if ((m->len + 1) * 2 > m->cap && grow(m) != 0)
		return -1;
	s = &m->slots[probe(m->slots, m->cap, key, keylen, h)];
	if (s->key != NULL) {
		s->v = v;
		return 0;
	}
	copy = malloc(keylen + 1);
	if (copy == NULL)
		return -1;
	memcpy(copy, key, keylen);
	copy[keylen] = '\0';
	s->key = copy;
	s->len = keylen;
	s->hash = h;
	s->v = v;
	m->len++;
	return 0;
}

int pq_map_del(pq_map *m, const char *key, size_t keylen, pq_map_value *old)
{
	size_t i, j, mask = m->cap - 1;

	if (m->cap == 0)
		return 0;
	i = probe(m->slots, m->cap, key, keylen, hash(key, keylen));
	if (m->slots[i].key == NULL)
		return 0;
	if (old != NULL)
		*old = m->slots[i].v;
	free(m->slots[i].key);
	m->slots[i].key = NULL;
	m->len--;
	/* Backward shift: move later entries of the probe run into the hole when their home slot
	 * does not lie cyclically within (hole, current]. */
	for (j = i;;) {
		size_t home;

		j = (j + 1) & mask;
		if (m->slots[j].key == NULL)
			break;
		home = m->slots[j].hash & mask;
		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->slots[i] = m->slots[j];
			m->slots[j].key = NULL;
			i = j;
		}
	}
	return 1;
}

void pq_map_each(const pq_map *m, void (*f)(void *ctx, const char *key, pq_map_value v),
		 void *ctx)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key != NULL)
			f(ctx, m->slots[i].key, m->slots[i].v);
}
