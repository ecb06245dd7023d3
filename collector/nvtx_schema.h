/* nvtx_schema.h - the registry of NVTX payload schemas and enums (nvtx_schema.c), as the payload
 * decoder (nvtx_payload.c) reads it. Internal to those two files; registration is declared in
 * nvtx_payload.h.
 */
#ifndef PQ_NVTX_SCHEMA_H
#define PQ_NVTX_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "nvtx_payload.h"

typedef struct entry {
	uint64_t flags, type, detail;
	size_t offset, size, align;   /* resolved layout; size 0: variable or unknown */
	char *name;
} entry;

typedef struct enumerator {
	char *name;
	uint64_t value;
	int is_flag;
} enumerator;

typedef struct schema {
	const void *domain;
	uint64_t id;
	char *name;
	int is_enum;
	entry *e;
	size_t n, size, align;
	enumerator *en;          /* enums */
	struct schema *next;
} schema;

/* The schema or enum registered as id (static ids are per domain, dynamic ones per process), or
 * NULL. Lock-free: registered schemas are immutable and never freed. */
const schema *pq_schema_find(const void *domain, uint64_t id) PQ_HIDDEN;

/* Size (= alignment) of a predefined fixed-size type (NVTX_PAYLOAD_ENTRY_TYPE_*), else 0. */
size_t pq_schema_scalar_size(uint64_t type) PQ_HIDDEN;

/* Whether type is a char C string (CSTRING or CSTRING_UTF8). */
int pq_schema_is_cstring(uint64_t type) PQ_HIDDEN;

/* Size and alignment of one element of entry e; size 0 when variable or unknown. */
void pq_schema_element_layout(const void *domain, const entry *e, size_t *size, size_t *align) PQ_HIDDEN;

#endif
