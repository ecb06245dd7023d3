/* json_fast_test.c - pq_json_fast_tree: every text simdjson accepts is one cJSON accepts, with the
 * same tree (types, keys, strings, doubles bit for bit, valueint, order); what it refuses goes to
 * cJSON. Hand-written cases, every event of a real Kineto trace, and ~40 k mutations of them.
 *
 *   json_fast TRACE.json[.gz]
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chrome_fields.h"
#include "chrome_reader.h"
#include "json_fast.h"
#include "tap.h"
#include "trace_events.h"

/* Whether t's children are linked as cJSON's parser and cJSON_AddItemToArray() link them (what
 * its other functions rely on): next to the following one, the last's NULL; prev to the one
 * before, the first's to the last. */
static int linked_as_cjson(const cJSON *t)
{
	const cJSON *first = t->child, *last = NULL;

	for (const cJSON *c = first; c != NULL; last = c, c = c->next)
		if (c != first && c->prev != last)
			return 0;
	return first == NULL || first->prev == last;
}

/* 1 when a and b are the same tree; why says where not. */
static int same(const cJSON *a, const cJSON *b, char *why, size_t n)
{
	if (a == NULL || b == NULL) {
		snprintf(why, n, "%s missing", a == NULL ? "fast" : "cJSON");
		return a == b;
	}
	if (a->type != b->type) {
		snprintf(why, n, "type %d vs %d", a->type, b->type);
		return 0;
	}
	if ((a->string == NULL) != (b->string == NULL) ||
	    (a->string != NULL && strcmp(a->string, b->string) != 0)) {
		snprintf(why, n, "key %s vs %s", a->string ? a->string : "-",
			 b->string ? b->string : "-");
		return 0;
	}
	if (cJSON_IsString(a) && strcmp(a->valuestring, b->valuestring) != 0) {
		snprintf(why, n, "string \"%s\" vs \"%s\"", a->valuestring, b->valuestring);
		return 0;
	}
	if (cJSON_IsNumber(a) && (memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) != 0 ||
				  a->valueint != b->valueint)) {
		snprintf(why, n, "number %.17g/%d vs %.17g/%d", a->valuedouble, a->valueint,
			 b->valuedouble, b->valueint);
		return 0;
	}
	if (!linked_as_cjson(a) || !linked_as_cjson(b)) {
		snprintf(why, n, "%s's children are not linked as cJSON links them",
			 linked_as_cjson(a) ? "cJSON" : "fast");
		return 0;
	}
	for (a = a->child, b = b->child; a != NULL || b != NULL; a = a->next, b = b->next)
		if (!same(a, b, why, n))
			return 0;
	return 1;
}

static int keep_some(const char *key, size_t len)
{
	return (len == 11 && memcmp(key, "External id", 11) == 0) ||
	       (len == 6 && memcmp(key, "device", 6) == 0);
}

/* What simdjson's path does with text: -1 refused, 1 the same tree as cJSON's, 0 another tree
 * (or a tree where cJSON refuses). */
static int compare(pq_json_fast *f, const char *text, size_t n, char *why, size_t wn)
{
	int oom, r;
	cJSON *fast = pq_json_fast_tree(f, text, n, NULL, &oom);
	cJSON *slow = pq_json_parse(text, n);

	*why = '\0';
	if (fast == NULL)
		r = -1;
	else
		r = same(fast, slow, why, wn);
	cJSON_Delete(fast);
	cJSON_Delete(slow);
	return r;
}

static void accepted_same(pq_json_fast *f, const char *text, const char *name)
{
	char why[256];
	int r = compare(f, text, strlen(text), why, sizeof(why));

	ok(r == 1, "%s: built, the tree cJSON parses%s%s", name, *why ? ": " : "", why);
}

/* Refused by simdjson (and cJSON's own answer, accept, is what the importer then keeps). */
static void refused(pq_json_fast *f, const char *text, int cjson_accepts, const char *name)
{
	char why[256];
	cJSON *slow = pq_json_parse(text, strlen(text));

	ok(compare(f, text, strlen(text), why, sizeof(why)) == -1 &&
	   (slow != NULL) == cjson_accepts, "%s: refused, cJSON %s", name,
	   cjson_accepts ? "accepts" : "refuses");
	cJSON_Delete(slow);
}

static char *nested(int depth)
{
	char *s = malloc((size_t)depth * 2 + 1);

	for (int i = 0; i < depth; i++) {
		s[i] = '[';
		s[depth * 2 - 1 - i] = ']';
	}
	s[depth * 2] = '\0';
	return s;
}

static void hand_cases(pq_json_fast *f)
{
	char *deep;
	int oom;
	cJSON *t;

	accepted_same(f, "{\"a\":1,\"b\":-2.5e3,\"c\":\"x\\\"y\\\\\\u00e9\\n\",\"d\":[true,false,null],"
			 "\"e\":{},\"f\":[]}", "every type, escapes");
	accepted_same(f, "[-0.0, 0.1, 1e308, 5e-324, 1e-400, 2.2250738585072011e-308]",
		      "-0.0, subnormals, underflow to zero");
	accepted_same(f, "[\"2021-06-08\", \"-0\", 0]", "an integer 0 beside \"-0\" in strings");
	accepted_same(f, "[9007199254740993, -9223372036854775808, 9223372036854775807, "
			 "9223372036854775808, 18446744073709551615]",
		      "64-bit integers round to the same doubles as strtod's");
	accepted_same(f, "[2147483647, 2147483648, -2147483649, 1e10, -1e10]",
		      "valueint saturates as cJSON's does");
	accepted_same(f, "{\"a\":1,\"a\":2}", "duplicate keys, both kept in order");
	accepted_same(f, "\"\\ud83d\\ude00\"", "a surrogate pair");
	accepted_same(f, "{\"k\\u0000ey\":\"v\\u0000al\"}", "\\u0000 becomes U+FFFD in keys and strings");
	accepted_same(f, "{\"ph\":\"X\",\"args\":{\"Call stack\":\"a.py(1): f\",\"device\":0}}",
		      "without keep, args whole");
	refused(f, "[\"\\ud800\"]", 0, "a lone high surrogate");
	refused(f, "[\"\\udc00\"]", 0, "a lone low surrogate");
	refused(f, "[\"\\ud800\\u0041\"]", 0, "a high surrogate before a non-surrogate");
	refused(f, "[\"caf\xe9\"]", 1, "invalid UTF-8");
	refused(f, "[\"a\tb\"]", 1, "a raw control character in a string");
	refused(f, "[01]", 1, "a leading zero");
	refused(f, "[0, -0]", 1, "the integer -0 (simdjson's 0, cJSON's -0.0)");
	refused(f, "{\"a\":-0}", 1, "the integer -0 before a brace");
	refused(f, "[1e400]", 1, "a number beyond the doubles (cJSON: inf)");
	refused(f, "[123456789012345678901234567890]", 1, "an integer beyond 64 bits");
	refused(f, "{\"a\":1,}", 0, "a trailing comma");
	refused(f, "{\"a\" 1}", 0, "a missing colon");

	deep = nested(PQ_JSON_FAST_DEPTH);
	accepted_same(f, deep, "nesting PQ_JSON_FAST_DEPTH deep");
	free(deep);
	deep = nested(PQ_JSON_FAST_DEPTH + 1);
	refused(f, deep, 1, "one level deeper (cJSON takes up to 1000)");
	free(deep);

	ok(pq_json_fast_tree(f, "", 0, NULL, &oom) == NULL && !oom, "an empty text is refused");
	{
		const char *text = "{\"ph\":\"X\",\"args\":{\"Call stack\":[1,[2]],\"device\":3,"
				   "\"External id\":4,\"device\":5},\"x\":{\"args\":{\"a\":1}},"
				   "\"args\":{\"b\":2},\"args\":7}";
		char *printed;

		t = pq_json_fast_tree(f, text, strlen(text), keep_some, &oom);
		printed = t ? cJSON_PrintUnformatted(t) : NULL;
		is_str(printed, "{\"ph\":\"X\",\"args\":{\"device\":3,\"External id\":4,\"device\":5},"
				"\"x\":{\"args\":{\"a\":1}},\"args\":{},\"args\":7}",
		       "keep: the root's args objects keep only the named members, in order; "
		       "nested args and a non-object args untouched");
		free(printed);
		cJSON_Delete(t);
		text = "{\"ph\":\"X\",\"args\":{\"device\":1,\"Call stack\":\"\\x\"}}";
		ok(pq_json_fast_tree(f, text, strlen(text), keep_some, &oom) == NULL && !oom,
		   "keep: a member not built is still validated (an invalid escape refuses the text)");
	}
}

/* A copy of text[0..n) with one mutation (xorshift-chosen) into buf; returns its length. */
static size_t mutate(const char *text, size_t n, char *buf, uint64_t *seed)
{
	static const char pool[] = "\"\\{}[],:0-+eE.u \t\x01\xe9\x80";
	static const char *const inserts[] = { "\\ud800", "\\udc00", "\\u0000", "1e999", "-0",
					       "01", "\\", "\"", "\xff", "\xc3\xa9", "[[[" };
	uint64_t x = xorshift_next(seed);
	size_t at, len;

	at = (size_t)(x >> 8) % n;
	switch (x % 3) {
	case 0: /* replace a byte */
		memcpy(buf, text, n);
		buf[at] = pool[(x >> 40) % (sizeof(pool) - 1)];
		return n;
	case 1: { /* insert a sequence */
		const char *s = inserts[(x >> 40) % (sizeof(inserts) / sizeof(*inserts))];

		len = strlen(s);
		memcpy(buf, text, at);
		memcpy(buf + at, s, len);
		memcpy(buf + at + len, text + at, n - at);
		return n + len;
	}
	default: /* delete a byte */
		memcpy(buf, text, at);
		memcpy(buf + at, text + at + 1, n - at - 1);
		return n - 1;
	}
}

/* What the trace's events gave. */
typedef struct tally {
	pq_json_fast *f;
	long events, equal, mutated, m_built, m_equal, m_refused;
	char first_bad[320];
	event_scratch s;        /* the mutated copies */
} tally;

static void check_event(const char *text, const chrome_item *it, void *ctx)
{
	tally *t = ctx;
	char why[256] = "";

	t->events++;
	if (compare(t->f, text, it->len, why, sizeof(why)) == 1)
		t->equal++;
	else if (!*t->first_bad)
		snprintf(t->first_bad, sizeof(t->first_bad), "event %ld: %s", t->events, why);
	if (t->events % 2 != 0 || it->len < 2)
		return;
	if (scratch_room(&t->s, it->len + 16) == NULL)
		return;
	t->mutated++;
	switch (compare(t->f, t->s.buf, mutate(text, it->len, t->s.buf, &t->s.seed), why, sizeof(why))) {
	case -1:
		t->m_refused++;
		break;
	case 1:
		t->m_built++;
		t->m_equal++;
		break;
	default:
		t->m_built++;
		if (!*t->first_bad)
			snprintf(t->first_bad, sizeof(t->first_bad), "mutation of event %ld: %s",
				 t->events, why);
	}
}

static void trace_events(pq_json_fast *f, const char *path)
{
	tally t = { .f = f, .s.seed = 88172645463325252u };

	if (each_trace_event(path, check_event, &t) != 0)
		return;
	free(t.s.buf);
	ok(t.events > 70000 && t.equal == t.events,
	   "%ld of %ld events of the trace: the tree cJSON parses %s", t.equal, t.events,
	   t.first_bad);
	ok(t.m_built == t.m_equal, "%ld mutated events built: each one cJSON parses to the same tree %s",
	   t.m_built, t.first_bad);
	ok(t.m_built > t.mutated / 4 && t.m_refused > t.mutated / 4,
	   "the mutations test both sides: %ld built, %ld refused of %ld", t.m_built, t.m_refused,
	   t.mutated);
}

int main(int argc, char **argv)
{
	pq_json_fast *f = pq_json_fast_new();

	if (!ok(f != NULL, "a parser"))
		return done_testing();
	hand_cases(f);
	if (argc > 1)
		trace_events(f, argv[1]);
	else
		ok(0, "usage: json_fast TRACE");
	pq_json_fast_free(f);
	return done_testing();
}
