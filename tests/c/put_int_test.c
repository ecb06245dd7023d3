/* put_int_test.c - lib/put_int.h against printf's "%lld" on the edges of int64_t and every
 * power of ten (and one below and above it), positive and negative. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "put_int.h"
#include "tap.h"

static int same_as_printf(int64_t v)
{
	char want[32], got[32];
	size_t n = pq_put_int(got, v);

	got[n] = '\0';
	snprintf(want, sizeof(want), "%" PRId64, v);
	if (strcmp(want, got) != 0)
		printf("# %s written as %s\n", want, got);
	return strcmp(want, got) == 0;
}

int main(void)
{
	int64_t p = 1;
	int all = 1;

	ok(same_as_printf(0), "0");
	ok(same_as_printf(INT64_MAX), "INT64_MAX");
	ok(same_as_printf(INT64_MIN), "INT64_MIN");
	ok(same_as_printf(INT64_MIN + 1), "INT64_MIN + 1");
	for (int i = 0; i < 19; i++) {
		all &= same_as_printf(p) & same_as_printf(p - 1) & same_as_printf(p + 1) &
		       same_as_printf(-p) & same_as_printf(-p - 1) & same_as_printf(-p + 1);
		if (i < 18) /* 10^19 does not fit */
			p *= 10;
	}
	ok(all, "10^0 .. 10^18, one below and above, both signs");
	return done_testing();
}
