/* cupti.c - CUPTI setup, activity buffers and flushing (see cupti.h).
 *
 * API facts used (cupti_activity.h / cupti_callbacks.h, CUDA 13.0; notes §2): buffers must be
 * 8-byte aligned; the completion callback's context and stream are always NULL/0; the dropped-record
 * counter resets on each read; without a driver cuptiActivityEnable and cuptiSubscribe return
 * CUPTI_ERROR_UNKNOWN (999) and nothing crashes; cuptiFinalize is never called at exit.
 */
#include "cupti_collect.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

#include "translate.h"

#define BUF_BYTES (4u << 20)   /* CUPTI recommends 1-10 MB (Kineto's comment, notes §2.3) */

typedef struct done_buf {
	uint8_t *buf;
	size_t valid;
	struct done_buf *next;
} done_buf;

static pthread_mutex_t q_mtx = PTHREAD_MUTEX_INITIALIZER;
static done_buf *q_head, **q_tail = &q_head;
static size_t outstanding;               /* buffers given to CUPTI or queued */
static _Atomic int active;
static _Atomic uint64_t dropped;
static CUpti_SubscriberHandle subscriber;

static const struct { unsigned bit; CUpti_ActivityKind kind; } kinds[] = {
	{ PQ_K_DEVICE, CUPTI_ACTIVITY_KIND_DEVICE },   /* may be refused: devices come anyway */
	{ PQ_K_CONTEXT, CUPTI_ACTIVITY_KIND_CONTEXT },
	{ PQ_K_STREAM, CUPTI_ACTIVITY_KIND_STREAM },
	{ PQ_K_KERNEL, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL },
	{ PQ_K_RUNTIME, CUPTI_ACTIVITY_KIND_RUNTIME },
	{ PQ_K_DRIVER, CUPTI_ACTIVITY_KIND_DRIVER },
	{ PQ_K_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY },
	{ PQ_K_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2 },
	{ PQ_K_MEMSET, CUPTI_ACTIVITY_KIND_MEMSET },
	{ PQ_K_MEMORY, CUPTI_ACTIVITY_KIND_MEMORY2 },
	{ PQ_K_SYNC, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION },
	{ PQ_K_OVERHEAD, CUPTI_ACTIVITY_KIND_OVERHEAD },
	{ PQ_K_GRAPH, CUPTI_ACTIVITY_KIND_GRAPH_TRACE },
};

static size_t max_buffers(void)
{
	size_t n = pq_cfg.buffer_bytes / BUF_BYTES;

	return n < 4 ? 4 : n;
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	uint8_t *b = NULL;

	pthread_mutex_lock(&q_mtx);
	if (outstanding < max_buffers()) {
		b = aligned_alloc(8, BUF_BYTES);
		if (b != NULL)
			outstanding++;
	}
	pthread_mutex_unlock(&q_mtx);
	*buffer = b;           /* NULL: CUPTI drops records and counts them */
	*size = b != NULL ? BUF_BYTES : 0;
	*max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
				      size_t valid)
{
	done_buf *d = malloc(sizeof(*d));
	size_t n = 0;

	(void)size;
	if (cuptiActivityGetNumDroppedRecords(ctx, stream, &n) == CUPTI_SUCCESS && n > 0)
		atomic_fetch_add(&dropped, n);
	pthread_mutex_lock(&q_mtx);
	if (d == NULL) {
		free(buffer);
		outstanding--;
	} else {
		d->buf = buffer;
		d->valid = valid;
		d->next = NULL;
		*q_tail = d;
		q_tail = &d->next;
	}
	pthread_mutex_unlock(&q_mtx);
	pq_writer_wake();
}

void pq_cupti_drain(pq_wctx *w)
{
	done_buf *d, *list;

	pthread_mutex_lock(&q_mtx);
	list = q_head;
	q_head = NULL;
	q_tail = &q_head;
	pthread_mutex_unlock(&q_mtx);
	while ((d = list) != NULL) {
		list = d->next;
		pq_translate_buffer(w, d->buf, d->valid);
		free(d->buf);
		free(d);
		pthread_mutex_lock(&q_mtx);
		outstanding--;
		pthread_mutex_unlock(&q_mtx);
	}
}

static void note_result(const char *what, CUptiResult rc)
{
	const char *msg = NULL;
	char text[256];

	cuptiGetResultString(rc, &msg);
	snprintf(text, sizeof(text), "off: %s failed: %s%s", what, msg != NULL ? msg : "unknown error",
		 rc == CUPTI_ERROR_UNKNOWN ? " (no usable CUDA driver or GPU)" : "");
	pq_writer_note("gpu_tracing", text);
}

/* Driver callbacks: cuProfilerStart/Stop drive --capture-range cudaProfilerApi. */
static void CUPTIAPI on_callback(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
				 const void *data)
{
	const CUpti_CallbackData *cb = data;

	(void)user;
	if (domain != CUPTI_CB_DOMAIN_DRIVER_API || cb->callbackSite != CUPTI_API_EXIT)
		return;
	if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart)
		pq_capture_set(1);
	else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop)
		pq_capture_set(0);
}

static int enable_all(int on)
{
	CUptiResult rc, first = CUPTI_SUCCESS;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (!(pq_cfg.kinds & kinds[i].bit))
			continue;
		rc = on ? cuptiActivityEnable(kinds[i].kind) : cuptiActivityDisable(kinds[i].kind);
		/* DEVICE cannot be enabled on some versions; its records arrive regardless. */
		if (rc != CUPTI_SUCCESS && kinds[i].kind != CUPTI_ACTIVITY_KIND_DEVICE &&
		    first == CUPTI_SUCCESS)
			first = rc;
	}
	if (first != CUPTI_SUCCESS && on)
		note_result("cuptiActivityEnable", first);
	return first == CUPTI_SUCCESS ? 0 : -1;
}

int pq_cupti_start(void)
{
	uint32_t version = 0;
	CUptiResult rc;
	CUpti_SubscriberParams params;
	char old_name[128] = "", text[256];

	if ((pq_cfg.kinds & ~(unsigned)PQ_K_NVTX) == 0) {
		pq_writer_note("gpu_tracing", "off: no activity kinds requested");
		return -1;
	}
	if (cuptiGetVersion(&version) != CUPTI_SUCCESS || version < CUPTI_API_VERSION) {
		snprintf(text, sizeof(text), "off: libcupti API version %u is older than %u, which "
			 "the collector was built for", version, (unsigned)CUPTI_API_VERSION);
		pq_writer_note("gpu_tracing", text);
		return -1;
	}
	memset(&params, 0, sizeof(params));
	params.structSize = sizeof(params);
	params.subscriberName = "profq";
	params.oldSubscriberName = old_name;
	params.oldSubscriberSize = sizeof(old_name);
	rc = cuptiSubscribe_v2(&subscriber, (CUpti_CallbackFunc)on_callback, NULL, &params);
	if (rc == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
		snprintf(text, sizeof(text), "off: another CUPTI client is attached (%s)",
			 old_name[0] ? old_name : "Nsight Systems, Nsight Compute, a profiler...");
		pq_writer_note("gpu_tracing", text);
		return -1;
	}
	if (rc != CUPTI_SUCCESS) {
		note_result("cuptiSubscribe", rc);
		return -1;
	}
	if (pq_cfg.capture_profiler_api) {
		cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
				    CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
		cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
				    CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
	}
	/* gettid() thread ids, as NVTX events carry. */
	cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
	rc = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
	if (rc != CUPTI_SUCCESS) {
		note_result("cuptiActivityRegisterCallbacks", rc);
		return -1;
	}
	if (atomic_load(&pq_capturing) && enable_all(1) != 0)
		return -1;
	atomic_store(&active, 1);
	pq_writer_note("gpu_tracing", "on");
	return 0;
}

int pq_cupti_active(void)
{
	return atomic_load(&active);
}

void pq_cupti_flush(int forced)
{
	if (atomic_load(&active))
		cuptiActivityFlushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
}

uint64_t pq_cupti_dropped(void)
{
	size_t n = 0;

	if (atomic_load(&active) && cuptiActivityGetNumDroppedRecords(NULL, 0, &n) == CUPTI_SUCCESS)
		atomic_fetch_add(&dropped, n);
	return atomic_load(&dropped);
}

void pq_cupti_capture(int on)
{
	if (!atomic_load(&active))
		return;
	enable_all(on);
	if (!on)
		cuptiActivityFlushAll(0);
}

void pq_cupti_atfork_prepare(void)
{
	pthread_mutex_lock(&q_mtx);
}

void pq_cupti_atfork_parent(void)
{
	pthread_mutex_unlock(&q_mtx);
}

/* CUDA cannot be used in a child forked after CUDA initialised; queued buffers are the parent's. */
void pq_cupti_atfork_child(void)
{
	done_buf *d;

	while ((d = q_head) != NULL) {
		q_head = d->next;
		free(d->buf);
		free(d);
	}
	q_tail = &q_head;
	outstanding = 0;
	atomic_store(&active, 0);
	atomic_store(&dropped, 0);
	pthread_mutex_unlock(&q_mtx);
}
