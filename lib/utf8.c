/* utf8.c - invalid UTF-8 replaced by U+FFFD (utf8.h). */
#include "utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Length of the valid sequence at p (1-4), or 0 when it is invalid; *consumed is how many bytes
 * form its longest valid prefix (at least 1), which one U+FFFD replaces (Unicode's "maximal
 * subpart" practice, as browsers and Python do). */
static size_t sequence(const unsigned char *p, size_t left, size_t *consumed)
{
	unsigned char c = p[0];
	size_t need, i;
	unsigned char lo = 0x80, hi = 0xBF;

	*consumed = 1;
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		need = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		need = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		need = 4;
	else
		return 0;
	/* The second byte's range rules out overlongs, surrogates and code points > U+10FFFF. */
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	for (i = 1; i < need; i++) {
		if (i >= left || p[i] < (i == 1 ? lo : 0x80) || p[i] > (i == 1 ? hi : 0xBF))
			return 0;
		*consumed = i + 1;
	}
	return need;
}

char *pq_utf8_fix(const char *s, size_t n, size_t *len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, used, out = 0;
	char *copy;

	*len = n;
	for (;;) {
		uint64_t w;

		/* ASCII sixteen, then eight bytes at a time: most text is (kernel names, args JSON,
		 * every row's args bound through here). */
#ifdef __SSE2__
		while (n - i >= 16 &&
		       _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + i))) == 0)
			i += 16;
#endif
		while (n - i >= 8 && (memcpy(&w, p + i, 8), (w & UINT64_C(0x8080808080808080)) == 0))
			i += 8;
		if (i == n || (p[i] >= 0x80 && sequence(p + i, n - i, &used) == 0))
			break;
		i += p[i] < 0x80 ? 1 : used;
	}
	if (i == n)
		return NULL;
	/* Each replaced byte becomes at most 3: 3n bounds the copy. */
	if ((copy = malloc(3 * n + 1)) == NULL) {
		*len = (size_t)-1;
		return NULL;
	}
	memcpy(copy, s, i);
	out = i;
	while (i < n) {
		size_t k = sequence(p + i, n - i, &used);

		if (k != 0) {
			memcpy(copy + out, p + i, k);
			out += k;
			i += k;
		} else {
			memcpy(copy + out, "\xEF\xBF\xBD", 3);
			out += 3;
			i += used;
		}
	}
	copy[out] = '\0';
	*len = out;
	return copy;
}
