/* nvtx_demo.c - a toy training loop annotated with NVTX, recorded by `make demo` under
 * `profq record` (a data-loader thread, epochs of steps with forward/backward/optimizer). */
#define _GNU_SOURCE 1
#include <nvtx3/nvToolsExt.h>

#include <pthread.h>
#include <unistd.h>

static void *loader(void *arg)
{
	(void)arg;
	nvtxNameOsThreadA((uint32_t)gettid(), "data loader");
	for (int i = 0; i < 10; i++) {
		nvtxRangePushA("load batch");
		usleep(2000);
		nvtxRangePop();
	}
	return NULL;
}

int main(void)
{
	pthread_t t;

	nvtxNameOsThreadA((uint32_t)gettid(), "MainThread");
	pthread_create(&t, NULL, loader, NULL);
	for (int step = 0; step < 10; step++) {
		nvtxRangePushA("step");
		nvtxRangePushA("forward");
		usleep(3000);
		nvtxRangePop();
		nvtxRangePushA("backward");
		usleep(5000);
		nvtxRangePop();
		nvtxRangePushA("optimizer");
		usleep(1000);
		nvtxRangePop();
		nvtxRangePop();
	}
	pthread_join(t, NULL);
	return 0;
}
