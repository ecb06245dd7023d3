/* cmd_html.c - `profq html DB -o report.html [--run ID]`: the one-page HTML report. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "html_page.h"

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
	while ((c = getopt_long(argc, argv, "o:r:h", opts, NULL)) != -1) {
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
			puts("Usage: profq html <profile.db> -o report.html [--run ID]\n"
			     "Writes one self-contained HTML page (inline CSS and SVG charts) about the\n"
			     "profile: per run its summary, GPU utilization over time, top kernels, CUDA\n"
			     "API calls and NVTX ranges, PyTorch steps and memory when present, and the\n"
			     "analyze findings. -o - writes to standard output.");
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
