/* cmd_report.c - canned reports: `profq report --list` and `profq <report> DB [options]`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
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

/* Full help of one report: usage, description, every option with its choices and default. */
void pq_report_help(const pq_query *q, FILE *out)
{
	pq_options o;
	char summary[256];

	pq_options_init(&o, q->name, q->sql);
	pq_query_summary(q, summary, sizeof(summary));
	fprintf(out, "Usage: profq %s <profile.db> [--format table|csv|json]", q->name);
	for (int i = 0; i < o.n; i++) {
		fprintf(out, " [--%s ", o.decl[i].name);
		if (o.decl[i].placeholder[0] == '\0')
			fputs(o.decl[i].choices, out);
		for (const char *p = o.decl[i].placeholder; *p; p++)
			fputc(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p, out);
		fputc(']', out);
	}
	fprintf(out, "\n%s\n\nOptions (also as --param NAME=VALUE; '-' and '_' alike):\n", summary);
	for (int i = 0; i < o.n; i++)
		fprintf(out, "  --%s %s\n", o.decl[i].name, o.decl[i].help);
	fputs("  --format table|csv|json (default table): output format\n"
	      "  -h, --help: show this help\n", out);
	fprintf(out, "\nThe SQL is queries/%s.sql: `sqlite3 profile.db < queries/%s.sql` runs it too\n"
		"(docs/reports.md).\n", q->name, q->name);
}

/* The value of an option given as "--name value" or "--name=value"; NULL when it is missing. */
static const char *option_value(char **argv, int argc, int *i, const char *eq)
{
	if (eq != NULL)
		return eq + 1;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

int pq_cmd_run_report(int argc, char **argv)
{
	const pq_query *q = pq_query_find(argv[0]);
	enum pq_format format = PQ_FORMAT_TABLE;
	const char *db_path = NULL;
	pq_params params = { 0 };
	pq_options o;
	char *sql;
	sqlite3 *db;
	pq_error err;
	int rc, options_done = 0;

	if (q == NULL)
		return pq_cli_usage("unknown report '%s' (see 'profq report --list')", argv[0]);
	pq_options_init(&o, q->name, q->sql);
	/* Parsed by hand, not with getopt: the long options are the file's, '-' and '_' alike. */
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *name, *eq, *value;
		char nbuf[64];

		if (options_done || arg[0] != '-' || arg[1] == '\0') {
			if (db_path != NULL)
				return pq_cli_usage("%s: give exactly one database (got '%s' and '%s')",
						    q->name, db_path, arg);
			db_path = arg;
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			options_done = 1;
			continue;
		}
		if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
			pq_report_help(q, stdout);
			return PQ_EXIT_OK;
		}
		/* Short forms kept from the getopt days: -f FORMAT, -l N, -r ID, -p NAME=VALUE. */
		if (arg[1] != '-' && arg[2] == '\0' && strchr("flrp", arg[1]) != NULL) {
			static const char *const longs[] = { "format", "limit", "run", "param" };
			name = longs[strchr("flrp", arg[1]) - "flrp"];
			eq = NULL;
		} else if (arg[1] == '-') {
			name = arg + 2;
			eq = strchr(name, '=');
		} else {
			return pq_cli_usage("%s: unknown option '%s' (see 'profq help %s')", q->name, arg,
					    q->name);
		}
		snprintf(nbuf, sizeof(nbuf), "%.*s", eq ? (int)(eq - name) : (int)strlen(name), name);
		if ((value = option_value(argv, argc, &i, eq)) == NULL)
			return pq_cli_usage("%s: --%s needs a value", q->name, nbuf);
		if (strcmp(nbuf, "format") == 0) {
			if (pq_format_parse(value, &format) != 0)
				return pq_cli_usage("%s: --format must be table|csv|json, not '%s'",
						    q->name, value);
			continue;
		}
		rc = strcmp(nbuf, "param") == 0 ? pq_options_set_assignment(&o, value, &err)
						: pq_options_set(&o, nbuf, value, &err);
		if (rc != 0)
			return pq_cli_usage("%s", err.msg);
	}
	if (db_path == NULL)
		return pq_cli_usage("%s: no database given (profq %s <profile.db>)", q->name, q->name);
	if (pq_options_to_params(&o, &params) != 0)
		return pq_cli_usage("%s: too many parameters", q->name);
	if ((sql = pq_query_sql_only(q)) == NULL)
		return pq_cli_fail("out of memory");
	db = pq_cli_open(db_path, PQ_OPEN_READ);
	if (db == NULL) {
		free(sql);
		return PQ_EXIT_FAIL;
	}
	if (pq_options_check_run(&o, db, db_path, &err) != 0)
		rc = pq_cli_fail("%s", err.msg);
	else if (pq_run_sql(db, sql, &params, format, stdout, &err) != 0)
		rc = pq_cli_fail("%s: %s", q->name, err.msg);
	else
		rc = PQ_EXIT_OK;
	free(sql);
	sqlite3_close(db);
	return rc;
}

const char pq_report_cmd_help[] =
	"Usage: profq report --list\n"
	"       profq report <name> <profile.db> [options]   (the same as 'profq <name> ...')\n"
	"\n"
	"--list shows every canned report with its one-line description. A report is the file\n"
	"queries/<name>.sql; it takes the options its header declares, as --NAME VALUE or\n"
	"--param NAME=VALUE ('-' and '_' alike; 'profq help <name>' lists them with their choices\n"
	"and defaults), and every report takes:\n"
	"\n"
	"  --run ID           keep one run (an id 'profq info' shows; default: every run)\n"
	"  --limit N          keep the first N rows (default: all)\n"
	"  --format F         table (default), csv or json\n"
	"\n"
	"An option the report does not declare, or a value outside its choices, is a usage error\n"
	"(exit 2); --run with an id the database does not have is an error (exit 1).\n";

int pq_cmd_report(int argc, char **argv)
{
	if (argc == 2 && (strcmp(argv[1], "--list") == 0 || strcmp(argv[1], "-l") == 0))
		return list_reports();
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(pq_report_cmd_help, stdout);
		return PQ_EXIT_OK;
	}
	if (argc < 2 || argv[1][0] == '-')
		return pq_cli_usage("report: give --list or a report name");
	if (pq_query_find(argv[1]) == NULL) {
		const char *near = pq_cli_closest(argv[1]);

		if (near != NULL && pq_query_find(near) != NULL)
			return pq_cli_usage("unknown report '%s'; did you mean '%s'?", argv[1], near);
		return pq_cli_usage("unknown report '%s' (see 'profq report --list')", argv[1]);
	}
	return pq_cmd_run_report(argc - 1, argv + 1);
}
