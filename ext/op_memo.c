/* op_memo.c - the op_flops / op_bytes memo (op_memo.h): a direct-mapped table of the last result
 * per slot, found by a hash of the key and checked against the whole key. */
#include "op_memo.h"

#include <string.h>

#define SLOTS 1024 /* a power of two; keys are at most the caller's buffer (4 KB): <= 4 MB */

typedef struct {
	uint64_t hash;
	size_t len;
	char *key;      /* sqlite3_malloc'd; NULL: empty slot */
	pq_op_result r;
} slot;

struct pq_op_memo {
	int refs;
	slot s[SLOTS];
};

/* FNV-1a, 64 bits. */
static uint64_t hash(const char *p, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 1099511628211ULL;
	}
	return h;
}

pq_op_memo *pq_op_memo_new(int n)
{
	pq_op_memo *m = sqlite3_malloc64(sizeof(*m));

	if (m != NULL) {
		memset(m, 0, sizeof(*m));
		m->refs = n;
	}
	return m;
}

void pq_op_memo_release(void *memo)
{
	pq_op_memo *m = memo;

	if (m == NULL || --m->refs > 0)
		return;
	for (int i = 0; i < SLOTS; i++)
		sqlite3_free(m->s[i].key);
	sqlite3_free(m);
}

/* Appends a tag and, for text, its length and bytes; 0 when it does not fit. */
static size_t put_value(char *buf, size_t cap, size_t at, sqlite3_value *v)
{
	const unsigned char *t;
	uint32_t n;

	if (sqlite3_value_type(v) != SQLITE_TEXT) {
		if (at + 1 > cap)
			return 0;
		buf[at] = 'N';
		return at + 1;
	}
	t = sqlite3_value_text(v);
	n = (uint32_t)sqlite3_value_bytes(v);
	if (t == NULL || at + 1 + sizeof(n) + n > cap)
		return 0;
	buf[at] = 'T';
	memcpy(buf + at + 1, &n, sizeof(n));
	memcpy(buf + at + 1 + sizeof(n), t, n);
	return at + 1 + sizeof(n) + n;
}

size_t pq_op_memo_key(char *buf, size_t cap, int argc, sqlite3_value **argv)
{
	size_t at = 0;

	if (cap < 1)
		return 0;
	buf[at++] = (char)argc;
	/* argument 3 (the recorded count) is not part of it: a call that uses it never computes */
	for (int i = 0; i < argc; i++)
		if (i != 3 && (at = put_value(buf, cap, at, argv[i])) == 0)
			return 0;
	return at;
}

int pq_op_memo_get(const pq_op_memo *m, const char *key, size_t len, pq_op_result *r)
{
	uint64_t h = hash(key, len);
	const slot *s = &m->s[h & (SLOTS - 1)];

	if (s->key == NULL || s->hash != h || s->len != len || memcmp(s->key, key, len) != 0)
		return 0;
	*r = s->r;
	return 1;
}

void pq_op_memo_put(pq_op_memo *m, const char *key, size_t len, const pq_op_result *r)
{
	uint64_t h = hash(key, len);
	slot *s = &m->s[h & (SLOTS - 1)];

	if (s->key == NULL || s->len < len) {
		char *k = sqlite3_realloc64(s->key, len);

		if (k == NULL)
			return;
		s->key = k;
	}
	memcpy(s->key, key, len);
	s->len = len;
	s->hash = h;
	s->r = *r;
}
