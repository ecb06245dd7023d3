/* cmd_diff.c - `profq diff before.db after.db [--by kernel|op]`: what changed between two
 * profiles, per kernel or operator name (lib/diff.c has the SQL). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff.h"

const char pq_diff_help[] =
	"Usage: profq diff <before.db> <after.db> [--by kernel|op] [--run-a ID] [--run-b ID]\n"
	"                  [--format table|csv|json] [--limit N]\n"
	"Compares two profiles: the total GPU busy time and step time first, then per kernel (or\n"
	"framework operator, --by op) name: count_before, count_after, total_ns_before,\n"
	"total_ns_after, delta_ns (after - before), delta_pct (of before), sorted by |delta_ns|;\n"
	"names on one side only are kept. --run-a / --run-b pick one run of each file (default:\n"
	"all of its runs).\n";

static int is_int(const char *s)
{
	char *end;

	errno = 0;
	(void)strtoll(s, &end, 10);
	return *s != '\0' && *end == '\0' && errno == 0;
}

/* Whether the run exists in schema (a or b). */
static int has_run(sqlite3 *db, const char *schema, const char *run)
{
	char sql[96];
	sqlite3_stmt *st;
	int found = 0;

	snprintf(sql, sizeof(sql), "SELECT 1 FROM %s.runs WHERE id = ?1", schema);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, strtoll(run, NULL, 10));
		found = sqlite3_step(st) == SQLITE_ROW;
		sqlite3_finalize(st);
	}
	return found;
}

int pq_cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "run-a", required_argument, NULL, 'a' },
		{ "run-b", required_argument, NULL, 'B' },
		{ "format", required_argument, NULL, 'f' },
		{ "limit", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum pq_format format = PQ_FORMAT_TABLE;
	pq_params params = { 0 };
	const char *run_a = NULL, *run_b = NULL;
	sqlite3 *db;
	pq_error err;
	int c, rc;

	optind = 1;
	while ((c = pq_getopt(argc, argv, "f:h", opts, "diff")) != -1) {
		switch (c) {
		case 'b':
			if (strcmp(optarg, "kernel") != 0 && strcmp(optarg, "op") != 0)
				return pq_cli_usage("diff: --by takes kernel or op, not '%s'", optarg);
			pq_params_add(&params, "by", optarg);
			break;
		case 'a':
		case 'B':
		case 'l':
			if (!is_int(optarg))
				return pq_cli_usage("diff: --%s needs a number, not '%s'",
						    c == 'a' ? "run-a" : c == 'B' ? "run-b" : "limit",
						    optarg);
			if (c == 'a')
				run_a = optarg;
			else if (c == 'B')
				run_b = optarg;
			pq_params_add(&params, c == 'a' ? "run_a" : c == 'B' ? "run_b" : "limit", optarg);
			break;
		case 'f':
			if (pq_format_parse(optarg, &format) != 0)
				return pq_cli_usage("diff: unknown format '%s' (table, csv or json)",
						    optarg);
			break;
		case 'h':
			fputs(pq_diff_help, stdout);
			return PQ_EXIT_OK;
		default:
			return PQ_EXIT_USAGE;
		}
	}
	if (argc - optind != 2)
		return pq_cli_usage("diff: give two databases, before and after");
	/* Both files attached read-only to an in-memory connection: neither is changed. */
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(db);
		return pq_cli_fail("diff: out of memory");
	}
	if (pq_diff_attach(db, argv[optind], argv[optind + 1], &err) != 0) {
		sqlite3_close(db);
		return pq_cli_fail("diff: %s", err.msg);
	}
	if ((run_a && !has_run(db, "a", run_a)) || (run_b && !has_run(db, "b", run_b))) {
		rc = pq_cli_fail("diff: no run %s in '%s'", run_a && !has_run(db, "a", run_a) ? run_a : run_b,
				 run_a && !has_run(db, "a", run_a) ? argv[optind] : argv[optind + 1]);
		sqlite3_close(db);
		return rc;
	}
	rc = pq_run_sql(db, pq_diff_sql(), &params, format, stdout, &err);
	sqlite3_close(db);
	if (rc != 0)
		return pq_cli_fail("diff: %s", err.msg);
	return PQ_EXIT_OK;
}
