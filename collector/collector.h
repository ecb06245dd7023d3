/* collector.h - what the collector's modules share (internal; nothing here is exported).
 *
 * The collector is one shared library, loaded by the CUDA driver (CUDA_INJECTION64_PATH ->
 * InitializeInjection, inject.c) and by NVTX (NVTX_INJECTION64_PATH -> InitializeInjectionNvtx2,
 * nvtx.c). Application threads only append to memory: NVTX events to per-thread buffers
 * (buffers.c), CUPTI fills its own buffers (cupti.c). One writer thread per process (writer.c)
 * turns both into rows (nvtx_rows.c, translate.c) through the store, in batched transactions.
 *
 * NVTX modules: core and domains (nvtx.c), CUDA/CUDART resource naming (nvtx_cuda.c), and the
 * payload and counters extensions (nvtx_ext.c, entry point InitializeInjectionNvtxExtension;
 * schemas in nvtx_schema.c, payload decoding in nvtx_payload.c).
 *
 * Configuration comes from the environment `profq record` sets (see collector_config_load):
 *   PROFQ_DB           absolute path of the database (default: ./profq-<pid>.db, own run)
 *   PROFQ_RUN_ID       the run to add rows to (made by the launcher); unset: the collector makes one
 *   PROFQ_KINDS        comma list of activity groups (see pq_kind_parse)
 *   PROFQ_FLUSH_MS     commit at least this often (default 1000)
 *   PROFQ_BUFFER_MB    bound on NVTX buffer memory (default 64)
 *   PROFQ_CAPTURE      "nvtx:NAME" or "cudaProfilerApi"
 */
#ifndef PQ_COLLECTOR_H
#define PQ_COLLECTOR_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "kinds.h"
#include "store.h"

#define PQ_HIDDEN __attribute__((visibility("hidden")))
#define PQ_EXPORT __attribute__((visibility("default")))

typedef struct pq_config {
	char db_path[4096];
	int64_t run_id;          /* 0: the collector begins and finishes its own run */
	unsigned kinds;
	int flush_ms;
	size_t buffer_bytes;
	char capture_nvtx[256];  /* non-empty: record only inside ranges of this name */
	int capture_profiler_api;
} pq_config;

extern pq_config pq_cfg PQ_HIDDEN;

/* Reads the environment into pq_cfg (once per process; atfork keeps it). */
void pq_config_load(void) PQ_HIDDEN;

/* Clock shared with CUPTI records: cuptiGetTimestamp (CLOCK_REALTIME on Linux). */
uint64_t pq_now_ns(void) PQ_HIDDEN;

/* Starts the per-process machinery once: config, writer thread, atexit, atfork, signals. Safe to
 * call from both entry points and from any thread. Returns 0, or -1 when recording is impossible
 * (the reason is printed once to stderr). */
int pq_collector_start(void) PQ_HIDDEN;

/* Capture gate: 1 while events are recorded. */
extern _Atomic int pq_capturing PQ_HIDDEN;
/* Turns recording on or off (capture ranges); also switches CUPTI activity collection. */
void pq_capture_set(int on) PQ_HIDDEN;

#endif
