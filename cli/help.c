/* help.c - `profq --help`, `profq help NAME`, and the closest name for a mistyped command. */
#include <string.h>

#include "cli.h"
#include "queries.h"

const char pq_help_help[] =
	"Usage: profq help [COMMAND|REPORT]\n"
	"\n"
	"Shows the full help of a command (the same as 'profq COMMAND --help') or of a canned\n"
	"report (its options with their choices and defaults, as its file declares them); without\n"
	"a name, the list of commands ('profq --help').\n";

int pq_cli_usage_text(FILE *out)
{
	fputs("Usage: profq <command> [options] [arguments]\n"
	      "       profq <report> <profile.db> [--format table|csv|json] [--run ID] [--limit N]\n"
	      "             [--OPTION VALUE]...\n"
	      "\n"
	      "profq keeps GPU traces in an SQLite database and answers questions about them in SQL.\n"
	      "\n"
	      "Commands:\n", out);
	for (const pq_command *c = pq_commands; c->name != NULL; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->synopsis);
	fputs("\n"
	      "Reports: 'profq report --list' lists them; each takes the options its file declares\n"
	      "(as --NAME VALUE or --param NAME=VALUE) and --run, --limit, --format.\n"
	      "'profq help NAME' (or 'profq NAME --help') shows a command's or report's full help.\n"
	      "\n"
	      "Options:\n"
	      "  -h, --help     show this help and exit\n"
	      "  -V, --version  show the version and exit\n"
	      "\n"
	      "Errors go to standard error as 'profq: ...'. Exit status: 0 success, 1 failure,\n"
	      "2 usage error.\n", out);
	return PQ_EXIT_OK;
}

/* Edit distance with adjacent transpositions counting one edit ("hepl" is 1 from "help", 2 from
 * "html"), for names up to 63 characters (longer ones count as far apart). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[64][64];

	if (la >= 64 || lb >= 64)
		return (size_t)-1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

/* The command or report name closest to name, or NULL when none is close: at most 1 edit for
 * short names, 2 up to 8 characters, 3 beyond. */
const char *pq_cli_closest(const char *name)
{
	size_t len = strlen(name), limit = len < 4 ? 1 : len < 9 ? 2 : 3, best = limit + 1, d;
	const char *found = NULL;

	for (const pq_command *c = pq_commands; c->name != NULL; c++)
		if ((d = distance(name, c->name)) < best) {
			best = d;
			found = c->name;
		}
	for (const pq_query *q = pq_queries; q->name != NULL; q++)
		if ((d = distance(name, q->name)) < best) {
			best = d;
			found = q->name;
		}
	return found;
}

int pq_cli_unknown_command(const char *name)
{
	const char *near;

	if (name[0] == '-')
		return pq_cli_usage("unknown option '%s' (see 'profq --help')", name);
	if ((near = pq_cli_closest(name)) != NULL)
		return pq_cli_usage("unknown command '%s'; did you mean '%s'?", name, near);
	return pq_cli_usage("unknown command or report '%s' (see 'profq --help' and "
			    "'profq report --list')", name);
}

int pq_cli_help(const char *name)
{
	const pq_query *q;

	for (const pq_command *c = pq_commands; c->name != NULL; c++)
		if (strcmp(name, c->name) == 0) {
			fputs(c->help, stdout);
			return PQ_EXIT_OK;
		}
	if ((q = pq_query_find(name)) != NULL) {
		pq_report_help(q, stdout);
		return PQ_EXIT_OK;
	}
	return pq_cli_unknown_command(name);
}

int pq_cmd_help(int argc, char **argv)
{
	if (argc == 1)
		return pq_cli_usage_text(stdout);
	if (argc > 2)
		return pq_cli_usage("help: give one command or report name");
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		return pq_cli_help("help");
	return pq_cli_help(argv[1]);
}
