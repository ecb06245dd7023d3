/* jsonw.h - writing a JSON document to a file, streamed: a buffer, plain or gzip output, and a
 * temporary file renamed over the destination only when the whole document was written, so a
 * failure never leaves half a file behind (the Chrome exporter's output).
 *
 * Writes never fail individually: the first error is remembered and pq_jw_finish() reports it.
 * Strings are escaped for JSON (control characters as \u00XX) and invalid UTF-8 is replaced by
 * U+FFFD, so the output is always valid JSON text. Not thread-safe.
 */
#ifndef PQ_JSONW_H
#define PQ_JSONW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

typedef struct pq_jw {
	FILE *f;               /* plain output, or NULL */
	void *gz;              /* gzFile, or NULL */
	char *path;            /* the destination (owned), NULL for standard output */
	char *tmp;             /* the temporary file (owned), NULL for standard output */
	int failed;
	char why[256];
	uint64_t bytes;        /* uncompressed bytes written */
	size_t n;
	char buf[1 << 16];
} pq_jw;

/* Opens path for writing ("-": standard output, never compressed); gzip compresses. The caller
 * ends with pq_jw_finish() or pq_jw_abort(). */
int pq_jw_open(pq_jw *w, const char *path, int gzip, pq_error *err);
/* Flushes, closes and renames the temporary file over the destination; on any error removes it
 * and returns -1 with err set. */
int pq_jw_finish(pq_jw *w, pq_error *err);
/* Closes and removes the temporary file. */
void pq_jw_abort(pq_jw *w);

void pq_jw_raw(pq_jw *w, const char *s, size_t n);
void pq_jw_lit(pq_jw *w, const char *s);          /* NUL-terminated text, as is */
void pq_jw_str(pq_jw *w, const char *s);          /* a JSON string; NULL writes null */
void pq_jw_strn(pq_jw *w, const char *s, size_t n);
void pq_jw_int(pq_jw *w, int64_t v);
/* ns as decimal microseconds, exact: 1234567 -> 1234.567, -1500 -> -1.5, 2000 -> 2. */
void pq_jw_us(pq_jw *w, int64_t ns);
/* A finite double, shortest exact form (%.17g); non-finite values write null. */
void pq_jw_real(pq_jw *w, double v);

/* Whether an error happened so far (the message in w->why). */
int pq_jw_failed(const pq_jw *w);

#endif
