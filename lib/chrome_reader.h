/* chrome_reader.h - the first stage of the Chrome import: a thread that reads the document
 * (zlib, chrome_stream), finds its values, and parses every event (simdjson, with cJSON for
 * what it refuses: json_fast.h) into a cJSON tree, handing batches of parsed events to the
 * importer's thread, which turns them into rows (import_chrome.c).
 *
 * The two stages overlap on two cores: reading, inflating, scanning and parsing on one, rows and
 * SQLite on the other. Memory stays bounded: at most CHROME_READER_BATCHES batches exist, each
 * of at most CHROME_BATCH_EVENTS events or about CHROME_BATCH_TEXT bytes of text (one larger
 * event makes a batch larger), and the reader waits while they are all full.
 *
 * Order is kept: a batch holds, in document order, the events, the top-level keys (other than
 * traceEvents), and the events the reader found bad (not JSON, not an object, cut short); the
 * importer applies its error policy to those as it meets them, so an import fails at the same
 * event, with the same message, as when one thread did everything. A failure of the document
 * itself (gzip error, text that is not JSON around the events, ...) ends the stream: after the
 * last batch, chrome_reader_next() returns NULL and the reader's status says how it ended.
 */
#ifndef PQ_CHROME_READER_H
#define PQ_CHROME_READER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>

#include "chrome_fields.h"
#include "chrome_import.h"
#include "chrome_parse.h"
#include "chrome_stream.h"
#include "error.h"

#define CHROME_READER_BATCHES 4
#define CHROME_BATCH_EVENTS 1024
#define CHROME_BATCH_TEXT (1u << 20)

enum chrome_item_kind {
	CHROME_ITEM_EVENT,       /* an event object and its parse */
	CHROME_ITEM_BAD,         /* an event that cannot be read: text is why */
	CHROME_ITEM_KEY,         /* a top-level key: key, and text is its value's JSON text */
};

typedef struct chrome_item {
	enum chrome_item_kind kind;
	int counted;             /* BAD: an object (counts in stats.events, like EVENT) */
	int64_t index;           /* EVENT, BAD: the event's index in traceEvents */
	uint64_t pos;            /* byte offset of the value in the decompressed text */
	size_t text, len;        /* offset into the batch's text (NUL-terminated) and length */
	size_t key;              /* KEY: offset of the key (NUL-terminated) in the batch's text */
	cJSON *json;             /* EVENT: the tree (in the batch's arena) */
	int has_xa;              /* EVENT: an X event or instant, with its args text made ahead: */
	chrome_x_args xa;        /* (xa.text is not valid here: */
	size_t xa_text;          /* it is at this offset in the batch's text, SIZE_MAX for NULL) */
	chrome_digest dg;        /* EVENT: its members by name, ts and dur (chrome_fields.h) */
	/* Last: what the importer reads of an item most of the time is above (import_chrome.c
	 * fetches it ahead). */
	pq_chrome_members m;     /* EVENT: the scanner's members */
} chrome_item;

typedef struct chrome_batch {
	chrome_item *items;
	size_t n, cap;
	char *text;
	size_t text_len, text_cap;
	pq_json_arena arena;
	uint64_t file_read;      /* bytes of the file read when the batch was queued (progress) */
	struct chrome_batch *next;
} chrome_batch;

typedef struct chrome_reader {
	pq_chrome_stream in;
	pthread_t thread;
	int started;

	pthread_mutex_t mu;
	pthread_cond_t cv;
	chrome_batch *free_list;     /* batches to fill */
	chrome_batch *head, *tail;   /* filled, in order */
	int n_batches;               /* allocated */
	int stop;                    /* the importer gave up: the reader ends */
	int finished;                /* the reader queued its last batch */
	int status;                  /* 0: the document was read to its end; -1: err says why */
	pq_error err;

	chrome_batch *cur;           /* being filled (reader thread only) */
	chrome_text scratch;         /* args text under construction (reader thread only) */
	pq_chrome_args_members args; /* the event being scanned: its args object's members */
	pq_json_fast *fast;          /* simdjson's buffers (reader thread only) */
	int64_t index;               /* events seen */
	int array_form, saw_events;
	int digest;                  /* digest events (0: scan and parse only, for measuring) */
} chrome_reader;

/* Opens path and starts the reader thread; on failure (err set) nothing is left to stop.
 * digest 0 leaves items' dg and xa unset (bench/parse_bench measures cJSON alone with it). */
int chrome_reader_start(chrome_reader *r, const char *path, int digest, pq_error *err);

/* The next filled batch, waiting for it; NULL after the last one (then r->status and r->err
 * say how the document ended). Give each batch back with chrome_reader_release(). */
chrome_batch *chrome_reader_next(chrome_reader *r);
void chrome_reader_release(chrome_reader *r, chrome_batch *b);

/* Stops the reader (when it is still reading), waits for it and frees everything. */
void chrome_reader_stop(chrome_reader *r);

static inline const char *chrome_item_text(const chrome_batch *b, const chrome_item *it)
{
	return b->text + it->text;
}

#endif
