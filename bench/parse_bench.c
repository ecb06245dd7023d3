/* parse_bench.c - the ceiling of the Chrome import's first stage: read, inflate, scan and
 * parse every event of a trace (chrome_reader, the import's own reader thread), with no
 * rows and no SQLite; by default also digest each event (its members by name, ts/dur, an X
 * event's args text: the rest of the reader thread's work). Prints events, MB/s of decompressed
 * JSON over wall and CPU time.
 *
 *   build/bench/parse_bench [-n] TRACE.json[.gz]     (-n: scan and parse only, args whole)
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "chrome_reader.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 +
	       (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	chrome_reader r;
	chrome_batch *b;
	pq_error err;
	long long events = 0, bad = 0;
	unsigned long long bytes;
	double t0, c0, wall, cpu_s;

	int digest = 1;

	if (argc == 3 && strcmp(argv[1], "-n") == 0) {
		digest = 0;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: parse_bench [-n] TRACE.json[.gz]\n");
		return 2;
	}
	t0 = now();
	c0 = cpu();
	if (chrome_reader_start(&r, argv[1], digest, &err) != 0) {
		fprintf(stderr, "parse_bench: %s: %s\n", argv[1], err.msg);
		return 1;
	}
	while ((b = chrome_reader_next(&r)) != NULL) {
		for (size_t i = 0; i < b->n; i++) {
			events += b->items[i].kind == CHROME_ITEM_EVENT;
			bad += b->items[i].kind == CHROME_ITEM_BAD;
		}
		chrome_reader_release(&r, b);
	}
	if (r.status != 0) {
		fprintf(stderr, "parse_bench: %s: %s\n", argv[1], r.err.msg);
		return 1;
	}
	bytes = (unsigned long long)pq_chrome_stream_offset(&r.in, r.in.len);
	chrome_reader_stop(&r);
	wall = now() - t0;
	cpu_s = cpu() - c0;
	printf("%s: %lld events (%lld bad), %.1f MB, "
	       "wall %.2f s %.1f MB/s, cpu %.2f s %.1f MB/s\n",
	       digest ? "reader stage (read + inflate + scan + parse + digest)"
		      : "parse only (read + inflate + scan + parse)",
	       events, bad, (double)bytes / 1e6, wall, (double)bytes / 1e6 / wall, cpu_s,
	       (double)bytes / 1e6 / cpu_s);
	return 0;
}
