/* cmd_analyze.c - `profq analyze DB [--rule NAME] [options]`: the nsys analyze rules.
 *
 * Each rule is a report file queries/analyze-<rule>.sql that lists the offending events (with a
 * duration_ns column) and carries "-- advice: " and "-- severity: " comment lines. Without --rule,
 * every rule's query is counted (SELECT count(*), sum(duration_ns) FROM (<rule>)) into one row per
 * rule: rule, severity, count, summary. With --rule, that rule's events are listed, then its advice
 * (after the table, or on standard error for csv/json so the data stays machine-readable). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "queries.h"

static const char prefix[] = "analyze-";

/* Copies the text after "-- <tag>: " in q's file into buf ("" when absent). */
static void rule_line(const pq_query *q, const char *tag, char *buf, size_t size)
{
	size_t tl = strlen(tag);
	const char *line = q->sql, *end;

	buf[0] = '\0';
	while (*line) {
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		if (strncmp(line, "-- ", 3) == 0 && strncmp(line + 3, tag, tl) == 0 &&
		    strncmp(line + 3 + tl, ": ", 2) == 0) {
			size_t n = (size_t)(end - line - 5 - tl);
			if (n >= size)
				n = size - 1;
			memcpy(buf, line + 5 + tl, n);
			buf[n] = '\0';
			return;
		}
		line = *end ? end + 1 : end;
	}
}

/* The rule's SQL without dot-commands and without its trailing ';', for use as a subquery. */
static char *rule_sql(const pq_query *q)
{
	char *sql = pq_query_sql_only(q);
	size_t n;

	if (sql == NULL)
		return NULL;
	n = strlen(sql);
	while (n > 0 && (sql[n - 1] == ';' || sql[n - 1] == '\n' || sql[n - 1] == ' '))
		sql[--n] = '\0';
	return sql;
}

static int summary(sqlite3 *db, const pq_params *params, enum pq_format format, pq_error *err)
{
	char *values = sqlite3_mprintf("");
	int rc = 0;

	for (const pq_query *q = pq_queries; q->name != NULL && rc == 0; q++) {
		char severity[32], *sql, *wrapped;
		sqlite3_stmt *st = NULL;
		long long n = 0;
		double total = 0;

		if (strncmp(q->name, prefix, sizeof(prefix) - 1) != 0)
			continue;
		rule_line(q, "severity", severity, sizeof(severity));
		if ((sql = rule_sql(q)) == NULL)
			return pq_fail(err, "out of memory");
		wrapped = sqlite3_mprintf("SELECT count(*), total(duration_ns) FROM (%s)", sql);
		free(sql);
		if (wrapped == NULL || sqlite3_prepare_v2(db, wrapped, -1, &st, NULL) != SQLITE_OK) {
			rc = pq_fail(err, "%s: %s", q->name, sqlite3_errmsg(db));
		} else {
			pq_bind_params(st, params);
			if (sqlite3_step(st) == SQLITE_ROW) {
				n = sqlite3_column_int64(st, 0);
				total = sqlite3_column_double(st, 1);
			} else {
				rc = pq_fail(err, "%s: %s", q->name, sqlite3_errmsg(db));
			}
		}
		sqlite3_finalize(st);
		sqlite3_free(wrapped);
		if (rc == 0) {
			char text[96], *v;

			if (n == 0)
				snprintf(text, sizeof(text), "nothing found");
			else
				snprintf(text, sizeof(text), "%lld event%s, %.3f ms in total", n,
					 n == 1 ? "" : "s", total / 1e6);
			v = sqlite3_mprintf("%s%s(%Q, %Q, %lld, %Q)", values, values[0] ? ", " : "",
					    q->name + sizeof(prefix) - 1, n == 0 ? "ok" : severity,
					    n, text);
			sqlite3_free(values);
			if ((values = v) == NULL)
				return pq_fail(err, "out of memory");
		}
	}
	if (rc == 0) {
		char *sql = sqlite3_mprintf("SELECT column1 AS rule, column2 AS severity, column3 AS "
					    "count, column4 AS summary FROM (VALUES %s)", values);
		rc = pq_run_sql(db, sql, NULL, format, stdout, err);
		sqlite3_free(sql);
	}
	sqlite3_free(values);
	return rc;
}

/* The rules are the analyze-*.sql files; tests/cli/help.t checks that this text names each. */
const char pq_analyze_help[] =
	"Usage: profq analyze <profile.db> [--rule NAME] [--format table|csv|json] [--limit N]\n"
	"                     [--run ID] [--gap-ms MS] [--chunks N] [--threshold PCT]\n"
	"\n"
	"Runs the nsys analyze rules: one row per rule (rule, severity, count, summary); --rule NAME\n"
	"lists that rule's events and its advice (after the table; on standard error for csv and\n"
	"json). Each rule is the report file queries/analyze-<rule>.sql.\n"
	"\n"
	"Rules:\n"
	"  cuda_api_sync      host-blocking synchronization calls\n"
	"  cuda_memcpy_async  asynchronous memcpys that use pageable host memory\n"
	"  cuda_memcpy_sync   synchronous memcpys that block the host\n"
	"  cuda_memset_sync   synchronous memsets on pinned or managed memory\n"
	"  gpu_gaps           GPU idle periods longer than --gap-ms\n"
	"  gpu_time_util      periods of low GPU time utilization\n"
	"\n"
	"Options:\n"
	"  --rule NAME        list one rule's events\n"
	"  --format F         table (default), csv or json\n"
	"  --limit N          keep the first N events\n"
	"  --run ID           keep one run (default: every run)\n"
	"  --gap-ms MS        gpu_gaps: gaps longer than MS milliseconds (default 500)\n"
	"  --chunks N         gpu_time_util: chunks per device span, 1 to 1000 (default 30)\n"
	"  --threshold PCT    gpu_time_util: chunks below PCT % utilization (default 50)\n";

int pq_cmd_analyze(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rule", required_argument, NULL, 'R' },
		{ "format", required_argument, NULL, 'f' },
		{ "limit", required_argument, NULL, 'l' },
		{ "run", required_argument, NULL, 'r' },
		{ "gap-ms", required_argument, NULL, 'g' },
		{ "chunks", required_argument, NULL, 'c' },
		{ "threshold", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum pq_format format = PQ_FORMAT_TABLE;
	const char *rule = NULL, *run = NULL;
	const pq_query *q = NULL;
	pq_params params = { 0 };
	char name[96], advice[512], *sql, *end;
	sqlite3 *db;
	pq_error err;
	int c, rc;

	optind = 1;
	while ((c = pq_getopt(argc, argv, "f:l:r:h", opts, "analyze")) != -1) {
		switch (c) {
		case 'R':
			rule = optarg;
			break;
		case 'f':
			if (pq_format_parse(optarg, &format) != 0)
				return pq_cli_usage("unknown format '%s' (table, csv or json)", optarg);
			break;
		case 'l': case 'r': case 'g': case 'c': case 't': {
			static const char *const pn[] = { "limit", "run", "gap_ms", "chunks",
							  "threshold" };
			const char *p = pn[strchr("lrgct", c) - "lrgct"];
			double v = strtod(optarg, &end);

			if (end == optarg || *end != '\0' || v < 0 ||
			    (c == 'r' && (v < 1 || optarg[strspn(optarg, "0123456789")] != '\0')) ||
			    (c == 'c' && (v < 1 || v > 1000)))
				return pq_cli_usage("analyze: bad value '%s' for --%s", optarg,
						    c == 'g' ? "gap-ms" : p);
			pq_params_add(&params, p, optarg);
			if (c == 'r')
				run = optarg;
			break;
		}
		case 'h':
			fputs(pq_analyze_help, stdout);
			return PQ_EXIT_OK;
		default:
			return PQ_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc)
		return pq_cli_usage("analyze: give exactly one database");
	if (rule != NULL) {
		snprintf(name, sizeof(name), "%s%s", prefix, rule);
		if ((q = pq_query_find(name)) == NULL)
			return pq_cli_usage("analyze: unknown rule '%s' (see 'profq analyze --help')",
					    rule);
	}
	db = pq_cli_open(argv[optind], PQ_OPEN_READ);
	if (db == NULL)
		return PQ_EXIT_FAIL;
	if (pq_check_run(db, run, "analyze", argv[optind], &err) != 0) {
		sqlite3_close(db);
		return pq_cli_fail("%s", err.msg);
	}
	if (q == NULL) {
		rc = summary(db, &params, format, &err);
	} else {
		if ((sql = pq_query_sql_only(q)) == NULL) {
			sqlite3_close(db);
			return pq_cli_fail("out of memory");
		}
		rc = pq_run_sql(db, sql, &params, format, stdout, &err);
		free(sql);
		if (rc == 0) {
			rule_line(q, "advice", advice, sizeof(advice));
			fprintf(format == PQ_FORMAT_TABLE ? stdout : stderr, "%sAdvice (%s): %s\n",
				format == PQ_FORMAT_TABLE ? "\n" : "", rule, advice);
		}
	}
	sqlite3_close(db);
	return rc == 0 ? PQ_EXIT_OK : pq_cli_fail("analyze: %s", err.msg);
}
