#!/bin/sh
# HTA reports on hand-made traces: idle-breakdown, launch-stats, comm-overlap
# (notes/kineto_hta.md §3.2). Expected values worked by hand from the events below
# (µs in the trace, ns in the reports).
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"

# K NAME STREAM TS DUR CORR: a kernel on device 0
K() { X Kernel "$1" "stream $2" "$3" "$4" "\"device\": 0, \"stream\": $2, \"correlation\": $5"; }
# R NAME TS DUR CORR: a runtime call on thread 456
R() { X Runtime "$1" 456 "$2" "$3" "\"correlation\": $4"; }

# idle-breakdown. Stream 7: k1 [100,110); k2 [120,130) launched at 95 < 110, gap 10 < 30 ->
# kernel_wait 10; k3 [200,210) launched at 150 > 130 -> host_wait 70; k4 [300,305) launched at 205
# < 210, gap 90 >= 30 -> other 90; memcpy [305,310) gap 0; k5 [320,330) without runtime, gap 10 ->
# kernel_wait. Stream 8: k6 [100,150); k7 [160,170) launched at 155 > 150 -> host_wait 10;
# k8 [168,180) overlaps k7 (gap -2): HTA sums the -2 into kernel_wait (its
# get_idle_time_breakdown at f4d0062c, run on this trace: stream 8 host_wait 10, kernel_wait -2,
# ratios 1.25 / -0.25); --mode exact counts no idle time there.
trace_begin "$TMP/idle.json"
K k1 7 100 10 1;  R cudaLaunchKernel 90 3 1
K k2 7 120 10 2;  R cudaLaunchKernel 95 3 2
K k3 7 200 10 3;  R cudaLaunchKernel 150 3 3
K k4 7 300 5 4;   R cudaLaunchKernel 205 3 4
X Memcpy 'Memcpy DtoH (Device -> Pageable)' 'stream 7' 305 5 '"device": 0, "stream": 7, "correlation": 5'
R cudaMemcpyAsync 100 4 5
K k5 7 320 10 6
K k6 8 100 50 7;  R cudaLaunchKernel 50 3 7
K k7 8 160 10 8;  R cudaLaunchKernel 155 3 8
K k8 8 168 12 9;  R cudaLaunchKernel 100 3 9
trace_end
import_trace "$TMP/idle.json" "$TMP/idle.db"
is "$("$PROFQ" idle-breakdown "$TMP/idle.db" --format csv | sed 1d)" \
"1,0,0,7,70000,20000,90000,180000,0.3889,0.1111,0.5
1,0,0,8,10000,-2000,0,8000,1.25,-0.25,0.0" "idle-breakdown: host, kernel and other waits per stream"
is "$("$PROFQ" idle-breakdown "$TMP/idle.db" --mode exact --format csv | sed 1d | tail -1)" \
	"1,0,0,8,10000,0,0,10000,1.0,0.0,0.0" "idle-breakdown --mode exact: the overlap is no idle time"
is "$("$PROFQ" idle-breakdown "$TMP/idle.db" --param consecutive_kernel_delay_us=5 --format csv | sed 1d | head -1 | cut -d, -f5-7)" \
"70000,0,110000" "idle-breakdown: a 5 µs threshold makes the 10 µs gaps 'other'"

# idle-breakdown step selection: ProfilerStep#1 [0,200), #2 [200,400); k2 launched at 150 after k1
# ended (110): host_wait 50; k3 launched at 250, after the last step's start: dropped (host_wait
# 130 more with include_last_step=1).
trace_begin "$TMP/steps.json"
X Operator 'ProfilerStep#1' 123 0 200 '"External id": 1'
X Operator 'ProfilerStep#2' 123 200 200 '"External id": 2'
R cudaLaunchKernel 50 3 1;   K k1 7 100 10 1
R cudaLaunchKernel 150 3 2;  K k2 7 160 10 2
R cudaLaunchKernel 250 3 3;  K k3 7 300 10 3
trace_end
import_trace "$TMP/steps.json" "$TMP/steps.db"
is "$("$PROFQ" idle-breakdown "$TMP/steps.db" --format csv | sed 1d | cut -d, -f5-8)" "50000,0,0,50000" \
	"idle-breakdown: the last ProfilerStep's launches dropped"
is "$("$PROFQ" idle-breakdown "$TMP/steps.db" --param include_last_step=1 --format csv | sed 1d | cut -d, -f5-8)" \
	"180000,0,0,180000" "idle-breakdown: include_last_step=1 keeps them"

# launch-stats. corr 1: cpu [100,110), kernel [150,152): delay 40, short. corr 2: cpu [200,260)
# (60 > 50 µs: runtime outlier), kernel [400,500): delay 140 (> 100 µs: outlier). corr 3: memcpy
# starting before its call ends: delay 0. cudaStreamSynchronize and a launch without a GPU event: no row.
trace_begin "$TMP/launch.json"
R cudaLaunchKernel 100 10 1;  K ka 7 150 2 1
R cudaLaunchKernel 200 60 2;  K kb 7 400 100 2
R cudaMemcpyAsync 300 5 3
X Memcpy 'Memcpy HtoD (Pageable -> Device)' 'stream 7' 302 8 '"device": 0, "stream": 7, "correlation": 3'
R cudaStreamSynchronize 310 5 4
R cudaLaunchKernel 600 20 5
trace_end
import_trace "$TMP/launch.json" "$TMP/launch.db"
is "$("$PROFQ" launch-stats "$TMP/launch.db" --format csv | sed 1d | cut -d, -f1-4,6-)" \
"1,0,1,cudaLaunchKernel,10000,2000,40000,1,0,0
1,0,2,cudaLaunchKernel,60000,100000,140000,0,1,1
1,0,3,cudaMemcpyAsync,5000,8000,0,0,0,0" "launch-stats: durations, delays and outliers per launch"
is "$("$PROFQ" launch-stats "$TMP/launch.db" --format csv | sed 1d | cut -d, -f5 | head -2 | tr '\n' ' ')" \
"ka kb " "launch-stats: the GPU event names"
is "$("$PROFQ" launch-stats "$TMP/launch.db" --param runtime_cutoff_us=5 --param launch_delay_cutoff_us=200 \
	--format csv | sed 1d | cut -d, -f10,11 | tr '\n' ' ')" "1,0 1,0 0,0 " "launch-stats: cutoffs as parameters"

# comm-overlap. Communication: ncclKernel [100,200) and [300,350) = 150; computation: sgemm
# [150,250), elementwise [180,190), gemm2 [340,400); overlap [150,200) + [340,350) = 60 -> 40 %.
trace_begin "$TMP/comm.json"
K ncclKernel_AllReduce_RING_LL_Sum_float 20 100 100 11
K volta_sgemm_128x64_nn 7 150 100 12
K elementwise_kernel 8 180 10 13
K ncclKernel_AllGather_RING_LL_Sum_float 20 300 50 14
K gemm2 7 340 60 15
trace_end
import_trace "$TMP/comm.json" "$TMP/comm.db"
is "$("$PROFQ" comm-overlap "$TMP/comm.db" --format csv | sed 1d)" "1,0,150000,60000,40.0" \
	"comm-overlap: 60 of 150 µs of communication under computation"
trace_begin "$TMP/nocomm.json"
K volta_sgemm_128x64_nn 7 150 100 12
trace_end
import_trace "$TMP/nocomm.json" "$TMP/nocomm.db"
is "$("$PROFQ" comm-overlap "$TMP/nocomm.db" --format csv | sed 1d)" "1,0,0,0," \
	"comm-overlap: no communication kernels, percentage NULL"

done_testing
