/* priority.c - priority_breakdown(start, end, category, priority [, window_start, window_end]),
 * and priority_breakdown(start, end, category, priority, windows): one sweep for many windows.
 *
 * An aggregate returning JSON {"<category>": ns, ..., "other": ns, "total": ns}: every instant of
 * the window is charged to the category of the covering interval with the lowest priority (ties:
 * the category whose name sorts first, byte order); "other" is what nothing covers, "total" the
 * window length. Without a window the window is the inputs' span (min start .. max end).
 * This is the PyTorch TensorBoard plugin's step-time breakdown (tb_plugin profiler/overall_parser.py
 * and range_utils.py, see /work/shared/notes/kineto_hta.md §1.3) done as one sweep line:
 * collect, sort the 2n boundaries once, and keep a count of open intervals per (priority,
 * category) rank in a segment tree whose "first non-zero rank" query gives the winner. O(n log n).
 * The 5-argument form takes the windows as text ("start end start end ...", e.g. a run's steps)
 * and returns a JSON array of the objects, one per window: one sort and one sweep for all of them,
 * where a GROUP BY per window would join and sort every row once per window it overlaps.
 */
#include "ext.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iv_util.h"
#include "json_quote.h"

#define FN "priority_breakdown"

typedef struct {
	sqlite3_int64 start, end;
	uint32_t key;
} prow;

typedef struct {
	sqlite3_int64 t;
	uint32_t rank;
	int32_t delta;
} pev;

typedef struct {
	char *name;
	int len;
	uint32_t hash;
	sqlite3_int64 best; /* lowest priority seen with this category */
	sqlite3_int64 ns;   /* charged time */
} pcat;

typedef struct {
	uint32_t cat;
	sqlite3_int64 prio;
} pkey;

typedef struct {
	prow *rows;
	size_t nrows, caprows;
	pcat *cats;
	uint32_t ncats, capcats;
	uint32_t *cathash; /* open addressing, slot = index+1, capacity capcathash (power of 2) */
	uint32_t capcathash;
	pkey *keys;
	uint32_t nkeys, capkeys;
	uint32_t *keyhash;
	uint32_t capkeyhash;
	uint32_t lastkey; /* one-entry cache: index of the last key + 1, 0 = none */
	int nonempty;     /* some row was aggregated (or a window was given) */
	int haswin;
	sqlite3_int64 ws, we;
	/* 5-argument form: the windows, and their text to check that every row giving them gives
	 * the same */
	int multi;
	sqlite3_int64 *wins; /* start, end pairs */
	size_t nwins;
	char *wintext;
	int wintextlen;
} pstate;

#define EV_T(x) ((x).t)
PQ_RADIX_SORT(sort_events, pev, EV_T)

static uint32_t hash_bytes(const char *s, int n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	int i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static uint32_t hash_key(uint32_t cat, sqlite3_int64 prio)
{
	uint64_t x = ((uint64_t)prio * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)cat * 0xC2B2AE3D27D4EB4Full);
	return (uint32_t)(x >> 32) ^ (uint32_t)x;
}

/* Grows an open-addressing table of slot indices (0 = empty) to twice its size and reinserts. */
static int rehash(uint32_t **tab, uint32_t *cap, uint32_t n, const void *items, size_t itemsize,
		  uint32_t (*hash)(const void *))
{
	uint32_t nc = *cap ? *cap * 2 : 16, i;
	uint32_t *nt = sqlite3_malloc64((sqlite3_uint64)nc * sizeof(uint32_t));

	if (nt == NULL)
		return SQLITE_NOMEM;
	memset(nt, 0, (size_t)nc * sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		uint32_t h = hash((const char *)items + (size_t)i * itemsize) & (nc - 1);
		while (nt[h] != 0)
			h = (h + 1) & (nc - 1);
		nt[h] = i + 1;
	}
	sqlite3_free(*tab);
	*tab = nt;
	*cap = nc;
	return SQLITE_OK;
}

static uint32_t cat_hash_of(const void *p)
{
	return ((const pcat *)p)->hash;
}

static uint32_t key_hash_of(const void *p)
{
	const pkey *k = p;
	return hash_key(k->cat, k->prio);
}

static int grow(void **arr, uint32_t *cap, size_t itemsize)
{
	uint32_t nc = *cap ? *cap * 2 : 16;
	void *na;

	if (*cap >= 0x40000000u)
		return SQLITE_NOMEM;
	na = sqlite3_realloc64(*arr, (sqlite3_uint64)nc * itemsize);
	if (na == NULL)
		return SQLITE_NOMEM;
	*arr = na;
	*cap = nc;
	return SQLITE_OK;
}

/* Finds or adds the category; returns its index or -1 on out-of-memory. */
static int64_t intern_cat(pstate *st, const char *s, int n)
{
	uint32_t h = hash_bytes(s, n), slot;
	pcat *c;

	if (st->capcathash != 0) {
		for (slot = h & (st->capcathash - 1); st->cathash[slot] != 0;
		     slot = (slot + 1) & (st->capcathash - 1)) {
			c = &st->cats[st->cathash[slot] - 1];
			if (c->hash == h && c->len == n && memcmp(c->name, s, (size_t)n) == 0)
				return st->cathash[slot] - 1;
		}
	}
	if (st->ncats == st->capcats && grow((void **)&st->cats, &st->capcats, sizeof(pcat)))
		return -1;
	c = &st->cats[st->ncats];
	c->name = sqlite3_malloc64((sqlite3_uint64)n + 1);
	if (c->name == NULL)
		return -1;
	memcpy(c->name, s, (size_t)n);
	c->name[n] = '\0';
	c->len = n;
	c->hash = h;
	c->best = INT64_MAX;
	c->ns = 0;
	st->ncats++;
	if (2 * st->ncats > st->capcathash) {
		if (rehash(&st->cathash, &st->capcathash, st->ncats, st->cats, sizeof(pcat), cat_hash_of))
			return -1;
	} else {
		for (slot = h & (st->capcathash - 1); st->cathash[slot] != 0;
		     slot = (slot + 1) & (st->capcathash - 1))
			;
		st->cathash[slot] = st->ncats;
	}
	return st->ncats - 1;
}

/* Finds or adds the (category, priority) key; returns its index or -1 on out-of-memory. */
static int64_t intern_key(pstate *st, uint32_t cat, sqlite3_int64 prio)
{
	uint32_t h = hash_key(cat, prio), slot;

	if (st->lastkey != 0) {
		pkey *k = &st->keys[st->lastkey - 1];
		if (k->cat == cat && k->prio == prio)
			return st->lastkey - 1;
	}
	if (st->capkeyhash != 0) {
		for (slot = h & (st->capkeyhash - 1); st->keyhash[slot] != 0;
		     slot = (slot + 1) & (st->capkeyhash - 1)) {
			pkey *k = &st->keys[st->keyhash[slot] - 1];
			if (k->cat == cat && k->prio == prio) {
				st->lastkey = st->keyhash[slot];
				return st->keyhash[slot] - 1;
			}
		}
	}
	if (st->nkeys == st->capkeys && grow((void **)&st->keys, &st->capkeys, sizeof(pkey)))
		return -1;
	st->keys[st->nkeys].cat = cat;
	st->keys[st->nkeys].prio = prio;
	st->nkeys++;
	if (prio < st->cats[cat].best)
		st->cats[cat].best = prio;
	if (2 * st->nkeys > st->capkeyhash) {
		if (rehash(&st->keyhash, &st->capkeyhash, st->nkeys, st->keys, sizeof(pkey), key_hash_of))
			return -1;
	} else {
		for (slot = h & (st->capkeyhash - 1); st->keyhash[slot] != 0;
		     slot = (slot + 1) & (st->capkeyhash - 1))
			;
		st->keyhash[slot] = st->nkeys;
	}
	st->lastkey = st->nkeys;
	return st->nkeys - 1;
}

static void set_error(sqlite3_context *ctx, char *msg)
{
	if (msg == NULL) {
		sqlite3_result_error_nomem(ctx);
	} else {
		sqlite3_result_error(ctx, msg, -1);
		sqlite3_free(msg);
	}
}

/* The 5-argument form's windows: "start end start end ..." (integers, blanks or commas between),
 * read on the first row that gives them; every later row gives the same text or NULL (the
 * group's: a query can pass them on one row, and pays nothing per row for a long list). */
static int set_windows(sqlite3_context *ctx, pstate *st, sqlite3_value *v)
{
	const char *text, *p;
	int n;
	size_t nvals = 0, cap = 0;

	if (sqlite3_value_type(v) == SQLITE_NULL)
		return SQLITE_OK;
	text = (const char *)sqlite3_value_text(v);
	n = sqlite3_value_bytes(v);
	if (text == NULL)
		goto nomem;
	if (st->wintext != NULL) {
		if (n == st->wintextlen && memcmp(text, st->wintext, (size_t)n) == 0)
			return SQLITE_OK;
		sqlite3_result_error(ctx, FN ": windows must be the same on every row of a group", -1);
		return SQLITE_ERROR;
	}
	if ((st->wintext = sqlite3_malloc64((sqlite3_uint64)n + 1)) == NULL)
		goto nomem;
	memcpy(st->wintext, text, (size_t)n + 1);
	st->wintextlen = n;
	st->nonempty = 1;
	for (p = text;;) {
		char *end;
		long long x;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		errno = 0;
		x = strtoll(p, &end, 10);
		if (end == p || errno != 0)
			goto bad;
		p = end;
		if (nvals == cap) {
			size_t nc = cap ? cap * 2 : 32;
			sqlite3_int64 *nw = sqlite3_realloc64(st->wins, nc * sizeof(sqlite3_int64));
			if (nw == NULL)
				goto nomem;
			st->wins = nw;
			cap = nc;
		}
		st->wins[nvals++] = x;
	}
	if (nvals % 2 != 0)
		goto bad;
	st->nwins = nvals / 2;
	return SQLITE_OK;
bad:
	sqlite3_result_error(ctx, FN ": argument 5 (windows) must be integers \"start end start end ...\"",
			     -1);
	return SQLITE_ERROR;
nomem:
	sqlite3_result_error_nomem(ctx);
	return SQLITE_NOMEM;
}

static void pb_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	pstate *st;
	sqlite3_int64 s, e, prio, ws = 0, we = 0;
	int rs, re, rws = PQ_IV_NULL, rwe = PQ_IV_NULL, ctype, rp = PQ_IV_NULL;
	const char *name;
	int64_t cat, key;

	if ((rs = pq_iv_arg_ns(ctx, argv, 0, FN, "start", &s)) == PQ_IV_ERR ||
	    (re = pq_iv_arg_ns(ctx, argv, 1, FN, "end", &e)) == PQ_IV_ERR)
		return;
	ctype = sqlite3_value_type(argv[2]);
	if (ctype == SQLITE_BLOB) {
		sqlite3_result_error(ctx, FN ": argument 3 (category) must be text, got a blob", -1);
		return;
	}
	if (sqlite3_value_type(argv[3]) != SQLITE_NULL) {
		const char *why = pq_iv_value_ns(argv[3], &prio);
		if (why != NULL) {
			set_error(ctx, sqlite3_mprintf(FN ": argument 4 (priority) must be an integer, %s",
						       why));
			return;
		}
		rp = PQ_IV_OK;
	}
	if (argc == 6) {
		if ((rws = pq_iv_arg_ns(ctx, argv, 4, FN, "window_start", &ws)) == PQ_IV_ERR ||
		    (rwe = pq_iv_arg_ns(ctx, argv, 5, FN, "window_end", &we)) == PQ_IV_ERR)
			return;
	}
	st = sqlite3_aggregate_context(ctx, sizeof *st);
	if (st == NULL) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (argc == 5) {
		st->multi = 1;
		if (set_windows(ctx, st, argv[4]) != SQLITE_OK)
			return;
	}
	if (rws == PQ_IV_OK && rwe == PQ_IV_OK) {
		if (!st->haswin) {
			st->haswin = 1;
			st->ws = ws;
			st->we = we;
		} else if (st->ws != ws || st->we != we) {
			sqlite3_result_error(ctx, FN ": window_start and window_end must be the same on "
						  "every row of a group", -1);
			return;
		}
		st->nonempty = 1;
	}
	if (rs == PQ_IV_NULL || re == PQ_IV_NULL || ctype == SQLITE_NULL || rp == PQ_IV_NULL)
		return;
	name = (const char *)sqlite3_value_text(argv[2]);
	if (name == NULL) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (strcmp(name, "other") == 0 || strcmp(name, "total") == 0) {
		set_error(ctx, sqlite3_mprintf(FN ": category name \"%s\" is reserved (the result uses "
					       "it for %s)", name,
					       name[0] == 'o' ? "uncovered time" : "the window length"));
		return;
	}
	st->nonempty = 1;
	/* Fast path: same category as the previous row. */
	if (st->lastkey != 0) {
		pcat *c = &st->cats[st->keys[st->lastkey - 1].cat];
		int n = sqlite3_value_bytes(argv[2]);
		if (c->len == n && memcmp(c->name, name, (size_t)n) == 0)
			cat = st->keys[st->lastkey - 1].cat;
		else
			cat = intern_cat(st, name, n);
	} else {
		cat = intern_cat(st, name, sqlite3_value_bytes(argv[2]));
	}
	if (cat < 0 || (key = intern_key(st, (uint32_t)cat, prio)) < 0) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (e <= s)
		return; /* empty: the category is registered (reported as 0), nothing to charge */
	if (st->nrows == st->caprows) {
		size_t nc = st->caprows ? st->caprows * 2 : 256;
		prow *nr = sqlite3_realloc64(st->rows, (sqlite3_uint64)nc * sizeof(prow));
		if (nr == NULL) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
		st->rows = nr;
		st->caprows = nc;
	}
	st->rows[st->nrows].start = s;
	st->rows[st->nrows].end = e;
	st->rows[st->nrows].key = (uint32_t)key;
	st->nrows++;
}

/* Sort records for ranking keys and ordering categories (qsort has no context argument in C11). */
typedef struct {
	sqlite3_int64 prio;
	const pcat *cat;
	uint32_t idx;
} psort;

static int cmp_cat_names(const pcat *a, const pcat *b)
{
	int m = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, (size_t)m);
	if (c != 0)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

static int cmp_psort(const void *pa, const void *pb)
{
	const psort *a = pa, *b = pb;

	if (a->prio != b->prio)
		return a->prio < b->prio ? -1 : 1;
	return cmp_cat_names(a->cat, b->cat);
}

/* Appends s[0..n) as a JSON string; -1 when out of memory. */
static int json_string(sqlite3_str *out, const char *s, int n)
{
	char small[256], *text = small;
	size_t len = pq_json_quote(small, sizeof(small), s, (size_t)n);

	if (len >= sizeof(small)) {
		if ((text = sqlite3_malloc64(len + 1)) == NULL)
			return -1;
		pq_json_quote(text, len + 1, s, (size_t)n);
	}
	sqlite3_str_append(out, text, (int)len);
	if (text != small)
		sqlite3_free(text);
	return 0;
}

static void free_state(pstate *st)
{
	uint32_t i;

	for (i = 0; i < st->ncats; i++)
		sqlite3_free(st->cats[i].name);
	sqlite3_free(st->cats);
	sqlite3_free(st->cathash);
	sqlite3_free(st->keys);
	sqlite3_free(st->keyhash);
	sqlite3_free(st->rows);
	sqlite3_free(st->wins);
	sqlite3_free(st->wintext);
	memset(st, 0, sizeof *st);
}

/* Ranks the keys by (priority, category name): order[r] is the key of rank r, rank_of[key] its
 * rank, rank_cat[r] the category of rank r. */
static void rank_keys(const pstate *st, psort *order, uint32_t *rank_of, uint32_t *rank_cat)
{
	for (uint32_t i = 0; i < st->nkeys; i++) {
		order[i].prio = st->keys[i].prio;
		order[i].cat = &st->cats[st->keys[i].cat];
		order[i].idx = i;
	}
	qsort(order, st->nkeys, sizeof(psort), cmp_psort);
	for (uint32_t i = 0; i < st->nkeys; i++) {
		rank_of[order[i].idx] = i;
		rank_cat[i] = st->keys[order[i].idx].cat;
	}
}

/* The sweep. Returns SQLITE_OK with the result set, or an error already set on ctx. */
static void pb_compute(sqlite3_context *ctx, pstate *st)
{
	sqlite3_int64 ws, we, total = 0, other = 0, prev;
	psort *order = NULL;
	uint32_t *rank_of = NULL, *rank_cat = NULL, *tree = NULL, size = 1, i;
	pev *ev = NULL;
	size_t nev = 0, j;
	sqlite3_str *out;
	char *json;

	if (st->haswin) {
		ws = st->ws;
		we = st->we;
	} else if (st->nrows > 0) {
		ws = st->rows[0].start;
		we = st->rows[0].end;
		for (j = 1; j < st->nrows; j++) {
			if (st->rows[j].start < ws)
				ws = st->rows[j].start;
			if (st->rows[j].end > we)
				we = st->rows[j].end;
		}
	} else {
		ws = we = 0;
	}
	if (we > ws && (total = pq_iv_len(ctx, FN, ws, we)) < 0)
		return;

	/* Ranks: keys by (priority, category name). */
	order = sqlite3_malloc64((sqlite3_uint64)((st->nkeys > st->ncats ? st->nkeys : st->ncats) + 1) *
				 sizeof(psort));
	rank_of = sqlite3_malloc64((sqlite3_uint64)(st->nkeys + 1) * sizeof(uint32_t));
	rank_cat = sqlite3_malloc64((sqlite3_uint64)(st->nkeys + 1) * sizeof(uint32_t));
	while (size < st->nkeys)
		size *= 2;
	tree = sqlite3_malloc64((sqlite3_uint64)2 * size * sizeof(uint32_t));
	ev = sqlite3_malloc64((sqlite3_uint64)(2 * st->nrows + 1) * sizeof(pev));
	if (order == NULL || rank_of == NULL || rank_cat == NULL || tree == NULL || ev == NULL)
		goto nomem;
	rank_keys(st, order, rank_of, rank_cat);
	memset(tree, 0, (size_t)2 * size * sizeof(uint32_t));

	/* Events, clipped to the window. */
	for (j = 0; j < st->nrows; j++) {
		sqlite3_int64 s = st->rows[j].start > ws ? st->rows[j].start : ws;
		sqlite3_int64 e = st->rows[j].end < we ? st->rows[j].end : we;
		if (e <= s)
			continue;
		ev[nev].t = s;
		ev[nev].rank = rank_of[st->rows[j].key];
		ev[nev].delta = 1;
		nev++;
		ev[nev].t = e;
		ev[nev].rank = rank_of[st->rows[j].key];
		ev[nev].delta = -1;
		nev++;
	}
	if (sort_events(ev, nev) != SQLITE_OK)
		goto nomem;

	/* Sweep: tree[size + r] = open intervals of rank r, inner nodes hold sums. */
	prev = ws;
	for (j = 0; j < nev;) {
		sqlite3_int64 t = ev[j].t;
		if (t > prev) {
			if (tree[1] == 0) {
				other += t - prev;
			} else {
				uint32_t node = 1;
				while (node < size)
					node = tree[2 * node] ? 2 * node : 2 * node + 1;
				st->cats[rank_cat[node - size]].ns += t - prev;
			}
			prev = t;
		}
		for (; j < nev && ev[j].t == t; j++) {
			uint32_t node = size + ev[j].rank;
			for (; node >= 1; node /= 2)
				tree[node] += (uint32_t)ev[j].delta;
		}
	}
	if (we > prev)
		other += we - prev;

	/* JSON, categories by (best priority, name). */
	for (i = 0; i < st->ncats; i++) {
		order[i].prio = st->cats[i].best;
		order[i].cat = &st->cats[i];
		order[i].idx = i;
	}
	qsort(order, st->ncats, sizeof(psort), cmp_psort);
	out = sqlite3_str_new(NULL);
	sqlite3_str_appendchar(out, 1, '{');
	for (i = 0; i < st->ncats; i++) {
		const pcat *c = order[i].cat;
		if (json_string(out, c->name, c->len) != 0) {
			sqlite3_free(sqlite3_str_finish(out));
			goto nomem;
		}
		sqlite3_str_appendf(out, ":%lld,", (long long)c->ns);
	}
	sqlite3_str_appendf(out, "\"other\":%lld,\"total\":%lld}", (long long)other,
			    (long long)total);
	if (sqlite3_str_errcode(out) != SQLITE_OK) {
		sqlite3_free(sqlite3_str_finish(out));
		goto nomem;
	}
	json = sqlite3_str_finish(out);
	sqlite3_result_text(ctx, json, -1, sqlite3_free);
	goto done;
nomem:
	sqlite3_result_error_nomem(ctx);
done:
	sqlite3_free(order);
	sqlite3_free(rank_of);
	sqlite3_free(rank_cat);
	sqlite3_free(tree);
	sqlite3_free(ev);
}

/* Appends one window's object: the categories by (best priority, name), other, total. order[] holds
 * the categories in that order; ns[c] is category c's charge, ns[ncats] the uncovered time. */
static int append_object(sqlite3_str *out, const pstate *st, const psort *order,
			 const sqlite3_int64 *ns, sqlite3_int64 total)
{
	uint32_t i;

	sqlite3_str_appendchar(out, 1, '{');
	for (i = 0; i < st->ncats; i++) {
		const pcat *c = order[i].cat;
		if (json_string(out, c->name, c->len) != 0)
			return -1;
		sqlite3_str_appendf(out, ":%lld,", (long long)ns[order[i].idx]);
	}
	sqlite3_str_appendf(out, "\"other\":%lld,\"total\":%lld}", (long long)ns[st->ncats],
			    (long long)total);
	return 0;
}

/* A window of the 5-argument form, for sorting the windows by start. */
typedef struct {
	sqlite3_int64 start;
	size_t idx;
} pwin;

static int cmp_win(const void *pa, const void *pb)
{
	const pwin *a = pa, *b = pb;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* The 5-argument form: one sweep over every row; each segment between two boundaries is charged
 * to its winner (or "other") in every window it overlaps. */
static void pb_compute_multi(sqlite3_context *ctx, pstate *st)
{
	size_t W = st->nwins, nev = 0, j, next = 0, nact = 0, *act = NULL;
	pwin *byst = NULL;
	uint32_t ncats = st->ncats, size = 1, i, *rank_of = NULL, *rank_cat = NULL, *tree = NULL;
	sqlite3_int64 lo = 0, hi = 0, prev, *ns = NULL;
	psort *order = NULL;
	pev *ev = NULL;
	sqlite3_str *out;
	int any = 0;

	for (j = 0; j < W; j++) {
		sqlite3_int64 ws = st->wins[2 * j], we = st->wins[2 * j + 1];
		if (we <= ws)
			continue;
		if (pq_iv_len(ctx, FN, ws, we) < 0)
			return;
		if (!any || ws < lo)
			lo = ws;
		if (!any || we > hi)
			hi = we;
		any = 1;
	}
	order = sqlite3_malloc64((sqlite3_uint64)((st->nkeys > ncats ? st->nkeys : ncats) + 1) *
				 sizeof(psort));
	rank_of = sqlite3_malloc64((sqlite3_uint64)(st->nkeys + 1) * sizeof(uint32_t));
	rank_cat = sqlite3_malloc64((sqlite3_uint64)(st->nkeys + 1) * sizeof(uint32_t));
	while (size < st->nkeys)
		size *= 2;
	tree = sqlite3_malloc64((sqlite3_uint64)2 * size * sizeof(uint32_t));
	ev = sqlite3_malloc64((sqlite3_uint64)(2 * st->nrows + 1) * sizeof(pev));
	ns = sqlite3_malloc64((sqlite3_uint64)(W + 1) * (ncats + 1) * sizeof(sqlite3_int64));
	byst = sqlite3_malloc64((sqlite3_uint64)(W + 1) * sizeof(pwin));
	act = sqlite3_malloc64((sqlite3_uint64)(W + 1) * sizeof(size_t));
	if (order == NULL || rank_of == NULL || rank_cat == NULL || tree == NULL || ev == NULL ||
	    ns == NULL || byst == NULL || act == NULL)
		goto nomem;
	memset(ns, 0, (W + 1) * (ncats + 1) * sizeof(sqlite3_int64));
	rank_keys(st, order, rank_of, rank_cat);
	memset(tree, 0, (size_t)2 * size * sizeof(uint32_t));
	for (j = 0; any && j < st->nrows; j++) { /* rows clipped to the windows' hull */
		sqlite3_int64 s = st->rows[j].start > lo ? st->rows[j].start : lo;
		sqlite3_int64 e = st->rows[j].end < hi ? st->rows[j].end : hi;
		if (e <= s)
			continue;
		ev[nev++] = (pev){ s, rank_of[st->rows[j].key], 1 };
		ev[nev++] = (pev){ e, rank_of[st->rows[j].key], -1 };
	}
	if (sort_events(ev, nev) != SQLITE_OK)
		goto nomem;
	for (j = 0; j < W; j++)
		byst[j] = (pwin){ st->wins[2 * j], j };
	qsort(byst, W, sizeof(pwin), cmp_win);

	/* Charges [a, b) to column c (a category, or ncats: other) of every window it overlaps. */
#define CHARGE(a, b, c)                                                                          \
	do {                                                                                     \
		size_t k_;                                                                       \
		while (next < W && byst[next].start < (b)) {                                     \
			if (st->wins[2 * byst[next].idx + 1] > byst[next].start)                  \
				act[nact++] = byst[next].idx;                                    \
			next++;                                                                  \
		}                                                                                \
		for (k_ = 0; k_ < nact;) {                                                       \
			sqlite3_int64 ws_ = st->wins[2 * act[k_]], we_ = st->wins[2 * act[k_] + 1]; \
			if (we_ <= (a)) {                                                        \
				act[k_] = act[--nact];                                           \
				continue;                                                        \
			}                                                                        \
			ns[act[k_] * (ncats + 1) + (c)] += ((b) < we_ ? (b) : we_) -             \
							    ((a) > ws_ ? (a) : ws_);              \
			k_++;                                                                    \
		}                                                                                \
	} while (0)

	prev = lo;
	for (j = 0; any && j < nev;) {
		sqlite3_int64 t = ev[j].t;
		if (t > prev) {
			uint32_t c = ncats;
			if (tree[1] != 0) {
				uint32_t node = 1;
				while (node < size)
					node = tree[2 * node] ? 2 * node : 2 * node + 1;
				c = rank_cat[node - size];
			}
			CHARGE(prev, t, c);
			prev = t;
		}
		for (; j < nev && ev[j].t == t; j++) {
			uint32_t node = size + ev[j].rank;
			for (; node >= 1; node /= 2)
				tree[node] += (uint32_t)ev[j].delta;
		}
	}
	if (any && hi > prev)
		CHARGE(prev, hi, ncats);
#undef CHARGE

	for (i = 0; i < ncats; i++) {
		order[i].prio = st->cats[i].best;
		order[i].cat = &st->cats[i];
		order[i].idx = i;
	}
	qsort(order, ncats, sizeof(psort), cmp_psort);
	out = sqlite3_str_new(NULL);
	sqlite3_str_appendchar(out, 1, '[');
	for (j = 0; j < W; j++) {
		sqlite3_int64 ws = st->wins[2 * j], we = st->wins[2 * j + 1];
		if (j > 0)
			sqlite3_str_appendchar(out, 1, ',');
		if (append_object(out, st, order, ns + j * (ncats + 1), we > ws ? we - ws : 0) != 0) {
			sqlite3_free(sqlite3_str_finish(out));
			goto nomem;
		}
	}
	sqlite3_str_appendchar(out, 1, ']');
	if (sqlite3_str_errcode(out) != SQLITE_OK) {
		sqlite3_free(sqlite3_str_finish(out));
		goto nomem;
	}
	sqlite3_result_text(ctx, sqlite3_str_finish(out), -1, sqlite3_free);
	goto done;
nomem:
	sqlite3_result_error_nomem(ctx);
done:
	sqlite3_free(order);
	sqlite3_free(rank_of);
	sqlite3_free(rank_cat);
	sqlite3_free(tree);
	sqlite3_free(ev);
	sqlite3_free(ns);
	sqlite3_free(byst);
	sqlite3_free(act);
}

static void pb_final(sqlite3_context *ctx)
{
	pstate *st = sqlite3_aggregate_context(ctx, 0);

	if (st != NULL && st->multi && st->wintext == NULL) {
		sqlite3_result_error(ctx, FN ": argument 5 (windows) must be text on some row of a "
				     "group, not NULL on every row", -1);
	} else if (st == NULL || !st->nonempty) {
		sqlite3_result_null(ctx);
	} else if (st->wintext != NULL) {
		pb_compute_multi(ctx, st);
	} else {
		pb_compute(ctx, st);
	}
	if (st != NULL)
		free_state(st);
}

int pq_ext_priority_init(sqlite3 *db)
{
	int rc = sqlite3_create_function_v2(db, FN, 4, PQ_FUNC_FLAGS, NULL, NULL, pb_step, pb_final,
					    NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function_v2(db, FN, 5, PQ_FUNC_FLAGS, NULL, NULL, pb_step,
						pb_final, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function_v2(db, FN, 6, PQ_FUNC_FLAGS, NULL, NULL, pb_step,
						pb_final, NULL);
	return rc;
}
