/* tap.h - TAP output for the C unit tests (prove runs them through the tests/c/NAME.t wrappers).
 *
 *   ok(cond, name...)            one test point
 *   is_int(got, expected, name)  int64 equality, both shown on failure
 *   is_str(got, expected, name)  string equality (NULL-safe)
 *   done_testing()               prints the plan; use as `return done_testing();`
 */
#ifndef PQ_TAP_H
#define PQ_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static int tap_point(int pass, const char *file, int line, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
static int tap_point(int pass, const char *file, int line, const char *fmt, va_list ap)
{
	tap_n++;
	printf("%sok %d - ", pass ? "" : "not ", tap_n);
	vprintf(fmt, ap);
	putchar('\n');
	if (!pass) {
		tap_failed++;
		printf("#   failed at %s line %d\n", file, line);
	}
	fflush(stdout);
	return pass;
}

static int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5), unused));
static int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = tap_point(pass, file, line, fmt, ap);
	va_end(ap);
	return r;
}

static int tap_is_int(int64_t got, int64_t want, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6), unused));
static int tap_is_int(int64_t got, int64_t want, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = tap_point(got == want, file, line, fmt, ap);
	va_end(ap);
	if (!r)
		printf("#   got:      %" PRId64 "\n#   expected: %" PRId64 "\n", got, want);
	return r;
}

static int tap_is_str(const char *got, const char *want, const char *file, int line,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6), unused));
static int tap_is_str(const char *got, const char *want, const char *file, int line,
		      const char *fmt, ...)
{
	va_list ap;
	int same = (got == NULL && want == NULL) ||
		   (got != NULL && want != NULL && strcmp(got, want) == 0);

	va_start(ap, fmt);
	tap_point(same, file, line, fmt, ap);
	va_end(ap);
	if (!same)
		printf("#   got:      '%s'\n#   expected: '%s'\n", got ? got : "(null)",
		       want ? want : "(null)");
	return same;
}

static int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...) tap_is_int((got), (want), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(got, want, ...) tap_is_str((got), (want), __FILE__, __LINE__, __VA_ARGS__)

#endif
