/* error.h - the error message a library call fills in when it fails.
 *
 * Library functions return 0 on success and -1 on failure, and on failure write one line into the
 * caller's pq_error (no "profq:" prefix, no trailing newline). Only main() prints or exits.
 */
#ifndef PQ_ERROR_H
#define PQ_ERROR_H

#include <stddef.h>

typedef struct pq_error {
	char msg[1024];
} pq_error;

/* Formats into err->msg (truncating); err may be NULL. Always returns -1, so callers can write
 * `return pq_fail(err, "...")`. */
int pq_fail(pq_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
