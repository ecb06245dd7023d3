/* radix_sort.h - a stable radix sort on a signed 64-bit key, for "sort once, then sweep" over
 * millions of intervals (the extension's interval functions, the derived tables computed in C),
 * where qsort's comparisons cost several times more. */
#ifndef PQ_RADIX_SORT_H
#define PQ_RADIX_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The scratch's allocator: the extension's sorts use SQLite's, whose limits they obey. */
#ifndef PQ_RADIX_MALLOC
#define PQ_RADIX_MALLOC(size) malloc(size)
#define PQ_RADIX_FREE(p) free(p)
#endif

/* PQ_RADIX_SORT(name, T, KEY): defines `static int name(T *a, size_t n)`, a stable ascending sort of
 * a[0..n) on the signed 64-bit key KEY(elem). LSD radix sort on key - min(key) with 12-bit digits, so
 * only as many passes as the key range needs (a 10 s span in ns: 3); one counting pass for all
 * digits; digits that are the same for every element are skipped; an already sorted input costs
 * one scan, small inputs use insertion sort. Returns 0, or -1 when out of memory (then a[] is
 * unchanged). Scratch: n elements plus the counters, freed before returning. */
#define PQ_RADIX_DIGIT 12
#define PQ_RADIX_SORT(name, T, KEY)                                                              \
	static int name(T *a, size_t n)                                                          \
	{                                                                                        \
		size_t *cnt;                                                                     \
		size_t i, b, passes = 0;                                                         \
		uint64_t lo, hi, range;                                                          \
		int sorted = 1;                                                                  \
		T *src, *dst, *tmp;                                                              \
		if (n < 2)                                                                       \
			return 0;                                                                \
		lo = hi = (uint64_t)KEY(a[0]) ^ ((uint64_t)1 << 63);                             \
		for (i = 1; i < n; i++) {                                                        \
			uint64_t k = (uint64_t)KEY(a[i]) ^ ((uint64_t)1 << 63);                  \
			if (KEY(a[i]) < KEY(a[i - 1]))                                           \
				sorted = 0;                                                      \
			if (k < lo)                                                              \
				lo = k;                                                          \
			if (k > hi)                                                              \
				hi = k;                                                          \
		}                                                                                \
		if (sorted)                                                                      \
			return 0;                                                                \
		if (n < 64) { /* insertion sort: stable, no scratch */                           \
			for (i = 1; i < n; i++) {                                                \
				T x = a[i];                                                      \
				size_t j = i;                                                    \
				while (j > 0 && KEY(a[j - 1]) > KEY(x)) {                        \
					a[j] = a[j - 1];                                         \
					j--;                                                     \
				}                                                                \
				a[j] = x;                                                        \
			}                                                                        \
			return 0;                                                                \
		}                                                                                \
		for (range = hi - lo; range != 0; range >>= PQ_RADIX_DIGIT)                      \
			passes++;                                                                \
		cnt = PQ_RADIX_MALLOC((passes << PQ_RADIX_DIGIT) * sizeof(size_t));              \
		tmp = PQ_RADIX_MALLOC(n * sizeof(T));                                            \
		if (cnt == NULL || tmp == NULL) {                                                \
			PQ_RADIX_FREE(cnt);                                                      \
			PQ_RADIX_FREE(tmp);                                                      \
			return -1;                                                               \
		}                                                                                \
		memset(cnt, 0, (passes << PQ_RADIX_DIGIT) * sizeof(size_t));                     \
		for (i = 0; i < n; i++) {                                                        \
			uint64_t k = ((uint64_t)KEY(a[i]) ^ ((uint64_t)1 << 63)) - lo;           \
			for (b = 0; b < passes; b++)                                             \
				cnt[(b << PQ_RADIX_DIGIT) +                                      \
				    ((k >> (PQ_RADIX_DIGIT * b)) & ((1u << PQ_RADIX_DIGIT) - 1))]++; \
		}                                                                                \
		src = a;                                                                         \
		dst = tmp;                                                                       \
		for (b = 0; b < passes; b++) {                                                   \
			size_t *c = cnt + (b << PQ_RADIX_DIGIT);                                 \
			unsigned sh = (unsigned)(PQ_RADIX_DIGIT * b);                            \
			uint64_t mask = (1u << PQ_RADIX_DIGIT) - 1;                              \
			uint64_t k0 = ((uint64_t)KEY(a[0]) ^ ((uint64_t)1 << 63)) - lo;          \
			size_t sum = 0, d;                                                       \
			if (c[(k0 >> sh) & mask] == n)                                           \
				continue;                                                        \
			for (d = 0; d <= mask; d++) {                                            \
				size_t cd = c[d];                                                \
				c[d] = sum;                                                      \
				sum += cd;                                                       \
			}                                                                        \
			for (i = 0; i < n; i++) {                                                \
				uint64_t k = ((uint64_t)KEY(src[i]) ^ ((uint64_t)1 << 63)) - lo; \
				dst[c[(k >> sh) & mask]++] = src[i];                             \
			}                                                                        \
			{                                                                        \
				T *t = src;                                                      \
				src = dst;                                                       \
				dst = t;                                                         \
			}                                                                        \
		}                                                                                \
		if (src != a)                                                                    \
			memcpy(a, src, n * sizeof(T));                                           \
		PQ_RADIX_FREE(tmp);                                                              \
		PQ_RADIX_FREE(cnt);                                                              \
		return 0;                                                                        \
	}

#endif
