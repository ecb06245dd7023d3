/* cmd_repair.c - `profq repair DB`: closes the runs whose recorder died as 'aborted' and builds
 * the event indexes a killed recording left missing (db_repair.c). Every command that writes into
 * a file does the same first; this one does only that. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"

const char pq_repair_help[] =
	"Usage: profq repair <profile.db>\n"
	"Closes the runs whose writers are gone (a profq record killed with -9, a machine that went\n"
	"down) as 'aborted', ending at their last commit, and builds the event indexes they left\n"
	"missing. Runs still being recorded are left alone. Any command that writes into the file\n"
	"(record, import) does this first too.\n";

int pq_cmd_repair(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	pq_repair r;
	pq_error err;
	sqlite3 *db;
	int c;

	optind = 1;
	while ((c = pq_getopt(argc, argv, "h", opts, "repair")) != -1) {
		if (c != 'h')
			return PQ_EXIT_USAGE;
		fputs(pq_repair_help, stdout);
		return PQ_EXIT_OK;
	}
	if (optind != argc - 1)
		return pq_cli_usage("repair: give one database (profq repair profile.db)");
	if ((db = pq_cli_open(argv[optind], PQ_OPEN_WRITE)) == NULL)
		return PQ_EXIT_FAIL;
	/* One write transaction: no run can begin while the open ones are judged. */
	if (pq_db_exec(db, "BEGIN IMMEDIATE", "cannot repair", &err) != 0 ||
	    pq_db_upgrade(db, &err) != 0 || pq_db_repair_runs(db, &r, &err) != 0 ||
	    pq_db_derive(db, &err) != 0 || pq_db_exec(db, "COMMIT", "cannot repair", &err) != 0) {
		sqlite3_close(db);
		return pq_cli_fail("%s: %s", argv[optind], err.msg);
	}
	sqlite3_close(db);
	for (int i = 0; i < r.closed; i++)
		printf("run %" PRId64 ": closed as aborted (its recorder is gone)\n", r.ids[i]);
	if (r.indexes_built > 0)
		printf("built %d missing event indexes\n", r.indexes_built);
	if (r.live > 0)
		printf("%d run%s still being recorded, left open\n", r.live, r.live == 1 ? "" : "s");
	if (r.closed == 0 && r.indexes_built == 0 && r.live == 0)
		printf("nothing to repair\n");
	return PQ_EXIT_OK;
}
