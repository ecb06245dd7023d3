/* nvtx_app.c - an application using NVTX the way real ones do, for tests/collector/nvtx.t.
 *
 *   nvtx_app            every NVTX feature once (see below), a second NVTX instance
 *                       (libnvtxpeer.so), 2 worker threads x 100 nested pairs, a fork
 *   nvtx_app loop N     ranges forever, "ready" on stdout after N ranges (exit-path tests)
 *   nvtx_app exit CODE  one range, then exit(CODE)
 *
 * Prints "timed T0 T1": CLOCK_REALTIME read inside the range "timed".
 */
#define _GNU_SOURCE 1
#include <nvtx3/nvToolsExt.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void peer_work(void);

static long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *worker(void *arg)
{
	char name[32];

	snprintf(name, sizeof(name), "worker %d", (int)(long)arg);
	nvtxNameOsThreadA((uint32_t)gettid(), name);
	for (int i = 0; i < 100; i++) {
		nvtxRangePushA("work");
		nvtxRangePushA("step");
		nvtxRangePop();
		nvtxRangePop();
	}
	return NULL;
}

static void *ender(void *arg)
{
	nvtxRangeEnd(*(nvtxRangeId_t *)arg);   /* ends a range another thread started */
	return NULL;
}

static nvtxEventAttributes_t attrs(const char *msg)
{
	nvtxEventAttributes_t a;

	memset(&a, 0, sizeof(a));
	a.version = NVTX_VERSION;
	a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
	a.messageType = NVTX_MESSAGE_TYPE_ASCII;
	a.message.ascii = msg;
	return a;
}

static _Noreturn void loop(long ready_after)
{
	for (long i = 0;; i++) {
		nvtxRangePushA("tick");
		usleep(1000);
		nvtxRangePop();
		if (i + 1 == ready_after) {
			printf("ready\n");
			fflush(stdout);
		}
	}
}

int main(int argc, char **argv)
{
	pthread_t th[2], te;
	nvtxDomainHandle_t dom;
	nvtxStringHandle_t reg;
	nvtxEventAttributes_t a;
	nvtxRangeId_t id, cross;
	long long t0, t1;
	pid_t child;
	int status;

	if (argc == 3 && strcmp(argv[1], "loop") == 0)
		loop(atol(argv[2]));
	if (argc == 3 && strcmp(argv[1], "exit") == 0) {
		nvtxRangePushA("before exit");
		nvtxRangePop();
		exit(atoi(argv[2]));
	}

	nvtxNameOsThreadA((uint32_t)gettid(), "main thread");
	nvtxNameCategoryA(7, "io");
	nvtxRangePushA("outer");
	nvtxRangePushW(L"inner wide \u00e9");
	nvtxMarkA("hello mark");
	nvtxRangePop();
	a = attrs("pushEx");
	a.category = 7;
	a.colorType = NVTX_COLOR_ARGB;
	a.color = 0xFF00FF00u;
	a.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
	a.payload.ullValue = 42;
	nvtxRangePushEx(&a);
	nvtxRangePop();
	nvtxRangePop();

	dom = nvtxDomainCreateA("profq.test");
	reg = nvtxDomainRegisterStringA(dom, "registered-name");
	nvtxDomainNameCategoryA(dom, 3, "compute");
	a = attrs("domain range");
	a.category = 3;
	a.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
	a.payload.dValue = 2.5;
	id = nvtxDomainRangeStartEx(dom, &a);
	a = attrs(NULL);
	a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
	a.message.registered = reg;
	nvtxDomainMarkEx(dom, &a);
	nvtxDomainRangePushEx(dom, &a);
	nvtxDomainRangePop(dom);
	nvtxDomainRangeEnd(dom, id);
	nvtxMarkW(L"wide mark");

	cross = nvtxRangeStartA("cross-thread");
	pthread_create(&te, NULL, ender, &cross);
	pthread_join(te, NULL);

	nvtxRangePushA("timed");
	t0 = now();
	usleep(20000);
	t1 = now();
	nvtxRangePop();
	printf("timed %lld %lld\n", t0, t1);

	for (long i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);

	peer_work();

	fflush(stdout);
	child = fork();
	if (child == 0) {
		nvtxRangePushA("child range");
		nvtxMarkA("in child");
		nvtxRangePop();
		exit(0);
	}
	waitpid(child, &status, 0);
	printf("pid %d child %d\n", (int)getpid(), (int)child);
	nvtxMarkA("after fork");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
