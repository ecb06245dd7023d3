/* main.c - `profq`: global options, the table of commands, dispatch to a command or a report. */
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "huge_pages.h"
#include "profq.h"
#include "queries.h"
#include "version.h"

/* Every command: name, entry point, one line for `profq --help`, full help (printed by both
 * `profq help NAME` and `profq NAME --help`). A new command adds one line here; usage lines
 * are generated from this table (help.c). */
const pq_command pq_commands[] = {
	{ "record", pq_cmd_record, "run a command with the collector injected and record it",
	  pq_record_help },
	{ "import", pq_cmd_import, "import Chrome trace JSON and Nsight Systems SQLite exports",
	  pq_import_help },
	{ "info", pq_cmd_info, "runs, devices, row counts per table and time span of a database",
	  pq_info_help },
	{ "sql", pq_cmd_sql, "run SQL or a report file with the profq SQL functions loaded",
	  pq_sql_help },
	{ "analyze", pq_cmd_analyze, "the nsys analyze rules: one row per rule, or one rule's events",
	  pq_analyze_help },
	{ "repair", pq_cmd_repair, "close runs whose recorder died as 'aborted', build missing indexes",
	  pq_repair_help },
	{ "html", pq_cmd_html, "one self-contained HTML page with charts of the canned reports",
	  pq_html_help },
	{ "export", pq_cmd_export, "a Chrome trace of the profile for Perfetto UI and chrome://tracing",
	  pq_export_help },
	{ "merge", pq_cmd_merge, "the ranks of a job (profq files or traces) in one database",
	  pq_merge_help },
	{ "diff", pq_cmd_diff, "what changed between two profiles, per kernel or operator",
	  pq_diff_help },
	{ "push", pq_cmd_push, "profiles into ClickHouse, for jobs too big for one file",
	  pq_push_help },
	{ "ch-report", pq_cmd_ch_report, "a cross-rank report run in ClickHouse", pq_ch_report_help },
	{ "report", pq_cmd_report, "list the canned reports, or run one", pq_report_cmd_help },
	{ "help", pq_cmd_help, "show the full help of a command or a report", pq_help_help },
	{ NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
	const char *name;

	/* Memory statistics take a global mutex on every SQLite allocation, which the importer's two
	 * threads then contend for; profq never reads them. Before any connection, as SQLite requires. */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	/* A file size limit (ulimit -f) or a full disk: a write fails with EFBIG and SQLite's error
	 * says so, instead of SIGXFSZ killing profq halfway (record restores it for the command). */
	signal(SIGXFSZ, SIG_IGN);
	/* Every connection the CLI opens gets the extension's functions. */
	sqlite3_auto_extension((void (*)(void))sqlite3_profq_init);

	if (argc < 2)
		return pq_cli_usage("no command given (see 'profq --help')");
	name = argv[1];
	if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0)
		return pq_cli_usage_text(stdout);
	if (strcmp(name, "-V") == 0 || strcmp(name, "--version") == 0) {
		printf("profq %s (schema version %d, SQLite %s)\n", PROFQ_VERSION,
		       PQ_SCHEMA_VERSION, sqlite3_libversion());
		return PQ_EXIT_OK;
	}
	/* An import's memory is most of its system time (huge_pages.c); merge imports traces too. */
	if (strcmp(name, "import") == 0 || strcmp(name, "merge") == 0)
		pq_huge_pages_exec(argv);
	for (const pq_command *c = pq_commands; c->name != NULL; c++)
		if (strcmp(name, c->name) == 0)
			return c->run(argc - 1, argv + 1);
	if (pq_query_find(name) != NULL)
		return pq_cmd_run_report(argc - 1, argv + 1);
	return pq_cli_unknown_command(name);
}
