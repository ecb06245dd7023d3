/* text.c - display widths, cutting to a width, grouped digits (see text.h). */
#define _GNU_SOURCE 1  /* wcwidth, newlocale, uselocale */
#include "text.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

/* A UTF-8 LC_CTYPE for wcwidth, made once: C.UTF-8, else the user's own (0 when neither). */
static locale_t utf8_locale(void)
{
	static locale_t loc;
	static int tried;

	if (!tried) {
		tried = 1;
		loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
		if (loc == (locale_t)0)
			loc = newlocale(LC_CTYPE_MASK, "", (locale_t)0);
	}
	return loc;
}

/* Decodes the character at s: its length in bytes (1 for a byte that starts no valid sequence)
 * and *cp (-1 for such a byte). */
static size_t decode(const unsigned char *s, long *cp)
{
	static const long min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n;
	long c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2, c = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3, c = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4, c = s[0] & 0x07;
	else
		goto bad;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			goto bad;
		c = c << 6 | (s[i] & 0x3F);
	}
	if (c < min[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		goto bad;
	*cp = c;
	return n;
bad:
	*cp = -1;
	return 1;
}

static size_t char_width(long cp)
{
	int w;

	if (cp < 0)
		return 1;
	if (cp >= 0x20 && cp < 0x7F)
		return 1;
	w = wcwidth((wchar_t)cp);
	return w < 0 ? 1 : (size_t)w;
}

/* Walks s: stops before the character that would take the width past limit (SIZE_MAX: none).
 * Returns the bytes walked; *width their columns. */
static size_t walk(const char *s, size_t limit, size_t *width)
{
	locale_t loc = utf8_locale(), old = (locale_t)0;
	size_t i = 0, w = 0;
	int ascii = 1;

	for (const char *p = s; *p && ascii; p++)
		ascii = (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7F;
	if (ascii) {
		i = strlen(s);
		if (i > limit)
			i = limit;
		*width = i;
		return i;
	}
	if (loc != (locale_t)0)
		old = uselocale(loc);
	while (s[i] != '\0') {
		long cp;
		size_t n = decode((const unsigned char *)s + i, &cp), cw = char_width(cp);

		if (w + cw > limit)
			break;
		w += cw;
		i += n;
	}
	if (loc != (locale_t)0)
		uselocale(old);
	*width = w;
	return i;
}

size_t pq_text_width(const char *s)
{
	size_t w;

	walk(s, SIZE_MAX, &w);
	return w;
}

size_t pq_text_fit(const char *s, size_t cols, size_t *width, int *cut)
{
	size_t n = walk(s, cols, width);

	*cut = s[n] != '\0';
	if (*cut)
		n = walk(s, cols > 0 ? cols - 1 : 0, width);
	return n;
}

char *pq_text_count(char *out, size_t cap, int64_t v)
{
	char digits[32];
	int n = snprintf(digits, sizeof(digits), "%lld", (long long)v), neg = v < 0;
	size_t j = 0;

	for (int i = 0; i < n && j + 1 < cap; i++) {
		if (i > neg && (n - i) % 3 == 0 && j + 2 < cap)
			out[j++] = ',';
		out[j++] = digits[i];
	}
	if (cap > 0)
		out[j < cap ? j : cap - 1] = '\0';
	return out;
}
