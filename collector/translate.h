/* translate.h - CUPTI activity records (CUDA 13.0 structs) to store rows.
 *
 * Callable without injection: a test or benchmark makes a pq_wctx on its own store and hands
 * hand-built buffers to pq_translate_buffer, which steps them with the real
 * cuptiActivityGetNextRecord exactly as the collector's writer does.
 *
 * Mappings to the schema's Nsight-Systems-numbered enums:
 *   copy kinds: CUpti_ActivityMemcpyKind 0..10 are the same numbers (unknown, htod, ..., ptop);
 *   memory kinds: CUpti_ActivityMemoryKind PAGEABLE=1..MANAGED_STATIC=7 -> 0..6, UNKNOWN -> 7;
 *   sync types: CUpti_ActivitySynchronizationType 0..4 are the same numbers.
 * Timestamps are CUPTI's (CLOCK_REALTIME ns on Linux, so already on the Unix epoch). Device
 * records' name strings belong to the client (cupti_activity.h) and are freed here.
 */
#ifndef PQ_TRANSLATE_H
#define PQ_TRANSLATE_H

#include <stddef.h>
#include <stdint.h>

#include <cupti.h>

#include "writer.h"

typedef struct pq_translate_stats {
	uint64_t records;        /* records stepped */
	uint64_t written;        /* rows written (or device/context/stream facts kept) */
	uint64_t no_timing;      /* kernels/copies with start == end == 0 (CUPTI lacked memory) */
	uint64_t skipped_kinds;  /* records of kinds the collector does not store */
	uint64_t invalid;        /* buffers that ended with an invalid record */
} pq_translate_stats;

/* Steps buf[0..valid) and writes every record; returns the number of records. */
size_t pq_translate_buffer(pq_wctx *w, uint8_t *buf, size_t valid);
/* One record. */
void pq_translate_record(pq_wctx *w, const CUpti_Activity *rec);
const pq_translate_stats *pq_translate_get_stats(pq_wctx *w);
void pq_translate_free(pq_translate *t);

/* Kernel-name helpers (exposed for tests): __cxa_demangle's result or NULL (caller frees), and the
 * bare function name of a (demangled) signature (caller frees). */
char *pq_demangle(const char *mangled);
char *pq_short_name(const char *signature);
/* CUPTI enum -> schema enum. */
int64_t pq_memory_kind(uint32_t cupti_kind);

#endif
