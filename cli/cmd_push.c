/* cmd_push.c - `profq push --clickhouse URL [--database NAME] [--cluster NAME] [--job NAME]
 * [--batch-rows N] PROFILE.db...`: every run of each file into ClickHouse (docs/scale-out.md). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clickhouse_ddl.h"
#include "clickhouse_push.h"

const char pq_push_help[] =
	"Usage: profq push --clickhouse URL [--database NAME] [--cluster NAME] [--job NAME]\n"
	"                  [--batch-rows N] [PROFILE.db...]\n"
	"Loads every complete run of each profile into ClickHouse over HTTP, creating the tables on\n"
	"first use (with --cluster: <table>_local MergeTree tables and Distributed tables over the\n"
	"cluster; run it once per shard, without files, to create them there). A run already there\n"
	"(same source hash) is skipped; a failed push leaves nothing visible. --job (default\n"
	"'default') is the partition: ALTER TABLE ... DROP PARTITION 'JOB' removes a job.\n"
	"--database defaults to profq; --batch-rows (default 500000) rows per INSERT.\n";

/* Pushes every run of one file; prints a line per run. */
static int push_file(pq_ch *ch, const char *path, const char *job, size_t batch_rows,
		     long long *total_rows, double *total_s)
{
	sqlite3 *db = pq_cli_open(path, PQ_OPEN_READ);
	sqlite3_stmt *st;
	pq_ch_push_result res;
	pq_error err;
	int rc = PQ_EXIT_OK;

	if (db == NULL)
		return PQ_EXIT_FAIL;
	if (sqlite3_prepare_v2(db, "SELECT id, status FROM runs ORDER BY id", -1, &st, NULL) !=
	    SQLITE_OK) {
		rc = pq_cli_fail("%s: %s", path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return rc;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		long long run = sqlite3_column_int64(st, 0);
		const char *status = (const char *)sqlite3_column_text(st, 1);

		/* An open run is still being written (or its writer died), a failed one is incomplete:
		 * pushed, it would be keyed and then never pushed again in full. */
		if (status == NULL || strcmp(status, "complete") != 0) {
			printf("%s: run %lld: status '%s', not pushed (only complete runs are)\n", path,
			       run, status ? status : "");
			continue;
		}
		if (pq_ch_push_run(ch, db, run, job, batch_rows, &res, &err) != 0) {
			rc = pq_cli_fail("%s: run %lld: push failed, nothing of it is visible: %s", path,
					 run, err.msg);
			break;
		}
		if (res.already_there) {
			printf("%s: run %lld (rank %lld): already there (key %s), nothing sent\n", path, run,
			       res.rank, res.run_key);
		} else {
			printf("%s: run %lld (rank %lld): %lld rows in %.2f s, %.0f rows/s\n", path, run,
			       res.rank, res.rows, res.seconds,
			       res.seconds > 0 ? (double)res.rows / res.seconds : 0.0);
			*total_rows += res.rows;
			*total_s += res.seconds;
		}
		fflush(stdout);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rc;
}

int pq_cmd_push(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "clickhouse", required_argument, NULL, 'c' },
		{ "database", required_argument, NULL, 'd' },
		{ "cluster", required_argument, NULL, 'C' },
		{ "job", required_argument, NULL, 'j' },
		{ "batch-rows", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *url = NULL, *database = "profq", *cluster = NULL, *job = "default";
	long long batch_rows = 500000, total_rows = 0;
	double total_s = 0;
	pq_ch ch;
	pq_error err;
	char *end;
	int c, rc = PQ_EXIT_OK;

	optind = 1;
	while ((c = pq_getopt(argc, argv, "h", opts, "push")) != -1) {
		switch (c) {
		case 'c': url = optarg; break;
		case 'd': database = optarg; break;
		case 'C': cluster = optarg; break;
		case 'j': job = optarg; break;
		case 'b':
			batch_rows = strtoll(optarg, &end, 10);
			if (*end != '\0' || batch_rows < 1)
				return pq_cli_usage("push: --batch-rows needs a positive integer, not '%s'",
						    optarg);
			break;
		case 'h': fputs(pq_push_help, stdout); return PQ_EXIT_OK;
		default: return PQ_EXIT_USAGE;
		}
	}
	if (url == NULL)
		return pq_cli_usage("push: --clickhouse URL is required");
	if (pq_ch_open(&ch, url, database, &err) != 0)
		return pq_cli_usage("push: %s", err.msg);
	/* A Distributed insert waits until every shard has its rows: a shard that is down fails the
	 * push instead of queueing rows that would appear later. */
	if (pq_ch_set_settings(&ch, "insert_distributed_sync=1", &err) != 0 ||
	    pq_ch_create_tables(&ch, cluster, &err) != 0) {
		pq_ch_close(&ch);
		return pq_cli_fail("%s", err.msg);
	}
	for (int i = optind; i < argc && rc == PQ_EXIT_OK; i++)
		rc = push_file(&ch, argv[i], job, (size_t)batch_rows, &total_rows, &total_s);
	if (rc == PQ_EXIT_OK && optind < argc)
		printf("pushed %lld rows in %.2f s, %.0f rows/s\n", total_rows, total_s,
		       total_s > 0 ? (double)total_rows / total_s : 0.0);
	pq_ch_close(&ch);
	return rc;
}
