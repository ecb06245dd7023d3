/* nvtx_event.h - the NVTX event records nvtx.c appends to thread buffers and nvtx_rows.c reads,
 * and the process-wide objects NVTX hands out handles to (domains, registered strings). */
#ifndef PQ_NVTX_EVENT_H
#define PQ_NVTX_EVENT_H

#include <stdint.h>

#include "buffers.h"

enum pq_nv_type {
	PQ_NV_PUSH = 1, PQ_NV_POP, PQ_NV_START, PQ_NV_END, PQ_NV_MARK, PQ_NV_NAME_CATEGORY,
	PQ_NV_NAME_THREAD, PQ_NV_NAME_RESOURCE, PQ_NV_COUNTER
};
/* NAME_RESOURCE: id is the handle, category one of these, payload (INT) CUPTI's id when mapped. */
enum pq_nv_resource {
	PQ_NV_RES_CU_DEVICE = 1, PQ_NV_RES_CU_CONTEXT, PQ_NV_RES_CU_STREAM, PQ_NV_RES_CU_EVENT,
	PQ_NV_RES_CUDA_DEVICE, PQ_NV_RES_CUDA_STREAM, PQ_NV_RES_CUDA_EVENT
};
enum pq_nv_msg { PQ_NV_MSG_NONE = 0, PQ_NV_MSG_TEXT, PQ_NV_MSG_REGISTERED };
/* EXT: payload.i is the offset, from the event's start, of the decoded extended payload (JSON
 * text, NUL-terminated, after the message text). COUNTER events: REAL, the sample. */
enum pq_nv_payload { PQ_NV_PAY_NONE = 0, PQ_NV_PAY_INT, PQ_NV_PAY_REAL, PQ_NV_PAY_EXT };

/* A domain: one per distinct name in the process (every NVTX instance creating "x" gets the same
 * handle). Never freed: events may still point at it. */
typedef struct pq_nv_domain {
	char *name;
	int slot;                  /* index into pq_tbuf.depth (0 is the default domain) */
	struct pq_nv_domain *next;
	int64_t store_id;          /* writer-only cache, valid while store_gen matches */
	uint64_t store_gen;
} pq_nv_domain;

/* A registered string (nvtxDomainRegisterString*). Never freed. */
typedef struct pq_nv_string {
	char *text;
	struct pq_nv_string *next;
} pq_nv_string;

typedef struct pq_nv_event {
	uint32_t size;             /* whole record including text, a multiple of 8 */
	uint8_t type;              /* enum pq_nv_type */
	uint8_t msg;               /* enum pq_nv_msg; TEXT: NUL-terminated text follows */
	uint8_t payload_type;      /* enum pq_nv_payload */
	uint8_t has_color;
	uint32_t category;
	uint32_t color;            /* ARGB */
	uint64_t ts;
	uint64_t id;               /* START/END: range id; NAME_THREAD: OS tid; NAME_CATEGORY: id;
				    * NAME_RESOURCE: handle */
	const pq_nv_domain *domain;  /* NULL: the default domain */
	const pq_nv_string *reg;
	union { int64_t i; double d; } payload;
} pq_nv_event;

static inline const char *pq_nv_text(const pq_nv_event *e)
{
	if (e->msg == PQ_NV_MSG_TEXT)
		return (const char *)(e + 1);
	if (e->msg == PQ_NV_MSG_REGISTERED && e->reg != NULL)
		return e->reg->text;
	return NULL;
}

static inline const char *pq_nv_args(const pq_nv_event *e)
{
	return e->payload_type == PQ_NV_PAY_EXT ? (const char *)e + e->payload.i : NULL;
}

#endif
