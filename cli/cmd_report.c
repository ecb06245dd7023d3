/* cmd_report.c - canned reports: `profq report --list` and `profq <report> DB [options]`. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "queries.h"

static int list_reports(void)
{
	char summary[256];
	int width = 0;

	for (const pq_query *q = pq_queries; q->name != NULL; q++)
		if ((int)strlen(q->name) > width)
			width = (int)strlen(q->name);
	for (const pq_query *q = pq_queries; q->name != NULL; q++) {
		pq_query_summary(q, summary, sizeof(summary));
		printf("%-*s  %s\n", width, q->name, summary);
	}
	return PQ_EXIT_OK;
}

static void report_help(const pq_query *q, const pq_query_option *ro, int n_ro)
{
	char summary[256];

	pq_query_summary(q, summary, sizeof(summary));
	printf("Usage: profq %s <profile.db> [--format table|csv|json] [--limit N] "
	       "[--run ID] [--param NAME=VALUE]...", q->name);
	for (int i = 0; i < n_ro; i++)
		printf(" [--%s VALUE]", ro[i].name);
	printf("\n%s\n", summary);
	for (int i = 0; i < n_ro; i++)
		printf("  --%s %s\n", ro[i].name, ro[i].help);
}

int pq_cmd_run_report(int argc, char **argv)
{
	static const struct option base[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "limit", required_argument, NULL, 'l' },
		{ "run", required_argument, NULL, 'r' },
		{ "param", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
	};
	enum { N_BASE = sizeof(base) / sizeof(base[0]), OPT_REPORT = 1000 };
	struct option opts[N_BASE + PQ_QUERY_MAX_OPTIONS + 1];
	pq_query_option ro[PQ_QUERY_MAX_OPTIONS];
	const pq_query *q = pq_query_find(argv[0]);
	enum pq_format format = PQ_FORMAT_TABLE;
	pq_params params = { 0 };
	char *sql, *end;
	sqlite3 *db;
	pq_error err;
	int c, rc, n_ro;

	if (q == NULL)
		return pq_cli_usage("unknown report '%s' (see 'profq report --list')", argv[0]);
	/* The generic options, then the report's own ("-- option" lines of its file). */
	n_ro = pq_query_options(q, ro);
	memcpy(opts, base, sizeof(base));
	for (int i = 0; i < n_ro; i++)
		opts[N_BASE + i] = (struct option){ ro[i].name, required_argument, NULL,
						    OPT_REPORT + i };
	opts[N_BASE + n_ro] = (struct option){ NULL, 0, NULL, 0 };
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:l:r:p:h", opts, NULL)) != -1) {
		if (c >= OPT_REPORT && c < OPT_REPORT + n_ro) {
			const pq_query_option *o = &ro[c - OPT_REPORT];

			if (!pq_query_option_allows(o, optarg))
				return pq_cli_usage("%s: --%s must be %s, not '%s'", q->name, o->name,
						    o->choices[0] ? o->choices : "a value", optarg);
			if (pq_params_add(&params, o->param, optarg) != 0)
				return pq_cli_usage("too many parameters");
			continue;
		}
		switch (c) {
		case 'f':
			if (pq_format_parse(optarg, &format) != 0)
				return pq_cli_usage("unknown format '%s' (table, csv or json)", optarg);
			break;
		case 'l':
		case 'r':
			if (strtoll(optarg, &end, 10) < (c == 'l' ? 0 : 1) || *end != '\0' ||
			    end == optarg)
				return pq_cli_usage("--%s needs a %s integer, not '%s'",
						    c == 'l' ? "limit" : "run",
						    c == 'l' ? "non-negative" : "positive", optarg);
			pq_params_add(&params, c == 'l' ? "limit" : "run", optarg);
			break;
		case 'p':
			if (pq_params_add_assignment(&params, optarg) != 0)
				return pq_cli_usage("--param needs NAME=VALUE, not '%s'", optarg);
			break;
		case 'h':
			report_help(q, ro, n_ro);
			return PQ_EXIT_OK;
		default:
			return PQ_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc)
		return pq_cli_usage("%s: give exactly one database", q->name);
	if ((sql = pq_query_sql_only(q)) == NULL)
		return pq_cli_fail("out of memory");
	db = pq_cli_open(argv[optind], PQ_OPEN_READ);
	if (db == NULL) {
		free(sql);
		return PQ_EXIT_FAIL;
	}
	rc = pq_run_sql(db, sql, &params, format, stdout, &err);
	free(sql);
	sqlite3_close(db);
	return rc == 0 ? PQ_EXIT_OK : pq_cli_fail("%s: %s", q->name, err.msg);
}

int pq_cmd_report(int argc, char **argv)
{
	if (argc == 2 && (strcmp(argv[1], "--list") == 0 || strcmp(argv[1], "-l") == 0))
		return list_reports();
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		puts("Usage: profq report --list\n"
		     "       profq report <name> <profile.db> [options]");
		return PQ_EXIT_OK;
	}
	if (argc < 2 || argv[1][0] == '-')
		return pq_cli_usage("report: give --list or a report name");
	return pq_cmd_run_report(argc - 1, argv + 1);
}
