/* nvtx_proj.h - shared by the NVTX projection files: nvtx_proj.c (the table-valued functions),
 * nvtx_proj_load.c (reads ranges and GPU operations per thread) and nvtx_proj_sweep.c (nests the
 * ranges and hands each operation to the ranges that contain its API call).
 *
 * Memory, the reason for the layout: a range is 24 bytes and an operation 48, kept per thread so
 * that neither carries its thread and each thread sorts on its own (qsort's scratch is one
 * thread's array, not all of them); ranges of no thread and operations of threads without ranges
 * are never stored.
 */
#ifndef PQ_NVTX_PROJ_H
#define PQ_NVTX_PROJ_H

#include "ext.h"

#include <stddef.h>
#include <stdint.h>

typedef struct pr_range {
	int64_t id, start, end;
} pr_range;

typedef struct pr_op {
	int64_t astart, aend, gstart, gend, corr, kernel_id; /* kernel_id -1: not a kernel */
} pr_op;

typedef struct pr_thread {
	int64_t id;
	pr_range *r;
	size_t nr, cr;
	pr_op *o;
	size_t no, co;
} pr_thread;

typedef struct pr_input {
	pr_thread *t;
	size_t nt, ct;
	uint32_t *slot; /* thread id -> index + 1, open addressing; cslot a power of two */
	size_t cslot;
} pr_input;

/* One output row of nvtx_gpu_proj. */
typedef struct pr_out {
	int64_t range_id, pmin, pmax, parent_id; /* parent_id -1: none */
	int64_t end;                             /* the range's, open ones closed */
	int32_t nops, level, nchild, pad;
} pr_out;

/* What the sweep produces: rows (nvtx_gpu_proj) or (range id, kernel id) pairs
 * (nvtx_kernel_ranges). */
typedef struct pr_result {
	pr_out *rows;
	int64_t *pairs;
	size_t n, cap;
	int pairs_mode;
} pr_result;

/* Grows *buf (of *cap elements of size sz) to hold n + 1; returns -1 when out of memory. */
int pq_pr_grow(void **buf, size_t *cap, size_t n, size_t sz);

/* Reads the ranges and the operations of run (NULL: every run), each thread's sorted by start.
 * kernels_only leaves memcpys and memsets out. Returns an SQLite code; *msg gets the message of
 * an SQL error. */
int pq_pr_load(sqlite3 *db, sqlite3_value *run, int kernels_only, pr_input *in, char **msg);
void pq_pr_input_free(pr_input *in);

/* Sweeps one thread into res. Returns SQLITE_OK or SQLITE_NOMEM. */
int pq_pr_sweep(const pr_thread *t, pr_result *res);

#endif
