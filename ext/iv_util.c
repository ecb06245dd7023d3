/* iv_util.c - argument reading and overflow checks shared by the interval family (see iv_util.h). */
#include "ext.h"

#include <math.h>
#include <stddef.h>

#include "iv_util.h"

/* Parses a decimal integer literal with optional blanks around it and an optional sign.
 * Returns 1 and sets *out when the whole text is such a literal that fits in 64 bits. */
static int parse_int_text(const unsigned char *s, int len, sqlite3_int64 *out)
{
	int i = 0, neg = 0, digits = 0;
	uint64_t acc = 0, limit;

	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	limit = neg ? (uint64_t)1 << 63 : ((uint64_t)1 << 63) - 1;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (acc > (limit - d) / 10)
			return 0;
		acc = acc * 10 + d;
	}
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	if (digits == 0 || i != len)
		return 0;
	if (neg)
		*out = acc == (uint64_t)1 << 63 ? INT64_MIN : -(sqlite3_int64)acc;
	else
		*out = (sqlite3_int64)acc;
	return 1;
}

const char *pq_iv_value_ns(sqlite3_value *v, sqlite3_int64 *out)
{
	double d;

	switch (sqlite3_value_type(v)) {
	case SQLITE_INTEGER:
		*out = sqlite3_value_int64(v);
		return NULL;
	case SQLITE_FLOAT:
		d = sqlite3_value_double(v);
		if (isnan(d))
			return "got NaN";
		d = round(d);
		/* 2^63 is exact in a double; every double below it converts without overflow. */
		if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
			return "got a REAL outside the 64-bit integer range";
		*out = (sqlite3_int64)d;
		return NULL;
	case SQLITE_TEXT:
		if (parse_int_text(sqlite3_value_text(v), sqlite3_value_bytes(v), out))
			return NULL;
		return "got text that is not an integer";
	case SQLITE_BLOB:
		return "got a blob";
	default:
		return NULL;
	}
}

int pq_iv_arg_ns(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *func,
		 const char *argname, sqlite3_int64 *out)
{
	const char *why;
	char *msg;

	if (sqlite3_value_type(argv[i]) == SQLITE_NULL)
		return PQ_IV_NULL;
	why = pq_iv_value_ns(argv[i], out);
	if (why == NULL)
		return PQ_IV_OK;
	msg = sqlite3_mprintf("%s: argument %d (%s) must be an integer number of ns, %s", func,
			      i + 1, argname, why);
	if (msg == NULL) {
		sqlite3_result_error_nomem(ctx);
	} else {
		sqlite3_result_error(ctx, msg, -1);
		sqlite3_free(msg);
	}
	return PQ_IV_ERR;
}

sqlite3_int64 pq_iv_len(sqlite3_context *ctx, const char *func, sqlite3_int64 a, sqlite3_int64 b)
{
	sqlite3_int64 r;
	char *msg;

	if (!__builtin_sub_overflow(b, a, &r))
		return r;
	msg = sqlite3_mprintf("%s: interval length overflows a 64-bit integer", func);
	if (msg == NULL) {
		sqlite3_result_error_nomem(ctx);
	} else {
		sqlite3_result_error(ctx, msg, -1);
		sqlite3_free(msg);
	}
	return -1;
}
