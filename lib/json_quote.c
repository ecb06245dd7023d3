/* json_quote.c - JSON string literals (see json_quote.h). */
#include "json_quote.h"

static const char hex[] = "0123456789abcdef";

size_t pq_json_quote(char *out, size_t cap, const char *s, size_t len)
{
	size_t n = 0;
	char esc[6];

#define EMIT(c) do { if (n + 1 < cap) out[n] = (c); n++; } while (0)
	EMIT('"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t k = 0;

		if (c == '"' || c == '\\') {
			esc[k++] = '\\';
			esc[k++] = (char)c;
		} else if (c < 0x20) {
			esc[k++] = '\\';
			esc[k++] = 'u';
			esc[k++] = '0';
			esc[k++] = '0';
			esc[k++] = hex[c >> 4];
			esc[k++] = hex[c & 15];
		} else {
			esc[k++] = (char)c;
		}
		for (size_t j = 0; j < k; j++)
			EMIT(esc[j]);
	}
	EMIT('"');
#undef EMIT
	if (cap > 0)
		out[n < cap ? n : cap - 1] = '\0';
	return n;
}
