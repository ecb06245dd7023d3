/* nvtx_bench.c - cost of one nvtxRangePushA + nvtxRangePop pair, with whatever tool
 * NVTX_INJECTION64_PATH names (run under `profq record` for the collector). */
#include <nvtx3/nvToolsExt.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	double t0, t1, best = 1e9;

	nvtxRangePushA("warm-up");   /* initialises NVTX (loads the tool) outside the timing */
	nvtxRangePop();
	for (int rep = 0; rep < 5; rep++) {
		t0 = now();
		for (long i = 0; i < n; i++) {
			nvtxRangePushA("bench");
			nvtxRangePop();
		}
		t1 = now();
		if ((t1 - t0) / n < best)
			best = (t1 - t0) / n;
	}
	printf("nvtx push+pop: %.1f ns per pair (best of 5 x %ld)\n", best * 1e9, n);
	return 0;
}
