/* chrome_stream.h - the bytes of a Chrome trace, and where its JSON values begin and end.
 *
 * A pq_chrome_stream reads a file through gz_reader.h (which decompresses .json.gz on the fly and
 * passes plain JSON through unchanged) into one buffer that holds the unconsumed text; the
 * buffer only grows when a single value does not fit, so memory follows the largest event, not
 * the file. pq_chrome_scan_value() finds the end of one JSON value (respecting strings and
 * escapes) and, for an object, where each top-level member's key and value text lie, so callers
 * can read numbers exactly and copy argument text without reformatting it. It does not validate:
 * cJSON parses the value afterwards.
 */
#ifndef PQ_CHROME_STREAM_H
#define PQ_CHROME_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "gz_reader.h"

#define PQ_CHROME_MAX_MEMBERS 32

/* One top-level member of a scanned object; offsets are relative to the object's '{'. */
typedef struct pq_chrome_member {
	uint32_t key, key_len;   /* the key's text, without quotes (escapes left as written) */
	uint32_t val, val_len;   /* the value's text, trimmed */
} pq_chrome_member;

typedef struct pq_chrome_members {
	int n;                   /* members recorded (the first PQ_CHROME_MAX_MEMBERS) */
	int truncated;           /* 1 when the object had more */
	pq_chrome_member m[PQ_CHROME_MAX_MEMBERS];
} pq_chrome_members;

enum pq_chrome_scan { PQ_SCAN_OK, PQ_SCAN_MORE, PQ_SCAN_BAD };

/* Finds the end of the JSON value that starts at p[0] (after whitespace was skipped).
 * PQ_SCAN_OK: *len is the value's length. PQ_SCAN_MORE: p[0..n) ends inside the value (at_eof
 * says no more text will come: a number then ends at n). PQ_SCAN_BAD: not a value; *len is the
 * offset of the offending byte. m (may be NULL) receives an object's members. */
enum pq_chrome_scan pq_chrome_scan_value(const char *p, size_t n, int at_eof, size_t *len,
					 pq_chrome_members *m);

/* The members of the object that is the value of the top-level object's "args" member (the last
 * such), as pq_chrome_scan_value() finds them scanning that object alone (offsets from its '{').
 * member: that member's index in the top-level members; -1 when there is none, or when it was
 * beyond PQ_CHROME_MAX_MEMBERS. */
typedef struct pq_chrome_args_members {
	int member;
	pq_chrome_members m;
} pq_chrome_args_members;

/* pq_chrome_scan_value(), with the "args" object's members too (in *args, when m is given): one
 * pass over an event instead of two. */
enum pq_chrome_scan pq_chrome_scan_event(const char *p, size_t n, int at_eof, size_t *len,
					 pq_chrome_members *m, pq_chrome_args_members *args);

typedef struct pq_chrome_stream {
	pq_gz_reader gz;
	char *buf;               /* text [pos, len) is unconsumed */
	size_t cap, pos, len;
	uint64_t base;           /* stream offset of buf[0] */
	uint64_t file_size;
	uint64_t file_read;      /* bytes of the file read so far (compressed ones for gzip) */
	int eof;
} pq_chrome_stream;

/* Opens path; the caller closes with pq_chrome_stream_close() even when this fails. */
int pq_chrome_stream_open(pq_chrome_stream *s, const char *path, pq_error *err);
void pq_chrome_stream_close(pq_chrome_stream *s);

/* Reads more text: moves [pos, len) to the front (pos becomes 0), grows the buffer when it is
 * full, and appends what the file gives. Returns 1 when text was added, 0 at the end of the
 * stream (eof set), -1 on a read or gzip error (truncated or corrupt data) with err set. */
int pq_chrome_stream_more(pq_chrome_stream *s, pq_error *err);

/* Position of buf[i] in the (decompressed) text. */
static inline uint64_t pq_chrome_stream_offset(const pq_chrome_stream *s, size_t i)
{
	return s->base + i;
}

/* Copies JSON text p[0..n) to out without the whitespace outside strings; returns the length
 * written (at most n). */
size_t pq_chrome_minify(const char *p, size_t n, char *out);

#endif
