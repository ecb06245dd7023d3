/* trace_events.h - every event of a trace as the importer's reader thread hands it over, given to
 * a test's function (the tests that check the scanner and the parser on a real trace). Include
 * after tap.h. */
#ifndef PQ_TEST_TRACE_EVENTS_H
#define PQ_TEST_TRACE_EVENTS_H

#include <stdint.h>
#include <stdlib.h>

#include "chrome_reader.h"

/* The mutation tests' scratch: a copy of an event's text made in buf, and the xorshift64 state
 * (Marsaglia, "Xorshift RNGs", 2003) that chooses what changes in it. */
typedef struct event_scratch {
	char *buf;
	size_t cap;
	uint64_t seed;
} event_scratch;

static inline uint64_t xorshift_next(uint64_t *seed)
{
	uint64_t x = *seed;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *seed = x;
}

/* s->buf with room for n bytes (NULL when out of memory). */
static inline char *scratch_room(event_scratch *s, size_t n)
{
	if (s->cap < n) {
		s->cap = n * 2;
		s->buf = realloc(s->buf, s->cap);
	}
	return s->buf;
}

typedef void (*trace_event_fn)(const char *text, const chrome_item *it, void *ctx);

/* Calls fn for each event of the trace at path, in order; 0, or -1 (a failed test saying why)
 * when it cannot be read. */
static int each_trace_event(const char *path, trace_event_fn fn, void *ctx)
{
	chrome_reader r;
	chrome_batch *b;
	pq_error err;

	if (chrome_reader_start(&r, path, 0, &err) != 0) {
		ok(0, "open %s: %s", path, err.msg);
		return -1;
	}
	while ((b = chrome_reader_next(&r)) != NULL) {
		for (size_t i = 0; i < b->n; i++)
			if (b->items[i].kind == CHROME_ITEM_EVENT)
				fn(chrome_item_text(b, &b->items[i]), &b->items[i], ctx);
		chrome_reader_release(&r, b);
	}
	chrome_reader_stop(&r);
	return 0;
}

#endif
