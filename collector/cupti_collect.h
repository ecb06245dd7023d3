/* cupti_collect.h - (cupti.c) CUPTI activity collection: enabling kinds, buffers handed to the writer, flushing.
 *
 * CUPTI calls bufferRequested/bufferCompleted on its own threads (or on the thread calling
 * cuptiActivityFlushAll); completed buffers only join a queue here, the writer translates them.
 * Buffers are bounded: when the limit is reached CUPTI gets no buffer and counts the records it
 * drops (cuptiActivityGetNumDroppedRecords), which the run's metadata reports.
 */
#ifndef PQ_CUPTI_COLLECT_H
#define PQ_CUPTI_COLLECT_H

#include <stdint.h>

#include "writer.h"

/* Subscribes and enables the configured kinds. 0: GPU tracing on; -1: off, and the reason is
 * noted in the run metadata (process.<pid>.gpu_tracing). */
int pq_cupti_start(void) PQ_HIDDEN;
int pq_cupti_active(void) PQ_HIDDEN;
/* cuptiActivityFlushAll; forced also returns buffers with incomplete records (at exit). */
void pq_cupti_flush(int forced) PQ_HIDDEN;
/* Writer: translates and frees every completed buffer. */
void pq_cupti_drain(pq_wctx *w) PQ_HIDDEN;
/* Records CUPTI dropped (no buffer, or full device buffers). */
uint64_t pq_cupti_dropped(void) PQ_HIDDEN;
/* Capture ranges switch the enabled kinds on and off. */
void pq_cupti_capture(int on) PQ_HIDDEN;
void pq_cupti_atfork_prepare(void) PQ_HIDDEN;
void pq_cupti_atfork_parent(void) PQ_HIDDEN;
void pq_cupti_atfork_child(void) PQ_HIDDEN;

#endif
