/* nsys_dims.c - the dimensions of an nsys export: processes and thread names (PROCESSES,
 * ThreadNames), GPUs (TARGET_INFO_GPU, TARGET_INFO_CUDA_DEVICE), streams
 * (TARGET_INFO_CUDA_STREAM), and the per-row lookups the event mappers use. */
#include "nsys.h"

#include <stdio.h>

static size_t dim_slot(int64_t key)
{
	return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> 58) % NSYS_DIM_SLOTS;
}

int nsys_process(nsys_ctx *c, int64_t global_pid, int64_t *id)
{
	size_t slot = dim_slot(global_pid);

	if (global_pid == PQ_NULL) {
		*id = PQ_NULL;
		return 0;
	}
	if (c->processes.key[slot] == global_pid) {
		*id = c->processes.row[slot];
		return 0;
	}
	if (pq_store_process(c->s, NSYS_PID(global_pid), NULL, id, c->err) != 0)
		return -1;
	c->processes.key[slot] = global_pid;
	c->processes.row[slot] = *id;
	return 0;
}

int nsys_thread(nsys_ctx *c, int64_t global_tid, int64_t *id)
{
	size_t slot = dim_slot(global_tid);

	if (global_tid == PQ_NULL) {
		*id = PQ_NULL;
		return 0;
	}
	if (c->threads.key[slot] == global_tid) {
		*id = c->threads.row[slot];
		return 0;
	}
	if (pq_store_thread(c->s, NSYS_PID(global_tid), NSYS_TID(global_tid), NULL, id,
			    c->err) != 0)
		return -1;
	c->threads.key[slot] = global_tid;
	c->threads.row[slot] = *id;
	return 0;
}

int nsys_device(nsys_ctx *c, int64_t ordinal, int64_t *id)
{
	if (ordinal == PQ_NULL) {
		*id = PQ_NULL;
		return 0;
	}
	if (ordinal == c->last_dev_key) {
		*id = c->last_device;
		return 0;
	}
	if (pq_store_device_ordinal(c->s, ordinal, id, c->err) != 0)
		return -1;
	c->last_dev_key = ordinal;
	c->last_device = *id;
	return 0;
}

int nsys_stream(nsys_ctx *c, int64_t process_id, int64_t device_id, int64_t stream,
		int64_t *id)
{
	if (stream == PQ_NULL) {
		*id = PQ_NULL;
		return 0;
	}
	return pq_store_stream(c->s, process_id, device_id, stream, id, c->err);
}

int nsys_import_processes(nsys_ctx *c)
{
	static const nsys_col pcols[] = { { "globalPid", NSYS_REQ }, { "pid", 0 }, { "name", 0 } };
	static const nsys_col tcols[] = { { "globalTid", NSYS_REQ }, { "nameId", NSYS_STR } };
	nsys_read rd;
	int64_t id;

	if (nsys_select(c, "PROCESSES", pcols, 3, NULL, "t.rowid", &rd) != 0)
		return -1;
	while (nsys_next(&rd) == 1) {
		int64_t gpid = nsys_int(&rd, 0), pid = nsys_int(&rd, 1);

		pid = gpid != PQ_NULL ? NSYS_PID(gpid) : pid;
		if (pid == PQ_NULL) {
			if (nsys_bad_row(c, "PROCESSES", "no globalPid") != 0)
				break;
			continue;
		}
		if (pq_store_process(c->s, pid, nsys_text(&rd, 2), &id, c->err) != 0)
			break;
		c->stats->rows++;
	}
	if (nsys_close_read(&rd) != 0)
		return -1;

	if (nsys_select(c, "ThreadNames", tcols, 2, NULL, "t.rowid", &rd) != 0)
		return -1;
	while (nsys_next(&rd) == 1) {
		int64_t gtid = nsys_int(&rd, 0);

		if (gtid == PQ_NULL) {
			if (nsys_bad_row(c, "ThreadNames", "no globalTid") != 0)
				break;
			continue;
		}
		if (pq_store_thread(c->s, NSYS_PID(gtid), NSYS_TID(gtid), nsys_text(&rd, 1), &id,
				    c->err) != 0)
			break;
		c->stats->rows++;
	}
	return nsys_close_read(&rd);
}

/* TARGET_INFO_GPU columns (notes §1.7), in the order read below. */
enum {
	G_ID, G_CUDEV, G_NAME, G_UUID, G_SM, G_CMAJ, G_CMIN, G_CLOCK, G_MEM, G_BW, G_L2, G_WARP,
	G_WARPS_SM, G_BLOCKS_SM, G_THREADS_BLOCK, G_REGS_BLOCK, G_REGS_SM, G_SHM_BLOCK, G_SHM_SM,
	G_SHM_OPTIN, G_COUNT
};

int nsys_import_devices(nsys_ctx *c)
{
	static const nsys_col gcols[G_COUNT] = {
		{ "id", NSYS_REQ }, { "cuDevice", 0 }, { "name", 0 }, { "uuid", 0 },
		{ "smCount", 0 }, { "computeMajor", 0 }, { "computeMinor", 0 }, { "clockRate", 0 },
		{ "totalMemory", 0 }, { "memoryBandwidth", 0 }, { "l2CacheSize", 0 },
		{ "threadsPerWarp", 0 }, { "maxWarpsPerSm", 0 }, { "maxBlocksPerSm", 0 },
		{ "maxThreadsPerBlock", 0 }, { "maxRegistersPerBlock", 0 },
		{ "maxRegistersPerSm", 0 }, { "maxShmemPerBlock", 0 }, { "maxShmemPerSm", 0 },
		{ "maxShmemPerBlockOptin", 0 },
	};
	static const nsys_col ccols[] = {
		{ "cudaId", NSYS_REQ }, { "uuid", 0 }, { "numMultiprocessors", 0 },
	};
	nsys_read rd;
	int64_t id;

	if (nsys_select(c, "TARGET_INFO_GPU", gcols, G_COUNT, NULL, "t.rowid", &rd) != 0)
		return -1;
	while (nsys_next(&rd) == 1) {
		pq_device d;
		int64_t warp = nsys_int(&rd, G_WARP), warps = nsys_int(&rd, G_WARPS_SM);

		pq_device_init(&d);
		/* cuDevice is the CUDA ordinal the activity tables' deviceId uses; id is nsys's. */
		d.ordinal = nsys_int(&rd, G_CUDEV) != PQ_NULL ? nsys_int(&rd, G_CUDEV)
							       : nsys_int(&rd, G_ID);
		if (d.ordinal == PQ_NULL)
			continue;
		d.name = nsys_text(&rd, G_NAME);
		d.uuid = nsys_text(&rd, G_UUID);
		d.sm_count = nsys_int(&rd, G_SM);
		d.compute_major = nsys_int(&rd, G_CMAJ);
		d.compute_minor = nsys_int(&rd, G_CMIN);
		d.core_clock_hz = nsys_int(&rd, G_CLOCK);             /* Hz (AG-schema) */
		d.global_memory_bytes = nsys_int(&rd, G_MEM);
		d.memory_bandwidth_bytes_per_s = nsys_int(&rd, G_BW); /* B/s: 760e9 on an RTX 3080 */
		d.l2_cache_bytes = nsys_int(&rd, G_L2);
		d.warp_size = warp;
		d.max_threads_per_sm = warp != PQ_NULL && warps != PQ_NULL ? warp * warps : PQ_NULL;
		d.max_blocks_per_sm = nsys_int(&rd, G_BLOCKS_SM);
		d.max_threads_per_block = nsys_int(&rd, G_THREADS_BLOCK);
		d.max_registers_per_block = nsys_int(&rd, G_REGS_BLOCK);
		d.max_registers_per_sm = nsys_int(&rd, G_REGS_SM);
		d.max_shared_memory_per_block = nsys_int(&rd, G_SHM_BLOCK);
		d.max_shared_memory_per_sm = nsys_int(&rd, G_SHM_SM);
		d.shared_memory_per_block_optin = nsys_int(&rd, G_SHM_OPTIN);
		if (pq_store_device(c->s, &d, &id, c->err) != 0) {
			nsys_close_read(&rd);
			return -1;
		}
		c->stats->rows++;
	}
	if (nsys_close_read(&rd) != 0)
		return -1;

	if (nsys_select(c, "TARGET_INFO_CUDA_DEVICE", ccols, 3, NULL, "t.rowid", &rd) != 0)
		return -1;
	while (nsys_next(&rd) == 1) {
		pq_device d;

		pq_device_init(&d);
		d.ordinal = nsys_int(&rd, 0);
		if (d.ordinal == PQ_NULL)
			continue;
		d.uuid = nsys_text(&rd, 1);
		d.sm_count = nsys_int(&rd, 2);
		if (pq_store_device(c->s, &d, &id, c->err) != 0) {
			nsys_close_read(&rd);
			return -1;
		}
	}
	if (nsys_close_read(&rd) != 0)
		return -1;
	return 0;
}

/* Streams get their priority and type once the events have created them. */
int nsys_import_stream_props(nsys_ctx *c)
{
	static const nsys_col cols[] = {
		{ "processId", NSYS_REQ }, { "streamId", NSYS_REQ }, { "contextId", 0 },
		{ "priority", 0 }, { "flag", 0 },
	};
	nsys_read rd;

	if (nsys_select(c, "TARGET_INFO_CUDA_STREAM", cols, 5, NULL, "t.rowid", &rd) != 0)
		return -1;
	while (nsys_next(&rd) == 1) {
		int64_t pid = nsys_int(&rd, 0), stream = nsys_int(&rd, 1);
		int64_t prio = nsys_int(&rd, 3), flag = nsys_int(&rd, 4);

		if (pid == PQ_NULL || stream == PQ_NULL)
			continue;
		/* Priorities are stored as unsigned 32-bit (4294967291 = -5, the highest priority
		 * of an RTX 3080, in mock.sqlite). */
		if (prio != PQ_NULL && prio > INT32_MAX && prio <= (int64_t)UINT32_MAX)
			prio -= (int64_t)1 << 32;
		/* flag -> ENUM_CUPTI_STREAM_TYPE: 0 unknown, 1 default, 2 non-blocking, 3 null. */
		if (flag != PQ_NULL && (flag < 0 || flag > 3))
			flag = PQ_NULL;
		if (pq_store_stream_props(c->s, pid, stream, nsys_int(&rd, 2), prio, flag,
					  c->err) != 0) {
			nsys_close_read(&rd);
			return -1;
		}
	}
	if (nsys_close_read(&rd) != 0)
		return -1;
	return 0;
}
