/* writer.h - the writer thread and its context: the one place that holds the store.
 *
 * The context (pq_wctx) is also usable without the thread: tests and benchmarks make one on a
 * store of their own and feed it NVTX events or CUPTI buffers directly.
 */
#ifndef PQ_WRITER_H
#define PQ_WRITER_H

#include <stdint.h>

#include "buffers.h"
#include "store.h"
#include "u64map.h"

typedef struct pq_translate pq_translate;

typedef struct pq_wctx {
	pq_store *store;
	int64_t pid;
	int64_t process_id;     /* processes.id of pid, PQ_NULL until known */
	uint64_t gen;           /* changes when ids cached outside the store become invalid */
	pq_u64map starts;       /* NVTX start/end range id -> ranges.id */
	pq_u64map orphan_ends;  /* range id -> end timestamp, for ends seen before their start */
	pq_u64map orphan_tids;  /* range id -> thread row of the end */
	pq_translate *tr;       /* CUPTI record translation */
	uint64_t nvtx_events, nvtx_unmatched, write_errors;
	pq_error err;           /* the first write error */
} pq_wctx;

/* A context writing into s for process pid (s may be NULL and set later). */
void pq_wctx_init(pq_wctx *w, pq_store *s, int64_t pid);
/* Frees maps and the translator (not the store). */
void pq_wctx_free(pq_wctx *w);
/* The processes.id of w->pid, or PQ_NULL after a failed write. */
int64_t pq_wctx_process(pq_wctx *w);
/* Counts a failed write and keeps its message (the first). */
void pq_wctx_failed(pq_wctx *w, const pq_error *err);

/* nvtx_rows.c: NVTX events to rows. visit is a pq_tbuf_visit_fn with ctx = pq_wctx. */
void pq_nvtx_rows_event(void *ctx, pq_tbuf *t, const void *event) PQ_HIDDEN;
void pq_nvtx_rows_forget(void *ctx, pq_tbuf *t) PQ_HIDDEN;

/* The writer thread (writer.c). */
int pq_writer_start(void) PQ_HIDDEN;
/* Drains everything (after a forced CUPTI flush), commits, stops the thread, finishes the
 * collector's own run when it made one. reason goes into the run metadata. Idempotent. */
void pq_writer_shutdown(const char *reason) PQ_HIDDEN;
/* Drains and commits now, keeping the thread (before chaining to an application's handler). */
void pq_writer_checkpoint(void) PQ_HIDDEN;
/* Wakes the writer (a CUPTI buffer is ready). */
void pq_writer_wake(void) PQ_HIDDEN;
/* Per-process facts for the run metadata ("process.<pid>.<key>"), written by the writer. */
void pq_writer_note(const char *key, const char *value) PQ_HIDDEN;
/* Writes pending notes now (from the writer, with the store held). */
void pq_writer_notes_flush(pq_wctx *w) PQ_HIDDEN;
/* Registers the fork handlers (once per process). */
void pq_writer_atfork_register(void) PQ_HIDDEN;

#endif
