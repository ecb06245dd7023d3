/* ptrmap.c - string -> pointer map with deletion (see ptrmap.h). */
#include "ptrmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a, 64 bit. */
static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3u;
	return h;
}

static size_t find(const pq_ptrmap *m, const char *key, size_t keylen)
{
	size_t i = hash(key, keylen) & (m->cap - 1);

	while (m->keys[i] != NULL &&
	       (m->lens[i] != keylen || memcmp(m->keys[i], key, keylen) != 0))
		i = (i + 1) & (m->cap - 1);
	return i;
}

void pq_ptrmap_free(pq_ptrmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->lens);
	free(m->values);
	memset(m, 0, sizeof(*m));
}

void *pq_ptrmap_get(const pq_ptrmap *m, const char *key, size_t keylen)
{
	size_t i;

	if (m->cap == 0)
		return NULL;
	i = find(m, key, keylen);
	return m->keys[i] != NULL ? m->values[i] : NULL;
}

static int grow(pq_ptrmap *m)
{
	pq_ptrmap bigger = { 0 };

	bigger.cap = m->cap ? m->cap * 2 : 16;
	bigger.keys = calloc(bigger.cap, sizeof(*bigger.keys));
	bigger.lens = calloc(bigger.cap, sizeof(*bigger.lens));
	bigger.values = calloc(bigger.cap, sizeof(*bigger.values));
	if (bigger.keys == NULL || bigger.lens == NULL || bigger.values == NULL) {
		free(bigger.keys);
		free(bigger.lens);
		free(bigger.values);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (m->keys[i] != NULL) {
			size_t j = find(&bigger, m->keys[i], m->lens[i]);

			bigger.keys[j] = m->keys[i];
			bigger.lens[j] = m->lens[i];
			bigger.values[j] = m->values[i];
		}
	}
	bigger.len = m->len;
	free(m->keys);
	free(m->lens);
	free(m->values);
	*m = bigger;
	return 0;
}

int pq_ptrmap_put(pq_ptrmap *m, const char *key, size_t keylen, void *value)
{
	size_t i;
	char *copy;

	if ((m->len + 1) * 2 > m->cap && grow(m) != 0)
		return -1;
	i = find(m, key, keylen);
	if (m->keys[i] != NULL) {
		m->values[i] = value;
		return 0;
	}
	copy = malloc(keylen + 1);
	if (copy == NULL)
		return -1;
	memcpy(copy, key, keylen);
	copy[keylen] = '\0';
	m->keys[i] = copy;
	m->lens[i] = keylen;
	m->values[i] = value;
	m->len++;
	return 0;
}

void *pq_ptrmap_del(pq_ptrmap *m, const char *key, size_t keylen)
{
	size_t i, j, mask = m->cap - 1;
	void *value;

	if (m->cap == 0)
		return NULL;
	i = find(m, key, keylen);
	if (m->keys[i] == NULL)
		return NULL;
	value = m->values[i];
	free(m->keys[i]);
	m->keys[i] = NULL;
	m->len--;
	/* Backward shift: move later entries of the probe run into the hole when their home
	 * slot does not lie cyclically within (hole, current]. */
	j = i;
	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (m->keys[j] == NULL)
			break;
		home = hash(m->keys[j], m->lens[j]) & mask;
		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->keys[i] = m->keys[j];
			m->lens[i] = m->lens[j];
			m->values[i] = m->values[j];
			m->keys[j] = NULL;
			i = j;
		}
	}
	return value;
}

void pq_ptrmap_each(const pq_ptrmap *m, void (*f)(void *ctx, const char *key, void *value),
		    void *ctx)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i] != NULL)
			f(ctx, m->keys[i], m->values[i]);
}
