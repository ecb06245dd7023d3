/* nvtx_tool.h - what nvtx.c shares with the other NVTX modules it installs (nvtx_cuda.c,
 * nvtx_ext.c): filling an NVTX instance's function table and appending naming events. */
#ifndef PQ_NVTX_TOOL_H
#define PQ_NVTX_TOOL_H

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "collector.h"

typedef struct pq_nvtx_slot { unsigned id; NvtxFunctionPointer fn; } pq_nvtx_slot;
#define PQ_NVTX_FN(f) ((NvtxFunctionPointer)(void (*)(void))(f))

/* Installs n handlers into module's table of one NVTX instance; 0 when the instance has no such
 * module (then its calls stay no-ops), 1 otherwise. */
int pq_nvtx_fill(const NvtxExportTableCallbacks *cb, NvtxCallbackModule module,
		 const pq_nvtx_slot *s, size_t n) PQ_HIDDEN;

/* Appends a PQ_NV_NAME_RESOURCE event (nvtx_event.h) for the calling thread: text a or w names
 * the object `handle` of kind `resource` (enum pq_nv_resource); cupti_id < 0: not mapped. */
void pq_nvtx_name_resource(unsigned resource, uint64_t handle, int64_t cupti_id, const char *a,
			   const wchar_t *w) PQ_HIDDEN;

/* nvtx_cuda.c: the CUDA and CUDART modules (naming CUDA objects). */
void pq_nvtx_cuda_fill(const NvtxExportTableCallbacks *cb) PQ_HIDDEN;

/* Events of the payload and counters extensions (nvtx_ext.c), with their decoded payload args
 * (JSON text or NULL); d is a domain handle or NULL. Same capture and nesting rules as the core
 * calls. A counter sample is a named series' value. */
int pq_nvtx_push_args(const void *d, const char *text, const char *args) PQ_HIDDEN;
int pq_nvtx_pop(const void *d) PQ_HIDDEN;
uint64_t pq_nvtx_start_args(const void *d, const char *text, const char *args) PQ_HIDDEN;
void pq_nvtx_end(const void *d, uint64_t id) PQ_HIDDEN;
void pq_nvtx_mark_args(const void *d, const char *text, const char *args) PQ_HIDDEN;
void pq_nvtx_counter(const void *d, const char *series, double value) PQ_HIDDEN;

/* UTF-32 (Linux wchar_t) to UTF-8 into out (room for cap bytes including the NUL). */
size_t pq_wide_to_utf8(const wchar_t *w, char *out, size_t cap) PQ_HIDDEN;

#endif
