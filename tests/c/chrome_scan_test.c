/* chrome_scan_test.c - pq_chrome_scan_event(): the "args" object's members it records while
 * scanning an event are those a scan of that object alone finds, for the member chrome_args_text()
 * reads (the last top-level "args" whose value is an object); and it ends each value where
 * pq_chrome_scan_value() does. Hand-written cases, every event of a real Kineto trace, and
 * mutations and truncations of them.
 *
 *   chrome_scan TRACE.json[.gz]
 */
#include <stdlib.h>
#include <string.h>

#include "chrome_parse.h"
#include "chrome_reader.h"
#include "chrome_stream.h"
#include "tap.h"
#include "trace_events.h"

/* The top-level member chrome_args_text() takes as the args, or -1. */
static int args_member(const char *text, const pq_chrome_members *m)
{
	int at = -1;

	for (int i = 0; i < m->n; i++)
		if (m->m[i].key_len == 4 && memcmp(text + m->m[i].key, "args", 4) == 0 &&
		    text[m->m[i].val] == '{')
			at = i;
	return at;
}

static int same_members(const pq_chrome_members *a, const pq_chrome_members *b)
{
	if (a->n != b->n || a->truncated != b->truncated)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (a->m[i].key != b->m[i].key || a->m[i].key_len != b->m[i].key_len ||
		    a->m[i].val != b->m[i].val || a->m[i].val_len != b->m[i].val_len)
			return 0;
	return 1;
}

static int valid_json(const char *text, size_t n)
{
	cJSON *j = pq_json_parse(text, n);

	cJSON_Delete(j);
	return j != NULL;
}

/* 1 when scanning text[0..n) with the args recorded ends where pq_chrome_scan_value() does and,
 * for an event that parses, agrees with the two separate scans; why says where not. */
static int agrees(const char *text, size_t n, int at_eof, char *why, size_t wn)
{
	pq_chrome_members m, m2, alone;
	pq_chrome_args_members am;
	size_t len = 0, len2 = 0, alen;
	enum pq_chrome_scan s = pq_chrome_scan_event(text, n, at_eof, &len, &m, &am);
	enum pq_chrome_scan s2 = pq_chrome_scan_value(text, n, at_eof, &len2, &m2);
	int want;

	if (s != s2 || len != len2) {
		snprintf(why, wn, "ends differently: %d/%zu vs %d/%zu", s, len, s2, len2);
		return 0;
	}
	/* The args are read only from events that parse (the reader's rule). */
	if (s != PQ_SCAN_OK || text[0] != '{' || !valid_json(text, len))
		return 1;
	if (!same_members(&m, &m2)) {
		snprintf(why, wn, "other top-level members");
		return 0;
	}
	want = args_member(text, &m);
	if (am.member != want) {
		snprintf(why, wn, "args member %d, expected %d", am.member, want);
		return 0;
	}
	if (want < 0)
		return 1;
	/* (its reader ignores text after the object, which only invalid JSON has there) */
	if (pq_chrome_scan_value(text + m.m[want].val, m.m[want].val_len, 1, &alen, &alone) !=
	    PQ_SCAN_OK) {
		snprintf(why, wn, "the args object alone does not scan");
		return 0;
	}
	if (!same_members(&am.m, &alone)) {
		snprintf(why, wn, "args members differ from the object's own scan");
		return 0;
	}
	return 1;
}

static void hand(const char *text, int want_member, int want_n, const char *name)
{
	pq_chrome_members m;
	pq_chrome_args_members am;
	size_t len;
	char why[128] = "";
	int a = agrees(text, strlen(text), 1, why, sizeof(why));

	pq_chrome_scan_event(text, strlen(text), 1, &len, &m, &am);
	ok(a && am.member == want_member && (want_member < 0 || am.m.n == want_n),
	   "%s: args member %d with %d members%s%s", name, want_member, want_n, *why ? ": " : "",
	   why);
}

static void hand_cases(void)
{
	char many[4096];
	size_t o = 0;

	hand("{\"ph\":\"X\",\"args\":{\"a\":1,\"b\":[1,{\"c\":2}],\"d\":\"}\"},\"ts\":1}", 1, 3,
	     "args in the middle, nested values and a brace in a string");
	hand("{ \"args\" : { \"x\" : 1 , \"y\" : { } } }", 0, 2, "whitespace everywhere");
	hand("{\"args\":{}}", 0, 0, "empty args");
	hand("{\"args\":1,\"name\":\"n\"}", -1, 0, "args not an object");
	hand("{\"args\":{\"a\":1},\"args\":{\"b\":2,\"c\":3}}", 1, 2, "the last args object counts");
	hand("{\"args\":{\"a\":1},\"args\":[1]}", 0, 1, "a later args array does not");
	hand("{\"x\":{\"args\":{\"a\":1}},\"y\":[{\"args\":{}}]}", -1, 0,
	     "nested args objects are not the event's");
	hand("{\"ar\\u0067s\":{\"a\":1}}", -1, 0, "a key written with an escape is not args");
	hand("{\"args\":{\"a\":1},\"n\":2}", 0, 1, "args first");
	hand("[{\"args\":{\"a\":1}}]", -1, 0, "an array holds no event members");
	o += (size_t)snprintf(many + o, sizeof(many) - o, "{\"args\":{");
	for (int i = 0; i < PQ_CHROME_MAX_MEMBERS + 3; i++)
		o += (size_t)snprintf(many + o, sizeof(many) - o, "%s\"k%d\":%d", i ? "," : "", i, i);
	snprintf(many + o, sizeof(many) - o, "}}");
	hand(many, 0, PQ_CHROME_MAX_MEMBERS, "more args members than recorded: truncated as alone");
	o = (size_t)snprintf(many, sizeof(many), "{");
	for (int i = 0; i < PQ_CHROME_MAX_MEMBERS; i++)
		o += (size_t)snprintf(many + o, sizeof(many) - o, "\"k%d\":%d,", i, i);
	snprintf(many + o, sizeof(many) - o, "\"args\":{\"a\":1}}");
	hand(many, -1, 0, "args beyond the recorded top-level members: none");
}

/* A copy of text[0..n) with one byte changed, inserted or deleted (xorshift-chosen) into buf;
 * returns its length. */
static size_t mutate(const char *text, size_t n, char *buf, uint64_t *seed)
{
	static const char pool[] = "\"\\{}[],: \tx0";
	uint64_t x = xorshift_next(seed);
	size_t at;

	at = (size_t)(x >> 8) % n;
	memcpy(buf, text, n);
	switch (x % 3) {
	case 0:
		buf[at] = pool[(x >> 40) % (sizeof(pool) - 1)];
		return n;
	case 1:
		memmove(buf + at + 1, buf + at, n - at);
		buf[at] = pool[(x >> 40) % (sizeof(pool) - 1)];
		return n + 1;
	default:
		memmove(buf + at, buf + at + 1, n - at - 1);
		return n - 1;
	}
}

/* What the trace's events gave. */
typedef struct tally {
	long events, with_args, checked, agreed;
	char first_bad[200];
	event_scratch s;        /* the mutated copies */
} tally;

static void check_event(const char *text, const chrome_item *it, void *ctx)
{
	tally *t = ctx;
	char why[128];

	if (it->len < 2)
		return;
	t->events++;
	t->with_args += args_member(text, &it->m) >= 0;
	if (scratch_room(&t->s, it->len + 2) == NULL)
		return;
	/* as it is, cut short (more text to come, or the end), and one mutation */
	for (int k = 0; k < 4; k++) {
		size_t n = it->len;
		int at_eof = 1;

		memcpy(t->s.buf, text, n);
		if (k == 1 || k == 2) {
			n = (size_t)(t->s.seed % it->len);
			t->s.seed = t->s.seed * 6364136223846793005u + 1442695040888963407u;
			at_eof = k == 2;
		} else if (k == 3) {
			n = mutate(text, it->len, t->s.buf, &t->s.seed);
		}
		t->checked++;
		if (agrees(t->s.buf, n, at_eof, why, sizeof(why)))
			t->agreed++;
		else if (!*t->first_bad)
			snprintf(t->first_bad, sizeof(t->first_bad), "event %ld, case %d: %s",
				 t->events, k, why);
	}
}

static void trace_events(const char *path)
{
	tally t = { .s.seed = 88172645463325252u };

	if (each_trace_event(path, check_event, &t) != 0)
		return;
	free(t.s.buf);
	ok(t.events > 70000 && t.with_args > t.events / 2, "%ld events of the trace, %ld with args",
	   t.events, t.with_args);
	ok(t.agreed == t.checked, "%ld of %ld scans (events whole, cut short, mutated) agree %s",
	   t.agreed, t.checked, t.first_bad);
}

int main(int argc, char **argv)
{
	hand_cases();
	if (argc > 1)
		trace_events(argv[1]);
	else
		ok(0, "usage: chrome_scan TRACE");
	return done_testing();
}
