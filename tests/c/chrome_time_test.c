/* chrome_time_test.c - exact microseconds-text -> nanoseconds conversion (lib/chrome_time.c)
 * and the JSON value scanner (lib/chrome_stream.c). */
#include <stdio.h>
#include <string.h>

#include "chrome_stream.h"
#include "chrome_time.h"
#include "tap.h"

static int64_t ns(const char *text, int *rc)
{
	int64_t v = 0;

	*rc = pq_chrome_us_to_ns(text, strlen(text), &v);
	return v;
}

static void conv(const char *text, int64_t want)
{
	int rc;
	int64_t got = ns(text, &rc);

	is_int(rc, 0, "'%s' converts", text);
	is_int(got, want, "'%s' us = %lld ns", text, (long long)want);
}

static void bad(const char *text)
{
	int rc;

	ns(text, &rc);
	is_int(rc, -1, "'%s' is refused", text);
}

/* 1 when fn gives the same for a and b (a converted counts in *ok_count); says how not in the
 * first five that differ. */
static int agree(const char *what, int (*fn)(const char *, size_t, int64_t *), const char *a,
		 const char *b, int differ, int *ok_count)
{
	int64_t va = 0, vb = 0;
	int rc_a = fn(a, strlen(a), &va), rc_b = fn(b, strlen(b), &vb);

	if (ok_count != NULL)
		*ok_count += rc_a == 0;
	if (rc_a == rc_b && (rc_a != 0 || va == vb))
		return 1;
	if (differ < 5)
		printf("# %s '%s': %d %lld, with e0: %d %lld\n", what, a, rc_a, (long long)va, rc_b,
		       (long long)vb);
	return 0;
}

/* Plain texts take a fast path; the same text with "e0" after it takes the general one (the
 * cases above check that one by hand): both must give the same result, for random texts of up
 * to 17 integer and 12 fraction digits, rounding ties among them. */
static void same_with_exponent(void)
{
	uint64_t x = 88172645463325252u;
	int differ = 0, n = 0;

	for (int t = 0; t < 200000; t++) {
		char a[64], b[80];
		size_t len = 0;
		int ints, fracs;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		if (x % 4 == 0)
			a[len++] = '-';
		ints = 1 + (int)(x >> 8) % 17;
		fracs = (int)(x >> 16) % 13;
		for (int i = 0; i < ints + fracs; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if (i == ints)
				a[len++] = '.';
			a[len++] = "0123456789555000999"[x % 19];
		}
		a[len] = '\0';
		snprintf(b, sizeof(b), "%se0", a);
		differ += !agree("us_to_ns", pq_chrome_us_to_ns, a, b, differ, NULL);
		differ += !agree("parse_int", pq_chrome_parse_int, a, b, differ, &n);
	}
	is_int(differ, 0, "200000 random texts: the same ns and integers with and without e0");
	ok(n > 10000, "%d of them integers", n);
}

int main(void)
{
	int64_t v = 0;
	size_t len = 0;
	pq_chrome_members m;
	const char *obj;

	/* Integers and epoch values with sub-us digits keep every digit. */
	conv("5", 5000);
	conv("0", 0);
	conv("-0", 0);
	conv("1623143089861.123", 1623143089861123);
	conv("1623142623460111", INT64_C(1623142623460111000));
	conv("1775078550000000.001", INT64_C(1775078550000000001));
	conv("88437691101.719", INT64_C(88437691101719));
	conv("0.04", 40);
	conv("-0.5", -500);
	conv("-12.25", -12250);
	conv("007", 7000);
	/* Exponents are applied exactly. */
	conv("1.5e3", 1500000);
	conv("1.5E+3", 1500000);
	conv("15e-1", 1500);
	conv("1e-3", 1);
	conv("2.5e-4", 0);     /* 0.25 ns */
	conv("1.623143089861123e12", 1623143089861123);
	conv("1e-100000000", 0);
	/* Beyond the nanosecond: round to nearest, ties away from zero. */
	conv("0.0005", 1);
	conv("0.0004999999", 0);
	conv("0.00050000000000000000001", 1);
	conv("-0.0005", -1);
	conv("-0.0004", 0);
	conv("1.0004", 1000);
	conv("1.2345678", 1235);
	conv("1623143089861.1234999999999999999", 1623143089861123);
	conv("1623143089861.1235", 1623143089861124);
	conv("9223372036854775.807", INT64_MAX);
	/* Fifteen integer digits (the plain texts' fast path) and sixteen (the general one). */
	conv("999999999999999.9995", INT64_C(1000000000000000000));
	conv("-123456789012345.1234", INT64_C(-123456789012345123));
	conv("1234567890123456.5", INT64_C(1234567890123456500));
	conv("-9223372036854775.808", INT64_MIN);
	/* Not numbers, or out of range. */
	bad("");
	bad("-");
	bad(".5");
	bad("5.");
	bad("1e");
	bad("1.5e+");
	bad("abc");
	bad("1 ");
	bad(" 1");
	bad("0x10");
	bad("NaN");
	bad("Infinity");
	bad("9223372036854775.808");
	bad("9223372036854776");
	bad("1e20");
	bad("1e100000000");

	/* Integer parsing, exact beyond 2^53. */
	is_int(pq_chrome_parse_int("1775078550000000001", 19, &v), 0, "big integer parses");
	is_int(v, INT64_C(1775078550000000001), "big integer exact");
	is_int(pq_chrome_parse_int("-42", 3, &v), 0, "negative integer parses");
	is_int(v, -42, "negative integer");
	is_int(pq_chrome_parse_int("1e3", 3, &v), 0, "1e3 is an integer");
	is_int(v, 1000, "1e3 = 1000");
	is_int(pq_chrome_parse_int("4.0", 3, &v), 0, "4.0 is an integer");
	is_int(pq_chrome_parse_int("4.5", 3, &v), -1, "4.5 is not an integer");
	is_int(pq_chrome_parse_int("922337203685477580.5", 20, &v), -1,
	       "a big value with a fraction is not an integer");

	same_with_exponent();

	/* The scanner: strings with escapes, nesting, member spans. */
	obj = "{\"ph\":\"X\", \"name\": \"a \\\"}\\\\\", \"ts\" : 1.5 ,\"args\":{\"x\":[1,{\"y\":\"]\"}]}}  ,";
	is_int(pq_chrome_scan_value(obj, strlen(obj), 0, &len, &m), PQ_SCAN_OK, "object scanned");
	is_int((int64_t)len, (int64_t)strlen(obj) - 3, "object ends at its brace");
	is_int(m.n, 4, "four members");
	ok(m.m[2].key_len == 2 && memcmp(obj + m.m[2].key, "ts", 2) == 0, "third key is ts");
	ok(m.m[2].val_len == 3 && memcmp(obj + m.m[2].val, "1.5", 3) == 0, "ts value text 1.5");
	ok(m.m[3].val_len == 19 && obj[m.m[3].val] == '{', "args value spans its object");
	is_int(pq_chrome_scan_value(obj, 30, 0, &len, &m), PQ_SCAN_MORE, "cut object wants more");
	is_int(pq_chrome_scan_value(obj, 30, 1, &len, &m), PQ_SCAN_BAD, "cut object at EOF is bad");
	is_int(pq_chrome_scan_value("{]", 2, 0, &len, NULL), PQ_SCAN_BAD, "mismatched bracket");
	is_int(pq_chrome_scan_value("123,", 4, 0, &len, NULL), PQ_SCAN_OK, "number");
	is_int((int64_t)len, 3, "number length");
	is_int(pq_chrome_scan_value("123", 3, 0, &len, NULL), PQ_SCAN_MORE, "number may go on");
	is_int(pq_chrome_scan_value("123", 3, 1, &len, NULL), PQ_SCAN_OK, "number ends at EOF");
	is_str("ok", "ok", "tap helpers");
	return done_testing();
}
