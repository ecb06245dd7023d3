/* demo.c - writes a small, deterministic training-loop profile through the store, the way the
 * collector will: `demo OUT.db`. Used by `make demo` and tests/cli/demo.t.
 *
 * The shape (tests rely on it): one process (pid 4242, "python train.py") on one A100; 5 steps of
 * 20 ms, each an NVTX range "step N" on the main thread holding "load batch", "forward",
 * "backward" and "optimizer"; per step one 19,267,584-byte HtoD memcpy on stream 13, a 4 MiB
 * memset and 40 kernels on stream 7, each launched by a cudaLaunchKernel with the same
 * correlation id: forward 10 x (ampere_sgemm_128x64_nn for 180+10*i us, relu_kernel 20 us),
 * backward 10 x ampere_sgemm_128x64_tn for 2*(180+10*i) us and 9 x relu_grad_kernel 25 us (the
 * first layer needs none), and one adam_update_kernel of 300 us; then a cudaStreamSynchronize.
 * A data-loader thread decodes the next batch before each step.
 */
#include <stdio.h>

#include "store.h"

#define US 1000LL
#define MS 1000000LL
/* 2026-01-01T00:00:00Z */
#define BASE_NS 1767225600000000000LL

typedef struct demo {
	pq_store *s;
	pq_error err;
	int64_t proc, main_thread, loader_thread, device, compute_stream, copy_stream;
	int64_t correlation;     /* last correlation id handed out */
	int64_t cpu_ns;          /* the main thread's clock */
	int64_t gpu_free_ns;     /* when stream 7 is idle again */
	int64_t allocated;       /* bytes, for the memory counter */
} demo;

static int range(demo *d, int64_t thread, const char *name, int64_t start, int64_t end,
		 int depth)
{
	pq_range r;

	pq_range_init(&r);
	r.process_id = d->proc;
	r.thread_id = thread;
	r.start_ns = start;
	r.end_ns = end;
	r.kind = PQ_RANGE_NVTX_PUSH_POP;
	r.name = name;
	r.depth = depth;
	return pq_store_range(d->s, &r, NULL, &d->err);
}

static int api_call(demo *d, const char *name, int64_t start, int64_t dur)
{
	pq_api_call a;

	pq_api_call_init(&a);
	a.process_id = d->proc;
	a.thread_id = d->main_thread;
	a.start_ns = start;
	a.end_ns = start + dur;
	a.api_kind = PQ_API_RUNTIME;
	a.name = name;
	a.correlation_id = ++d->correlation;
	a.return_value = 0;
	return pq_store_api_call(d->s, &a, NULL, &d->err);
}

/* cudaLaunchKernel (5 us on the CPU, every 40 us), then the kernel once stream 7 is free. */
static int launch(demo *d, const char *name, const char *demangled, const char *short_name,
		  int64_t dur, int64_t grid, int64_t block, int64_t regs)
{
	pq_kernel k;
	int64_t start;

	if (api_call(d, "cudaLaunchKernel", d->cpu_ns, 5 * US) != 0)
		return -1;
	start = d->cpu_ns + 8 * US;
	if (start < d->gpu_free_ns)
		start = d->gpu_free_ns;
	pq_kernel_init(&k);
	k.process_id = d->proc;
	k.device_id = d->device;
	k.stream_id = d->compute_stream;
	k.start_ns = start;
	k.end_ns = start + dur;
	k.correlation_id = d->correlation;
	k.name = name;
	k.demangled_name = demangled;
	k.short_name = short_name;
	k.grid_x = grid;
	k.grid_y = k.grid_z = 1;
	k.block_x = block;
	k.block_y = k.block_z = 1;
	k.registers_per_thread = regs;
	k.static_shared_bytes = 0;
	k.dynamic_shared_bytes = 0;
	d->gpu_free_ns = k.end_ns;
	d->cpu_ns += 40 * US;
	return pq_store_kernel(d->s, &k, NULL, &d->err);
}

static int memory(demo *d, int64_t ts, int op, int64_t bytes, int64_t address)
{
	pq_memory_event m;
	pq_counter c;

	d->allocated += op == PQ_MEM_ALLOC ? bytes : -bytes;
	pq_memory_event_init(&m);
	m.process_id = d->proc;
	m.device_id = d->device;
	m.ts_ns = ts;
	m.operation = op;
	m.address = address;
	m.bytes = bytes;
	m.memory_kind = 2; /* Device */
	m.total_allocated = d->allocated;
	if (pq_store_memory_event(d->s, &m, NULL, &d->err) != 0)
		return -1;
	pq_counter_init(&c);
	c.process_id = d->proc;
	c.device_id = d->device;
	c.name = "gpu_memory_allocated_bytes";
	c.ts_ns = ts;
	c.value = (double)d->allocated;
	return pq_store_counter(d->s, &c, NULL, &d->err);
}

static int step(demo *d, int n)
{
	const int64_t t0 = BASE_NS + 10 * MS + n * 20 * MS;
	char name[32];
	pq_memcpy m;
	pq_memset z;
	pq_sync y;
	int64_t fwd_start, bwd_start, opt_start, sync_start;

	snprintf(name, sizeof(name), "step %d", n);
	if (range(d, d->loader_thread, "decode batch", t0 - 6 * MS, t0 - 1 * MS, 0) != 0 ||
	    range(d, d->main_thread, "load batch", t0, t0 + 2 * MS, 1) != 0)
		return -1;

	/* The batch: 32 x 3 x 224 x 224 float32 from pageable memory. */
	if (api_call(d, "cudaMemcpyAsync", t0 + 2 * MS, 15 * US) != 0)
		return -1;
	pq_memcpy_init(&m);
	m.process_id = d->proc;
	m.device_id = d->device;
	m.stream_id = d->copy_stream;
	m.start_ns = t0 + 2 * MS + 20 * US;
	m.end_ns = m.start_ns + 1250 * US;
	m.correlation_id = d->correlation;
	m.bytes = 32LL * 3 * 224 * 224 * 4;
	m.copy_kind = 1;  /* Host-to-Device */
	m.src_kind = 0;   /* Pageable */
	m.dst_kind = 2;   /* Device */
	m.is_async = 1;
	if (pq_store_memcpy(d->s, &m, NULL, &d->err) != 0)
		return -1;

	fwd_start = d->cpu_ns = t0 + 2 * MS + 100 * US;
	if (memory(d, fwd_start, PQ_MEM_ALLOC, 64LL << 20, 0x7f0000000000LL + n * (64LL << 20)))
		return -1;
	for (int i = 0; i < 10; i++) {
		if (launch(d, "ampere_sgemm_128x64_nn", NULL, NULL, (180 + 10 * i) * US, 864, 256,
			   128) ||
		    launch(d, "_Z11relu_kernelPfPKfi", "relu_kernel(float*, float const*, int)",
			   "relu_kernel", 20 * US, 3136, 256, 16))
			return -1;
	}
	if (range(d, d->main_thread, "forward", fwd_start, d->cpu_ns, 1) != 0)
		return -1;

	bwd_start = d->cpu_ns += 200 * US;
	pq_memset_init(&z);
	z.process_id = d->proc;
	z.device_id = d->device;
	z.stream_id = d->compute_stream;
	if (api_call(d, "cudaMemsetAsync", d->cpu_ns, 6 * US) != 0)
		return -1;
	z.start_ns = (d->gpu_free_ns > d->cpu_ns + 8 * US ? d->gpu_free_ns : d->cpu_ns + 8 * US);
	z.end_ns = z.start_ns + 12 * US;
	z.correlation_id = d->correlation;
	z.bytes = 4LL << 20;
	z.value = 0;
	z.memory_kind = 2;
	z.is_async = 1;
	d->gpu_free_ns = z.end_ns;
	d->cpu_ns += 40 * US;
	if (pq_store_memset(d->s, &z, NULL, &d->err) != 0)
		return -1;
	for (int i = 9; i >= 0; i--) {
		if (launch(d, "ampere_sgemm_128x64_tn", NULL, NULL, 2 * (180 + 10 * i) * US, 864, 256,
			   128))
			return -1;
		if (i > 0 && launch(d, "_Z16relu_grad_kernelPfPKfS1_i",
				    "relu_grad_kernel(float*, float const*, float const*, int)",
				    "relu_grad_kernel",
				    25 * US, 3136, 256, 18))
			return -1;
	}
	if (range(d, d->main_thread, "backward", bwd_start, d->cpu_ns, 1) != 0)
		return -1;

	opt_start = d->cpu_ns += 100 * US;
	if (launch(d, "_Z18adam_update_kernelPfS_S_PKfffffi",
		   "adam_update_kernel(float*, float*, float*, float const*, float, float, float, "
		   "float, int)", "adam_update_kernel", 300 * US, 1024, 512, 40))
		return -1;
	if (range(d, d->main_thread, "optimizer", opt_start, d->cpu_ns, 1) != 0)
		return -1;

	/* The host waits for the GPU, then frees the activations. */
	sync_start = d->cpu_ns;
	if (api_call(d, "cudaStreamSynchronize", sync_start, d->gpu_free_ns + 4 * US - sync_start))
		return -1;
	pq_sync_init(&y);
	y.process_id = d->proc;
	y.thread_id = d->main_thread;
	y.stream_id = d->compute_stream;
	y.device_id = d->device;
	y.start_ns = sync_start;
	y.end_ns = d->gpu_free_ns + 4 * US;
	y.sync_type = 3; /* stream synchronize */
	y.correlation_id = d->correlation;
	if (pq_store_sync(d->s, &y, NULL, &d->err) != 0)
		return -1;
	if (memory(d, y.end_ns + 10 * US, PQ_MEM_FREE, 64LL << 20,
		   0x7f0000000000LL + n * (64LL << 20)))
		return -1;
	return range(d, d->main_thread, name, t0, t0 + 18 * MS, 0);
}

static int write_demo(demo *d, const char *path)
{
	pq_run_info run;
	pq_device dev;
	pq_mark mark;

	pq_run_info_init(&run);
	run.source = "demo";
	run.source_path = "examples/demo.c: a synthetic 5-step training loop";
	run.hostname = "demo-host";
	if (pq_store_open(path, 1000, &d->s, &d->err) != 0 ||
	    pq_store_begin_run(d->s, &run, NULL, &d->err) != 0 ||
	    pq_store_set_metadata(d->s, "command", "python train.py --epochs 1", &d->err) != 0 ||
	    pq_store_process(d->s, 4242, "python train.py", &d->proc, &d->err) != 0 ||
	    pq_store_thread(d->s, 4242, 4242, "MainThread", &d->main_thread, &d->err) != 0 ||
	    pq_store_thread(d->s, 4242, 4251, "pt_data_worker", &d->loader_thread, &d->err) != 0)
		return -1;

	/* NVIDIA A100-SXM4-40GB, as CUDA reports it (A100 datasheet: 1555 GB/s). */
	pq_device_init(&dev);
	dev.ordinal = 0;
	dev.name = "NVIDIA A100-SXM4-40GB";
	dev.compute_major = 8;
	dev.compute_minor = 0;
	dev.sm_count = 108;
	dev.warp_size = 32;
	dev.max_threads_per_block = 1024;
	dev.max_threads_per_sm = 2048;
	dev.max_blocks_per_sm = 32;
	dev.max_registers_per_block = 65536;
	dev.max_registers_per_sm = 65536;
	dev.max_shared_memory_per_block = 49152;
	dev.max_shared_memory_per_sm = 167936;
	dev.shared_memory_per_block_optin = 166912;
	dev.l2_cache_bytes = 41943040;
	dev.global_memory_bytes = 42505273344LL;
	dev.core_clock_hz = 1410000000;
	dev.memory_clock_hz = 1215000000;
	dev.memory_bus_width_bits = 5120;
	dev.memory_bandwidth_bytes_per_s = 1555000000000LL;
	if (pq_store_device(d->s, &dev, &d->device, &d->err) != 0 ||
	    pq_store_stream(d->s, d->proc, d->device, 7, &d->compute_stream, &d->err) != 0 ||
	    pq_store_stream(d->s, d->proc, d->device, 13, &d->copy_stream, &d->err) != 0)
		return -1;

	pq_mark_init(&mark);
	mark.process_id = d->proc;
	mark.thread_id = d->main_thread;
	mark.ts_ns = BASE_NS;
	mark.kind = PQ_MARK_NVTX;
	mark.name = "epoch 0";
	if (pq_store_mark(d->s, &mark, NULL, &d->err) != 0)
		return -1;
	for (int n = 0; n < 5; n++)
		if (step(d, n) != 0)
			return -1;
	return pq_store_finish_run(d->s, &d->err);
}

int main(int argc, char **argv)
{
	demo d = { 0 };
	int rc;

	if (argc != 2) {
		fputs("usage: demo OUT.db\n", stderr);
		return 2;
	}
	rc = write_demo(&d, argv[1]);
	if (rc != 0)
		fprintf(stderr, "demo: %s: %s\n", argv[1], d.err.msg);
	pq_store_close(d.s);
	return rc == 0 ? 0 : 1;
}
