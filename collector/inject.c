/* inject.c - the entry points and per-process start-up: configuration from the environment,
 * InitializeInjection (CUDA driver, CUDA_INJECTION64_PATH), the shared start used by both entry
 * points, atexit, and the capture gate.
 *
 * InitializeInjection is called by the driver inside cuInit (CUPTI sample cupti_trace_injection,
 * README: "CUDA will load the shared object and call the function named 'InitializeInjection'");
 * it returns 1 on success. Both entry points may run, in either order, on different threads.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cupti.h>

#include "collector.h"
#include "cupti_collect.h"
#include "writer.h"

pq_config pq_cfg;
_Atomic int pq_capturing = 1;

static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static int start_rc = -1;
static pthread_once_t cuda_once = PTHREAD_ONCE_INIT;

static long env_long(const char *name, long def, long min, long max)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (v == NULL || *v == '\0')
		return def;
	n = strtol(v, &end, 10);
	return *end == '\0' && n >= min && n <= max ? n : def;
}

void pq_config_load(void)
{
	const char *db = getenv("PROFQ_DB"), *kinds = getenv("PROFQ_KINDS");
	const char *cap = getenv("PROFQ_CAPTURE");
	char err[256];

	if (db != NULL && *db != '\0')
		snprintf(pq_cfg.db_path, sizeof(pq_cfg.db_path), "%s", db);
	else
		snprintf(pq_cfg.db_path, sizeof(pq_cfg.db_path), "profq-%d.db", (int)getpid());
	pq_cfg.run_id = env_long("PROFQ_RUN_ID", 0, 1, 1L << 62);
	pq_cfg.flush_ms = (int)env_long("PROFQ_FLUSH_MS", 1000, 1, 3600 * 1000);
	pq_cfg.buffer_bytes = (size_t)env_long("PROFQ_BUFFER_MB", 64, 1, 1 << 20) << 20;
	pq_cfg.kinds = PQ_K_DEFAULT;
	if (kinds != NULL && *kinds != '\0' && pq_kind_parse(kinds, &pq_cfg.kinds, err, sizeof(err)) != 0)
		fprintf(stderr, "profq collector: PROFQ_KINDS: %s; using the defaults\n", err);
	if (cap != NULL && strncmp(cap, "nvtx:", 5) == 0 && cap[5] != '\0') {
		snprintf(pq_cfg.capture_nvtx, sizeof(pq_cfg.capture_nvtx), "%s", cap + 5);
		pq_capturing = 0;
	} else if (cap != NULL && strcmp(cap, "cudaProfilerApi") == 0) {
		pq_cfg.capture_profiler_api = 1;
		pq_capturing = 0;
	}
}

uint64_t pq_now_ns(void)
{
	uint64_t t;

	/* While CUPTI traces the GPU, its clock, so NVTX and GPU records compare (notes §2.5).
	 * Otherwise CLOCK_REALTIME, which is what cuptiGetTimestamp returns on Linux (notes §4): without
	 * a driver, cuptiGetTimestamp takes a libcupti mutex on every call, and four threads flooding
	 * NVTX (tests/collector/drops.t) once left a thread asleep on it for good. */
	if (pq_cupti_active() && cuptiGetTimestamp(&t) == CUPTI_SUCCESS)
		return t;
	{
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
}

void pq_capture_set(int on)
{
	if (atomic_exchange(&pq_capturing, on) == on)
		return;
	pq_cupti_capture(on);
	pq_writer_note(on ? "capture_started" : "capture_stopped", on ? "yes" : "yes");
}

static void at_exit(void)
{
	pq_writer_shutdown("exit");
}

static void start(void)
{
	pq_config_load();
	if (pq_writer_start() != 0) {
		fprintf(stderr, "profq collector: cannot start the writer thread\n");
		return;
	}
	pq_writer_atfork_register();
	atexit(at_exit);
	start_rc = 0;
}

int pq_collector_start(void)
{
	pthread_once(&start_once, start);
	return start_rc;
}

static void start_cuda(void)
{
	pq_cupti_start();
}

PQ_EXPORT int InitializeInjection(void)
{
	if (pq_collector_start() != 0)
		return 0;
	pthread_once(&cuda_once, start_cuda);
	return 1;
}
