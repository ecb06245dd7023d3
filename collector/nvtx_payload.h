/* nvtx_payload.h - NVTX extended payloads (nvtx3/nvToolsExtPayload.h, payload extension v1,
 * NVTX_EXT_PAYLOAD_COMPATID 0x0104 in the CUDA 13 toolkit): the process-wide registry of payload
 * schemas and enums, and decoding a binary payload into JSON text.
 *
 * Decoding happens on the application thread, inside the NVTX call, because a payload may point
 * at memory (strings) that is only valid during the call; only events that carry an extended
 * payload pay for it. The result goes into the event record as text (nvtx.c), and from there into
 * the row's `args` (nvtx_rows.c).
 */
#ifndef PQ_NVTX_PAYLOAD_H
#define PQ_NVTX_PAYLOAD_H

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExtPayload.h>

#include <stddef.h>
#include <stdint.h>

#include "collector.h"

/* nvtxPayloadSchemaRegister / nvtxPayloadEnumRegister: copies what attr describes (nothing of it
 * is kept by reference) and returns the schema id: attr's own (static) id when it gives one, else
 * a new one from NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START; 0 when attr is unusable. */
uint64_t pq_payload_schema_register(const void *domain, const nvtxPayloadSchemaAttr_t *attr) PQ_HIDDEN;
uint64_t pq_payload_enum_register(const void *domain, const nvtxPayloadEnumAttr_t *attr) PQ_HIDDEN;

/* Writes count payloads as one JSON object (the fields of every payload, in order) into out
 * (cap bytes, NUL-terminated). *message (may be NULL) receives the text of a field flagged
 * NVTX_PAYLOAD_ENTRY_FLAG_EVENT_MESSAGE, copied into msg_buf (msg_cap bytes), or NULL. Returns the
 * JSON's length; a payload that does not fit gives {"truncated":true}. */
size_t pq_payload_json(const void *domain, const nvtxPayloadData_t *pd, size_t count, char *out,
		       size_t cap, char *msg_buf, size_t msg_cap, const char **message) PQ_HIDDEN;

/* Calls fn(ctx, field, value) for every numeric field of a payload of the given schema (counter
 * samples): once with field NULL when schema is a predefined scalar type (NVTX_PAYLOAD_ENTRY_TYPE_*),
 * once per numeric entry (named) for a registered schema. Returns the number of calls. */
typedef void (*pq_payload_field_fn)(void *ctx, const char *field, double value);
size_t pq_payload_numeric_fields(const void *domain, uint64_t schema, const void *data,
				 size_t size, pq_payload_field_fn fn, void *ctx) PQ_HIDDEN;

#endif
