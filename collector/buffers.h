/* buffers.h - per-thread event buffers: the NVTX hot path appends, the writer thread drains.
 *
 * Each thread owns a chain of fixed-size chunks (single producer: the thread; single consumer: the
 * writer). Appending is a bounds check, a copy and one release store; no lock, no system call,
 * except taking a fresh chunk from the shared pool (a mutex, once per PQ_CHUNK_BYTES). The pool
 * is bounded (pq_cfg.buffer_bytes): when it is empty an event is dropped and counted, never waited
 * for. Events are framed by their first 4 bytes (total size, a multiple of 8).
 */
#ifndef PQ_BUFFERS_H
#define PQ_BUFFERS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "collector.h"

#define PQ_CHUNK_BYTES (64 * 1024)
#define PQ_MAX_DOMAIN_SLOTS 32

typedef struct pq_chunk pq_chunk;

typedef struct pq_tbuf {
	/* producer (the owning thread) */
	pq_chunk *cur;
	size_t pos;
	int depth[PQ_MAX_DOMAIN_SLOTS];   /* NVTX push/pop level per domain slot */
	int capture_depth;                /* push level that opened the capture range, or -1 */
	/* shared */
	int64_t tid;
	_Atomic(pq_chunk *) head;         /* oldest chunk the writer has not finished */
	_Atomic int dead;                 /* the thread has exited */
	_Atomic uint64_t dropped;
	/* writer */
	void *wstate;                     /* nvtx_rows.c's per-thread state */
	struct pq_tbuf *next;             /* registry, under the registry mutex */
} pq_tbuf;

/* The calling thread's buffer, made on first use; NULL when out of memory. */
pq_tbuf *pq_tbuf_self(void) PQ_HIDDEN;

/* Space for n bytes (n a multiple of 8, <= PQ_CHUNK_BYTES), or NULL: the event is dropped
 * (counted). pq_tbuf_commit publishes those bytes to the writer. */
void *pq_tbuf_reserve(pq_tbuf *t, size_t n) PQ_HIDDEN;
void pq_tbuf_commit(pq_tbuf *t, size_t n) PQ_HIDDEN;

/* Writer: hands every published event of every thread to visit(ctx, thread, event) in each
 * thread's order, recycles consumed chunks, frees buffers of exited threads (after calling
 * forget(ctx, thread)). Returns the number of events. */
typedef void (*pq_tbuf_visit_fn)(void *ctx, pq_tbuf *t, const void *event);
size_t pq_buffers_drain(pq_tbuf_visit_fn visit, void (*forget)(void *ctx, pq_tbuf *t),
			void *ctx) PQ_HIDDEN;

/* Events dropped because the pool was exhausted, over all threads ever. */
uint64_t pq_buffers_dropped(void) PQ_HIDDEN;

/* fork: prepare takes the locks, parent releases them, child keeps only the calling thread's
 * buffer, emptied (what it held belongs to the parent, which writes it). */
void pq_buffers_atfork_prepare(void) PQ_HIDDEN;
void pq_buffers_atfork_parent(void) PQ_HIDDEN;
void pq_buffers_atfork_child(void (*forget)(void *ctx, pq_tbuf *t), void *ctx) PQ_HIDDEN;

#endif
