#!/bin/sh
# tb_op_sums' nodes (v_tb_op_nodes, computed in C by lib/derive_op_nodes.c at import) on a
# hand-made trace with every case the definition tells apart: python ranges by category case,
# annotations that are nodes and one that is not, an open range, two nodes sharing an external id
# (the first owns the runtime calls), a call launching two kernels, memcpy and memset, a Tensor
# Core kernel, calls and kernels no node owns. The stored rows must be what the view computes,
# and the operator view's numbers the hand-worked ones.
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"
cd "$TMP"

trace_begin nodes.json
X Operator 'ProfilerStep#3' 456 80 500 '"External id": 1'
X python 'model.py(10): forward' 456 90 200
X Python 'x.py(1): f' 456 95 150
X python_function 'y.py(2): g' 456 96 140
X Operator aten::conv2d 456 100 100 '"External id": 10'
X Operator aten::convolution 456 110 50 '"External id": 10'
X Runtime cudaLaunchKernel 456 120 5 '"correlation": 1, "external id": 10'
X Kernel volta_h884gemm_64x64 'stream 7' 200 30 '"correlation": 1, "external id": 10, "device": 0'
X Runtime cudaMemcpyAsync 456 130 4 '"correlation": 2, "external id": 10'
X Memcpy 'Memcpy HtoD' 'stream 7' 240 10 '"correlation": 2, "external id": 10, "device": 0, "stream": 7'
X Runtime cudaMemsetAsync 456 135 2 '"correlation": 3, "external id": 10'
X Memset 'Memset (Device)' 'stream 7' 260 3 '"correlation": 3, "external id": 10, "device": 0, "stream": 7'
X Runtime cudaLaunchKernel 456 140 1 '"correlation": 4, "external id": 10'
X Kernel k1 'stream 7' 270 5 '"correlation": 4, "external id": 10, "device": 0'
X Kernel k2 'stream 8' 280 6 '"correlation": 4, "external id": 10, "device": 0'
X Kernel orphan 'stream 7' 290 2 '"correlation": 99, "device": 0'
X Runtime cudaLaunchKernel 456 150 1 '"correlation": 5, "external id": 77'
X Kernel k5 'stream 7' 295 2 '"correlation": 5, "external id": 77, "device": 0'
X user_annotation 'Optimizer.step#SGD.step' 456 300 50 '"External id": 20'
X Runtime cudaLaunchKernel 456 310 2 '"correlation": 6, "external id": 20'
X Kernel k6 'stream 7' 320 7 '"correlation": 6, "external id": 20, "device": 0'
X user_annotation 'nccl:all_reduce' 456 360 20 '"External id": 21'
X user_annotation my_region 456 400 10 '"External id": 22'
X Runtime cudaLaunchKernel 456 402 1 '"correlation": 7, "external id": 22'
X Kernel k7 'stream 7' 410 3 '"correlation": 7, "external id": 22, "device": 0'
X Operator aten::add 457 500 10 '"External id": 30'
X Operator aten::mul 457 505 2 '"External id": 30'
X Python 'w.py(4): k' 457 508 1
X python_function 'z.py(3): h' 457 501 3
X Runtime cudaLaunchKernel 457 503 1 '"correlation": 8, "external id": 30'
X Kernel k8 'stream 7' 520 4 '"correlation": 8, "external id": 30, "device": 0'
raw '{"ph":"B","cat":"cpu_op","name":"aten::never_ends","pid":13721,"tid":"458","ts":600,"args":{"External id": 40}}'
trace_end
import_trace nodes.json nodes.db
ok $? "the trace imports"

py "$TOP/tests/reports/derived_check.py" nodes.db "$EXT" >check.out 2>&1
like "$(grep '^tb_op_sums' check.out)" '^tb_op_sums	same \(4 rows\)' \
	"tb_op_sums (nodes computed in C) holds what v_tb_op_sums computes from v_tb_op_nodes"

# The nodes themselves, from the view (on a copy where no run is derived, so it computes them): python ranges by "python" in any case, the two node
# annotations, not my_region nor python_function nor the open range; ext 10's calls on conv2d.
cp nodes.db view.db
sqlite view.db "DELETE FROM derived_runs"
is "$("$PROFQ" sql view.db --format csv "SELECT n.value, o.rt_ns, o.dev_ns, o.tc_ns, o.k_ns FROM v_tb_op_nodes o
	JOIN strings n ON n.id = o.name_id ORDER BY o.start_ns, o.id" | sed 1d | tr , "|")" \
"ProfilerStep#3|0.0|0.0|0.0|0.0
model.py(10): forward|0.0|0.0|0.0|0.0
x.py(1): f|0.0|0.0|0.0|0.0
aten::conv2d|12000.0|54000.0|30000.0|41000.0
aten::convolution|0.0|0.0|0.0|0.0
Optimizer.step#SGD.step|2000.0|7000.0|0.0|7000.0
nccl:all_reduce|0.0|0.0|0.0|0.0
aten::add|1000.0|4000.0|0.0|4000.0
aten::mul|0.0|0.0|0.0|0.0
w.py(4): k|0.0|0.0|0.0|0.0" "v_tb_op_nodes: the nodes and their own times, hand-worked"

# op-sum: conv2d device self 30+10+3+5+6 us, host self 100 - 50 (child) - 12 (calls);
# convolution host self 50; add 10 - 2 (mul) - 1 (w.py, not z.py) - 1 (its call), device 4; mul 2.
is "$("$PROFQ" op-sum nodes.db --format csv | sed 1d | cut -d, -f2,4-8 | sort)" \
"aten::add,1,4000,4000,6000,10000
aten::conv2d,1,54000,54000,38000,100000
aten::convolution,1,0,0,50000,50000
aten::mul,1,0,0,2000,2000" "op-sum: device self/total, host self/total per operator, hand-worked"
done_testing
