#!/bin/sh
# Each place where HTA's definitions part from the obvious exact ones, on a hand-made Kineto trace,
# with HTA's own numbers: facebookresearch/HolisticTraceAnalysis at f4d0062c (get_temporal_breakdown,
# get_idle_time_breakdown, get_comm_comp_overlap, get_cuda_kernel_launch_stats, run on these files
# with tests/reports/hta_reference.py). --mode exact gives the exact numbers, worked by hand.
. "${0%/*}/../lib.sh"

# ev CAT NAME PID TID TS DUR ARGS: one complete event (µs, as written)
ev() { printf '%s{"ph":"X","cat":"%s","name":"%s","pid":%s,"tid":%s,"ts":%s,"dur":%s,"args":{%s}}\n' \
	"$_sep" "$1" "$2" "$3" "$4" "$5" "$6" "$7" >>"$_f"; _sep=","; }
# begin FILE BASE / end: a Kineto trace with ts relative to baseTimeNanoseconds BASE
begin() { _f=$1; _sep=""; printf '{"schemaVersion":1,"baseTimeNanoseconds":%s,"traceEvents":[\n' "$2" >"$_f"; }
end() { printf ']}\n' >>"$_f"; "$PROFQ" import -q -o "${_f%.json}.db" "$_f" >/dev/null; }
# rt TS DUR CORR [NAME]: a runtime call; gk CAT NAME STREAM TS DUR CORR: its GPU event
rt() { ev cuda_runtime "${4:-cudaLaunchKernel}" 77 77 "$1" "$2" "\"correlation\": $3"; }
gk() { ev "$1" "$2" 0 "$3" "$4" "$5" "\"device\": 0, \"stream\": $3, \"correlation\": $6"; }
NCCL="ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
q() { "$PROFQ" "$@" --format csv | sed 1d; }

# 1. Times. HTA rounds every ns-resolution ts up and ts + dur down to whole µs of the trace's own
# clock (round_down_time_stamps), so an event under 1 µs that crosses no µs boundary lasts -1 µs.
# The base is 500 ns past a µs: on the epoch clock elementwise_kernel [25.1, 25.8] would round to
# [26, 26], on the trace's to [26, 25]. HTA: kernels [11,20] [26,25] [46,50], nccl [13,32], memcpy
# [31,38], memset [41,40]; merged [11,38] [41,40] [46,50] = 30 of span 39: idle 9, compute 9 - 1 +
# 4 = 12. Exact: span 40.0, union 33.2, compute 15.5.
begin "$TMP/round.json" 1700000000000000500
rt 1.5 2.25 1;  gk kernel volta_sgemm_128x64_nn 7 10.2 10.5 1
rt 4.0 1.0 2;   gk kernel elementwise_kernel 7 25.1 0.7 2
rt 5.5 1.0 3 cudaMemcpyAsync; gk gpu_memcpy "Memcpy HtoD (Pageable -> Device)" 13 30.6 8.0 3
rt 7.0 1.0 4 cudaMemsetAsync; gk gpu_memset "Memset (Device)" 7 40.25 0.5 4
rt 8.0 1.0 5;   gk kernel "$NCCL" 20 12.5 20.0 5
rt 9.0 1.0 6;   gk kernel gemm2 7 45.9 4.3 6
end
is "$(q temporal-breakdown "$TMP/round.db")" "1,0,0,9000,12000,18000,39000,23.08,30.77,46.15" \
	"temporal-breakdown: HTA's µs rounding (idle 9, compute 12, non-compute 18 of 39 µs)"
is "$(q temporal-breakdown "$TMP/round.db" --mode exact)" "1,0,0,6800,15500,17700,40000,17.0,38.75,44.25" \
	"temporal-breakdown --mode exact: ns times"
# HTA reads Kineto files only: a run recorded by profq or imported from nsys keeps its ns times
cp "$TMP/round.db" "$TMP/other.db"
# (its stored HTA rows came from the run as imported: forgotten, so the reports compute it again)
sqlite "$TMP/other.db" "UPDATE runs SET source = 'collector'; DELETE FROM derived_runs"
is "$(q temporal-breakdown "$TMP/other.db")" "1,0,0,6800,15500,17700,40000,17.0,38.75,44.25" \
	"temporal-breakdown: no µs rounding for a run that is not a Kineto trace"
# memcpys and memsets are in HTA's union (stream != -1), not kernels only: without the memcpy
# [31,38] the idle time would be larger.
is "$(q idle-breakdown "$TMP/round.db" | head -1 | cut -d, -f4-8)" "7,0,28000,0,28000" \
	"idle-breakdown: HTA's gaps on rounded times (6 + 16 + 6 µs kernel wait)"
is "$(q idle-breakdown "$TMP/round.db" --mode exact | head -1 | cut -d, -f4-8)" "7,0,24000,0,24000" \
	"idle-breakdown --mode exact: 4.4 + 14.45 + 5.15 µs"
# overlap: the nccl [13,32] under volta [11,20] = 7 of 19 µs; the -1 µs kernel [26,25] takes the
# running count below 3 for [25,26]. Exact: [12.5,20.7] + [25.1,25.8] = 8.9 of 20.
is "$(q comm-overlap "$TMP/round.db")" "1,0,19000,7000,36.84" "comm-overlap: HTA's 36.84 %"
is "$(q comm-overlap "$TMP/round.db" --mode exact)" "1,0,20000,8900,44.5" "comm-overlap --mode exact: 44.5 %"
# launch stats in rounded µs (HTA: correlation, cpu, gpu, delay)
is "$(q launch-stats "$TMP/round.db" | cut -d, -f3,6-8 | grep -v ncclWork | tr '\n' ' ')" \
	"1,1000,9000,8000 2,1000,-1000,21000 3,0,7000,25000 4,1000,-1000,33000 6,1000,4000,36000 " \
	"launch-stats: HTA's rounded durations (1/1/9/8, 2/1/-1/21, 3/0/7/25, 4/1/-1/33, 6/1/4/36)"
is "$(q launch-stats "$TMP/round.db" | grep ncclWork | cut -d, -f1-3,8-)" "1,0,5,1000,19000,4000,0,0,0" \
	"launch-stats: the NCCL launch (1/19/4)"

# 2. Stream synchronizations. Kineto's cuda_sync "Stream Sync" carries a stream and a correlation
# id, so HTA counts it as GPU time (class OTHER): k1 [100,110], sync [110,150], k2 [160,170]:
# idle 10, non-compute 40. The Event Sync has no stream (-1) and is not counted. Exact: idle 50.
begin "$TMP/sync.json" 1700000000000000000
rt 90 3 1;  gk kernel k1 7 100 10 1
rt 105 50 2 cudaStreamSynchronize
ev cuda_sync "Stream Sync" 0 7 110 40 '"cuda_sync_kind": "Stream Sync", "stream": 7, "correlation": 2, "device": 0'
rt 149 4 4 cudaEventSynchronize
ev cuda_sync "Event Sync" 0 7 150 2 '"cuda_sync_kind": "Event Sync", "wait_on_stream": 7, "stream": -1, "correlation": 4, "device": 0'
rt 155 3 3; gk kernel k2 7 160 10 3
end
is "$(q temporal-breakdown "$TMP/sync.db")" "1,0,0,10000,20000,40000,70000,14.29,28.57,57.14" \
	"temporal-breakdown: HTA counts the Stream Sync as GPU time"
is "$(q temporal-breakdown "$TMP/sync.db" --mode exact)" "1,0,0,50000,20000,0,70000,71.43,28.57,0.0" \
	"temporal-breakdown --mode exact: a synchronization is idle time"
is "$(q idle-breakdown "$TMP/sync.db" | cut -d, -f4-8)" "7,50000,0,0,50000" \
	"idle-breakdown: synchronizations are not in HTA's per-stream sequence (host wait 50)"

# 3. The last step. CPU ProfilerStep#1 [0,200), #2 [200,400); Kineto also projects them on the GPU
# (gpu_user_annotation, no stream arg, so HTA takes them for host events): [99,171), [299,421).
# HTA cuts at the last ProfilerStep-named event's start, the projection's 299, not the CPU step's
# 200: launches before 299 are kept (k1, k2, k3 and the nccl kernel; k7, k4, k5 dropped): span
# [100,330], busy 10 + 10 + 30, idle 180. Exact: k1, k2 only. include_last_profiler_step keeps
# launches up to the last such event's end (421): k5, launched at 450, is still dropped.
begin "$TMP/cut.json" 1700000000000000000
ev user_annotation "ProfilerStep#1" 77 77 0 200 '"External id": 1'
ev user_annotation "ProfilerStep#2" 77 77 200 200 '"External id": 2'
ev gpu_user_annotation "ProfilerStep#1" 0 7 99 72 '"External id": 1'
ev gpu_user_annotation "ProfilerStep#2" 0 7 299 122 '"External id": 2'
rt 50 3 1;   gk kernel k1 7 100 10 1
rt 150 3 2;  gk kernel k2 7 160 10 2
rt 250 3 3;  gk kernel k3 7 300 10 3
rt 260 3 6;  gk kernel "$NCCL" 20 302 28 6
rt 320 3 7;  gk kernel k7 24 315 10 7
rt 350 3 4;  gk kernel k4 7 410 10 4
rt 450 3 5;  gk kernel k5 7 460 10 5
end
is "$(q temporal-breakdown "$TMP/cut.db")" "1,0,0,180000,30000,20000,230000,78.26,13.04,8.7" \
	"temporal-breakdown: HTA keeps what was launched before the last step's GPU projection"
is "$(q temporal-breakdown "$TMP/cut.db" --mode exact)" "1,0,0,50000,20000,0,70000,71.43,28.57,0.0" \
	"temporal-breakdown --mode exact: cut at the last CPU ProfilerStep (k1, k2)"
is "$(q temporal-breakdown "$TMP/cut.db" --include-last-step 1)" "1,0,0,260000,50000,10000,320000,81.25,15.62,3.12" \
	"temporal-breakdown --include-last-step 1: HTA drops k5, launched after the last step (15.625 -> 15.62)"
is "$(q temporal-breakdown "$TMP/cut.db" --include-last-step 1 --mode exact)" \
	"1,0,0,300000,60000,10000,370000,81.08,16.22,2.7" "temporal-breakdown --include-last-step 1 --mode exact: everything"
is "$(q idle-breakdown "$TMP/cut.db" | head -1 | cut -d, -f4-8)" "7,180000,0,0,180000" \
	"idle-breakdown: HTA's cut (host wait 180)"
is "$(q idle-breakdown "$TMP/cut.db" --include-last-step 1 | head -1 | cut -d, -f4-8)" "7,280000,0,0,280000" \
	"idle-breakdown --include-last-step 1: HTA's (host wait 280)"
is "$(q comm-overlap "$TMP/cut.db")" "1,0,28000,8000,28.57" "comm-overlap: HTA's cut drops k7 (28.57 %)"
is "$(q comm-overlap "$TMP/cut.db" --mode exact)" "1,0,28000,18000,64.29" "comm-overlap --mode exact: every kernel (64.29 %)"
is "$(q launch-stats "$TMP/cut.db" | cut -d, -f3 | tr '\n' ' ')" "1 2 3 6 " "launch-stats: HTA's cut (4 launches)"
is "$(q launch-stats "$TMP/cut.db" --include-last-step 1 | cut -d, -f3 | tr '\n' ' ')" "1 2 3 6 7 4 " \
	"launch-stats --include-last-step 1: HTA's (6 launches)"
is "$(q launch-stats "$TMP/cut.db" --mode exact | cut -d, -f3 | tr '\n' ' ')" "1 2 3 6 7 4 5 " \
	"launch-stats --mode exact: every launch"


# 4. Ties, by the definitions (worked by hand): a launch at the previous event's very end is not
# host wait ("started after" it ended), one at the last step's very start is dropped (kept:
# launched before it), and an event starting where the merged busy time ends joins it. k1
# [20,30]; k2 launched at 30, [35,40]: kernel wait 5 µs; kx at 39.3 for 0.5 µs is [40,39] on HTA's
# clock: it joins [35,40] (else a group of -1 µs); k3 launched at 100, the start of
# ProfilerStep#2: dropped (else host wait 110 µs). Busy 10 + 5 of [20,40]: idle 5, all compute.
# The stored rows (written at import: lib/derive_idle.c, lib/derive_temporal.c) and the views
# computing them agree.
begin "$TMP/ties.json" 1700000000000000000
ev user_annotation "ProfilerStep#1" 77 77 0 100 '"External id": 1'
ev user_annotation "ProfilerStep#2" 77 77 100 100 '"External id": 2'
rt 10 3 1;  gk kernel k1 7 20 10 1
rt 30 3 2;  gk kernel k2 7 35 5 2
rt 32 3 4;  gk kernel kx 7 39.3 0.5 4
rt 100 3 3; gk kernel k3 7 150 10 3
end
is "$(q idle-breakdown "$TMP/ties.db" | cut -d, -f4-8)" "7,0,5000,0,5000" \
	"idle-breakdown: a launch at the previous end waits on the kernel; one at the cut is dropped"
is "$(q temporal-breakdown "$TMP/ties.db")" "1,0,0,5000,15000,0,20000,25.0,75.0,0.0" \
	"temporal-breakdown: the event at the busy time's end joins it; the launch at the cut is dropped"
cp "$TMP/ties.db" "$TMP/ties-view.db"
sqlite "$TMP/ties-view.db" "DELETE FROM derived_runs"
for r in idle-breakdown temporal-breakdown; do
	is "$(q $r "$TMP/ties-view.db")" "$(q $r "$TMP/ties.db")" "$r: the view computes the stored rows"
done
# Without steps nothing is cut, and a Stream Sync without a correlation id is not HTA's GPU time
# (GPUKernelFilter): k1 [10,20], k2 [50,60], the sync [20,40] left out: idle 30 of 50.
begin "$TMP/nostep.json" 1700000000000000000
rt 1 1 1; gk kernel k1 7 10 10 1
ev cuda_sync "Stream Sync" 0 7 20 20 '"cuda_sync_kind": "Stream Sync", "stream": 7, "device": 0'
rt 2 1 2; gk kernel k2 7 50 10 2
end
is "$(q temporal-breakdown "$TMP/nostep.db")" "1,0,0,30000,20000,0,50000,60.0,40.0,0.0" \
	"temporal-breakdown: a synchronization without a correlation id is not counted"

# 5. Overlap ties (worked by hand; the stored row from lib/derive_overlap.c, and the view). No step:
# nothing cut. Computation c1 [10,20] and c2 [20,30] merge (a start at the largest end so far
# joins); cx at 50.2 for 0.5 µs is [51,50] on HTA's clock, a group of its own; c3 [65,66].
# Communication n1 [15,40] and n2 [40,45] merge, n3 [60,70] and n4 (69.3 for 0.5 µs: [70,69])
# merge (apart, n4 would take 1 µs off): comm 30 + 10 = 40 µs. Sweep (+2/-2
# computation, +1/-1 communication): 10:2 15:3 30:1 45:0 50:-2 51:0 60:1 65:3 66:1 70:0, so the
# overlap is [15,30] + [65,66] = 16 µs: 40 %.
begin "$TMP/ovl.json" 1700000000000000000
rt 1 1 1; gk kernel c1 7 10 10 1
rt 2 1 2; gk kernel c2 7 20 10 2
rt 3 1 3; gk kernel cx 7 50.2 0.5 3
rt 4 1 4; gk kernel c3 7 65 1 4
rt 5 1 5; gk kernel ncclKernel_AllReduce 8 15 25 5
rt 6 1 6; gk kernel ncclKernel_AllReduce 8 40 5 6
rt 7 1 7; gk kernel ncclKernel_AllReduce 8 60 10 7
rt 8 1 8; gk kernel ncclKernel_AllReduce 8 69.3 0.5 8
end
is "$(q comm-overlap "$TMP/ovl.db")" "1,0,40000,16000,40.0" \
	"comm-overlap: merged at equal ends, a -1 µs group, 16 of 40 µs under computation"
is "$(sqlite "$TMP/ovl.db" "SELECT run_id, comm_ns, overlap_ns FROM hta_comm_overlap")" "1|40000|16000" \
	"comm-overlap: the stored row"
cp "$TMP/ovl.db" "$TMP/ovl-view.db"
sqlite "$TMP/ovl-view.db" "DELETE FROM derived_runs"
is "$(q comm-overlap "$TMP/ovl-view.db")" "$(q comm-overlap "$TMP/ovl.db")" "comm-overlap: the view computes the stored row"

done_testing
