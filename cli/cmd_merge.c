/* cmd_merge.c - `profq merge -o job.db [--rank N] INPUT...`: the runs of several profiles (the
 * ranks of a distributed job) in one database, each kept apart with its rank (lib/merge.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "merge.h"
#include "store.h"

const char pq_merge_help[] =
	"Usage: profq merge -o job.db [--rank N] INPUT [[--rank N] INPUT]...\n"
	"Copies every run of every INPUT into job.db (created, or added to), each run kept apart\n"
	"with its rank. An INPUT is a profq database or any file 'profq import' takes (Chrome\n"
	"trace JSON, Nsight Systems SQLite export). The rank comes from the trace (Kineto's\n"
	"distributedInfo), or from '--rank N' given before the input. A run job.db already holds is\n"
	"refused (same source_sha256, or same source, path, creation time and row counts). Inputs\n"
	"are never changed; a failed merge leaves job.db as it was (or absent).\n";

static int parse_rank(const char *s, int64_t *v)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || n < 0)
		return -1;
	*v = n;
	return 0;
}

typedef struct input {
	const char *path;
	int64_t rank;
} input;

int pq_cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	input *in = calloc((size_t)argc, sizeof(*in));
	int64_t rank = PQ_NULL;
	size_t n = 0, total = 0;
	pq_merge *m;
	pq_error err;

	if (in == NULL)
		return pq_cli_fail("out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			free(in);
			fputs(pq_merge_help, stdout);
			return PQ_EXIT_OK;
		}
		if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strcmp(a, "--rank") == 0) {
			if (i + 1 == argc) {
				free(in);
				return pq_cli_usage("merge: %s needs a value", a);
			}
			if (strcmp(a, "--rank") == 0) {
				if (parse_rank(argv[++i], &rank) != 0) {
					free(in);
					return pq_cli_usage("merge: --rank needs a rank (0, 1, ...), not '%s'",
							    argv[i]);
				}
			} else {
				out = argv[++i];
			}
			continue;
		}
		if (strncmp(a, "--output=", 9) == 0) {
			out = a + 9;
			continue;
		}
		if (a[0] == '-' && a[1] != '\0') {
			free(in);
			return pq_cli_usage("merge: unknown option '%s' (see 'profq help merge')", a);
		}
		in[n].path = a;
		in[n].rank = rank;
		rank = PQ_NULL;
		n++;
	}
	if (rank != PQ_NULL) {
		free(in);
		return pq_cli_usage("merge: --rank must come before the input it is for");
	}
	if (out == NULL) {
		free(in);
		return pq_cli_usage("merge: no output given (-o job.db)");
	}
	if (n == 0) {
		free(in);
		return pq_cli_usage("merge: no input given");
	}
	for (size_t i = 0; i < n; i++) {
		if (strcmp(in[i].path, out) == 0) {
			free(in);
			return pq_cli_usage("merge: '%s' is the output", out);
		}
	}
	if (pq_merge_open(out, &m, &err) != 0) {
		free(in);
		return pq_cli_fail("merge: %s", err.msg);
	}
	for (size_t i = 0; i < n; i++) {
		pq_merged_run *runs;
		size_t nr;

		if (pq_merge_add(m, in[i].path, in[i].rank, &runs, &nr, &err) != 0) {
			pq_merge_abort(m);
			free(in);
			return pq_cli_fail("merge: %s", err.msg);
		}
		for (size_t k = 0; k < nr; k++) {
			printf("run %" PRId64, runs[k].run_id);
			if (runs[k].rank != PQ_NULL)
				printf(" (rank %" PRId64 ")", runs[k].rank);
			printf(": %s run %" PRId64 ", %" PRId64 " rows\n", in[i].path, runs[k].from_run,
			       runs[k].rows);
		}
		total += nr;
		free(runs);
	}
	free(in);
	if (pq_merge_commit(m, &err) != 0)
		return pq_cli_fail("merge: %s", err.msg);
	printf("%s: %zu run%s merged\n", out, total, total == 1 ? "" : "s");
	return PQ_EXIT_OK;
}
