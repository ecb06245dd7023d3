#!/bin/sh
# op-sum and kernel-sum on hand-made traces: tb_plugin test_profiler.py cases test_external_id,
# test_all_categories (op rows), test_runtime_launch_multipe_kernels, test_top_level_runtime.
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"

# test_external_id: runtimes attach to ops by External id, not by time containment
trace_begin "$TMP/ext.json"
X Operator aten::mat_mul 456 100 100 '"External id": 2'
X Operator aten::mm 456 120 70 '"External id": 4'
X Kernel k 'stream 7' 130 5 '"correlation": 334, "external id": 4, "device": 0'
X Runtime cudaLaunchKernel 456 120 0 '"correlation": 334, "external id": 4'
X Kernel k 'stream 7' 130 6 '"correlation": 335, "external id": 2, "device": 0'
X Runtime cudaLaunchKernel 456 120 0 '"correlation": 335, "external id": 2'
X Kernel k 'stream 7' 130 7 '"correlation": 336, "external id": 4, "device": 0'
X Runtime cudaLaunchKernel 456 190 0 '"correlation": 336, "external id": 4'
X Kernel k 'stream 7' 130 8 '"correlation": 337, "external id": 2, "device": 0'
X Runtime cudaLaunchKernel 456 190 0 '"correlation": 337, "external id": 2'
trace_end
import_trace "$TMP/ext.json" "$TMP/ext.db"
is "$("$PROFQ" op-sum "$TMP/ext.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,3,4,5 | sort)" \
"aten::mat_mul,1,14000,26000
aten::mm,1,12000,12000" "test_external_id: mat_mul device self 6+8, total 5+6+7+8; mm 5+7"

# test_all_categories: aten::nll_loss_backward device 30, host self 70-20-10-5
trace_begin "$TMP/all.json"
X Operator 'enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__' 123 100 180 '"External id": 2'
X Operator aten::to 123 200 60 '"External id": 3'
X Operator aten::nll_loss_backward 456 340 70 '"External id": 4'
X Operator 'ProfilerStep#1' 123 50 400 '"External id": 1'
X Memcpy 'Memcpy HtoD (Pageable -> Device)' 'stream 7' 405 10 '"stream": 7, "correlation": 334, "external id": 4'
X Runtime cudaMemcpyAsync 456 360 20 '"correlation": 334, "external id": 4'
X Memset 'Memset (Device)' 'stream 7' 420 5 '"stream": 7, "correlation": 40344, "external id": 4'
X Runtime cudaMemsetAsync 456 390 10 '"correlation": 40344, "external id": 4'
X Kernel 'void cunn_ClassNLLCriterion_updateGradInput_kernel<float>' 'stream 7' 430 15 '"correlation": 40348, "external id": 4, "device": 0'
X Runtime cudaLaunchKernel 456 405 5 '"correlation": 40348, "external id": 4'
trace_end
import_trace "$TMP/all.json" "$TMP/all.db"
is "$("$PROFQ" op-sum "$TMP/all.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,3-7)" \
"aten::nll_loss_backward,1,30000,30000,35000,70000
aten::to,1,0,0,60000,60000" "test_all_categories: two operators (DataLoader and ProfilerStep not listed), nll_loss_backward device 30, host self 35"

# test_runtime_launch_multipe_kernels: one runtime, two kernels
trace_begin "$TMP/multi.json"
X Operator Broadcast 456 100 300 '"External id": 2'
X Runtime cudaLaunchCooperativeKernelMultiDevice 456 130 20 '"correlation": 335, "external id": 2'
X Kernel 'ncclBroadcastRingLLKernel_copy_i8(ncclColl)' 'stream 13' 160 120318 '"device": 0, "stream": 13, "correlation": 335, "external id": 2'
X Kernel 'ncclBroadcastRingLLKernel_copy_i8(ncclColl)' 'stream 22' 170 132800 '"device": 0, "stream": 22, "correlation": 335, "external id": 2'
trace_end
import_trace "$TMP/multi.json" "$TMP/multi.db"
is "$("$PROFQ" op-sum "$TMP/multi.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,5)" "Broadcast,253118000" \
	"test_runtime_launch_multipe_kernels: device time 120318 + 132800"
is "$("$PROFQ" kernel-sum "$TMP/multi.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f8)" "2" "kernel-sum: 2 calls"
is "$("$PROFQ" kernel-sum "$TMP/multi.db" --param by=kernel+op --format csv | cut -d, -f2- | sed 1d | wc -l | tr -d ' ')" "1" \
	"kernel-sum by kernel+op: one row"

# test_top_level_runtime: a runtime whose External id matches no operator
trace_begin "$TMP/top.json"
X Operator aten::mm 123 100 100 '"External id": 2'
X Runtime cudaLaunchKernel 456 130 20 '"correlation": 335, "external id": 335'
X Kernel 'void gemmSN_TN_kernel_64addr' 'stream 7' 220 8 '"correlation": 335, "external id": 335, "device": 0'
trace_end
import_trace "$TMP/top.json" "$TMP/top.db"
is "$("$PROFQ" op-sum "$TMP/top.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,5)" "aten::mm,0" \
	"test_top_level_runtime: aten::mm has no device time"
is "$("$PROFQ" kernel-sum "$TMP/top.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f8)" "1" "kernel-sum: the kernel still counts"

done_testing
