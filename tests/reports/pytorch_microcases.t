#!/bin/sh
# The remaining micro-cases of tb_plugin's test/test_profiler.py (pytorch/kineto
# tb_plugin/test/test_profiler.py at 041e7ce99f1562dd81232ee58b7c454ef16bfae2; notes/kineto_hta.md
# §2.2): each test's inline trace restated as a hand-written Kineto trace, run through our report,
# and checked against tb_plugin's expected values (µs in the trace, ns and bytes in the reports).
# Here: test_tensor_core (op-sum's tc columns and tc_eligible_ops_kernel_pct, kernel-sum's
# op_tc_eligible, gpu-summary's tc ratio), test_group_by_kernel_columns(+_invalid_input),
# test_operator_relation, test_remove_dup_nodes, test_memory_view, TestMemoryCurve (both, the
# step plot through memory-curve --plot step), TestModuleView (module-view), test_self_time,
# test_distributed_nccl_user_annotation_has_communication. Elsewhere:
# pytorch_steps.t (step costs, GPU metrics, TestDataPipe), pytorch_ops.t (operator/kernel views),
# pytorch_distributed.t (TestDistributed: overlap, wait and communication-op rows). Every
# micro-case listed in notes/kineto_hta.md §2.2 is now a test. Not covered: module-view's
# backward-op regrouping and tb_plugin's keeping apart of differently shaped trees under one
# top module (no tb_plugin test pins either), PyTorch Lightning module views.
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
is "$("$PROFQ" op-sum "$TMP/tc.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,8-10 | sort)" \
"aten::conv2d,1,0.0,60.0
aten::cudnn_convolution,1,100.0,100.0
op_no_tc,0,0.0,0.0" "test_tensor_core: conv2d eligible, tc self 0, tc total 15/(15+10); cudnn_convolution 1.0; op_no_tc 0"
# kernel+op rows as name,op,tensor_cores_used,op_tc_eligible
is "$("$PROFQ" kernel-sum "$TMP/tc.db" --param by=kernel+op --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,2,7,15 | sort)" \
"kernel_no_tc,op_no_tc,0,0
volta_fp16_s884cudnn_fp16_128x128_ldg8_splitK_relu_f2f_exp_small_nhwc_tn_v1,aten::cudnn_convolution,1,1" \
	"test_tensor_core: kernels grouped by op, the s884 kernel uses Tensor Cores, op_tc_eligible as tb_plugin's"
is "$("$PROFQ" kernel-sum "$TMP/tc.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f15 | sort -u)" "" \
	"kernel-sum by kernel: op_tc_eligible is empty (NULL)"
# tc_eligible_ops_kernel_ratio: the bottom eligible op (cudnn_convolution, not conv2d above it) 15
# over all ops' own kernel time 15 + 10; on every op-sum row
is "$("$PROFQ" op-sum "$TMP/tc.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f11 | sort -u)" "60.0" \
	"test_tensor_core: tc_eligible_ops_kernel_ratio = 15/(15+10)"

# Not a tb_plugin test (values from running tb_plugin's code on this trace): op_tc, not in the
# allowlist, becomes eligible by its own s884 kernel and is then the bottom eligible op under
# aten::conv2d (ratio 10 / (10 + 20 + 5)); its kernel's op_tc_eligible stays 0, as tb_plugin sets
# it before that promotion.
trace_begin "$TMP/tc2.json"
X Operator aten::conv2d 123 200 100 '"External id": 3'
X Operator op_tc 123 205 10 '"External id": 4'
X Operator aten::relu 123 220 10 '"External id": 5'
X Runtime cudaLaunchKernel 123 206 2 '"correlation": 1000, "external id": 4'
X Kernel volta_s884gemm_128x128 'stream 7' 210 10 '"correlation": 1000, "external id": 4, "device": 0'
X Runtime cudaLaunchKernel 123 221 2 '"correlation": 1001, "external id": 5'
X Kernel kernel_no_tc 'stream 7' 225 20 '"correlation": 1001, "external id": 5, "device": 0'
X Runtime cudaLaunchKernel 123 240 2 '"correlation": 1002, "external id": 3'
X Kernel kernel_no_tc 'stream 7' 250 5 '"correlation": 1002, "external id": 3, "device": 0'
trace_end
import_trace "$TMP/tc2.json" "$TMP/tc2.db"
is "$("$PROFQ" op-sum "$TMP/tc2.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,8,11 | sort)" \
"aten::conv2d,1,28.57
aten::relu,0,28.57
op_tc,1,28.57" "tc_eligible_ops_kernel_pct: an op eligible by its own Tensor Core kernel is the bottom one (10/35)"
is "$("$PROFQ" kernel-sum "$TMP/tc2.db" --param by=kernel+op --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,2,7,15 | sort)" \
"kernel_no_tc,aten::conv2d,0,1
kernel_no_tc,aten::relu,0,0
volta_s884gemm_128x128,op_tc,1,0" "op_tc_eligible: the op's allowlist membership, not its promotion"
is "$("$PROFQ" gpu-summary "$TMP/tc.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,8)" "0,60.0" \
	"test_tensor_core: profile.tc_ratio[0] = 15/(15+10)"

# kops DB: kernel-sum by kernel+op as name|op|grid|block|registers|shared memory|calls|total|mean|max|min,
# sorted (tb_plugin lists groups in first-seen order, kernel-sum by total time); an empty (NULL)
# field printed as tb_plugin's None
kops() {
	"$PROFQ" kernel-sum "$1" --param by=kernel+op --format csv | cut -d, -f2- | sed 1d | py -c '
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

# --- test_operator_relation: a child with the parent's start (then with the parent's end) is nested
trace_begin "$TMP/rel1.json"
X Operator aten::mat_mul 456 100 100 '"Input Dims": [], "External id": 2'
X Operator aten::mm 456 100 70 '"Input Dims": [], "External id": 4'
trace_end
trace_begin "$TMP/rel2.json"
X Operator aten::mat_mul 456 100 100 '"Input Dims": [], "External id": 2'
X Operator aten::mm 456 130 70 '"Input Dims": [], "External id": 4'
trace_end
for t in rel1 rel2; do
	import_trace "$TMP/$t.json" "$TMP/$t.db"
	is "$("$PROFQ" op-sum "$TMP/$t.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,6 | sort)" \
"aten::mat_mul,30000
aten::mm,70000" "test_operator_relation ($t): host self mat_mul 100-70, mm 70"
done

# --- test_remove_dup_nodes: aten::mm > aten::mm > aten::mm, the innermost launching an 8 µs kernel
trace_begin "$TMP/dup.json"
X Operator aten::mm 456 100 100 '"Input Dims": [], "External id": 2'
X Operator aten::mm 456 110 80 '"Input Dims": [], "External id": 3'
X Operator aten::mm 456 120 60 '"Input Dims": [], "External id": 4'
X Runtime cudaLaunchKernel 456 130 20 '"correlation": 335, "external id": 4'
X Kernel 'void gemmSN_TN_kernel_64addr' 'stream 7' 220 8 '"correlation": 335, "external id": 4, "device": 0'
trace_end
import_trace "$TMP/dup.json" "$TMP/dup.db"
# tb_plugin asserts one operator row with self device time 8. The other columns follow from its
# op_tree.py remove_dup_nodes: one kept node (1 call, host total 100) holding the innermost node's
# runtime call, so host self 100 - 20 and device total 8.
is "$("$PROFQ" op-sum "$TMP/dup.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,3-7)" "aten::mm,1,8000,8000,80000,100000" \
	"test_remove_dup_nodes: the aten::mm chain is one node, device self 8"

# remove_dup_nodes only collapses an only child: two same-name children stay three nodes, and
# the parent's own runtime call (External id 2) stays with it
trace_begin "$TMP/dup2.json"
X Operator aten::mm 456 100 100 '"Input Dims": [], "External id": 2'
X Operator aten::mm 456 110 30 '"Input Dims": [], "External id": 3'
X Operator aten::mm 456 150 30 '"Input Dims": [], "External id": 4'
X Runtime cudaLaunchKernel 456 185 5 '"correlation": 335, "external id": 2'
X Kernel 'void gemmSN_TN_kernel_64addr' 'stream 7' 220 8 '"correlation": 335, "external id": 2, "device": 0'
trace_end
import_trace "$TMP/dup2.json" "$TMP/dup2.db"
is "$("$PROFQ" op-sum "$TMP/dup2.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,3-7)" "aten::mm,3,8000,8000,95000,160000" \
	"remove_dup_nodes: not applied to a node with two children (3 calls, host self 35 + 30 + 30)"

# --- test_memory_view: [memory] events on thread 123 (CPU = Device Type 0, GPU0 = 1/0)
M() { raw "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":13721,\"tid\":123,\"ts\":$1,\"args\":{\"Device Type\":$2,\"Device Id\":$3,\"Addr\":$4,\"Bytes\":$5}}"; }
D='"Input Dims": [[2, 8, 5], [], [], [], [], [], [], []]'
trace_begin "$TMP/mv.json"
X Operator aten::to 123 10 10 '"Input Dims": [], "External id": 2'
X Operator 'enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__' 123 100 180 '"Input Dims": [], "External id": 2'
X Operator aten::to 123 200 60 "$D, \"External id\": 3"
X Operator aten::nll_loss_backward 123 340 70 '"Input Dims": [[], [32, 1000], [32], [], [], [], []], "External id": 4'
X Operator 'ProfilerStep#1' 123 50 400 '"Input Dims": [], "External id": 1'
X Operator 'ProfilerStep#2' 123 500 500 '"Input Dims": [], "External id": 1'
X Operator aten::to 123 510 150 "$D, \"External id\": 3"
X Operator aten::copy_ 123 520 100 "$D, \"External id\": 3"
X Operator aten::liner 123 700 100 "$D, \"External id\": 3"
X Operator aten::t 123 705 40 "$D, \"External id\": 3"
X Operator aten::transpose 123 710 30 "$D, \"External id\": 3"
X Operator aten::tranas_stride 123 720 10 "$D, \"External id\": 3"
X Operator aten::addmm 123 750 40 "$D, \"External id\": 3"
X Operator aten::to 123 900 100 "$D, \"External id\": 3"
X Memcpy 'Memcpy HtoD (Pageable -> Device)' 'stream 7' 405 10 '"stream": 7, "correlation": 334, "external id": 4'
X Runtime cudaMemcpyAsync 456 360 20 '"correlation": 334, "external id": 4'
X Memset 'Memset (Device)' 'stream 7' 420 5 '"stream": 7, "correlation": 40344, "external id": 4'
X Runtime cudaMemsetAsync 456 390 10 '"correlation": 40344, "external id": 4'
X Kernel 'void cunn_ClassNLLCriterion_updateGradInput_kernel<float>' 'stream 7' 430 15 '"correlation": 40348, "external id": 4, "device": 0'
X Runtime cudaLaunchKernel 456 405 5 '"correlation": 40348, "external id": 4'
M 90 0 -1 90 4
M 150 0 -1 150 4
M 200 0 -1 200 4
M 210 1 0 210 4
M 265 1 0 265 4
M 300 1 0 300 4
M 350 1 0 350 10
M 360 1 0 350 -10
M 450 0 -1 450 1000000
M 515 1 0 515 100
M 520 1 0 520 100
M 600 1 0 520 -100
M 690 1 0 690 100
M 701 1 0 701 100
M 796 1 0 515 -100
M 708 1 0 708 100
M 742 1 0 708 -100
M 715 1 0 715 50
M 735 1 0 715 -50
M 725 1 0 725 50
M 728 1 0 725 -50
M 729 0 -1 729 50
M 746 0 -1 746 100
M 747 1 0 747 20
M 749 0 -1 690 -100
M 760 1 0 760 30
M 780 1 0 760 -30
M 795 1 0 795 10
M 799 1 0 795 -10
trace_end
import_trace "$TMP/mv.json" "$TMP/mv.db"
# tb_plugin's per-op list [self increase, self alloc size, self alloc count, increase, alloc size,
# alloc count, calls], from memory-sum's columns; both in bytes (get_memory_statistics returns
# bytes, KB is only the UI's unit). tb_plugin's dicts list exactly these operators, 2 devices.
is "$("$PROFQ" memory-sum "$TMP/mv.db" --format csv | cut -d, -f2- | sed 1d |
	awk -F, '{ print $1 " " $2 " [" $5 ", " $9 ", " $7 ", " $4 ", " $8 ", " $6 ", " $3 "]" }' | LC_ALL=C sort)" \
"CPU aten::liner [0, 100, 1, 50, 150, 2, 1]
CPU aten::t [0, 0, 0, 50, 50, 1, 1]
CPU aten::to [4, 4, 1, 4, 4, 1, 4]
CPU aten::tranas_stride [50, 50, 1, 50, 50, 1, 1]
CPU aten::transpose [0, 0, 0, 50, 50, 1, 1]
GPU0 aten::addmm [0, 30, 1, 0, 30, 1, 1]
GPU0 aten::copy_ [0, 100, 1, 0, 100, 1, 1]
GPU0 aten::liner [20, 130, 3, 20, 360, 7, 1]
GPU0 aten::nll_loss_backward [0, 10, 1, 0, 10, 1, 1]
GPU0 aten::t [0, 100, 1, 0, 200, 3, 1]
GPU0 aten::to [104, 104, 2, 104, 204, 3, 4]
GPU0 aten::tranas_stride [0, 50, 1, 0, 50, 1, 1]
GPU0 aten::transpose [0, 50, 1, 0, 100, 2, 1]" \
	"test_memory_view: CPU and GPU0 statistics per operator equal tb_plugin's"

# --- TestMemoryCurve (test_memory_curve_no_step_plot): [memory] events with Total Allocated/Reserved,
# as [ts, device type, device id, addr, bytes, total allocated, total reserved]
C() { raw "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":0,\"tid\":0,\"ts\":$1,\"args\":{\"Device Type\":$2,\"Device Id\":$3,\"Addr\":$4,\"Bytes\":$5,\"Total Allocated\":$6,\"Total Reserved\":$7}}"; }
trace_begin "$TMP/mc.json"
C 1 0 0 1 4 4 0
C 2 1 0 11 400 400 512
C 20 0 0 1 -4 0 0
C 22 1 0 11 -400 0 512
C 100 0 0 2 8000 8000 0
C 105 1 0 12 5000 5000 10240
C 106 1 0 13 3000 8000 10240
C 200 0 0 2 -8000 0 0
C 205 1 0 12 -5000 3000 10240
C 300 0 0 3 4 4 0
C 400 0 0 4 16 20 0
C 401 1 0 14 1024 4024 10240
C 499 1 0 15 4 4028 10240
C 500 0 0 5 4000 4020 0
C 501 1 0 13 -3000 1028 10240
C 502 1 0 15 -4 1024 10240
C 600 0 0 4 -16 4004 0
C 700 0 0 7 80 4084 0
C 800 0 0 3 -4 4080 0
C 900 0 0 7 -80 4000 0
C 905 0 0 4 -4000 0 0
C 906 1 0 14 -1024 0 10240
trace_end
import_trace "$TMP/mc.json" "$TMP/mc.db"
# tb_plugin's curve points are [ts - profiler start (the first event, 1 µs), Total Allocated,
# Total Reserved] in µs and bytes; memory-curve reports the absolute ts_ns (header: relative
# times not reproduced), so the first ts is subtracted here and ns turned back into µs.
is "$("$PROFQ" memory-curve "$TMP/mc.db" --format csv | cut -d, -f2- | sed 1d |
	awk -F, 'NR == 1 || $1 < t0 { t0 = $1 } { row[NR] = $0 } END {
		for (i = 1; i <= NR; i++) { split(row[i], f, ","); print f[2] " [" (f[1] - t0) / 1000 ", " f[3] ", " f[4] "]" } }')" \
"CPU [0, 4, 0]
CPU [19, 0, 0]
CPU [99, 8000, 0]
CPU [199, 0, 0]
CPU [299, 4, 0]
CPU [399, 20, 0]
CPU [499, 4020, 0]
CPU [599, 4004, 0]
CPU [699, 4084, 0]
CPU [799, 4080, 0]
CPU [899, 4000, 0]
CPU [904, 0, 0]
GPU0 [1, 400, 512]
GPU0 [21, 0, 512]
GPU0 [104, 5000, 10240]
GPU0 [105, 8000, 10240]
GPU0 [204, 3000, 10240]
GPU0 [400, 4024, 10240]
GPU0 [498, 4028, 10240]
GPU0 [500, 1028, 10240]
GPU0 [501, 1024, 10240]
GPU0 [905, 0, 10240]" "TestMemoryCurve.test_memory_curve_no_step_plot: every CPU and GPU0 point (relative ts, allocated, reserved)"

# --- TestMemoryCurve.test_memory_curve_step_plot: the same events with --plot step. tb_plugin
# inserts before each point but a device's first one (its time, the previous point's values):
# 2n - 1 points per device. All 23 + 19 points, as tb_plugin's get_memory_curve gives them.
is "$("$PROFQ" memory-curve "$TMP/mc.db" --plot step --format csv | cut -d, -f2- | sed 1d |
	awk -F, 'NR == 1 || $1 < t0 { t0 = $1 } { row[NR] = $0 } END {
		for (i = 1; i <= NR; i++) { split(row[i], f, ","); printf "%s[%s, %s, %s] ", (f[2] != d ? "\n" f[2] " " : ""), (f[1] - t0) / 1000, f[3], f[4]; d = f[2] } }' | sed '1d; s/ $//')" \
"CPU [0, 4, 0] [19, 4, 0] [19, 0, 0] [99, 0, 0] [99, 8000, 0] [199, 8000, 0] [199, 0, 0] [299, 0, 0] [299, 4, 0] [399, 4, 0] [399, 20, 0] [499, 20, 0] [499, 4020, 0] [599, 4020, 0] [599, 4004, 0] [699, 4004, 0] [699, 4084, 0] [799, 4084, 0] [799, 4080, 0] [899, 4080, 0] [899, 4000, 0] [904, 4000, 0] [904, 0, 0]
GPU0 [1, 400, 512] [21, 400, 512] [21, 0, 512] [104, 0, 512] [104, 5000, 10240] [105, 5000, 10240] [105, 8000, 10240] [204, 8000, 10240] [204, 3000, 10240] [400, 3000, 10240] [400, 4024, 10240] [498, 4024, 10240] [498, 4028, 10240] [500, 4028, 10240] [500, 1028, 10240] [501, 1028, 10240] [501, 1024, 10240] [905, 1024, 10240] [905, 0, 10240]" \
	"TestMemoryCurve.test_memory_curve_step_plot: 2n - 1 points per device, each inserted one at the next time with the previous values"
is "$("$PROFQ" memory-curve "$TMP/mc.db" --param plot=step --format csv | cut -d, -f2- | sed 1d | wc -l | tr -d ' ')" 42 \
	"memory-curve: --param plot=step works too (23 + 19 points)"
# --- TestModuleView.test_build_module_hierarchy: python_function events (Python id / parent id,
# modules with a Python module id) under a test_root function; three MyModule > Linear > addmm
# instances and one Conv2. tb_plugin: two top modules sorted by name, Conv2 and MyModule, the
# latter with the one child Linear. The statistics are tb_plugin's aggegate_module_view output
# for this trace (host µs: MyModule 3 x 211, self 633 - 3 x 62; Linear 3 x 62, self 186 - 31 - 32 - 33).
P() { X python_function "$1" 1908 "$2" "$3" "\"Python id\": $4${5:+, \"Python parent id\": $5}${6:+, \"Python module id\": $6}"; }
trace_begin "$TMP/mod.json"
P test_root 1 19367 1
P 'nn.Module: MyModule' 2 211 2 1 0
P 'nn.Module: Linear' 5 62 3 2 1
X cpu_op aten::addmm 1908 10 31 '"External id": 12182, "Fwd thread id": 0, "Sequence number": 4006, "python_caller_id": 3'
P 'nn.Module: MyModule' 1000 211 4 1 0
P 'nn.Module: Linear' 1001 62 5 4 1
X cpu_op aten::addmm 1908 1002 32 '"External id": 12182, "Fwd thread id": 0, "Sequence number": 4006, "python_caller_id": 5'
P 'nn.Module: MyModule' 2000 211 6 1 0
P 'nn.Module: Linear' 2001 62 7 6 1
X cpu_op aten::addmm 1908 2002 33 '"External id": 12182, "Fwd thread id": 0, "Sequence number": 4006, "python_caller_id": 7'
P 'nn.Module: Conv2' 3000 211 8 1 100
trace_end
import_trace "$TMP/mod.json" "$TMP/mod.db"
# module-view rows as path,depth,name,module_id,occurrences,operators,host total,host self (µs)
is "$("$PROFQ" module-view "$TMP/mod.db" --format csv | cut -d, -f2- | sed 1d | awk -F, '{ print $1 "," $2 "," $3 "," $4 "," $5 "," $6 "," $7 / 1000 "," $8 / 1000 }')" \
"Conv2,0,Conv2,100,1,0,211,211
MyModule,0,MyModule,0,3,0,633,447
MyModule/Linear,1,Linear,1,3,3,186,90" \
	"test_build_module_hierarchy: top modules Conv2 and MyModule, MyModule's one child Linear"

# Not a tb_plugin test (values from running tb_plugin's aggegate_module_view on this trace): a
# non-module python function between Net and Block, two Block module ids, kernels and a memcpy
# below the modules, an op of Net outside forward, a ProfilerStep around it all.
trace_begin "$TMP/mod2.json"
X cpu_op 'ProfilerStep#1' 1 0 1000 '"External id": 1'
P() { X python_function "$1" 1 "$2" "$3" "\"Python id\": $4${5:+, \"Python parent id\": $5}${6:+, \"Python module id\": $6}"; }
P train 5 990 1
P 'nn.Module: Net' 10 590 2 1 0
P forward 12 578 3 2
P 'nn.Module: Block' 20 280 4 3 1
X cpu_op aten::linear 1 30 170 '"External id": 10'
X cpu_op aten::addmm 1 40 150 '"External id": 11'
X cuda_runtime cudaLaunchKernel 1 50 5 '"correlation": 1, "external id": 11'
X kernel gemm_kernel 'stream 7' 60 100 '"device": 0, "correlation": 1, "external id": 11'
X cpu_op aten::relu 1 210 50 '"External id": 12'
X cuda_runtime cudaLaunchKernel 1 215 5 '"correlation": 2, "external id": 12'
X kernel relu_kernel 'stream 7' 230 20 '"device": 0, "correlation": 2, "external id": 12'
P 'nn.Module: Block' 310 190 5 3 2
X cpu_op aten::linear 1 320 160 '"External id": 13'
X cuda_runtime cudaLaunchKernel 1 330 5 '"correlation": 3, "external id": 13'
X kernel gemm_kernel 'stream 7' 340 60 '"device": 0, "correlation": 3, "external id": 13'
X cuda_runtime cudaMemcpyAsync 1 340 5 '"correlation": 4, "external id": 13'
X gpu_memcpy 'Memcpy DtoD (Device -> Device)' 'stream 7' 410 10 '"device": 0, "correlation": 4, "external id": 13'
X cpu_op aten::add_ 1 592 6 '"External id": 14'
X cuda_runtime cudaLaunchKernel 1 593 2 '"correlation": 5, "external id": 14'
X kernel add_kernel 'stream 7' 600 5 '"device": 0, "correlation": 5, "external id": 14'
P 'nn.Module: Net' 620 280 6 1 0
P forward 625 265 7 6
P 'nn.Module: Block' 630 170 8 7 1
X cpu_op aten::linear 1 640 150 '"External id": 15'
X cuda_runtime cudaLaunchKernel 1 650 5 '"correlation": 6, "external id": 15'
X kernel gemm_kernel 'stream 7' 660 100 '"device": 0, "correlation": 6, "external id": 15'
P 'nn.Module: Loss' 910 50 9 1 5
X cpu_op aten::mse_loss 1 915 40 '"External id": 16'
trace_end
import_trace "$TMP/mod2.json" "$TMP/mod2.db"
# all columns but path, times in µs
is "$("$PROFQ" module-view "$TMP/mod2.db" --format csv | cut -d, -f2- | sed 1d | awk -F, '{ print $1 "," $2 "," $3 "," $4 "," $5 "," $6 "," $7 / 1000 "," $8 / 1000 "," $9 / 1000 "," $10 / 1000 "," $11 / 1000 }')" \
"Loss,0,Loss,5,1,1,50,10,0,0,50
Net,0,Net,0,2,1,870,224,295,5,147.5
Net/Block,1,Block,1,2,3,450,80,220,220,110
Net/Block,1,Block,2,1,1,190,30,70,70,70" \
	"module-view: occurrences, operators, host/device total and self, avg as tb_plugin's"
is "$("$PROFQ" module-view "$TMP/tc.db" --format csv | cut -d, -f2- | sed 1d | wc -l | tr -d ' ')" 0 "module-view: no rows without module events"
# --- test_self_time: aten::mat_mul > aten::mm, each launching one kernel
trace_begin "$TMP/self.json"
X Operator aten::mat_mul 456 100 100 '"Input Dims": [], "External id": 2'
X Operator aten::mm 456 120 40 '"Input Dims": [], "External id": 4'
X Kernel 'void cunn_ClassNLLCriterion_updateGradInput_kernel<float>' 'stream 7' 155 20 '"correlation": 334, "external id": 4, "device": 0'
X Runtime cudaLaunchKernel 456 150 10 '"correlation": 334, "external id": 4'
X Kernel 'void cunn_ClassNLLCriterion_updateGradInput_kernel<float>' 'stream 7' 210 16 '"correlation": 335, "external id": 2, "device": 0'
X Runtime cudaLaunchKernel 456 170 25 '"correlation": 335, "external id": 2'
trace_end
import_trace "$TMP/self.json" "$TMP/self.db"
# name,device self,device total,host self,host total in µs
is "$("$PROFQ" op-sum "$TMP/self.db" --format csv | cut -d, -f2- | sed 1d | awk -F, '{ print $1 "," $4 / 1000 "," $5 / 1000 "," $6 / 1000 "," $7 / 1000 }' | sort)" \
"aten::mat_mul,16,36,35,100
aten::mm,20,20,30,40" "test_self_time: mat_mul device 20 + 16, self 16, host self 100 - 40 - 25; mm 20, 20, 30, 40"

# --- TestDistributed.test_distributed_nccl_user_annotation_has_communication: a user_annotation
# named nccl:all_reduce is communication (tb_plugin's has_communication)
trace_begin "$TMP/ua.json"
raw '{"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce", "pid": 128, "tid": 999, "ts": 1686070155939447, "dur": 71, "args": {"Trace name": "PyTorch Profiler", "Trace iteration": 0, "External id": 647, "Profiler Event Index": 134}}'
trace_end
import_trace "$TMP/ua.json" "$TMP/ua.db"
is "$("$PROFQ" dist-comm-ops "$TMP/ua.db" --format csv | sed 1d | cut -d, -f3,4,7)" "nccl:all_reduce,1,71000" \
	"test_distributed_nccl_user_annotation_has_communication: the annotation is a communication node"

done_testing
