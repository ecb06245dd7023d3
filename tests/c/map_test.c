/* map_test.c - lib/map.c against a plain array model under random puts, finds and deletes
 * (deletion's backward shift is where an open-addressing map goes wrong), and its edge cases. */
#include <stdlib.h>

#include "map.h"
#include "tap.h"

#define KEYS 600

static void count(void *ctx, const char *key, pq_map_value v)
{
	int64_t *sum = ctx;

	sum[0]++;
	sum[1] += v.i + (int64_t)strlen(key);
}

int main(void)
{
	static int64_t model[KEYS];   /* 0: absent, else the value */
	static char keys[KEYS][16];
	static size_t lens[KEYS];
	pq_map m = { 0 };
	int64_t v, sum[2] = { 0, 0 }, want[2] = { 0, 0 };
	size_t live = 0, mismatches = 0;
	unsigned seed = 12345;
	int x = 1, y = 2;

	/* Short keys collide often in a small table; some share prefixes, one is empty. */
	for (int i = 0; i < KEYS; i++)
		lens[i] = (size_t)snprintf(keys[i], sizeof(keys[i]), "%.*s%d", i % 3, "ab", i / 2);
	lens[0] = 0;
	for (int step = 0; step < 200000; step++) {
		int k, op;

		seed = seed * 1103515245u + 12345u;
		k = (int)((seed >> 8) % KEYS);
		op = (int)((seed >> 20) % 3);
		if (op == 0) {
			if (pq_map_put_int(&m, keys[k], lens[k], step + 1) != 0)
				mismatches++;
			live += model[k] == 0;
			model[k] = step + 1;
		} else if (op == 1) {
			int had = pq_map_del(&m, keys[k], lens[k], NULL);
			if (had != (model[k] != 0))
				mismatches++;
			live -= model[k] != 0;
			model[k] = 0;
		} else {
			int found = pq_map_get_int(&m, keys[k], lens[k], &v);
			if (found != (model[k] != 0) || (found && v != model[k]))
				mismatches++;
		}
		if (m.len != live)
			mismatches++;
	}
	is_int((int64_t)mismatches, 0, "200000 random puts, deletes and finds agree with the model");
	for (int i = 0; i < KEYS; i++) {
		if (model[i] != 0) {
			want[0]++;
			want[1] += model[i] + (int64_t)lens[i];
		}
		if (pq_map_get_int(&m, keys[i], lens[i], &v) != (model[i] != 0))
			mismatches++;
	}
	is_int((int64_t)mismatches, 0, "every key is found or absent as the model says");
	pq_map_each(&m, count, sum);
	is_int(sum[0], want[0], "each visits every live entry once");
	is_int(sum[1], want[1], "each gives every entry's own value and key");
	pq_map_free(&m);
	is_int((int64_t)m.len + (int64_t)m.cap, 0, "free leaves an empty map");
	ok(pq_map_get_ptr(&m, "a", 1) == NULL, "an empty map finds nothing");

	/* Pointer values, and keys that differ only past a NUL-free prefix or in length. */
	ok(pq_map_put_ptr(&m, "pid|1", 5, &x) == 0 && pq_map_put_ptr(&m, "pid|10", 6, &y) == 0,
	   "two pointer values");
	ok(pq_map_get_ptr(&m, "pid|1", 5) == &x && pq_map_get_ptr(&m, "pid|10", 6) == &y,
	   "a key and its extension are different keys");
	ok(pq_map_get_ptr(&m, "pid|10", 5) == &x, "the length bounds the key, not a NUL");
	{
		pq_map_value old;
		ok(pq_map_del(&m, "pid|1", 5, &old) == 1 && old.p == &x, "del gives the old value");
	}
	ok(pq_map_get_ptr(&m, "pid|1", 5) == NULL && pq_map_get_ptr(&m, "pid|10", 6) == &y,
	   "the other key stays");
	pq_map_free(&m);
	return done_testing();
}
