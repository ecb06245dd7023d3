/* json_quote.h - the one JSON string writer: the importers' args text, the collector's NVTX
 * payloads and the extension's priority breakdown all quote names through it.
 *
 * Pure C, no allocation and no SQLite, so the loadable extension links this one object too
 * (Makefile: profq.so) and the collector gets it with libprofq.a.
 */
#ifndef PQ_JSON_QUOTE_H
#define PQ_JSON_QUOTE_H

#include <stddef.h>

/* Writes s[0..len) as a JSON string literal, quotes included, into out: '"' and '\' get a
 * backslash, bytes below 0x20 become \u00XX, every other byte (UTF-8 included) is copied.
 * Like snprintf: writes at most cap bytes, the last a NUL (nothing when cap is 0; out may then be
 * NULL), and returns the literal's full length without the NUL, so a return >= cap means it was
 * cut short. s need not be NUL-terminated and may hold NUL bytes (written as \u0000). */
size_t pq_json_quote(char *out, size_t cap, const char *s, size_t len);

#endif
