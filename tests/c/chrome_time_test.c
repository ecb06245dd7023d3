/* chrome_time_test.c - exact microseconds-text -> nanoseconds conversion (lib/chrome_time.c)
 * and the JSON value scanner (lib/chrome_stream.c). */
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
