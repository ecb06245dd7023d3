/* nvtx_flood.c - more NVTX marks than the collector's bounded buffers hold, from several threads
 * at once, for tests/collector/drops.t.   nvtx_flood THREADS MARKS_PER_THREAD
 * Prints "emitted N": the number of NVTX events it made (marks only, so each stored event is one
 * row of marks).
 */
#include <nvtx3/nvToolsExt.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long per_thread;

static void *flood(void *arg)
{
	(void)arg;
	for (long i = 0; i < per_thread; i++)
		nvtxMarkA("m");
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	long n;

	if (argc != 3 || (n = atol(argv[1])) < 1 || n > 64 || (per_thread = atol(argv[2])) < 1)
		return 2;
	for (long i = 0; i < n; i++)
		pthread_create(&th[i], NULL, flood, NULL);
	for (long i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("emitted %ld\n", n * per_thread);
	return 0;
}
