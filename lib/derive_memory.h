/* derive_memory.h - tb_memory_sums (v_tb_memory_sums, tb_plugin's memory statistics per operator)
 * computed in C by the operator sums' job (derive_ops.c), from its host ranges. */
#ifndef PQ_DERIVE_MEMORY_H
#define PQ_DERIVE_MEMORY_H

#include "derive.h"

/* One row: run, device (dev 0 'CPU', 1 'GPU<ordinal>', 2 NULL: no devices row), operator name. */
typedef struct {
	sqlite3_int64 run, name, ordinal;
	sqlite3_int64 size, self_size, alloc_count, self_alloc_count, alloc_size, self_alloc_size;
	int dev, has_size, used;
} pq_memory_sum;

/* The calls of an operator name in a run (its kind-2 nodes). */
typedef struct {
	sqlite3_int64 run, name, calls;
} pq_memory_call;

typedef struct {
	pq_memory_sum *g;       /* the rows, g[0..n) */
	size_t n, cap;
	pq_memory_call *calls;  /* by (run, name) */
	size_t ncalls;
	int use_view;           /* a value the C does not read as the view does: the view computes */
} pq_memory_rows;

/* The rows of the runs the query runs selects, from their host ranges h (pq_host_ranges_load's)
 * and memory events: 0, or -1 with err set. */
int pq_memory_sums(sqlite3 *db, const char *runs, const pq_host_range *h, size_t nh,
		   pq_memory_rows *r, pq_error *err);
/* Inserts the rows of the runs the query runs selects into tb_memory_sums. */
int pq_memory_sums_insert(sqlite3 *db, const char *runs, const pq_memory_rows *r, pq_error *err);
void pq_memory_rows_free(pq_memory_rows *r);

#endif
