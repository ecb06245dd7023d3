/* store_tables.h - how each event struct of store.h maps onto its table's columns (internal to the
 * store). One description per table drives both the row initialiser and the INSERT statement. */
#ifndef PQ_STORE_TABLES_H
#define PQ_STORE_TABLES_H

#include <stddef.h>

enum pq_col_type {
	PQ_COL_INT,    /* int64_t, PQ_NULL = NULL */
	PQ_COL_REAL,   /* double, NaN = NULL */
	PQ_COL_TEXT,   /* const char *, stored as text */
	PQ_COL_NAME,   /* const char *, interned: the column holds a strings.id */
	PQ_COL_VALUE   /* pq_value */
};

typedef struct pq_col {
	const char *column;
	enum pq_col_type type;
	size_t offset;
	int required;  /* a NULL here is a caller error */
	size_t id_offset; /* PQ_COL_NAME: where the row may carry the text's strings.id; 0: never */
} pq_col;

typedef struct pq_table {
	const char *name;
	const pq_col *cols;
	size_t ncols;
	size_t row_size; /* sizeof the row struct */
} pq_table;

enum pq_table_id {
	PQ_T_KERNELS, PQ_T_MEMCPYS, PQ_T_MEMSETS, PQ_T_API_CALLS, PQ_T_RANGES, PQ_T_MARKS,
	PQ_T_MEMORY_EVENTS, PQ_T_COUNTERS, PQ_T_SYNCHRONIZATIONS, PQ_T_FLOWS, PQ_T_CUDA_NAMES,
	PQ_T_COUNT
};

extern const pq_table pq_tables[PQ_T_COUNT];

/* Sets every described field of row to its NULL value. */
void pq_table_init_row(const pq_table *t, void *row);

#endif
