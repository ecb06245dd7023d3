#!/bin/sh
# The remaining micro-cases of tb_plugin's test/test_profiler.py (pytorch/kineto
# tb_plugin/test/test_profiler.py at 041e7ce99f1562dd81232ee58b7c454ef16bfae2; notes/kineto_hta.md
# §2.2): each test's inline trace restated as a hand-written Kineto trace, run through our report,
# and checked against tb_plugin's expected values (µs in the trace, ns and bytes in the reports).
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"

# --- test_tensor_core: aten::conv2d > op_no_tc (kernel_no_tc 10) and aten::cudnn_convolution (s884 kernel 15)
trace_begin "$TMP/tc.json"
X Operator aten::conv2d 123 200 100 '"Input Dims": [[]], "External id": 3'
X Operator op_no_tc 123 205 10 '"Input Dims": [[]], "External id": 4'
X Operator aten::cudnn_convolution 123 215 10 '"Input Dims": [[]], "External id": 5'
X Kernel kernel_no_tc 'stream 7' 210 10 '"correlation": 1000, "external id": 4, "device": 0'
X Runtime cudaLaunchKernel 123 205 5 '"correlation": 1000, "external id": 4'
X Kernel volta_fp16_s884cudnn_fp16_128x128_ldg8_splitK_relu_f2f_exp_small_nhwc_tn_v1 'stream 7' 220 15 '"correlation": 1001, "external id": 5, "device": 0'
X Runtime cudaLaunchKernel 123 215 5 '"correlation": 1001, "external id": 5'
trace_end
import_trace "$TMP/tc.json" "$TMP/tc.db"
# op rows as name,tc_eligible,tc_self_pct,tc_total_pct (tb_plugin's ratios, here in percent)
is "$("$PROFQ" op-sum "$TMP/tc.db" --format csv | sed 1d | cut -d, -f1,8-10 | sort)" \
"aten::conv2d,1,0.0,60.0
aten::cudnn_convolution,1,100.0,100.0
op_no_tc,0,0.0,0.0" "test_tensor_core: conv2d eligible, tc self 0, tc total 15/(15+10); cudnn_convolution 1.0; op_no_tc 0"
# kernel+op rows as name,op,tensor_cores_used (tb_plugin's op_tc_eligible is not a kernel-sum column)
is "$("$PROFQ" kernel-sum "$TMP/tc.db" --param by=kernel+op --format csv | sed 1d | cut -d, -f1,2,7 | sort)" \
"kernel_no_tc,op_no_tc,0
volta_fp16_s884cudnn_fp16_128x128_ldg8_splitK_relu_f2f_exp_small_nhwc_tn_v1,aten::cudnn_convolution,1" \
	"test_tensor_core: kernels grouped by op, the s884 kernel uses Tensor Cores"
is "$("$PROFQ" gpu-summary "$TMP/tc.db" --format csv | sed 1d | cut -d, -f1,8)" "0,60.0" \
	"test_tensor_core: profile.tc_ratio[0] = 15/(15+10)"

# kops DB: kernel-sum by kernel+op as name|op|grid|block|registers|shared memory|calls|total|mean|max|min,
# sorted (tb_plugin lists groups in first-seen order, kernel-sum by total time); an empty (NULL)
# field printed as tb_plugin's None
kops() {
	"$PROFQ" kernel-sum "$1" --param by=kernel+op --format csv | sed 1d | py -c '
import csv, sys
for r in csv.reader(sys.stdin):
    print("|".join(v if v != "" else "None" for v in r[:6] + r[7:12]))' | LC_ALL=C sort
}

# --- test_group_by_kernel_columns: kernel1 launched by op1 (2 x block [16,16,16], 1 x [16,16,64]) and op2
G='"grid": [16, 1, 1], "registers per thread": 18, "shared memory": 0'
trace_begin "$TMP/gk.json"
X Operator op1 123 200 60 '"Input Dims": [[2, 8, 5], [], [], [], [], [], [], []], "External id": 3'
X Operator op2 456 340 70 '"Input Dims": [[], [32, 1000], [32], [], [], [], []], "External id": 4'
X Kernel kernel1 'stream 7' 230 15 "\"correlation\": 1000, \"external id\": 3, \"device\": 0, $G, \"block\": [16, 16, 16]"
X Runtime cudaLaunchKernel 456 210 5 '"correlation": 1000, "external id": 3'
X Kernel kernel1 'stream 7' 250 10 "\"correlation\": 1001, \"external id\": 3, \"device\": 0, $G, \"block\": [16, 16, 16]"
X Runtime cudaLaunchKernel 456 215 5 '"correlation": 1001, "external id": 3'
X Kernel kernel1 'stream 7' 250 13 "\"correlation\": 1002, \"external id\": 3, \"device\": 0, $G, \"block\": [16, 16, 64]"
X Runtime cudaLaunchKernel 456 220 5 '"correlation": 1002, "external id": 3'
X Kernel kernel1 'stream 7' 250 17 "\"correlation\": 1003, \"external id\": 4, \"device\": 0, $G, \"block\": [16, 16, 64]"
X Runtime cudaLaunchKernel 456 350 5 '"correlation": 1003, "external id": 4'
trace_end
import_trace "$TMP/gk.json" "$TMP/gk.db"
is "$(kops "$TMP/gk.db")" \
"kernel1|op1|[16, 1, 1]|[16, 16, 16]|18|0|2|25000|12500|15000|10000
kernel1|op1|[16, 1, 1]|[16, 16, 64]|18|0|1|13000|13000|13000|13000
kernel1|op2|[16, 1, 1]|[16, 16, 64]|18|0|1|17000|17000|17000|17000" \
	"test_group_by_kernel_columns: three groups (block and op separate), calls, total/avg/max/min 15+10, 13, 17"

# --- test_group_by_kernel_columns_invalid_input: each kernel lacks one launch field (the last all four)
trace_begin "$TMP/gki.json"
X Operator op1 123 200 60 '"Input Dims": [[2, 8, 5], [], [], [], [], [], [], []], "External id": 3'
X Kernel kernel1 'stream 7' 220 1 '"correlation": 1000, "external id": 3, "device": 0, "block": [16, 16, 16], "registers per thread": 18, "shared memory": 0'
X Runtime cudaLaunchKernel 456 210 5 '"correlation": 1000, "external id": 3'
X Kernel kernel1 'stream 7' 230 2 '"correlation": 1001, "external id": 3, "device": 0, "grid": [16, 1, 1], "registers per thread": 18, "shared memory": 0'
X Runtime cudaLaunchKernel 456 220 5 '"correlation": 1001, "external id": 3'
X Kernel kernel1 'stream 7' 240 3 '"correlation": 1002, "external id": 3, "device": 0, "grid": [16, 1, 1], "block": [16, 16, 16], "shared memory": 0'
X Runtime cudaLaunchKernel 456 230 5 '"correlation": 1002, "external id": 3'
X Kernel kernel1 'stream 7' 250 4 '"correlation": 1003, "external id": 3, "device": 0, "grid": [16, 1, 1], "block": [16, 16, 16], "registers per thread": 18'
X Runtime cudaLaunchKernel 456 240 5 '"correlation": 1003, "external id": 3'
X Kernel kernel1 'stream 7' 260 5 '"correlation": 1004, "external id": 3, "device": 0'
X Runtime cudaLaunchKernel 456 250 5 '"correlation": 1004, "external id": 3'
trace_end
import_trace "$TMP/gki.json" "$TMP/gki.db"
is "$(kops "$TMP/gki.db")" \
"kernel1|op1|None|None|None|None|1|5000|5000|5000|5000
kernel1|op1|None|[16, 16, 16]|18|0|1|1000|1000|1000|1000
kernel1|op1|[16, 1, 1]|None|18|0|1|2000|2000|2000|2000
kernel1|op1|[16, 1, 1]|[16, 16, 16]|18|None|1|4000|4000|4000|4000
kernel1|op1|[16, 1, 1]|[16, 16, 16]|None|0|1|3000|3000|3000|3000" \
	"test_group_by_kernel_columns_invalid_input: five groups, a missing field is None (empty here), not 0"
done_testing
