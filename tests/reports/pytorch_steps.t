#!/bin/sh
# step-breakdown and gpu-summary on hand-made traces: the micro-cases of tb_plugin's
# test/test_profiler.py (pytorch/kineto 041e7ce9; notes/kineto_hta.md §2.2), re-created here as
# small Kineto traces. Expected values are tb_plugin's (µs in the trace, ns in the report).
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"

# steps DB: the step rows of step-breakdown as "step:kernel,memcpy,memset,comm,runtime,dataloader,cpu,other,total" in µs
steps() {
	"$PROFQ" step-breakdown "$1" --format csv | cut -d, -f2- | sed 1d | awk -F, '{
		printf "%s:", $1; for (i = 2; i <= NF; i++) printf "%s%s", $i / 1000, (i < NF ? "," : ""); printf " " }'
}

# test_all_categories: every role in one step [50, 450)
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
is "$(steps "$TMP/all.db")" "1:15,10,5,0,30,180,35,125,400 average:15,10,5,0,30,180,35,125,400 " \
	"test_all_categories: Kernel 15, Memcpy 10, Memset 5, Runtime 30, DataLoader 180, CpuOp 35, Other 125"

# test_runtime_called_by_profilerstep: a runtime owned by the ProfilerStep itself
trace_begin "$TMP/rps.json"
X Operator 'ProfilerStep#1' 456 100 300 '"External id": 2'
X Runtime cudaLaunchKernel 456 130 20 '"correlation": 335, "external id": 2'
X Kernel 'void gemmSN_TN_kernel_64addr' 'stream 7' 220 8 '"correlation": 335, "external id": 2, "device": 0'
trace_end
import_trace "$TMP/rps.json" "$TMP/rps.db"
is "$(steps "$TMP/rps.db")" "1:8,0,0,0,20,0,0,272,300 average:8,0,0,0,20,0,0,272,300 " \
	"test_runtime_called_by_profilerstep: Kernel 8, Runtime 20, CpuOp 0, Other 272"

# test_no_profilerstep: one pseudo-step over the host ranges, extended to the kernel's end
trace_begin "$TMP/nostep.json"
X Operator aten::to 123 100 60 '"External id": 3'
X Operator aten::nll_loss_backward 456 300 70 '"External id": 4'
X Kernel 'void cunn_ClassNLLCriterion_updateGradInput_kernel<float>' 'stream 7' 320 100 '"correlation": 40348, "external id": 4, "device": 0'
X Runtime cudaLaunchKernel 456 310 20 '"correlation": 40348, "external id": 4'
trace_end
import_trace "$TMP/nostep.json" "$TMP/nostep.db"
is "$(steps "$TMP/nostep.db")" "0:100,0,0,0,10,0,70,140,320 average:100,0,0,0,10,0,70,140,320 " \
	"test_no_profilerstep: Kernel 100, Runtime 10, CpuOp 70, Other 140, Total 320"

# test_multiple_profilersteps_no_overlap
trace_begin "$TMP/noov.json"
X Operator 'ProfilerStep#1' 123 100 200 '"External id": 1'
X Operator aten::to 123 200 60 '"External id": 2'
X Operator 'ProfilerStep#2' 123 350 150 '"External id": 3'
X Operator aten::mm 123 360 50 '"External id": 4'
X Memcpy 'Memcpy HtoD (Pageable -> Device)' 'stream 7' 280 40 '"stream": 7, "correlation": 334, "external id": 2'
X Runtime cudaMemcpyAsync 123 250 5 '"correlation": 334, "external id": 2'
X Kernel 'void cunn_ClassNLLCriterion_updateGradInput_kernel<float>' 'stream 7' 410 200 '"correlation": 40348, "external id": 4, "device": 0'
X Runtime cudaLaunchKernel 123 400 5 '"correlation": 40348, "external id": 4'
trace_end
import_trace "$TMP/noov.json" "$TMP/noov.db"
is "$(steps "$TMP/noov.db")" \
	"1:0,40,0,0,5,0,55,120,220 2:200,0,0,0,5,0,45,10,260 average:100,20,0,0,5,0,50,65,240 " \
	"test_multiple_profilersteps_no_overlap: both steps and the average (total 240)"

# test_multiple_profilersteps_with_overlap: an earlier unattributed kernel ends at 240
trace_begin "$TMP/ov.json"
X Operator 'ProfilerStep#1' 123 100 200 '"External id": 1'
X Operator aten::to 123 200 60 '"External id": 2'
X Operator 'ProfilerStep#2' 123 350 150 '"External id": 3'
X Operator aten::mm 123 360 50 '"External id": 4'
X Kernel 'void cunn_ClassNLLCriterion_updateGradInput_kernel<float>' 'stream 7' 150 90 '"correlation": 123, "external id": 123, "device": 0'
X Memcpy 'Memcpy HtoD (Pageable -> Device)' 'stream 7' 280 100 '"stream": 7, "correlation": 334, "external id": 2'
X Runtime cudaMemcpyAsync 123 250 5 '"correlation": 334, "external id": 2'
X Kernel 'void cunn_ClassNLLCriterion_updateGradInput_kernel<float>' 'stream 7' 410 200 '"correlation": 40348, "external id": 4, "device": 0'
X Runtime cudaLaunchKernel 123 400 5 '"correlation": 40348, "external id": 4'
trace_end
import_trace "$TMP/ov.json" "$TMP/ov.db"
is "$(steps "$TMP/ov.db" | cut -d' ' -f1-2)" "1:0,100,0,0,5,0,15,20,140 2:200,0,0,0,5,0,25,0,230" \
	"test_multiple_profilersteps_with_overlap: device steps [240,380) and [380,610)"

# test_last_steps_no_kernel: two trailing steps without device work are dropped
trace_begin "$TMP/last.json"
X Operator 'ProfilerStep#1' 123 100 200 '"External id": 1'
X Operator aten::to 123 120 10 '"External id": 2'
X Operator 'ProfilerStep#2' 123 300 100 '"External id": 3'
X Operator 'ProfilerStep#3' 123 400 50 '"External id": 4'
X Kernel 'void cunn_ClassNLLCriterion_updateGradInput_kernel<float>' 'stream 7' 90 20 '"correlation": 123, "external id": 123, "device": 0'
X Runtime cudaMemcpyAsync 123 125 5 '"correlation": 334, "external id": 2'
X Kernel 'void cunn_ClassNLLCriterion_updateGradInput_kernel<float>' 'stream 7' 150 180 '"correlation": 334, "external id": 2, "device": 0'
trace_end
import_trace "$TMP/last.json" "$TMP/last.db"
got=$(steps "$TMP/last.db")
like "$got" '^1:[^ ]*,220 average:[^ ]*,220 $' "test_last_steps_no_kernel: one step left, total 220"

# trailing step that launched < 0.8x the device events of the step before it is dropped too
trace_begin "$TMP/cut.json"
X Operator 'ProfilerStep#1' 1 100 100 ''
X Runtime cudaLaunchKernel 1 110 5 '"correlation": 1'
X Runtime cudaLaunchKernel 1 120 5 '"correlation": 2'
X Kernel k 'stream 7' 130 10 '"correlation": 1, "device": 0'
X Kernel k 'stream 7' 150 10 '"correlation": 2, "device": 0'
X Operator 'ProfilerStep#2' 1 200 100 ''
X Runtime cudaLaunchKernel 1 210 5 '"correlation": 3'
X Kernel k 'stream 7' 230 10 '"correlation": 3, "device": 0'
trace_end
import_trace "$TMP/cut.json" "$TMP/cut.db"
like "$(steps "$TMP/cut.db")" '^1:[^ ]* average:[^ ]* $' "a last step with 1 < 0.8 x 2 device events is dropped"

# test_pure_cpu: no device work, host steps as they are
trace_begin "$TMP/cpu.json"
X Operator 'ProfilerStep#1' 123 100 200 '"External id": 1'
X Operator aten::to 123 120 10 '"External id": 2'
X Operator 'ProfilerStep#2' 123 300 100 '"External id": 3'
X Operator aten::mm 123 350 40 '"External id": 4'
trace_end
import_trace "$TMP/cpu.json" "$TMP/cpu.db"
is "$(steps "$TMP/cpu.db")" "1:0,0,0,0,0,0,10,190,200 2:0,0,0,0,0,0,40,60,100 average:0,0,0,0,0,0,25,125,150 " \
	"test_pure_cpu: CpuOp 10 / Other 190 and CpuOp 40 / Other 60"

# TestDistributed.test_distributed_nccl (worker0): communication = kernels of nccl:* ops + the ops
trace_begin "$TMP/nccl.json"
X cpu_op nccl:broadcast 23803 0 75 '"External id": 146'
X Kernel 'ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclWorkElem)' 'stream 16' 16 16 '"device": 0, "correlation": 28506, "external id": 146'
X cpu_op aten::add_ 23803 100 20 '"External id": 24504'
X Kernel 'void at::native::vectorized_elementwise_kernel<4>' 'stream 7' 130 161 '"device": 0, "correlation": 99765, "external id": 24504'
X cpu_op nccl:all_reduce 25166 160 75 '"External id": 2513'
X Kernel 'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)' 'stream 16' 162 1556 '"device": 0, "correlation": 33218, "external id": 2513'
trace_end
import_trace "$TMP/nccl.json" "$TMP/nccl.db"
is "$(steps "$TMP/nccl.db" | cut -d' ' -f1)" "0:105,0,0,75,0,0,20,35,235" \
	"test_distributed_nccl: [105,0,0,75,0,0,20,35,235]"

# test_distributed_gloo_gpu / _gloo_cpu (worker0): gloo ops by name
gloo() {
	trace_begin "$1"
	X cpu_op gloo:broadcast 23803 16 38 '"External id": 165'
	X cpu_op gloo:broadcast 23805 25 36 '"External id": 166'
	X cpu_op gloo:broadcast 23803 66 18 '"External id": 167'
	X cpu_op aten::add_ 23800 0 20 '"External id": 24504'
	if [ "$2" = gpu ]; then
		X Kernel 'void at::native::vectorized_elementwise_kernel<4>' 'stream 7' 30 101 '"device": 0, "correlation": 99765, "external id": 24504'
	else
		X cpu_op aten::mul 23800 30 101 '"External id": 24505'
	fi
	X cpu_op gloo:all_reduce 23805 110 18 '"External id": 2513'
	X cpu_op gloo:all_reduce 23803 120 36 '"External id": 2516'
	trace_end
	import_trace "$1" "${1%.json}.db"
}
gloo "$TMP/gg.json" gpu
is "$(steps "$TMP/gg.db" | cut -d' ' -f1)" "0:101,0,0,39,0,0,16,0,156" "test_distributed_gloo_gpu: [101,0,0,39,0,0,16,0,156]"
gloo "$TMP/gc.json" cpu
is "$(steps "$TMP/gc.db" | cut -d' ' -f1)" "0:0,0,0,109,0,0,47,0,156" "test_distributed_gloo_cpu: [0,0,0,109,0,0,47,0,156]"

# TestDataPipe: enumerate(DataPipe)#... is DataLoader time
trace_begin "$TMP/dp.json"
X cpu_op 'enumerate(DataPipe)#ShufflerIterDataPipe' 7557 100 23 '"External id": 34'
trace_end
import_trace "$TMP/dp.json" "$TMP/dp.db"
is "$(steps "$TMP/dp.db" | cut -d' ' -f1)" "0:0,0,0,0,0,23,0,0,23" "test_datapipe: DataPipe counted as DataLoader"

# test_gpu_utilization: util (40+20)/120, SM efficiency, occupancy weighted by kernel time
trace_begin "$TMP/gu.json"
X Operator aten::mat_mul 456 100 100 '"External id": 2'
X Operator aten::mm 456 120 70 '"External id": 4'
X Kernel kA 'stream 7' 130 10 '"correlation": 334, "external id": 4, "device": 1, "blocks per SM": 0.5, "est. achieved occupancy %": 0.6'
X Runtime cudaLaunchKernel 456 120 0 '"correlation": 334, "external id": 4'
X Kernel kB 'stream 8' 135 15 '"correlation": 335, "external id": 2, "device": 1, "blocks per SM": 0.6, "est. achieved occupancy %": 0.1'
X Kernel kB 'stream 8' 150 0 '"correlation": 335, "external id": 2, "device": 1, "blocks per SM": 0.3, "est. achieved occupancy %": 0.2'
X Runtime cudaLaunchKernel 456 120 0 '"correlation": 335, "external id": 2'
X Kernel kA 'stream 7' 145 25 '"correlation": 336, "external id": 4, "device": 1, "blocks per SM": 0.3, "est. achieved occupancy %": 1.0'
X Runtime cudaLaunchKernel 456 125 3 '"correlation": 336, "external id": 4'
X Kernel kA 'stream 7' 200 20 '"correlation": 337, "external id": 2, "device": 1, "blocks per SM": 10.5, "est. achieved occupancy %": 0.3'
X Runtime cudaLaunchKernel 456 195 1 '"correlation": 337, "external id": 2'
trace_end
import_trace "$TMP/gu.json" "$TMP/gu.db"
exp=$(py -c "print('1,%s,%s,%s' % (round(100*60/120, 2), round(100*(0.5*5+1.0*5+0.6*5+0.9*5+0.3*20+1.0*20)/120, 2),
                                   round((0.6*10+0.1*15+1.0*25+0.3*20)/70, 2)))")
is "$("$PROFQ" gpu-summary "$TMP/gu.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,5-7)" "$exp" \
	"test_gpu_utilization: utilization, SM efficiency and occupancy"

# test_gpu_utilization_kernel_out_of_step: kernels outside the steps
trace_begin "$TMP/out.json"
X Operator aten::mat_mul 456 10 10 '"External id": 1'
X Operator aten::mm 456 120 70 '"External id": 3'
X Operator aten::mm 456 220 20 '"External id": 4'
X Operator 'ProfilerStep#2' 456 100 100 '"External id": 2'
X Kernel kA 'stream 7' 60 20 '"correlation": 334, "external id": 1, "device": 1, "blocks per SM": 0.5, "est. achieved occupancy %": 0.6'
X Runtime cudaLaunchKernel 456 15 5 '"correlation": 334, "external id": 1'
X Kernel kA 'stream 7' 240 25 '"correlation": 337, "external id": 4, "device": 1, "blocks per SM": 10.5, "est. achieved occupancy %": 0.3'
X Runtime cudaLaunchKernel 456 230 10 '"correlation": 337, "external id": 4'
trace_end
import_trace "$TMP/out.json" "$TMP/out.db"
is "$("$PROFQ" gpu-summary "$TMP/out.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f1,5-7)" "1,0.0,," \
	"test_gpu_utilization_kernel_out_of_step: util 0, SM efficiency and occupancy NULL"

done_testing
