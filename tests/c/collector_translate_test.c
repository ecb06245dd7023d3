/* collector_translate_test.c - hand-built CUDA 13.0 activity buffers, stepped by the real libcupti
 * (cuptiActivityGetNextRecord) and written by the collector's translator; rows checked field by
 * field. Values are the inputs themselves or the documented enum mappings (translate.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store.h"
#include "tap.h"
#include "translate.h"

static uint8_t buf[4096] __attribute__((aligned(8)));
static size_t used;

static void *add(size_t size, CUpti_ActivityKind kind)
{
	void *p = buf + used;

	memset(p, 0, size);
	*(CUpti_ActivityKind *)p = kind;
	used += size;
	return p;
}

static char *q(sqlite3 *db, const char *sql)
{
	static char out[4][512];
	static int next;
	char *o = out[next++ % 4];
	sqlite3_stmt *st = NULL;

	o[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_text(st, 0) != NULL)
		snprintf(o, 512, "%s", (const char *)sqlite3_column_text(st, 0));
	else if (st == NULL)
		printf("# %s: %s\n", sql, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return o;
}

int main(void)
{
	char path[] = "/tmp/profq-translate-XXXXXX";
	int fd = mkstemp(path);
	pq_store *s;
	pq_error err;
	pq_run_info run;
	pq_wctx w;
	sqlite3 *db;
	static const char kname[] = "_Z9vectorAddPKfS0_Pfi";

	close(fd);
	unlink(path);
	/* sizes libcupti steps by must equal the structs the collector was built with */
	CUpti_ActivityKernel10 *k = add(sizeof(*k), CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
	k->start = 1000; k->end = 3000; k->deviceId = 0; k->streamId = 7; k->correlationId = 11;
	k->gridX = 64; k->gridY = 2; k->gridZ = 1; k->blockX = 256; k->blockY = 1; k->blockZ = 1;
	k->registersPerThread = 32; k->staticSharedMemory = 1024; k->dynamicSharedMemory = 2048;
	k->localMemoryPerThread = 16; k->name = kname; k->gridId = 5; k->launchType = 0;
	CUpti_ActivityKernel10 *k0 = add(sizeof(*k0), CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
	k0->name = kname;   /* start == end == 0: no timing, counted not stored */
	CUpti_ActivityAPI *a = add(sizeof(*a), CUPTI_ACTIVITY_KIND_RUNTIME);
	a->cbid = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000; a->start = 900; a->end = 950;
	a->processId = (uint32_t)getpid(); a->threadId = 4242; a->correlationId = 11;
	CUpti_ActivityAPI *d = add(sizeof(*d), CUPTI_ACTIVITY_KIND_DRIVER);
	d->cbid = CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel; d->start = 905; d->end = 940;
	d->processId = (uint32_t)getpid(); d->threadId = 4242; d->correlationId = 12; d->returnValue = 1;
	CUpti_ActivityMemcpy6 *m = add(sizeof(*m), CUPTI_ACTIVITY_KIND_MEMCPY);
	m->copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD; m->srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
	m->dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE; m->flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
	m->bytes = 1 << 20; m->start = 500; m->end = 800; m->streamId = 7; m->correlationId = 10;
	CUpti_ActivityMemset4 *ms = add(sizeof(*ms), CUPTI_ACTIVITY_KIND_MEMSET);
	ms->value = 0xAB; ms->bytes = 4096; ms->start = 3100; ms->end = 3200; ms->streamId = 7;
	ms->correlationId = 13; ms->memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
	CUpti_ActivityMemory4 *mem = add(sizeof(*mem), CUPTI_ACTIVITY_KIND_MEMORY2);
	mem->memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
	mem->memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE; mem->address = 0x7f0000000000ULL;
	mem->bytes = 1 << 20; mem->timestamp = 400; mem->correlationId = 9;
	CUpti_ActivityMemory4 *fr = add(sizeof(*fr), CUPTI_ACTIVITY_KIND_MEMORY2);
	fr->memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
	fr->memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE; fr->address = 0x7f0000000000ULL;
	fr->bytes = 1 << 20; fr->timestamp = 5000;
	CUpti_ActivityContext3 *cx = add(sizeof(*cx), CUPTI_ACTIVITY_KIND_CONTEXT);
	cx->contextId = 1; cx->deviceId = 0;
	CUpti_ActivitySynchronization2 *sy = add(sizeof(*sy), CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
	sy->type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE; sy->start = 3000;
	sy->end = 3300; sy->correlationId = 14; sy->contextId = 1; sy->streamId = 7;
	sy->cudaEventId = UINT32_MAX;
	CUpti_ActivityOverhead3 *ov = add(sizeof(*ov), CUPTI_ACTIVITY_KIND_OVERHEAD);
	ov->overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
	ov->objectKind = CUPTI_ACTIVITY_OBJECT_THREAD; ov->objectId.pt.processId = (uint32_t)getpid();
	ov->objectId.pt.threadId = 4242; ov->start = 6000; ov->end = 6500;
	CUpti_ActivityDevice5 *dv = add(sizeof(*dv), CUPTI_ACTIVITY_KIND_DEVICE);
	dv->id = 0; dv->name = strdup("Test GPU"); dv->numMultiprocessors = 108;
	dv->computeCapabilityMajor = 8; dv->computeCapabilityMinor = 0; dv->coreClockRate = 1410000;
	dv->globalMemorySize = 42949672960ULL; dv->globalMemoryBandwidth = 1555000000ULL;
	dv->numThreadsPerWarp = 32; dv->maxWarpsPerMultiprocessor = 64; dv->l2CacheSize = 41943040;
	dv->maxThreadsPerBlock = 1024;

	pq_store_open(path, 0, &s, &err);
	pq_run_info_init(&run);
	run.source = "collector";
	pq_store_begin_run(s, &run, NULL, &err);
	pq_wctx_init(&w, s, getpid());
	is_int((int64_t)pq_translate_buffer(&w, buf, used), 12, "libcupti steps all 12 records");
	is_int((int64_t)pq_translate_get_stats(&w)->no_timing, 1, "a kernel without timing is counted");
	is_int((int64_t)pq_translate_get_stats(&w)->invalid, 0, "the buffer ends cleanly");
	is_int((int64_t)w.write_errors, 0, "no write errors");
	pq_store_finish_run(s, &err);
	pq_wctx_free(&w);
	pq_store_close(s);

	sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	is_str(q(db, "SELECT count(*) FROM kernels"), "1", "one kernel row");
	is_str(q(db, "SELECT start_ns||','||end_ns||','||correlation_id||','||grid_x||'x'||grid_y||'x'||grid_z"
		     "||','||block_x||','||registers_per_thread||','||static_shared_bytes||','||"
		     "dynamic_shared_bytes||','||local_bytes_per_thread||','||grid_id FROM kernels"),
	       "1000,3000,11,64x2x1,256,32,1024,2048,16,5", "kernel fields");
	is_str(q(db, "SELECT name||'|'||demangled_name||'|'||short_name||'|'||device||'|'||stream FROM v_kernels"),
	       "_Z9vectorAddPKfS0_Pfi|vectorAdd(float const*, float const*, float*, int)|vectorAdd|0|7",
	       "kernel names: mangled, demangled, short; device and stream");
	is_str(q(db, "SELECT group_concat(api||':'||name||':'||start_ns||':'||end_ns||':'||"
		     "correlation_id||':'||return_value||':'||tid, ' ') FROM (SELECT * FROM v_api_calls ORDER BY start_ns)"),
	       "runtime:cudaLaunchKernel:900:950:11:0:4242 driver:cuLaunchKernel:905:940:12:1:4242",
	       "API calls: names through cuptiGetCallbackName, thread, correlation");
	is_str(q(db, "SELECT bytes||','||copy_kind||','||src_kind||','||dst_kind||','||is_async||','||start_ns||','||end_ns FROM memcpys"),
	       "1048576,1,1,2,1,500,800", "memcpy: HtoD, pinned -> device (nsys numbering), async");
	is_str(q(db, "SELECT bytes||','||value||','||memory_kind||','||start_ns||','||correlation_id FROM memsets"),
	       "4096,171,2,3100,13", "memset");
	is_str(q(db, "SELECT group_concat(operation||':'||bytes||':'||memory_kind||':'||total_allocated||':'||address, ' ') FROM memory_events"),
	       "0:1048576:2:1048576:139637976727552 1:1048576:2:0:139637976727552",
	       "memory alloc and free with running totals");
	is_str(q(db, "SELECT sync_type||','||start_ns||','||end_ns||','||correlation_id||','||(device_id IS NOT NULL)||','||ifnull(event_id,'null') FROM synchronizations"),
	       "3,3000,3300,14,1,null", "stream synchronize, device from its context");
	is_str(q(db, "SELECT kind||','||name||','||duration_ns||','||tid FROM v_ranges"),
	       "profiler_overhead,CUPTI buffer flush,500,4242", "overhead as a profiler-overhead range");
	is_str(q(db, "SELECT name||','||sm_count||','||compute_major||'.'||compute_minor||','||core_clock_hz||','||"
		     "global_memory_bytes||','||memory_bandwidth_bytes_per_s||','||max_threads_per_sm||','||l2_cache_bytes FROM devices"),
	       "Test GPU,108,8.0,1410000000,42949672960,1555000000000,2048,41943040",
	       "device properties with units converted");
	is_str(q(db, "SELECT count(*) FROM streams"), "1", "one stream row for device 0 stream 7");
	sqlite3_close(db);

	is_int(pq_memory_kind(CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN), 7, "unknown memory kind -> 7");
	is_int(pq_memory_kind(CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC), 6, "managed static -> 6");
	{
		char *sn = pq_short_name("void at::native::elementwise_kernel<128, 4>(int, float)");
		is_str(sn, "elementwise_kernel", "short name of a templated kernel");
		free(sn);
		sn = pq_short_name("ampere_sgemm_128x64_nn");
		is_str(sn, "ampere_sgemm_128x64_nn", "a plain name stays");
		free(sn);
		ok(pq_demangle("ampere_sgemm_128x64_nn") == NULL, "non-mangled names are not demangled");
	}
	{
		char path2[300];
		snprintf(path2, sizeof(path2), "%s-wal", path); unlink(path2);
		snprintf(path2, sizeof(path2), "%s-shm", path); unlink(path2);
		unlink(path);
	}
	return done_testing();
}
