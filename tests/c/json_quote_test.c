/* json_quote_test.c - lib/json_quote.c: literals cJSON reads back to the same bytes, the escapes
 * written out by hand, and snprintf-style truncation. */
#include <stdlib.h>

#include <cJSON.h>

#include "json_quote.h"
#include "tap.h"

int main(void)
{
	char buf[64], all[255], *big;
	size_t n;
	cJSON *j;

	n = pq_json_quote(buf, sizeof(buf), "a\"b\\c\n\x01\x1f\xc3\xa9/", 11);
	is_str(buf, "\"a\\\"b\\\\c\\u000a\\u0001\\u001f\xc3\xa9/\"", "quote, backslash, controls, UTF-8");
	is_int((int64_t)n, (int64_t)strlen(buf), "the length returned is the length written");
	n = pq_json_quote(buf, sizeof(buf), "x\0y", 3);
	is_str(buf, "\"x\\u0000y\"", "a NUL byte inside the text");
	is_int((int64_t)pq_json_quote(NULL, 0, "", 0), 2, "the empty string is two quotes");

	/* Every byte from 1 to 255: cJSON reads the literal back to the same bytes. */
	for (int i = 0; i < 255; i++)
		all[i] = (char)(i + 1);
	n = pq_json_quote(NULL, 0, all, sizeof(all));
	big = malloc(n + 1);
	ok(big != NULL && pq_json_quote(big, n + 1, all, sizeof(all)) == n && strlen(big) == n,
	   "sizing pass and writing pass agree");
	j = big ? cJSON_Parse(big) : NULL;
	ok(j != NULL && cJSON_IsString(j) && strlen(j->valuestring) == sizeof(all) &&
	   memcmp(j->valuestring, all, sizeof(all)) == 0, "cJSON reads bytes 1..255 back unchanged");
	cJSON_Delete(j);
	free(big);

	/* Cut short: at most cap bytes, NUL-terminated, full length returned. */
	memset(buf, 'Z', sizeof(buf));
	n = pq_json_quote(buf, 5, "abcdef", 6);
	is_int((int64_t)n, 8, "full length returned when cut short");
	is_str(buf, "\"abc", "cap 5: four bytes and a NUL");
	ok(buf[5] == 'Z', "nothing written past cap");
	return done_testing();
}
