/* put_int.h - decimal integers written into a buffer without printf: the per-row keys and
 * small JSON texts of the importers, where snprintf's format parsing was ~5 % of an nsys import. */
#ifndef PQ_PUT_INT_H
#define PQ_PUT_INT_H

#include <stddef.h>
#include <stdint.h>

/* Writes v in decimal at p (at most 20 bytes, no NUL); returns how many bytes. */
static inline size_t pq_put_int(char *p, int64_t v)
{
	char digits[20];
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	size_t n = 0, len = 0;

	do {
		digits[n++] = (char)('0' + m % 10);
		m /= 10;
	} while (m != 0);
	if (v < 0)
		p[len++] = '-';
	while (n > 0)
		p[len++] = digits[--n];
	return len;
}

#endif
