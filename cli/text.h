/* text.h - text for people: how many terminal columns UTF-8 text takes, cutting it to a width,
 * and counts with grouped digits. Widths follow wcwidth(3) under a UTF-8 locale whatever the
 * user's locale is (profq's text is UTF-8): wide CJK characters take two columns, combining marks
 * none; a byte that is not valid UTF-8, or a control character, counts as one. */
#ifndef PQ_TEXT_H
#define PQ_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Terminal columns s takes. */
size_t pq_text_width(const char *s);

/* Bytes of s that fit in cols columns, keeping room for an ellipsis ("…", one column) when s is
 * wider than cols; never cuts inside a character. *width receives the columns those bytes take.
 * Returns strlen(s) when s fits whole (no ellipsis needed). */
size_t pq_text_fit(const char *s, size_t cols, size_t *width, int *cut);

/* v with its digits grouped by threes ("75,712"); returns out. */
char *pq_text_count(char *out, size_t cap, int64_t v);

#endif
