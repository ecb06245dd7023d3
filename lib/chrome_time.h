/* chrome_time.h - Chrome trace timestamps: decimal microseconds text to integer nanoseconds.
 *
 * Trace-event `ts` and `dur` are microseconds, often fractional ("1623143089861.123",
 * "88437691101.719"). Going through a double loses sub-microsecond digits of epoch-based values
 * (a double's spacing near 1.7e15 is 0.25 us), so the conversion works on the decimal text itself.
 */
#ifndef PQ_CHROME_TIME_H
#define PQ_CHROME_TIME_H

#include <stddef.h>
#include <stdint.h>

/* Converts the JSON number text s[0..n) (microseconds) to nanoseconds, exactly.
 *
 * Accepted: JSON number syntax, `-?digits[.digits][(e|E)[+|-]digits]` (leading zeros and a
 * leading '+' are tolerated, as some writers emit them; surrounding whitespace is not). The
 * exponent is applied exactly ("1.5e3" is 1500 us = 1500000 ns). Digits beyond the nanosecond
 * are rounded to the nearest nanosecond, ties away from zero (as llround, which Perfetto's
 * importer uses): "0.0005" -> 1, "0.0004999" -> 0, "-0.0005" -> -1.
 * Returns 0, or -1 when the text is not a number or the result does not fit in an int64. */
int pq_chrome_us_to_ns(const char *s, size_t n, int64_t *ns);

/* Parses an integer in decimal text exactly (optional '-'; a fraction of zeros and an exponent
 * are accepted when the value is still an integer, e.g. "1e3"). Returns 0, or -1 when it is not
 * an integer that fits in an int64. */
int pq_chrome_parse_int(const char *s, size_t n, int64_t *v);

#endif
