/* u64map.c - see u64map.h. */
#include "u64map.h"

#include <stdlib.h>

static size_t slot(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

int pq_u64map_get(const pq_u64map *m, uint64_t key, int64_t *val)
{
	if (m->cap == 0)
		return 0;
	for (size_t i = slot(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			*val = m->vals[i];
			return 1;
		}
		if (m->keys[i] == 0)
			return 0;
	}
}

static int grow(pq_u64map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	int64_t *vals = calloc(cap, sizeof(*vals));

	if (keys == NULL || vals == NULL) {
		free(keys);
		free(vals);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (m->keys[i] == 0)
			continue;
		size_t j = slot(m->keys[i], cap);
		while (keys[j] != 0)
			j = (j + 1) & (cap - 1);
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int pq_u64map_put(pq_u64map *m, uint64_t key, int64_t val)
{
	size_t i;

	if ((m->len + 1) * 2 > m->cap && grow(m) != 0)
		return -1;
	for (i = slot(key, m->cap); m->keys[i] != 0 && m->keys[i] != key; i = (i + 1) & (m->cap - 1))
		;
	if (m->keys[i] == 0)
		m->len++;
	m->keys[i] = key;
	m->vals[i] = val;
	return 0;
}

int pq_u64map_del(pq_u64map *m, uint64_t key)
{
	size_t i, j, k;

	if (m->cap == 0)
		return 0;
	for (i = slot(key, m->cap); m->keys[i] != key; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == 0)
			return 0;
	/* Backward-shift deletion keeps probe chains intact. */
	for (j = i;;) {
		m->keys[i] = 0;
		for (;;) {
			j = (j + 1) & (m->cap - 1);
			if (m->keys[j] == 0) {
				m->len--;
				return 1;
			}
			k = slot(m->keys[j], m->cap);
			if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j)))
				break;
		}
		m->keys[i] = m->keys[j];
		m->vals[i] = m->vals[j];
		i = j;
	}
}

void pq_u64map_free(pq_u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->len = 0;
}
