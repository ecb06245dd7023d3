/* writer_bench.c - writer throughput: hand-built CUPTI kernel records, stepped by libcupti and
 * written by the collector's translator into SQLite (one transaction per 4 MiB buffer, as the
 * writer commits per cycle). As under `profq record`, the rows go in without the event indexes,
 * which are built at the end; that build is timed separately. Only the writer's calls are timed:
 * filling the buffers stands in for CUPTI, which does it on the program's threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store.h"
#include "translate.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long rows = argc > 1 ? atol(argv[1]) : 1000000;
	const char *path = argc > 2 ? argv[2] : "/tmp/profq-writer-bench.db";
	size_t per = (4u << 20) / sizeof(CUpti_ActivityKernel10);
	CUpti_ActivityKernel10 *buf = aligned_alloc(8, per * sizeof(*buf));
	static const char *names[] = { "_Z9vectorAddPKfS0_Pfi", "ampere_sgemm_128x64_nn",
				       "_ZN2at6native29vectorized_elementwise_kernelILi4EEEviT_" };
	pq_store *s;
	pq_error err;
	pq_run_info run;
	pq_wctx w;
	double t0, t1, t2, writing = 0;
	long done = 0;

	unlink(path);
	pq_store_open(path, 0, &s, &err);
	pq_run_info_init(&run);
	run.source = "bench";
	pq_store_expect_rows(s, rows);
	pq_store_begin_run(s, &run, NULL, &err);
	pq_wctx_init(&w, s, getpid());
	memset(buf, 0, per * sizeof(*buf));
	t0 = now();
	while (done < rows) {
		size_t n = (size_t)(rows - done) < per ? (size_t)(rows - done) : per;
		for (size_t i = 0; i < n; i++) {
			CUpti_ActivityKernel10 *k = &buf[i];
			k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
			k->start = 1000000000000000000ULL + (uint64_t)(done + (long)i) * 2000;
			k->end = k->start + 1500;
			k->streamId = 7 + (uint32_t)(i % 4);
			k->correlationId = (uint32_t)(done + (long)i);
			k->gridX = 128; k->gridY = 1; k->gridZ = 1; k->blockX = 256; k->blockY = 1; k->blockZ = 1;
			k->name = names[i % 3];
		}
		t1 = now();
		pq_translate_buffer(&w, (uint8_t *)buf, n * sizeof(*buf));
		pq_store_commit(s, &err);
		writing += now() - t1;
		done += (long)n;
	}
	t1 = now();
	pq_store_finish_run(s, &err);
	t2 = now();
	pq_wctx_free(&w);
	pq_store_close(s);
	printf("writer: %ld kernel rows in %.2f s = %.0f rows/s (errors %llu); "
	       "indexes built at the end in %.2f s (%.0f rows/s overall)\n", rows, writing,
	       rows / writing, (unsigned long long)w.write_errors, t2 - t1, rows / (t2 - t0));
	free(buf);
	return 0;
}
