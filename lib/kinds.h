/* kinds.h - names of the activity groups the collector records (--kinds / PROFQ_KINDS). */
#ifndef PQ_KINDS_H
#define PQ_KINDS_H

#include <stddef.h>

enum pq_kind_bits {
	PQ_K_KERNEL = 1 << 0, PQ_K_RUNTIME = 1 << 1, PQ_K_DRIVER = 1 << 2, PQ_K_MEMCPY = 1 << 3,
	PQ_K_MEMSET = 1 << 4, PQ_K_MEMORY = 1 << 5, PQ_K_SYNC = 1 << 6, PQ_K_OVERHEAD = 1 << 7,
	PQ_K_DEVICE = 1 << 8, PQ_K_CONTEXT = 1 << 9, PQ_K_STREAM = 1 << 10, PQ_K_GRAPH = 1 << 11,
	PQ_K_NVTX = 1 << 12,
	PQ_K_DEFAULT = ((1 << 13) - 1) & ~PQ_K_GRAPH,
};

/* Parses "kernel,runtime,..." ("all" and "default" allowed) into bits; 0, or -1 with a message. */
int pq_kind_parse(const char *text, unsigned *bits, char *err, size_t errlen);

/* The comma-separated names of every group, for messages. */
extern const char pq_kind_names[];

#endif
