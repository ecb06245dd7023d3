/* strmap.c - open-addressing string hash map (FNV-1a hash). */
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/* Keys are stored NUL-terminated; a key's length is its strlen, so keys must not contain NUL. */
static size_t find_slot(char *const *keys, size_t cap, const char *key, size_t keylen)
{
	size_t i = hash(key, keylen) & (cap - 1);

	while (keys[i] != NULL &&
	       !(strncmp(keys[i], key, keylen) == 0 && keys[i][keylen] == '\0'))
		i = (i + 1) & (cap - 1);
	return i;
}

void pq_strmap_free(pq_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->values);
	memset(m, 0, sizeof(*m));
}

int pq_strmap_get(const pq_strmap *m, const char *key, size_t keylen, int64_t *value)
{
	size_t i;

	if (m->cap == 0)
		return 0;
	i = find_slot(m->keys, m->cap, key, keylen);
	if (m->keys[i] == NULL)
		return 0;
	*value = m->values[i];
	return 1;
}

static int grow(pq_strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	char **keys = calloc(cap, sizeof(*keys));
	int64_t *values = calloc(cap, sizeof(*values));

	if (keys == NULL || values == NULL) {
		free(keys);
		free(values);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (m->keys[i] != NULL) {
			size_t j = find_slot(keys, cap, m->keys[i], strlen(m->keys[i]));
			keys[j] = m->keys[i];
			values[j] = m->values[i];
		}
	}
	free(m->keys);
	free(m->values);
	m->keys = keys;
	m->values = values;
	m->cap = cap;
	return 0;
}

int pq_strmap_put(pq_strmap *m, const char *key, size_t keylen, int64_t value)
{
	size_t i;
	char *copy;

	if ((m->len + 1) * 2 > m->cap && grow(m) != 0)
		return -1;
	i = find_slot(m->keys, m->cap, key, keylen);
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
	m->values[i] = value;
	m->len++;
	return 0;
}
