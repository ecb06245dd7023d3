/* cmd_import.c - `profq import [-o DB] FILE...`: each file becomes one run, or nothing at all. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "file_hash.h"
#include "import.h"
#include "meter.h"
#include "store.h"
#include "text.h"

const char pq_import_help[] =
	"Usage: profq import [-o profile.db] [--keep-going] [--again] [--progress|--quiet] FILE...\n"
	"Imports Chrome trace JSON (.json, .json.gz: PyTorch profiler, Kineto, JAX, ...) and Nsight\n"
	"Systems SQLite exports, each file as one run, into profile.db (created when missing).\n"
	"An Nsight Systems report (.nsys-rep) is exported first: nsys export --type sqlite.\n"
	"A file whose bytes (SHA-256) are already a run of profile.db is skipped with a message.\n"
	"\n"
	"  -o, --output FILE   the database to write (default profile.db)\n"
	"  -k, --keep-going    skip events that cannot be read, count them in the run's metadata\n"
	"  --again             import a file even when its bytes are already a run of the database\n"
	"  --progress          show progress (reading, writing, building indexes) even when\n"
	"                      stderr is not a terminal, a line per update\n"
	"  -q, --quiet         print nothing but errors\n"
	"\n"
	"On a terminal, progress is one line redrawn in place. For each file imported, one line\n"
	"on stderr: 'profq: imported FILE as run N (FORMAT) in S s: E events, R rows'.\n";

static void remove_database(const char *path)
{
	char side[4096];

	unlink(path);
	snprintf(side, sizeof(side), "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-journal", path); /* a new file's first run (store.c) */
	unlink(side);
}

/* "profq: imported FILE as run N (FORMAT) in S s: E events, R rows[, K skipped][, U unmatched]" */
static void summary(const char *path, enum pq_import_format f, const pq_import_stats *st,
		    double seconds)
{
	char events[32], rows[32], n[32];

	fprintf(stderr, "profq: imported %s as run %lld (%s) in %.2f s: %s events, %s rows", path,
		(long long)st->run_id, f == PQ_IMPORT_CHROME_JSON ? "chrome-json" : "nsys-sqlite",
		seconds, pq_text_count(events, sizeof(events), st->events),
		pq_text_count(rows, sizeof(rows), st->rows));
	if (st->skipped > 0)
		fprintf(stderr, ", %s skipped", pq_text_count(n, sizeof(n), st->skipped));
	if (st->unmatched > 0)
		fprintf(stderr, ", %s unmatched", pq_text_count(n, sizeof(n), st->unmatched));
	fputc('\n', stderr);
}

static const char *hashed(void *hasher, pq_error *err)
{
	return pq_file_hasher_wait(hasher, err);
}

/* The file's size when it is a regular file, else 0 (unknown). */
static int64_t file_bytes(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (int64_t)st.st_size : 0;
}

/* Imports one file, or skips it (1) when its bytes are already a run of the database. The hash
 * comes first only when a run of the database may hold the file (one of the same size, or one
 * without a size); otherwise it is computed beside the import and stored when the run is
 * finished. */
static int import_one(pq_store *s, const char *path, const char *out, int keep_going, int again,
		      pq_error *err)
{
	pq_import_options opt = { 0 };
	pq_import_stats stats = { 0 };
	enum pq_import_format f;
	pq_file_hasher hasher;
	pq_meter meter;
	char what[256];
	char sha[65];
	int64_t run = 0;
	int rc, beside;

	snprintf(what, sizeof(what), "importing %s", path);
	pq_meter_start(&meter, what);
	f = pq_import_detect(path, err);
	if (f == PQ_IMPORT_UNKNOWN)
		return -1;
	opt.source_bytes = file_bytes(path);
	if (!again && opt.source_bytes > 0 &&
	    pq_store_find_source_size(s, opt.source_bytes, &run, err) != 0)
		return -1;
	beside = opt.source_bytes > 0 && (again || run == 0);
	run = 0;
	if (!beside && (pq_file_sha256(path, sha, err) != 0 ||
			(!again && pq_store_find_metadata(s, "source_sha256", sha, &run, err) != 0)))
		return -1;
	if (run != 0) {
		if (pq_meter_mode() != PQ_METER_QUIET)
			fprintf(stderr, "profq: %s is already run %lld of %s; skipped (--again imports "
				"it again)\n", path, (long long)run, out);
		return 1;
	}
	if (beside) {
		if (pq_file_hasher_start(&hasher, path, err) != 0)
			return -1;
		pq_store_set_late_metadata(s, "source_sha256", hashed, &hasher);
	} else {
		opt.source_sha256 = sha;
	}
	opt.keep_going = keep_going;
	opt.progress = pq_meter_progress(&meter);
	pq_store_set_progress(s, &opt.progress);
	pq_store_expect_rows(s, pq_import_expected_rows(path, f));
	if (f == PQ_IMPORT_CHROME_JSON)
		rc = pq_import_chrome(s, path, &opt, &stats, err);
	else
		rc = pq_import_nsys(s, path, &opt, &stats, err);
	pq_store_set_progress(s, NULL);
	if (beside) {
		pq_store_set_late_metadata(s, NULL, NULL, NULL);
		pq_file_hasher_stop(&hasher);
	}
	pq_meter_stop(&meter);
	if (rc != 0)
		return -1;
	if (pq_meter_mode() != PQ_METER_QUIET)
		summary(path, f, &stats, pq_meter_seconds(&meter));
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
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "again", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = "profile.db";
	int keep_going = 0, again = 0, c, failed = 0, imported = 0, created, rc;
	pq_store *s;
	pq_error err, cleanup;

	optind = 1;
	while ((c = pq_getopt(argc, argv, "o:kqh", opts, "import")) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'k':
			keep_going = 1;
			break;
		case 'P':
			pq_meter_set_mode(PQ_METER_ON);
			break;
		case 'q':
			pq_meter_set_mode(PQ_METER_QUIET);
			break;
		case 'a':
			again = 1;
			break;
		case 'h':
			fputs(pq_import_help, stdout);
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
		rc = import_one(s, argv[i], out, keep_going, again, &err);
		if (rc >= 0) {
			imported += rc == 0;
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
