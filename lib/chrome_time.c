/* chrome_time.c - exact decimal microseconds -> integer nanoseconds (see chrome_time.h). */
#include "chrome_time.h"

#include <limits.h>

/* The value of s[0..n) times 10^scale, rounded half away from zero to an integer. */
static int decimal_scaled(const char *s, size_t n, int scale, int64_t *out, int *inexact)
{
	size_t i = 0, int_start, int_end, frac_start = 0, frac_end = 0;
	int neg = 0, ndigits, keep, k, round_up = 0;
	long exp = 0;
	uint64_t acc = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	int_start = i;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	int_end = i;
	if (i < n && s[i] == '.') {
		frac_start = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		frac_end = i;
		if (frac_end == frac_start)
			return -1;
	}
	if (int_end == int_start)
		return -1; /* JSON needs a digit before the point (cJSON refuses ".5" too) */
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		int eneg = 0;
		size_t e0;

		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			eneg = s[i++] == '-';
		e0 = i;
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			if (exp < 1000000)
				exp = exp * 10 + (s[i] - '0');
			i++;
		}
		if (i == e0)
			return -1;
		if (eneg)
			exp = -exp;
	}
	if (i != n)
		return -1;

	/* Digits d[0..ndigits) = integer digits then fraction digits; value = d * 10^(exp - nfrac). */
	ndigits = (int)((int_end - int_start) + (frac_end - frac_start));
	if (ndigits > 100000)
		return -1;
	/* keep = how many leading digits form the integer result (may exceed ndigits: zeros). */
	keep = (int)((long)(int_end - int_start) + exp + scale);
	if (exp > 100000 || exp < -100000)
		keep = exp > 0 ? INT_MAX / 2 : -1;
	for (k = 0; k < ndigits || k < keep; k++) {
		int d;

		if (k < ndigits) {
			size_t at = (size_t)k < int_end - int_start ? int_start + (size_t)k
								   : frac_start + ((size_t)k - (int_end - int_start));
			d = s[at] - '0';
		} else {
			d = 0;
		}
		if (k >= keep) {
			round_up = d >= 5;
			/* Any non-zero digit from here on was dropped. */
			for (; k < ndigits && !*inexact; k++) {
				size_t at = (size_t)k < int_end - int_start
						    ? int_start + (size_t)k
						    : frac_start + ((size_t)k - (int_end - int_start));
				*inexact = s[at] != '0';
			}
			break;
		}
		if (acc > (UINT64_MAX - (uint64_t)d) / 10)
			return -1;
		acc = acc * 10 + (uint64_t)d;
		if (acc > (uint64_t)INT64_MAX + 1)
			return -1;
	}
	acc += (uint64_t)round_up;
	if (neg) {
		if (acc > (uint64_t)INT64_MAX + 1)
			return -1;
		*out = acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc;
	} else {
		if (acc > (uint64_t)INT64_MAX)
			return -1;
		*out = (int64_t)acc;
	}
	return 0;
}

/* decimal_scaled for the texts traces are made of, `-?digits[.digits]` with at most 15 integer
 * digits and scale <= 3, where the result cannot overflow: half the instructions a time value
 * (451 -> 203 on the bench trace, whose times were 4 % of the Chrome reader thread). 1 when s is
 * not such a text. */
static int decimal_scaled_plain(const char *s, size_t n, int scale, int64_t *out, int *inexact)
{
	size_t i = 0, start;
	uint64_t acc = 0;
	int neg = 0, k = 0, round_up = 0, dropped = 0;

	if (i < n && s[i] == '-')
		neg = ++i;
	start = i;
	while (i < n && (unsigned char)(s[i] - '0') < 10)
		acc = acc * 10 + (uint64_t)(s[i++] - '0');
	if (i == start || i - start > 15 || scale > 3)
		return 1;
	if (i < n && s[i] == '.') {
		size_t frac = ++i;

		for (; i < n && (unsigned char)(s[i] - '0') < 10; i++, k++) {
			int d = s[i] - '0';

			if (k < scale)
				acc = acc * 10 + (uint64_t)d;
			else if (k == scale)
				round_up = d >= 5;
			dropped |= k >= scale && d != 0;
		}
		if (i == frac)
			return 1;
	}
	if (i != n)
		return 1;
	for (; k < scale; k++)
		acc *= 10;
	acc += (uint64_t)round_up;
	*out = neg ? -(int64_t)acc : (int64_t)acc;
	*inexact = dropped;
	return 0;
}

int pq_chrome_us_to_ns(const char *s, size_t n, int64_t *ns)
{
	int inexact = 0;

	if (decimal_scaled_plain(s, n, 3, ns, &inexact) == 0)
		return 0;
	return decimal_scaled(s, n, 3, ns, &inexact);
}

int pq_chrome_parse_int(const char *s, size_t n, int64_t *v)
{
	int inexact = 0, rc = decimal_scaled_plain(s, n, 0, v, &inexact);

	if (rc == 1)
		rc = decimal_scaled(s, n, 0, v, &inexact);
	if (rc != 0 || inexact)
		return -1;
	return 0;
}
