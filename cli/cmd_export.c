/* cmd_export.c - `profq export --format chrome DB -o trace.json[.gz]`: a timeline for Perfetto UI
 * and chrome://tracing (lib/export_chrome.c writes it). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db_attach.h"
#include "export.h"
#include "options.h"
#include "store.h"

const char pq_export_help[] =
	"Usage: profq export [--format chrome] <profile.db> -o trace.json[.gz]\n"
	"                    [--run ID] [--from NS] [--to NS]\n"
	"Writes the profile as a Chrome trace (JSON; gzip-compressed when the name ends in .gz) that\n"
	"Perfetto UI (ui.perfetto.dev) and chrome://tracing open: processes and threads named, CPU\n"
	"ranges and API calls nested per thread, GPU work per device and stream (overlapping work on\n"
	"extra tracks), flow arrows from API calls to the GPU work they launched, memory and GPU\n"
	"utilization counters. Times keep every nanosecond. '-o -' writes to standard output.\n"
	"\n"
	"  --run ID      only this run (default: every run, one process group each)\n"
	"  --from NS     only events that end after NS (ns, as the database stores times)\n"
	"  --to NS       only events that start before NS\n";

static int parse_ns(const char *s, int64_t *v)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0)
		return -1;
	*v = n;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

int pq_cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "run", required_argument, NULL, 'r' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	pq_export_options opt;
	pq_export_stats stats;
	const char *out = NULL, *run = NULL, *path;
	sqlite3 *db;
	pq_error err;
	int c, rc;

	pq_export_options_init(&opt);
	optind = 1;
	while ((c = pq_getopt(argc, argv, "f:o:h", opts, "export")) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "chrome") != 0)
				return pq_cli_usage("export: unknown format '%s' (chrome)", optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'r':
			if (parse_ns(optarg, &opt.run_id) != 0 || opt.run_id < 1)
				return pq_cli_usage("export: --run needs a run id, not '%s'", optarg);
			run = optarg;
			break;
		case 'F':
			if (parse_ns(optarg, &opt.from_ns) != 0)
				return pq_cli_usage("export: --from needs integer ns, not '%s'", optarg);
			break;
		case 'T':
			if (parse_ns(optarg, &opt.to_ns) != 0)
				return pq_cli_usage("export: --to needs integer ns, not '%s'", optarg);
			break;
		case 'h':
			fputs(pq_export_help, stdout);
			return PQ_EXIT_OK;
		default:
			return PQ_EXIT_USAGE;
		}
	}
	if (optind == argc)
		return pq_cli_usage("export: no database given");
	if (argc - optind > 1)
		return pq_cli_usage("export: one database at a time ('%s' is extra)", argv[optind + 1]);
	path = argv[optind];
	if (out == NULL)
		return pq_cli_usage("export: no output file given (-o trace.json)");
	if (strcmp(out, path) == 0)
		return pq_cli_usage("export: '%s' is the database", out);
	if (opt.from_ns != PQ_NULL && opt.to_ns != PQ_NULL && opt.from_ns >= opt.to_ns)
		return pq_cli_usage("export: --from must be before --to");
	opt.gzip = ends_with(out, ".gz");
	/* Read-only, immutable when nothing else uses it: the file gets no -shm/-wal. */
	if (pq_db_open_readonly(path, &db, &err) != 0)
		return pq_cli_fail("export: %s", err.msg);
	if (pq_check_run(db, run, "export", path, &err) != 0) {
		sqlite3_close(db);
		return pq_cli_fail("%s", err.msg);
	}
	rc = pq_export_chrome(db, out, &opt, &stats, &err);
	sqlite3_close(db);
	if (rc != 0)
		return pq_cli_fail("export: %s", err.msg);
	if (strcmp(out, "-") != 0)
		printf("%s: %" PRId64 " run%s, %" PRId64 " slices, %" PRId64 " flows, %" PRId64
		       " overlap tracks, %" PRId64 " events\n",
		       out, stats.runs, stats.runs == 1 ? "" : "s", stats.slices, stats.flows,
		       stats.lanes, stats.events);
	return PQ_EXIT_OK;
}
