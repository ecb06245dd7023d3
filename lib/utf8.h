/* utf8.h - text as SQLite and every output format need it: valid UTF-8.
 *
 * Traces carry names in whatever bytes their producer had (a Latin-1 file name, a truncated
 * multi-byte name). The store passes every text through pq_utf8_fix(), so the database only ever
 * holds valid UTF-8 and JSON, CSV and table output stay valid.
 */
#ifndef PQ_UTF8_H
#define PQ_UTF8_H

#include <stddef.h>

/* NULL when s[0..n) is valid UTF-8 (nothing to do); otherwise a malloc'ed, NUL-terminated copy
 * (the caller frees) in which each invalid sequence (a stray byte, a truncated or overlong
 * sequence, a surrogate, a code point past U+10FFFF) is one U+FFFD, with *len its length. Also
 * NULL, with *len = (size_t)-1, when out of memory. */
char *pq_utf8_fix(const char *s, size_t n, size_t *len);

#endif
