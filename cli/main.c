/* main.c - `profq`: global options and dispatch to a subcommand or a canned report. */
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "profq.h"
#include "queries.h"
#include "version.h"

static const char usage_text[] =
	"Usage: profq <command> [options] [arguments]\n"
	"       profq <report> <profile.db> [--format table|csv|json] [--limit N] [--run ID]\n"
	"\n"
	"profq keeps GPU traces in an SQLite database and answers questions about them in SQL.\n"
	"\n"
	"Commands:\n"
	"  record [-o profile.db] [--kinds ...] [--flush-interval-ms N]\n"
	"         [--capture-range nvtx:NAME|cudaProfilerApi] -- command [args...]\n"
	"                     run a command with the collector injected and record it\n"
	"  import [-o profile.db] [--keep-going] FILE...\n"
	"                     import Chrome trace JSON (.json, .json.gz: PyTorch profiler,\n"
	"                     Kineto, JAX) and Nsight Systems SQLite exports, a run per file\n"
	"  info <profile.db> [--format table|json]\n"
	"                     runs, devices, row counts per table and time span of a database\n"
	"  sql <profile.db> [SQL...] [--format table|csv|json] [--param NAME=VALUE]...\n"
	"                     run SQL (read from standard input when no SQL is given) with the\n"
	"                     profq SQL functions loaded\n"
	"  analyze <profile.db> [--rule NAME] [--gap-ms MS] [--chunks N] [--threshold PCT]\n"
	"                     the nsys analyze rules: one row per rule, or one rule's events\n"
	"  repair <profile.db>\n"
	"                     close runs whose recorder died as 'aborted', build missing indexes\n"
	"  report --list      list the canned reports, one line each\n"
	"  report <name> <profile.db> [options]\n"
	"                     run a canned report (same as 'profq <name> <profile.db>')\n"
	"\n"
	"Options:\n"
	"  -h, --help         show this help and exit\n"
	"  -V, --version      show the version and exit\n"
	"\n"
	"Exit status: 0 success, 1 failure, 2 usage error.\n";

typedef struct command {
	const char *name;
	int (*run)(int argc, char **argv);
} command;

/* Subcommands; `export` joins this table when it is built. */
static const command commands[] = {
	{ "record", pq_cmd_record },
	{ "import", pq_cmd_import },
	{ "info", pq_cmd_info },
	{ "sql", pq_cmd_sql },
	{ "report", pq_cmd_report },
	{ "analyze", pq_cmd_analyze },
	{ "repair", pq_cmd_repair },
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
		return pq_cli_usage("no command given");
	name = argv[1];
	if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "help") == 0) {
		fputs(usage_text, stdout);
		return PQ_EXIT_OK;
	}
	if (strcmp(name, "-V") == 0 || strcmp(name, "--version") == 0) {
		printf("profq %s (schema version %d, SQLite %s)\n", PROFQ_VERSION,
		       PQ_SCHEMA_VERSION, sqlite3_libversion());
		return PQ_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(name, commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	if (pq_query_find(name) != NULL)
		return pq_cmd_run_report(argc - 1, argv + 1);
	if (name[0] == '-')
		return pq_cli_usage("unknown option '%s'", name);
	return pq_cli_usage("unknown command or report '%s' (see 'profq report --list')", name);
}
