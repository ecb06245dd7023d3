/* html_text.c - escaping and number formatting for the HTML report. */
#include "html_text.h"

#include <math.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s that XML allows, or 0. */
static size_t utf8_char(const unsigned char *s)
{
	unsigned cp;
	size_t n;

	if (s[0] < 0x80)
		return s[0] >= 0x20 || s[0] == '\t' || s[0] == '\n' || s[0] == '\r' ? 1 : 0;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, U+FFFE/U+FFFF and beyond U+10FFFF are not XML characters. */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff || cp > 0x10ffff)
		return 0;
	return n;
}

void pq_html_text(FILE *out, const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t chars = 0;

	if (s == NULL)
		return;
	while (*p) {
		size_t n = utf8_char(p);

		if (max_chars && chars == max_chars - 1 && p[n ? n : 1] != '\0') {
			fputs("\xe2\x80\xa6", out); /* … */
			return;
		}
		chars++;
		if (n == 0) {
			fputs("\xef\xbf\xbd", out); /* U+FFFD for a byte that is not a character */
			p++;
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fwrite(p, 1, n, out);
		}
		p += n;
	}
}

void pq_html(FILE *out, const char *s)
{
	pq_html_text(out, s, 0);
}

/* value with at least 3 significant digits, at most 2 decimals. */
static void sig3(char *buf, size_t size, double v, const char *unit)
{
	double a = fabs(v);

	snprintf(buf, size, a >= 100 || a == 0 ? "%.0f %s" : a >= 10 ? "%.1f %s" : "%.2f %s", v,
		 unit);
}

void pq_fmt_duration(char *buf, size_t size, double ns)
{
	double a = fabs(ns);

	if (a >= 1e9)
		sig3(buf, size, ns / 1e9, "s");
	else if (a >= 1e6)
		sig3(buf, size, ns / 1e6, "ms");
	else if (a >= 1e3)
		sig3(buf, size, ns / 1e3, "\xc2\xb5s");
	else
		sig3(buf, size, ns, "ns");
}

void pq_fmt_bytes(char *buf, size_t size, double bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (fabs(bytes) >= 1024 && u < 4) {
		bytes /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%.0f B", bytes);
	else
		sig3(buf, size, bytes, units[u]);
}

void pq_fmt_count(char *buf, size_t size, double n)
{
	char digits[32];
	size_t len, o = 0;
	int neg = n < 0;

	snprintf(digits, sizeof(digits), "%.0f", fabs(n));
	len = strlen(digits);
	if (neg && o + 1 < size)
		buf[o++] = '-';
	for (size_t i = 0; i < len && o + 1 < size; i++) {
		if (i > 0 && (len - i) % 3 == 0 && o + 2 < size)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}
