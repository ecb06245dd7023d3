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
done_testing
