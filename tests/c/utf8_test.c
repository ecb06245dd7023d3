/* utf8_test.c - pq_utf8_fix: valid text untouched, each invalid sequence one U+FFFD. */
#include <stdlib.h>

#include "tap.h"
#include "utf8.h"

#define R "\xEF\xBF\xBD"

/* Fixes in[0..n) and compares with want (NULL: valid, nothing to do). */
static void check(const char *in, size_t n, const char *want, const char *name)
{
	size_t len = 0;
	char *got = pq_utf8_fix(in, n, &len);

	if (want == NULL) {
		ok(got == NULL && len == n, "%s: valid, left alone", name);
	} else {
		is_str(got, want, "%s", name);
		is_int((int64_t)len, (int64_t)strlen(want), "%s: length", name);
	}
	free(got);
}

int main(void)
{
	check("", 0, NULL, "empty");
	check("plain ascii", 11, NULL, "ASCII");
	check("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF", 13, NULL,
	      "2-, 3- and 4-byte sequences up to U+10FFFF");
	check("\xEF\xBF\xBD", 3, NULL, "U+FFFD itself");
	check("a\xFF" "b", 3, "a" R "b", "a stray byte");
	check("\x80\x80", 2, R R, "continuation bytes without a lead: one each");
	check("\xC0\xAF", 2, R R, "overlong '/' (C0 AF): each byte");
	check("\xE0\x80\xAF", 3, R R R, "overlong 3-byte: each byte");
	check("\xED\xA0\x80", 3, R R R, "a UTF-16 surrogate (ED A0 80): each byte");
	check("\xF4\x90\x80\x80", 4, R R R R, "past U+10FFFF: each byte");
	check("\xF5\x80", 2, R R, "lead byte F5: never valid");
	check("x\xE2\x82", 3, "x" R, "a truncated 3-byte sequence at the end: one U+FFFD");
	check("\xE2\x82" "A", 3, R "A", "a truncated sequence before ASCII: one U+FFFD, ASCII kept");
	check("\xF0\x9F\x98" "\xC3\xA9", 5, R "\xC3\xA9", "a truncated 4-byte one before a valid one");
	check("ab\0cd", 5, NULL, "an embedded NUL is valid UTF-8 (the store never sees one)");
	return done_testing();
}
