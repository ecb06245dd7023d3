/* html_text.h - writing untrusted text into HTML and SVG, and formatting numbers for people. */
#ifndef PQ_HTML_TEXT_H
#define PQ_HTML_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Writes s (NULL: nothing) escaped for element text and attribute values: & < > " ' become
 * entities; bytes that are not valid UTF-8 and control characters XML forbids become U+FFFD, so
 * the page stays well-formed XML whatever a trace holds. At most max_chars characters (0: no
 * limit), "…" marking a cut. */
void pq_html_text(FILE *out, const char *s, size_t max_chars);

/* Like pq_html_text with no limit. */
void pq_html(FILE *out, const char *s);

/* A duration given in ns as "12.3 ms", "456 µs", "1.23 s" (3 significant digits or more). */
void pq_fmt_duration(char *buf, size_t size, double ns);

/* bytes as "1.5 GiB", "12.0 MiB", "512 B". */
void pq_fmt_bytes(char *buf, size_t size, double bytes);

/* A count with thousands separators: "12,345". */
void pq_fmt_count(char *buf, size_t size, double n);

#endif
