/* cmd_ch_report.c - `profq ch-report NAME --clickhouse URL [--database NAME] [--format F]
 * [--limit N] [--OPTION VALUE]...`: runs queries/clickhouse/NAME.sql on a ClickHouse server and
 * prints the rows as the local reports do. `profq ch-report --list` lists them. */
#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ch_result.h"
#include "cli.h"
#include "clickhouse_http.h"
#include "queries.h"

/* The files queries/clickhouse/NAME.sql, embedded by scripts/embed-queries.sh
 * (build/gen/ch_queries.c). */
extern const pq_query pq_ch_queries[];

static const pq_query *find(const char *name)
{
	for (const pq_query *q = pq_ch_queries; q->name != NULL; q++)
		if (strcmp(q->name, name) == 0)
			return q;
	return NULL;
}

static int list(void)
{
	char summary[256];

	for (const pq_query *q = pq_ch_queries; q->name != NULL; q++) {
		pq_query_summary(q, summary, sizeof summary);
		printf("%-24s  %s\n", q->name, summary);
	}
	return PQ_EXIT_OK;
}

static int is_number(const char *v)
{
	char *end;

	if (*v == '\0')
		return 0;
	(void)strtod(v, &end);
	return *end == '\0';
}

/* sql with every {param} of opts replaced: a number as it is, text as a quoted literal, no value
 * as NULL. Caller frees; NULL when out of memory. */
static char *substitute(const char *sql, const pq_query_option *opts, const char **values, int n)
{
	size_t cap, longest = 4, braces = 0;  /* "NULL" */
	char *out, *o;

	for (int i = 0; i < n; i++)
		if (values[i] != NULL && strlen(values[i]) > longest)
			longest = strlen(values[i]);
	for (const char *p = sql; *p; p++)
		braces += *p == '{';
	/* Each {name} becomes at most a quoted value with every character escaped. */
	cap = strlen(sql) + braces * (2 * longest + 2) + 1;
	if ((out = malloc(cap)) == NULL)
		return NULL;
	o = out;
	for (const char *p = sql; *p;) {
		int hit = -1;

		if (*p == '{')
			for (int i = 0; i < n; i++) {
				size_t len = strlen(opts[i].param);
				if (strncmp(p + 1, opts[i].param, len) == 0 && p[1 + len] == '}') {
					hit = i;
					break;
				}
			}
		if (hit < 0) {
			*o++ = *p++;
			continue;
		}
		const char *v = values[hit];
		if (v == NULL) {
			o += sprintf(o, "NULL");
		} else if (is_number(v)) {
			o += sprintf(o, "%s", v);
		} else {
			*o++ = '\'';
			for (const char *s = v; *s; s++) {
				if (*s == '\'' || *s == '\\')
					*o++ = '\\';
				*o++ = *s;
			}
			*o++ = '\'';
		}
		p += strlen(opts[hit].param) + 2;
	}
	*o = '\0';
	/* One statement per request: drop the final ';' and what trails it. */
	while (o > out && (isspace((unsigned char)o[-1]) || o[-1] == ';'))
		*--o = '\0';
	return out;
}

const char pq_ch_report_help[] =
	"Usage: profq ch-report NAME --clickhouse URL [--database NAME] [--format table|csv|json]\n"
	"                       [--limit N] [--OPTION VALUE]...\n"
	"       profq ch-report --list\n"
	"Runs the cross-rank report queries/clickhouse/NAME.sql on the ClickHouse tables 'profq push'\n"
	"fills (docs/scale-out.md); --list names them, 'profq ch-report NAME --help' shows a report's\n"
	"options. --database defaults to profq.\n";

int pq_cmd_ch_report(int argc, char **argv)
{
	enum { O_URL = 1, O_DB, O_FORMAT, O_HELP, O_LIMIT, O_REPORT = 1000 };
	struct option opts[6 + PQ_QUERY_MAX_OPTIONS];
	pq_query_option ro[PQ_QUERY_MAX_OPTIONS];
	const char *values[PQ_QUERY_MAX_OPTIONS];
	const char *url = NULL, *database = "profq";
	long long limit = -1;
	char *end;
	enum pq_format format = PQ_FORMAT_TABLE;
	const pq_query *q;
	char *text, *sql, *query, *out = NULL;
	sqlite3 *mem;
	sqlite3_stmt *st;
	pq_error err;
	pq_ch ch;
	int c, n, rc;

	if (argc >= 2 && (strcmp(argv[1], "--list") == 0 || strcmp(argv[1], "-l") == 0))
		return list();
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(pq_ch_report_help, stdout);
		return PQ_EXIT_OK;
	}
	if (argc < 2 || argv[1][0] == '-')
		return pq_cli_usage("ch-report: give --list or a report name");
	if ((q = find(argv[1])) == NULL)
		return pq_cli_usage("ch-report: unknown report '%s' (see 'profq ch-report --list')", argv[1]);
	n = pq_query_options(q, ro);
	opts[0] = (struct option){ "clickhouse", required_argument, NULL, O_URL };
	opts[1] = (struct option){ "database", required_argument, NULL, O_DB };
	opts[2] = (struct option){ "format", required_argument, NULL, O_FORMAT };
	opts[3] = (struct option){ "help", no_argument, NULL, O_HELP };
	opts[4] = (struct option){ "limit", required_argument, NULL, O_LIMIT };
	for (int i = 0; i < n; i++) {
		opts[5 + i] = (struct option){ ro[i].name, required_argument, NULL, O_REPORT + i };
		values[i] = ro[i].has_default ? ro[i].def : NULL;
	}
	opts[5 + n] = (struct option){ NULL, 0, NULL, 0 };
	optind = 2;
	while ((c = pq_getopt(argc, argv, "", opts, "ch-report")) != -1) {
		if (c >= O_REPORT && c < O_REPORT + n) {
			if (!pq_query_option_allows(&ro[c - O_REPORT], optarg))
				return pq_cli_usage("%s: --%s must be %s, not '%s'", q->name,
						    ro[c - O_REPORT].name,
						    ro[c - O_REPORT].choices[0] ? ro[c - O_REPORT].choices : "a value",
						    optarg);
			values[c - O_REPORT] = optarg;
			continue;
		}
		switch (c) {
		case O_URL: url = optarg; break;
		case O_DB: database = optarg; break;
		case O_LIMIT:
			limit = strtoll(optarg, &end, 10);
			if (end == optarg || *end != '\0' || limit < 0)
				return pq_cli_usage("ch-report: --limit needs a non-negative integer, not '%s'",
						    optarg);
			break;
		case O_FORMAT:
			if (pq_format_parse(optarg, &format) != 0)
				return pq_cli_usage("ch-report: unknown format '%s' (table, csv or json)",
						    optarg);
			break;
		case O_HELP:
			printf("Usage: profq ch-report %s --clickhouse URL [--database NAME] "
			       "[--format table|csv|json] [--limit N]\n", q->name);
			for (int i = 0; i < n; i++)
				printf("  --%s %s\n", ro[i].name, ro[i].help);
			return PQ_EXIT_OK;
		default:
			return PQ_EXIT_USAGE;
		}
	}
	if (optind != argc)
		return pq_cli_usage("ch-report: unexpected argument '%s'", argv[optind]);
	if (url == NULL)
		return pq_cli_usage("ch-report: --clickhouse URL is required");
	if ((text = pq_query_sql_only(q)) == NULL)
		return pq_cli_fail("out of memory");
	sql = substitute(text, ro, values, n);
	free(text);
	if (sql == NULL)
		return pq_cli_fail("out of memory");
	query = malloc(strlen(sql) + 96);
	if (query == NULL) {
		free(sql);
		return pq_cli_fail("out of memory");
	}
	/* The files end with their ORDER BY: a LIMIT after it keeps the first rows. */
	if (limit >= 0)
		sprintf(query, "%s\nLIMIT %lld\nFORMAT TSVWithNamesAndTypes", sql, limit);
	else
		sprintf(query, "%s\nFORMAT TSVWithNamesAndTypes", sql);
	free(sql);
	if (pq_ch_open(&ch, url, database, &err) != 0) {
		free(query);
		return pq_cli_usage("ch-report: %s", err.msg);
	}
	rc = pq_ch_exec(&ch, query, NULL, 0, &out, &err);
	pq_ch_close(&ch);
	free(query);
	if (rc != 0)
		/* A database pushed by an older profq lacks the views the reports read. */
		return pq_cli_fail("%s: %s%s", q->name, err.msg,
				   strstr(err.msg, "doesn't exist") == NULL ? ""
				   : " (profq push --clickhouse URL [--cluster NAME], without files, "
				     "creates the tables and views the reports read)");
	rc = pq_ch_result_stmt(out, &mem, &st, &err);
	free(out);
	if (rc != 0)
		return pq_cli_fail("%s: %s", q->name, err.msg);
	rc = pq_print_rows(st, format, stdout, &err);
	sqlite3_finalize(st);
	sqlite3_close(mem);
	return rc == 0 ? PQ_EXIT_OK : pq_cli_fail("%s: %s", q->name, err.msg);
}
