/* hta_time.c - Holistic Trace Analysis' clock, for the HTA reports.
 *
 *   hta_start_ns(start_ns, origin_ns)          HTA's start: the trace's µs ts rounded up, in ns
 *   hta_end_ns(start_ns, end_ns, origin_ns)    HTA's end: ts + dur rounded down, in ns
 *
 * HTA reads Kineto's ts (µs relative to origin, with three decimals) and dur as Python floats and
 * rounds ts up and ts + dur down to whole µs (hta/common/trace_parser.py round_down_time_stamps).
 * With x = ns - origin, ts is x / 1000 + (x % 1000) / 1000.0 in SQL (integer division truncating,
 * then one double addition); these functions compute exactly what that SQL expression computes,
 * as one C call instead of some thirty VM instructions a use (the HTA reports round every GPU
 * event and launching call). NULL when an argument is NULL or x does not fit in 64 bits.
 */
#include "ext.h"

#include <stdint.h>

#include "iv_util.h"

/* The trace's ts as SQL's x / 1000 + (x % 1000) / 1000.0 computes it; 0 when x overflows. */
static int trace_us(sqlite3_int64 ns, sqlite3_int64 origin, double *out)
{
	sqlite3_int64 x;

	if (__builtin_sub_overflow(ns, origin, &x))
		return 0;
	*out = (double)(x / 1000) + (double)(x % 1000) / 1000.0;
	return 1;
}

/* CAST(d AS INTEGER), as SQLite does it (clamped to the 64-bit range). */
static sqlite3_int64 to_int(double d)
{
	if (d <= -9223372036854775808.0)
		return INT64_MIN;
	if (d >= 9223372036854775807.0)
		return INT64_MAX;
	return (sqlite3_int64)d;
}

/* 1000 * (us + step) as the result; NULL where SQLite's integers would overflow. */
static void result_us(sqlite3_context *ctx, sqlite3_int64 us, int step)
{
	sqlite3_int64 r;

	if (__builtin_add_overflow(us, (sqlite3_int64)step, &r) || __builtin_mul_overflow(r, 1000, &r))
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, r);
}

static int read_args(sqlite3_context *ctx, int argc, sqlite3_value **argv, const char *fn,
		     sqlite3_int64 *v)
{
	static const char *const start_names[2] = { "start_ns", "origin_ns" };
	static const char *const end_names[3] = { "start_ns", "end_ns", "origin_ns" };
	const char *const *names = argc == 2 ? start_names : end_names;
	int i, null = 0;

	for (i = 0; i < argc; i++) {
		int rc = pq_iv_arg_ns(ctx, argv, i, fn, names[i], &v[i]);
		if (rc == PQ_IV_ERR)
			return 0;
		if (rc == PQ_IV_NULL)
			null = 1;
	}
	if (null)
		sqlite3_result_null(ctx);
	return !null;
}

static void start_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sqlite3_int64 v[2], i;
	double td;

	if (!read_args(ctx, argc, argv, "hta_start_ns", v))
		return;
	if (!trace_us(v[0], v[1], &td)) {
		sqlite3_result_null(ctx);
		return;
	}
	i = to_int(td);
	result_us(ctx, i, td > (double)i);
}

static void end_func(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	sqlite3_int64 v[3], i, dur;
	double xe;

	if (!read_args(ctx, argc, argv, "hta_end_ns", v))
		return;
	if (!trace_us(v[0], v[2], &xe) || __builtin_sub_overflow(v[1], v[0], &dur)) {
		sqlite3_result_null(ctx);
		return;
	}
	xe += (double)dur / 1000.0;
	i = to_int(xe);
	result_us(ctx, i, -(xe < (double)i));
}

int pq_ext_hta_time_init(sqlite3 *db)
{
	int rc = sqlite3_create_function_v2(db, "hta_start_ns", 2, PQ_FUNC_FLAGS, NULL, start_func,
					    NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function_v2(db, "hta_end_ns", 3, PQ_FUNC_FLAGS, NULL, end_func,
						NULL, NULL, NULL);
	return rc;
}
