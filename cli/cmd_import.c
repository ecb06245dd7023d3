/* cmd_import.c - `profq import [-o DB] FILE...`: each file becomes one run, or nothing at all. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "import.h"
#include "store.h"

static const char usage[] =
	"Usage: profq import [-o profile.db] [--keep-going] FILE...\n"
	"Imports Chrome trace JSON (.json, .json.gz: PyTorch profiler, Kineto, JAX, ...) and Nsight\n"
	"Systems SQLite exports, each file as one run, into profile.db (created when missing).\n";

/* Progress on stderr, only for a terminal, at most every 1% of the file. */
static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
	const char *path = ctx;

	if (total > 0)
		fprintf(stderr, "\rprofq: importing %s: %3d%%", path, (int)(100 * done / total));
	else
		fprintf(stderr, "\rprofq: importing %s: %llu MB", path,
			(unsigned long long)(done >> 20));
}

static void remove_database(const char *path)
{
	char side[4096];

	unlink(path);
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
}

static int import_one(pq_store *s, const char *path, int keep_going, pq_error *err)
{
	pq_import_options opt = { 0 };
	pq_import_stats stats = { 0 };
	enum pq_import_format f;
	int rc;

	f = pq_import_detect(path, err);
	if (f == PQ_IMPORT_UNKNOWN)
		return -1;
	opt.keep_going = keep_going;
	pq_store_expect_rows(s, pq_import_expected_rows(path, f));
	if (isatty(STDERR_FILENO)) {
		opt.progress = show_progress;
		opt.progress_ctx = (void *)path;
	}
	if (f == PQ_IMPORT_CHROME_JSON)
		rc = pq_import_chrome(s, path, &opt, &stats, err);
	else
		rc = pq_import_nsys(s, path, &opt, &stats, err);
	if (opt.progress != NULL)
		fputs("\r\033[K", stderr);
	if (rc != 0)
		return -1;
	printf("run %lld: %s (%s): %lld events, %lld rows", (long long)stats.run_id, path,
	       f == PQ_IMPORT_CHROME_JSON ? "chrome-json" : "nsys-sqlite",
	       (long long)stats.events, (long long)stats.rows);
	if (stats.skipped > 0)
		printf(", %lld skipped", (long long)stats.skipped);
	if (stats.unmatched > 0)
		printf(", %lld unmatched", (long long)stats.unmatched);
	putchar('\n');
	if (stats.warning[0] != '\0')
		fprintf(stderr, "profq: warning: %s: %s\n", path, stats.warning);
	if (stats.clamped > 0)
		fprintf(stderr, "profq: warning: %s: %lld events end before they start; kept with zero "
			"length (run metadata import.clamped_ends)\n", path, (long long)stats.clamped);
	return 0;
}

int pq_cmd_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "keep-going", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = "profile.db";
	int keep_going = 0, c, failed = 0, imported = 0, created;
	pq_store *s;
	pq_error err, cleanup;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:kh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'k':
			keep_going = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return PQ_EXIT_OK;
		default:
			return PQ_EXIT_USAGE;
		}
	}
	if (optind == argc)
		return pq_cli_usage("import: no trace file given");
	for (int i = optind; i < argc; i++)
		if (strcmp(argv[i], out) == 0)
			return pq_cli_usage("import: '%s' is the output database", out);

	/* One transaction per file, the run row included (batch -1): a failed file is rolled back
	 * whole and leaves the database byte for byte as it was. */
	if (pq_store_open(out, -1, &s, &err) != 0)
		return pq_cli_fail("%s", err.msg);
	created = pq_store_created(s);
	/* Stops at the first bad file; the files before it stay imported. */
	for (int i = optind; i < argc && !failed; i++) {
		if (import_one(s, argv[i], keep_going, &err) == 0) {
			imported++;
			continue;
		}
		pq_cli_fail("%s: %s", argv[i], err.msg);
		if (pq_store_abort_run(s, &cleanup) != 0)
			pq_cli_fail("%s: %s", out, cleanup.msg);
		failed = 1;
	}
	pq_store_close(s);
	/* A database this command created for nothing is not left behind. */
	if (failed && created && imported == 0)
		remove_database(out);
	return failed ? PQ_EXIT_FAIL : PQ_EXIT_OK;
}
