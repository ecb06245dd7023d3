/* store_tables.c - column descriptions of the event tables (see schema/schema.sql). */
#include "store_tables.h"

#include <math.h>
#include <string.h>

#include "store.h"

#define INT(T, f)      { #f, PQ_COL_INT, offsetof(T, f), 0, 0 }
#define INT_REQ(T, f)  { #f, PQ_COL_INT, offsetof(T, f), 1, 0 }
#define REAL(T, f)     { #f, PQ_COL_REAL, offsetof(T, f), 0, 0 }
#define REAL_REQ(T, f) { #f, PQ_COL_REAL, offsetof(T, f), 1, 0 }
#define TEXT(T, f)     { #f, PQ_COL_TEXT, offsetof(T, f), 0, 0 }
#define TEXT_REQ(T, f) { #f, PQ_COL_TEXT, offsetof(T, f), 1, 0 }
#define NAME(T, f)     { #f "_id", PQ_COL_NAME, offsetof(T, f), 0, 0 }
#define NAME_REQ(T, f) { #f "_id", PQ_COL_NAME, offsetof(T, f), 1, 0 }
#define VALUE(T, f)    { #f, PQ_COL_VALUE, offsetof(T, f), 0, 0 }
/* A name the caller may hand over already interned (field f##_id): never at offset 0, where
 * every row has process_id. */
#define NAME_ID(T, f, req) { #f "_id", PQ_COL_NAME, offsetof(T, f), req, offsetof(T, f##_id) }
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const pq_col kernel_cols[] = {
	INT(pq_kernel, process_id), INT(pq_kernel, device_id), INT(pq_kernel, stream_id),
	INT_REQ(pq_kernel, start_ns), INT_REQ(pq_kernel, end_ns),
	INT(pq_kernel, correlation_id), INT(pq_kernel, external_id),
	NAME_ID(pq_kernel, name, 1), NAME_ID(pq_kernel, demangled_name, 0),
	NAME_ID(pq_kernel, short_name, 0),
	INT(pq_kernel, grid_x), INT(pq_kernel, grid_y), INT(pq_kernel, grid_z),
	INT(pq_kernel, block_x), INT(pq_kernel, block_y), INT(pq_kernel, block_z),
	INT(pq_kernel, cluster_x), INT(pq_kernel, cluster_y), INT(pq_kernel, cluster_z),
	INT(pq_kernel, registers_per_thread), INT(pq_kernel, static_shared_bytes),
	INT(pq_kernel, dynamic_shared_bytes), INT(pq_kernel, local_bytes_per_thread),
	REAL(pq_kernel, blocks_per_sm), REAL(pq_kernel, warps_per_sm),
	REAL(pq_kernel, est_occupancy_pct),
	INT(pq_kernel, launch_type), INT(pq_kernel, grid_id), INT(pq_kernel, graph_id),
	INT(pq_kernel, graph_node_id), INT(pq_kernel, queued_ns), INT(pq_kernel, submitted_ns),
	TEXT(pq_kernel, args),
};

static const pq_col memcpy_cols[] = {
	INT(pq_memcpy, process_id), INT(pq_memcpy, device_id), INT(pq_memcpy, stream_id),
	INT_REQ(pq_memcpy, start_ns), INT_REQ(pq_memcpy, end_ns),
	INT(pq_memcpy, correlation_id), INT(pq_memcpy, external_id),
	INT(pq_memcpy, bytes), INT_REQ(pq_memcpy, copy_kind), INT(pq_memcpy, src_kind),
	INT(pq_memcpy, dst_kind), INT(pq_memcpy, src_device_id), INT(pq_memcpy, dst_device_id),
	INT(pq_memcpy, is_async), INT(pq_memcpy, migration_cause), INT(pq_memcpy, copy_count),
	INT(pq_memcpy, graph_node_id), TEXT(pq_memcpy, args),
};

static const pq_col memset_cols[] = {
	INT(pq_memset, process_id), INT(pq_memset, device_id), INT(pq_memset, stream_id),
	INT_REQ(pq_memset, start_ns), INT_REQ(pq_memset, end_ns),
	INT(pq_memset, correlation_id), INT(pq_memset, external_id),
	INT(pq_memset, bytes), INT(pq_memset, value), INT(pq_memset, memory_kind),
	INT(pq_memset, is_async), INT(pq_memset, graph_node_id), TEXT(pq_memset, args),
};

static const pq_col api_call_cols[] = {
	INT(pq_api_call, process_id), INT(pq_api_call, thread_id),
	INT_REQ(pq_api_call, start_ns), INT_REQ(pq_api_call, end_ns),
	INT_REQ(pq_api_call, api_kind), INT(pq_api_call, cbid), NAME_ID(pq_api_call, name, 1),
	INT(pq_api_call, correlation_id), INT(pq_api_call, external_id),
	INT(pq_api_call, return_value), TEXT(pq_api_call, args),
};

static const pq_col range_cols[] = {
	INT(pq_range, process_id), INT(pq_range, thread_id), INT(pq_range, end_thread_id),
	INT(pq_range, device_id), INT(pq_range, stream_id),
	INT_REQ(pq_range, start_ns), INT(pq_range, end_ns), INT_REQ(pq_range, kind),
	NAME_ID(pq_range, name, 1), NAME(pq_range, category), INT(pq_range, domain_id),
	INT(pq_range, nvtx_category), INT(pq_range, color), VALUE(pq_range, payload),
	INT(pq_range, depth), INT(pq_range, parent_id), INT(pq_range, range_key),
	INT(pq_range, correlation_id), INT(pq_range, external_id), TEXT(pq_range, args),
};

static const pq_col mark_cols[] = {
	INT(pq_mark, process_id), INT(pq_mark, thread_id), INT_REQ(pq_mark, ts_ns),
	INT_REQ(pq_mark, kind), NAME_ID(pq_mark, name, 1), NAME(pq_mark, category),
	INT(pq_mark, domain_id), INT(pq_mark, nvtx_category), INT(pq_mark, color),
	VALUE(pq_mark, payload), TEXT(pq_mark, scope), TEXT(pq_mark, args),
};

static const pq_col memory_event_cols[] = {
	INT(pq_memory_event, process_id), INT(pq_memory_event, thread_id),
	INT(pq_memory_event, device_id), INT(pq_memory_event, stream_id),
	INT_REQ(pq_memory_event, ts_ns), INT_REQ(pq_memory_event, operation),
	INT(pq_memory_event, address), INT_REQ(pq_memory_event, bytes),
	INT(pq_memory_event, memory_kind), INT(pq_memory_event, total_allocated),
	INT(pq_memory_event, total_reserved), INT(pq_memory_event, correlation_id),
	INT(pq_memory_event, external_id), TEXT(pq_memory_event, args),
};

static const pq_col counter_cols[] = {
	INT(pq_counter, process_id), INT(pq_counter, device_id), NAME_REQ(pq_counter, name),
	INT_REQ(pq_counter, ts_ns), REAL_REQ(pq_counter, value),
};

static const pq_col sync_cols[] = {
	INT(pq_sync, process_id), INT(pq_sync, thread_id), INT(pq_sync, device_id),
	INT(pq_sync, stream_id), INT_REQ(pq_sync, start_ns), INT_REQ(pq_sync, end_ns),
	INT_REQ(pq_sync, sync_type), INT(pq_sync, correlation_id), INT(pq_sync, external_id),
	INT(pq_sync, event_id), INT(pq_sync, return_value), TEXT(pq_sync, args),
};

static const pq_col flow_cols[] = {
	INT(pq_flow, process_id), INT(pq_flow, thread_id), INT_REQ(pq_flow, ts_ns),
	INT_REQ(pq_flow, flow_key), TEXT_REQ(pq_flow, phase), NAME(pq_flow, name),
	NAME(pq_flow, category), INT(pq_flow, binds_enclosing),
};

static const pq_col cuda_name_cols[] = {
	INT(pq_cuda_name, process_id), INT(pq_cuda_name, thread_id), INT_REQ(pq_cuda_name, ts_ns),
	TEXT_REQ(pq_cuda_name, resource), TEXT_REQ(pq_cuda_name, api),
	INT_REQ(pq_cuda_name, handle), INT(pq_cuda_name, cupti_id), NAME_REQ(pq_cuda_name, name),
};

const pq_table pq_tables[PQ_T_COUNT] = {
	[PQ_T_KERNELS] = { "kernels", kernel_cols, N(kernel_cols), sizeof(pq_kernel) },
	[PQ_T_MEMCPYS] = { "memcpys", memcpy_cols, N(memcpy_cols), sizeof(pq_memcpy) },
	[PQ_T_MEMSETS] = { "memsets", memset_cols, N(memset_cols), sizeof(pq_memset) },
	[PQ_T_API_CALLS] = { "api_calls", api_call_cols, N(api_call_cols), sizeof(pq_api_call) },
	[PQ_T_RANGES] = { "ranges", range_cols, N(range_cols), sizeof(pq_range) },
	[PQ_T_MARKS] = { "marks", mark_cols, N(mark_cols), sizeof(pq_mark) },
	[PQ_T_MEMORY_EVENTS] = { "memory_events", memory_event_cols, N(memory_event_cols),
				 sizeof(pq_memory_event) },
	[PQ_T_COUNTERS] = { "counters", counter_cols, N(counter_cols), sizeof(pq_counter) },
	[PQ_T_SYNCHRONIZATIONS] = { "synchronizations", sync_cols, N(sync_cols), sizeof(pq_sync) },
	[PQ_T_FLOWS] = { "flows", flow_cols, N(flow_cols), sizeof(pq_flow) },
	[PQ_T_CUDA_NAMES] = { "cuda_names", cuda_name_cols, N(cuda_name_cols), sizeof(pq_cuda_name) },
};

void pq_table_init_row(const pq_table *t, void *row)
{
	char *base = row;

	for (size_t i = 0; i < t->ncols; i++) {
		void *field = base + t->cols[i].offset;
		switch (t->cols[i].type) {
		case PQ_COL_INT:
			*(int64_t *)field = PQ_NULL;
			break;
		case PQ_COL_REAL:
			*(double *)field = NAN;
			break;
		case PQ_COL_TEXT:
		case PQ_COL_NAME:
			*(const char **)field = NULL;
			break;
		case PQ_COL_VALUE:
			memset(field, 0, sizeof(pq_value));
			break;
		}
	}
}
