/* nsys_cuda.c - CUDA activity tables of an nsys export -> kernels, memcpys, memsets,
 * synchronizations; CUPTI_ACTIVITY_KIND_RUNTIME -> api_calls.
 *
 * Every table is read in one SELECT ordered by start (rowid breaks ties, so two imports of a file
 * write the same rows in the same order). GPU rows name their process by globalPid, API rows by
 * globalTid; both decode to the same process row, so (process_id, correlation_id) joins a kernel
 * to its launching call as NVIDIA's reports do (kernel.globalPid == runtime.globalTid with the TID
 * bits cleared; correlation ids are unique per process only, notes §1.3). Kernels whose launching
 * call is not in the export (a time-sliced export) are kept with their correlation id.
 */
#include "nsys.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "put_int.h"

#define BAD_TIME NSYS_BAD_TIME

/* A JSON object of the non-NULL integer fields, in buf; NULL when there are none (or they do not
 * fit: a key is at most 32 bytes). */
static const char *json_ints(char *buf, size_t size, const char *const *keys,
			     const int64_t *vals, int n)
{
	size_t len = 0;

	for (int i = 0; i < n; i++) {
		size_t kl = strlen(keys[i]);

		if (vals[i] == PQ_NULL)
			continue;
		if (kl > 32 || len + kl + 26 >= size)
			return NULL;
		buf[len] = len == 0 ? '{' : ',';
		len++;
		buf[len++] = '"';
		memcpy(buf + len, keys[i], kl);
		len += kl;
		buf[len++] = '"';
		buf[len++] = ':';
		len += pq_put_int(buf + len, vals[i]);
	}
	if (len == 0)
		return NULL;
	buf[len++] = '}';
	buf[len] = '\0';
	return buf;
}

/* start/end of a GPU or API row, on the run's time base; 1 = bad row. */
static int interval(nsys_ctx *c, const nsys_read *rd, int64_t *start, int64_t *end)
{
	if (nsys_time(c, rd, 0, start) != 0 || nsys_time(c, rd, 1, end) != 0 || *end < *start)
		return 1;
	return 0;
}

/* Process, device and stream of a GPU row whose columns 2, 3, 5 are deviceId, streamId,
 * globalPid. */
static int gpu_dims(nsys_ctx *c, const nsys_read *rd, int64_t *process, int64_t *device,
		    int64_t *stream)
{
	if (nsys_process(c, nsys_int(rd, 5), process) != 0 ||
	    nsys_device(c, nsys_int(rd, 2), device) != 0)
		return -1;
	return nsys_stream(c, *process, *device, nsys_int(rd, 3), stream);
}

#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))

enum {
	K_START, K_END, K_DEV, K_STREAM, K_CORR, K_GPID, K_MANGLED, K_DEMANGLED, K_SHORT,
	K_GX, K_GY, K_GZ, K_BX, K_BY, K_BZ, K_CX, K_CY, K_CZ, K_REGS, K_SSHM, K_DSHM, K_LOCAL,
	K_LAUNCH, K_GRID, K_GRAPH, K_GRAPH_NODE, K_CTX, K_GREEN_CTX, K_SHM_EXEC, K_LOCAL_TOTAL,
	K_CACHE, K_SHM_LIMIT, K_COUNT
};

static const nsys_col kernels_cols[K_COUNT] = {
	{ "start", NSYS_REQ }, { "end", NSYS_REQ }, { "deviceId", 0 }, { "streamId", 0 },
	{ "correlationId", 0 }, { "globalPid", 0 }, { "mangledName", NSYS_STR },
	{ "demangledName", NSYS_STR }, { "shortName", NSYS_STR },
	{ "gridX", 0 }, { "gridY", 0 }, { "gridZ", 0 },
	{ "blockX", 0 }, { "blockY", 0 }, { "blockZ", 0 },
	{ "clusterX", 0 }, { "clusterY", 0 }, { "clusterZ", 0 },
	{ "registersPerThread", 0 }, { "staticSharedMemory", 0 },
	{ "dynamicSharedMemory", 0 }, { "localMemoryPerThread", 0 }, { "launchType", 0 },
	{ "gridId", 0 }, { "graphId", 0 }, { "graphNodeId", 0 }, { "contextId", 0 },
	{ "greenContextId", 0 }, { "sharedMemoryExecuted", 0 }, { "localMemoryTotal", 0 },
	{ "cacheConfig", 0 }, { "sharedMemoryLimitConfig", 0 },
};
const nsys_query nsys_q_kernels = {
	"CUPTI_ACTIVITY_KIND_KERNEL", kernels_cols, K_COUNT, NULL, "t.start, t.rowid",
	NSYS_ROWID_IF_BY_START
};

int nsys_import_kernels(nsys_ctx *c)
{
	/* Columns without a place in kernels: kept in args under their nsys names. */
	static const char *const arg_keys[] = {
		"contextId", "greenContextId", "sharedMemoryExecuted", "localMemoryTotal",
		"cacheConfig", "sharedMemoryLimitConfig",
	};
	const char *const table = "CUPTI_ACTIVITY_KIND_KERNEL";
	nsys_read rd;

	if (nsys_open_read(c, &nsys_q_kernels, &rd) != 0)
		return -1;
	while (nsys_next(&rd) == 1) {
		pq_kernel k;
		int64_t extra[6];
		char args[256];

		c->stats->events++;
		pq_kernel_init(&k);
		if (interval(c, &rd, &k.start_ns, &k.end_ns)) {
			if (nsys_bad_row(c, table, BAD_TIME) != 0)
				break;
			continue;
		}
		/* name: as CUPTI reports it (mangled) when the export has it, else demangled. */
		k.demangled_name = nsys_text(&rd, K_DEMANGLED);
		k.short_name = nsys_text(&rd, K_SHORT);
		k.name = nsys_text(&rd, K_MANGLED);
		if (k.name == NULL)
			k.name = k.demangled_name != NULL ? k.demangled_name : k.short_name;
		if (k.name == NULL) {
			if (nsys_bad_row(c, table, "no kernel name (missing StringIds entry)") != 0)
				break;
			continue;
		}
		if (nsys_name_id(c, &rd, K_DEMANGLED, &k.demangled_name_id) != 0 ||
		    nsys_name_id(c, &rd, K_SHORT, &k.short_name_id) != 0 ||
		    nsys_name_id(c, &rd, K_MANGLED, &k.name_id) != 0)
			break;
		if (k.name_id == 0)
			k.name_id = k.demangled_name_id != 0 ? k.demangled_name_id : k.short_name_id;
		if (gpu_dims(c, &rd, &k.process_id, &k.device_id, &k.stream_id) != 0)
			break;
		k.correlation_id = nsys_int(&rd, K_CORR);
		k.grid_x = nsys_int(&rd, K_GX);
		k.grid_y = nsys_int(&rd, K_GY);
		k.grid_z = nsys_int(&rd, K_GZ);
		k.block_x = nsys_int(&rd, K_BX);
		k.block_y = nsys_int(&rd, K_BY);
		k.block_z = nsys_int(&rd, K_BZ);
		k.cluster_x = nsys_int(&rd, K_CX);
		k.cluster_y = nsys_int(&rd, K_CY);
		k.cluster_z = nsys_int(&rd, K_CZ);
		k.registers_per_thread = nsys_int(&rd, K_REGS);
		k.static_shared_bytes = nsys_int(&rd, K_SSHM);
		k.dynamic_shared_bytes = nsys_int(&rd, K_DSHM);
		k.local_bytes_per_thread = nsys_int(&rd, K_LOCAL);
		k.launch_type = nsys_int(&rd, K_LAUNCH);
		k.grid_id = nsys_int(&rd, K_GRID);
		k.graph_id = nsys_int(&rd, K_GRAPH);
		k.graph_node_id = nsys_int(&rd, K_GRAPH_NODE);
		for (int i = 0; i < 6; i++)
			extra[i] = nsys_int(&rd, K_CTX + i);
		k.args = json_ints(args, sizeof(args), arg_keys, extra, 6);
		if (pq_store_kernel(c->s, &k, NULL, c->err) != 0)
			break;
		c->stats->rows++;
	}
	return nsys_close_read(&rd);
}

/* Kernels whose launching call is not in the export, matched as NVIDIA's reports match them
 * (same correlation id, same process). A LEFT JOIN lets SQLite build an automatic index on the
 * API table's correlationId; a correlated NOT EXISTS would scan it once per kernel. */
const char *nsys_kernel_orphans_sql(nsys_ctx *c)
{
	if (!nsys_has_table(c, "CUPTI_ACTIVITY_KIND_KERNEL") ||
	    !nsys_has_column(c, "CUPTI_ACTIVITY_KIND_KERNEL", "correlationId") ||
	    !nsys_has_column(c, "CUPTI_ACTIVITY_KIND_KERNEL", "globalPid"))
		return NULL;
	if (!nsys_has_table(c, "CUPTI_ACTIVITY_KIND_RUNTIME") ||
	    !nsys_has_column(c, "CUPTI_ACTIVITY_KIND_RUNTIME", "correlationId") ||
	    !nsys_has_column(c, "CUPTI_ACTIVITY_KIND_RUNTIME", "globalTid"))
		return "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL";
	return "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
	       "LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
	       "ON r.correlationId = k.correlationId "
	       "AND (r.globalTid >> 24) = (k.globalPid >> 24) "
	       "WHERE r.correlationId IS NULL";
}

int nsys_kernel_orphans(nsys_ctx *c, int64_t *n)
{
	const char *sql = nsys_kernel_orphans_sql(c);

	*n = PQ_NULL;
	return sql == NULL ? 0 : nsys_query_int(c, sql, 0, n);
}

enum {
	M_START, M_END, M_DEV, M_STREAM, M_CORR, M_GPID, M_BYTES, M_KIND, M_SRC_KIND, M_DST_KIND,
	M_SRC_DEV, M_DST_DEV, M_MIGRATION, M_COUNT_COPIES, M_GRAPH_NODE, M_CTX, M_GREEN_CTX,
	M_NCOLS
};

static const nsys_col memcpys_cols[M_NCOLS] = {
	{ "start", NSYS_REQ }, { "end", NSYS_REQ }, { "deviceId", 0 }, { "streamId", 0 },
	{ "correlationId", 0 }, { "globalPid", 0 }, { "bytes", 0 }, { "copyKind", 0 },
	{ "srcKind", 0 }, { "dstKind", 0 }, { "srcDeviceId", 0 }, { "dstDeviceId", 0 },
	{ "migrationCause", 0 }, { "copyCount", 0 }, { "graphNodeId", 0 },
	{ "contextId", 0 }, { "greenContextId", 0 },
};
const nsys_query nsys_q_memcpys = {
	"CUPTI_ACTIVITY_KIND_MEMCPY", memcpys_cols, M_NCOLS, NULL, "t.start, t.rowid",
	NSYS_ROWID_IF_BY_START
};

int nsys_import_memcpys(nsys_ctx *c)
{
	static const char *const arg_keys[] = { "contextId", "greenContextId" };
	const char *const table = "CUPTI_ACTIVITY_KIND_MEMCPY";
	nsys_read rd;

	if (nsys_open_read(c, &nsys_q_memcpys, &rd) != 0)
		return -1;
	while (nsys_next(&rd) == 1) {
		pq_memcpy m;
		int64_t extra[2] = { nsys_int(&rd, M_CTX), nsys_int(&rd, M_GREEN_CTX) };
		char args[96];

		c->stats->events++;
		pq_memcpy_init(&m);
		if (interval(c, &rd, &m.start_ns, &m.end_ns)) {
			if (nsys_bad_row(c, table, BAD_TIME) != 0)
				break;
			continue;
		}
		if (gpu_dims(c, &rd, &m.process_id, &m.device_id, &m.stream_id) != 0 ||
		    nsys_device(c, nsys_int(&rd, M_SRC_DEV), &m.src_device_id) != 0 ||
		    nsys_device(c, nsys_int(&rd, M_DST_DEV), &m.dst_device_id) != 0)
			break;
		m.correlation_id = nsys_int(&rd, M_CORR);
		m.bytes = nsys_int(&rd, M_BYTES);
		/* ENUM_CUDA_MEMCPY_OPER and ENUM_CUDA_MEM_KIND numbers are the schema's. */
		m.copy_kind = nsys_int(&rd, M_KIND);
		if (m.copy_kind == PQ_NULL)
			m.copy_kind = 0;
		m.src_kind = nsys_int(&rd, M_SRC_KIND);
		m.dst_kind = nsys_int(&rd, M_DST_KIND);
		m.migration_cause = nsys_int(&rd, M_MIGRATION);
		m.copy_count = nsys_int(&rd, M_COUNT_COPIES);
		m.graph_node_id = nsys_int(&rd, M_GRAPH_NODE);
		m.args = json_ints(args, sizeof(args), arg_keys, extra, 2);
		if (pq_store_memcpy(c->s, &m, NULL, c->err) != 0)
			break;
		c->stats->rows++;
	}
	return nsys_close_read(&rd);
}

static const nsys_col memsets_cols[] = {
	{ "start", NSYS_REQ }, { "end", NSYS_REQ }, { "deviceId", 0 }, { "streamId", 0 },
	{ "correlationId", 0 }, { "globalPid", 0 }, { "bytes", 0 }, { "value", 0 },
	{ "memKind", 0 }, { "graphNodeId", 0 }, { "contextId", 0 },
	{ "greenContextId", 0 },
};
const nsys_query nsys_q_memsets = {
	"CUPTI_ACTIVITY_KIND_MEMSET", memsets_cols, NCOLS(memsets_cols), NULL,
	"t.start, t.rowid", NSYS_ROWID_IF_BY_START
};

int nsys_import_memsets(nsys_ctx *c)
{
	static const char *const arg_keys[] = { "contextId", "greenContextId" };
	const char *const table = "CUPTI_ACTIVITY_KIND_MEMSET";
	nsys_read rd;

	if (nsys_open_read(c, &nsys_q_memsets, &rd) != 0)
		return -1;
	while (nsys_next(&rd) == 1) {
		pq_memset m;
		int64_t extra[2] = { nsys_int(&rd, 10), nsys_int(&rd, 11) };
		char args[96];

		c->stats->events++;
		pq_memset_init(&m);
		if (interval(c, &rd, &m.start_ns, &m.end_ns)) {
			if (nsys_bad_row(c, table, BAD_TIME) != 0)
				break;
			continue;
		}
		if (gpu_dims(c, &rd, &m.process_id, &m.device_id, &m.stream_id) != 0)
			break;
		m.correlation_id = nsys_int(&rd, 4);
		m.bytes = nsys_int(&rd, 6);
		m.value = nsys_int(&rd, 7);
		m.memory_kind = nsys_int(&rd, 8);
		m.graph_node_id = nsys_int(&rd, 9);
		m.args = json_ints(args, sizeof(args), arg_keys, extra, 2);
		if (pq_store_memset(c->s, &m, NULL, c->err) != 0)
			break;
		c->stats->rows++;
	}
	return nsys_close_read(&rd);
}

static const nsys_col syncs_cols[] = {
	{ "start", NSYS_REQ }, { "end", NSYS_REQ }, { "deviceId", 0 }, { "streamId", 0 },
	{ "correlationId", 0 }, { "globalPid", 0 }, { "syncType", 0 }, { "eventId", 0 },
};
const nsys_query nsys_q_syncs = {
	"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", syncs_cols, NCOLS(syncs_cols), NULL,
	"t.start, t.rowid", NSYS_ROWID_IF_BY_START
};

int nsys_import_syncs(nsys_ctx *c)
{
	const char *const table = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
	nsys_read rd;

	if (nsys_open_read(c, &nsys_q_syncs, &rd) != 0)
		return -1;
	while (nsys_next(&rd) == 1) {
		pq_sync y;

		c->stats->events++;
		pq_sync_init(&y);
		if (interval(c, &rd, &y.start_ns, &y.end_ns)) {
			if (nsys_bad_row(c, table, BAD_TIME) != 0)
				break;
			continue;
		}
		if (gpu_dims(c, &rd, &y.process_id, &y.device_id, &y.stream_id) != 0)
			break;
		y.correlation_id = nsys_int(&rd, 4);
		/* ENUM_CUPTI_SYNC_TYPE numbers are the schema's sync_types ids. */
		y.sync_type = nsys_int(&rd, 6);
		if (y.sync_type == PQ_NULL)
			y.sync_type = 0;
		y.event_id = nsys_int(&rd, 7);
		if (pq_store_sync(c->s, &y, NULL, c->err) != 0)
			break;
		c->stats->rows++;
	}
	return nsys_close_read(&rd);
}

/* ENUM_NSYS_EVENT_CLASS values that are CUDA (labels "CUDA ..." in the 3.25 export's
 * ENUM_NSYS_EVENT_CLASS table): 13 CUDA EGL driver, 26 CUDA API, 67 CUDA backtrace, 77 CUDA
 * graph node creation, 94 graph exec creation, 95 graph creation, 96 graph clone, 102 CUDA JIT,
 * 103 CUDA overhead, 111 graph exec-node set params. 0 and 1 (runtime, driver) are the API. */
static const int cuda_classes[] = { 13, 26, 67, 77, 94, 95, 96, 102, 103, 111 };

static int is_cuda_class(nsys_ctx *c, int64_t cls, const unsigned char *from_enum)
{
	for (size_t i = 0; i < sizeof(cuda_classes) / sizeof(cuda_classes[0]); i++)
		if (cls == cuda_classes[i])
			return 1;
	(void)c;
	return cls >= 0 && cls < 256 && from_enum[cls];
}

/* Classes named CUDA in the export's own ENUM_NSYS_EVENT_CLASS, for versions newer than the
 * list above. */
static int enum_cuda_classes(nsys_ctx *c, unsigned char *set)
{
	sqlite3_stmt *st;

	memset(set, 0, 256);
	if (!nsys_has_table(c, "ENUM_NSYS_EVENT_CLASS"))
		return 0;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT id FROM ENUM_NSYS_EVENT_CLASS WHERE "
			       "name LIKE '%CUDA%' OR label LIKE 'CUDA%'", -1, &st,
			       NULL) != SQLITE_OK)
		return 0; /* an odd enum table only loses the extension of the list */
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);

		if (id >= 0 && id < 256)
			set[id] = 1;
	}
	sqlite3_finalize(st);
	return 0;
}

/* Runtime (cuda*) or driver (cu*) from the function name. */
static int64_t kind_by_name(const char *name)
{
	if (strncmp(name, "cuda", 4) == 0)
		return PQ_API_RUNTIME;
	return strncmp(name, "cu", 2) == 0 ? PQ_API_DRIVER : PQ_API_RUNTIME;
}

static const nsys_col api_calls_cols[] = {
	{ "start", NSYS_REQ }, { "end", NSYS_REQ }, { "eventClass", 0 },
	{ "globalTid", 0 }, { "correlationId", 0 }, { "nameId", NSYS_STR | NSYS_REQ },
	{ "returnValue", 0 }, { "callchainId", 0 },
};
const nsys_query nsys_q_api_calls = {
	"CUPTI_ACTIVITY_KIND_RUNTIME", api_calls_cols, NCOLS(api_calls_cols), NULL,
	"t.start, t.rowid", NSYS_ROWID_IF_BY_START
};

int nsys_import_api_calls(nsys_ctx *c)
{
	const char *const table = "CUPTI_ACTIVITY_KIND_RUNTIME";
	unsigned char from_enum[256];
	nsys_read rd;

	if (enum_cuda_classes(c, from_enum) != 0 ||
	    nsys_open_read(c, &nsys_q_api_calls, &rd) != 0)
		return -1;
	while (nsys_next(&rd) == 1) {
		pq_api_call a;
		int64_t cls = nsys_int(&rd, 2), extra[2];
		static const char *const arg_keys[] = { "eventClass", "callchainId" };
		char args[96];

		c->stats->events++;
		pq_api_call_init(&a);
		if (cls != PQ_NULL && cls != 0 && cls != 1 && !is_cuda_class(c, cls, from_enum)) {
			char reason[96];

			snprintf(reason, sizeof(reason),
				 "CUPTI_ACTIVITY_KIND_RUNTIME: eventClass %" PRId64 " (not CUDA)",
				 cls);
			if (nsys_not_mapped(c, reason) != 0)
				break;
			continue;
		}
		if (interval(c, &rd, &a.start_ns, &a.end_ns)) {
			if (nsys_bad_row(c, table, BAD_TIME) != 0)
				break;
			continue;
		}
		a.name = nsys_text(&rd, 5);
		if (a.name == NULL) {
			if (nsys_bad_row(c, table, "no API name (missing StringIds entry)") != 0)
				break;
			continue;
		}
		if (nsys_name_id(c, &rd, 5, &a.name_id) != 0)
			break;
		/* eventClass (ENUM_NSYS_EVENT_CLASS): 0 CUDA runtime, 1 CUDA driver, 13 CUDA EGL
		 * driver; the other CUDA classes by the function's name. */
		if (cls == 0 || cls == 1)
			a.api_kind = cls;
		else if (cls == 13)
			a.api_kind = PQ_API_DRIVER;
		else
			a.api_kind = kind_by_name(a.name);
		if (nsys_thread(c, nsys_int(&rd, 3), &a.thread_id) != 0 ||
		    nsys_process(c, nsys_int(&rd, 3) == PQ_NULL ? PQ_NULL
							       : nsys_int(&rd, 3) & ~(int64_t)0xFFFFFF,
				 &a.process_id) != 0)
			break;
		a.correlation_id = nsys_int(&rd, 4);
		a.return_value = nsys_int(&rd, 6);
		extra[0] = cls == 0 || cls == 1 ? PQ_NULL : cls;
		extra[1] = nsys_int(&rd, 7);
		a.args = json_ints(args, sizeof(args), arg_keys, extra, 2);
		if (pq_store_api_call(c->s, &a, NULL, c->err) != 0)
			break;
		c->stats->rows++;
	}
	return nsys_close_read(&rd);
}
