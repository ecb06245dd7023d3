/* gen_kineto.c - writes a synthetic Kineto-shaped Chrome trace (PyTorch profiler JSON) of about
 * the requested size, for bench/import.sh. Not a test fixture: the content is made up, but the
 * shape follows current libkineto output (see ../../shared/notes/kineto_hta.md §1.1): a top-level
 * object with schemaVersion, deviceProperties, baseTimeNanoseconds, then traceEvents with
 * cpu_op / cuda_runtime / kernel / gpu_memcpy / gpu_memset X events, ac2g flows, [memory]
 * instants, M events, fractional-microsecond ts relative to the base.
 *
 * Usage: gen_kineto MEGABYTES > trace.json
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const ops[] = {
	"aten::conv2d", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution",
	"aten::add_", "aten::batch_norm", "aten::relu_", "aten::max_pool2d", "aten::linear",
	"aten::addmm", "aten::empty", "aten::zeros", "aten::copy_", "aten::to",
};
static const char *const kernels[] = {
	"void cudnn::detail::implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, true, "
	"false, true>(int, int, int, float const*, int, float*, float const*, kernel_conv_params, "
	"unsigned long long, int, float, float, int, float const*, float const*, bool, int, int)",
	"void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
	"at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, "
	"at::detail::Array<char*, 3>)",
	"volta_sgemm_128x64_nn",
	"void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>(int, float "
	"const*, long, long, long, int, int, int, int, int, int, int, int, int, int, float*, long*)",
};

int main(int argc, char **argv)
{
	long long target = (argc > 1 ? atoll(argv[1]) : 500) * 1000000LL, written = 0;
	const long long base = 1775078550000000000LL;
	long long t = 88437691101000LL; /* ns after base */
	long long corr = 1, ext = 1, addr = 0x7f0000000000LL;
	int n;

	written += printf("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n");
	for (int d = 0; d < 8; d++)
		written += printf("    {\n      \"id\": %d, \"name\": \"NVIDIA H100\", "
				  "\"totalGlobalMem\": 102085492736,\n      \"computeMajor\": 9, "
				  "\"computeMinor\": 0, \"numSms\": 132, \"warpSize\": 32\n    }%s\n",
				  d, d < 7 ? "," : "");
	written += printf("  ],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, "
			  "\"world_size\": 8},\n  \"displayTimeUnit\": \"ms\",\n"
			  "  \"baseTimeNanoseconds\": %lld,\n  \"traceEvents\": [\n", base);
	written += printf("  {\n    \"name\": \"process_name\", \"ph\": \"M\", \"ts\": %lld.%03lld, "
			  "\"pid\": 4242, \"tid\": 0,\n    \"args\": {\n      \"name\": \"python\"\n"
			  "    }\n  },\n", t / 1000, t % 1000);
	written += printf("  {\n    \"name\": \"process_labels\", \"ph\": \"M\", \"ts\": %lld.%03lld, "
			  "\"pid\": 4242, \"tid\": 0,\n    \"args\": {\n      \"labels\": \"CPU\"\n"
			  "    }\n  },\n", t / 1000, t % 1000);
	for (long long i = 0; written < target; i++) {
		long long op_ts = t, op_dur = 20000 + (i % 7) * 1333;
		const char *op = ops[i % (sizeof(ops) / sizeof(ops[0]))];
		const char *k = kernels[i % (sizeof(kernels) / sizeof(kernels[0]))];

		n = printf("  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 4242, "
			   "\"tid\": 4242,\n    \"ts\": %lld.%03lld, \"dur\": %lld.%03lld,\n    \"args\": {\n"
			   "      \"External id\": %lld,\"Record function id\": 0, \"Sequence number\": "
			   "%lld, \"Fwd thread id\": 0, \"Ev Idx\": %lld,\n      \"Input Dims\": [[32, 64, 56, "
			   "56], [64, 64, 3, 3], [], [], []], \"Input type\": [\"float\", \"float\", \"\", "
			   "\"ScalarList\", \"Int\"]\n    }\n  },\n",
			   op, op_ts / 1000, op_ts % 1000, op_dur / 1000, op_dur % 1000, ext, i, i);
		written += n;
		n = printf("  {\n    \"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
			   "\"cudaLaunchKernel\", \"pid\": 4242, \"tid\": 4242,\n    \"ts\": %lld.%03lld, "
			   "\"dur\": 4.512,\n    \"args\": {\n      \"External id\": %lld,\n      \"cbid\": "
			   "211, \"correlation\": %lld\n    }\n  },\n",
			   (op_ts + 5000) / 1000, (op_ts + 5000) % 1000, ext, corr);
		written += n;
		n = printf("  {\n    \"ph\": \"s\", \"id\": %lld, \"pid\": 4242, \"tid\": 4242, \"ts\": "
			   "%lld.%03lld,\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"\n  },\n",
			   corr, (op_ts + 5000) / 1000, (op_ts + 5000) % 1000);
		written += n;
		long long kts = op_ts + 30000 + (i % 5) * 777;
		if (i % 40 == 39) {
			n = printf("  {\n    \"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD "
				   "(Pageable -> Device)\", \"pid\": 0, \"tid\": 7,\n    \"ts\": %lld.%03lld, "
				   "\"dur\": 1940.125,\n    \"args\": {\n      \"External id\": %lld,\n      "
				   "\"device\": 0, \"context\": 1,\n      \"stream\": 7, \"correlation\": %lld,\n"
				   "      \"bytes\": 19267584, \"memory bandwidth (GB/s)\": 9.927016204653041\n"
				   "    }\n  },\n", kts / 1000, kts % 1000, ext, corr);
		} else if (i % 40 == 19) {
			n = printf("  {\n    \"ph\": \"X\", \"cat\": \"gpu_memset\", \"name\": \"Memset "
				   "(Device)\", \"pid\": 0, \"tid\": 7,\n    \"ts\": %lld.%03lld, \"dur\": 1.25,\n"
				   "    \"args\": {\n      \"External id\": %lld,\n      \"device\": 0, "
				   "\"context\": 1,\n      \"stream\": 7, \"correlation\": %lld,\n      \"bytes\": "
				   "128000, \"memory bandwidth (GB/s)\": 88.88888888888889\n    }\n  },\n",
				   kts / 1000, kts % 1000, ext, corr);
		} else {
			n = printf("  {\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, "
				   "\"tid\": 7,\n    \"ts\": %lld.%03lld, \"dur\": %lld.%03lld,\n    \"args\": {\n"
				   "      \"External id\": %lld,\n      \"queued\": 0, \"device\": 0, \"context\": "
				   "1,\n      \"stream\": 7, \"correlation\": %lld,\n      \"registers per thread\": "
				   "%lld,\n      \"shared memory\": 0,\n      \"blocks per SM\": 0.625,\n      "
				   "\"warps per SM\": 5.000000,\n      \"grid\": [50, 1, 1],\n      \"block\": "
				   "[256, 1, 1],\n      \"est. achieved occupancy %%\": 8\n    }\n  },\n",
				   k, kts / 1000, kts % 1000, (3000 + i % 900) / 1000, (3000 + i % 900) % 1000,
				   ext, corr, 32 + i % 64);
		}
		written += n;
		n = printf("  {\n    \"ph\": \"f\", \"id\": %lld, \"pid\": 0, \"tid\": 7, \"ts\": "
			   "%lld.%03lld,\n    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"\n  },\n",
			   corr, kts / 1000, kts % 1000);
		written += n;
		if (i % 2 == 0) {
			long long bytes = (i % 4 == 0) ? 802816 : -802816;
			n = printf("  {\n    \"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", "
				   "\"name\": \"[memory]\",\n    \"pid\": 4242, \"tid\": 4242,\n    \"ts\": "
				   "%lld.%03lld,\n    \"args\": {\n      \"Total Reserved\": 2097152000, "
				   "\"Total Allocated\": %lld, \"Bytes\": %lld, \"Addr\": %lld, \"Device Id\": 0, "
				   "\"Device Type\": 1\n    }\n  },\n",
				   (op_ts + 1000) / 1000, (op_ts + 1000) % 1000, 1000000000 + (i % 1000) * 802816,
				   bytes, addr + (i % 1000) * 802816);
			written += n;
		}
		t += op_dur + 1777;
		corr++;
		ext++;
	}
	written += printf("  {\n    \"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
			  "    \"pid\": \"\", \"tid\": \"\", \"ts\": %lld.%03lld\n  }\n  ],\n"
			  "  \"traceName\": \"synthetic.pt.trace.json\"\n}\n", t / 1000, t % 1000);
	return 0;
}
