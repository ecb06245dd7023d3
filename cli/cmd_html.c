/* cmd_html.c - `profq html DB -o report.html [--run ID]`: the one-page HTML report. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "html_page.h"
#include "options.h"

const char pq_html_help[] =
	"Usage: profq html <profile.db> -o report.html [--run ID]\n"
	"Writes one self-contained HTML page (inline CSS and SVG charts) about the profile: per\n"
	"run its summary, GPU utilization over time, top kernels, CUDA API calls and NVTX ranges,\n"
	"PyTorch steps and memory when present, and the analyze findings.\n"
	"\n"
	"  -o, --output FILE   the page to write; - writes to standard output\n"
	"  -r, --run ID        only this run (default: a section per run)\n";

int pq_cmd_html(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "run", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *run = NULL, *path, *base;
	sqlite3 *db;
	pq_error err;
	FILE *out;
	char *end;
	int c, rc;

	optind = 1;
	while ((c = pq_getopt(argc, argv, "o:r:h", opts, "html")) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'r':
			if (strtoll(optarg, &end, 10) < 1 || *end != '\0' || end == optarg)
				return pq_cli_usage("html: --run needs a positive integer, not '%s'",
						    optarg);
			run = optarg;
			break;
		case 'h':
			fputs(pq_html_help, stdout);
			return PQ_EXIT_OK;
		default:
			return PQ_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc)
		return pq_cli_usage("html: give exactly one database");
	if (output == NULL)
		return pq_cli_usage("html: give the output file with -o FILE (- for standard output)");
	path = argv[optind];
	db = pq_cli_open(path, PQ_OPEN_READ);
	if (db == NULL)
		return PQ_EXIT_FAIL;
	if (pq_check_run(db, run, "html", path, &err) != 0) {
		sqlite3_close(db);
		return pq_cli_fail("%s", err.msg);
	}
	out = strcmp(output, "-") == 0 ? stdout : fopen(output, "w");
	if (out == NULL) {
		int e = errno;

		sqlite3_close(db);
		return pq_cli_fail("html: cannot write %s: %s", output, strerror(e));
	}
	base = strrchr(path, '/');
	rc = pq_html_page(db, base ? base + 1 : path, run, out, &err);
	if (rc == 0 && (fflush(out) != 0 || ferror(out)))
		rc = pq_fail(&err, "cannot write %s", output);
	if (out != stdout && fclose(out) != 0 && rc == 0)
		rc = pq_fail(&err, "cannot write %s", output);
	sqlite3_close(db);
	if (rc != 0) {
		if (out != stdout)
			remove(output);
		return pq_cli_fail("html: %s", err.msg);
	}
	return PQ_EXIT_OK;
}
