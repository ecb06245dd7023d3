#!/bin/sh
# dist-summary and dist-comm-ops: tb_plugin's distributed view on hand-made two-worker traces.
# TestDistributed of tb_plugin's test/test_profiler.py (pytorch/kineto tb_plugin/test/
# test_profiler.py at 041e7ce99f1562dd81232ee58b7c454ef16bfae2; notes/kineto_hta.md §1.8, §2.2):
# each test's two inline traces restated, imported as two runs of one database (a run is a
# worker), and checked against tb_plugin's steps_to_overlap, steps_to_wait and comm_ops rows
# (µs in the traces and in tb_plugin, ns in the reports). The worker0 step costs are in
# pytorch_steps.t; worker1's are here.
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"

F='"Input Dims": [[53120]], "Input type": ["float"]'
A='"Input Dims": [[1000], [1000], []], "Input type": ["float", "float", "Int"]'
R='"Input Dims": [[2049000]], "Input type": ["float"]'

# overlap DB: per worker "run:step [computation, overlap, communication, other]" in µs, one line each
overlap() {
	"$PROFQ" dist-summary "$1" --format csv | sed 1d |
		awk -F, '{ printf "%s:%s [%s, %s, %s, %s]\n", $1, $3, $4 / 1000, $5 / 1000, $6 / 1000, $7 / 1000 }'
}
# wait DB: per worker "run:step [transfer, synchronizing]" in µs
wait_() {
	"$PROFQ" dist-summary "$1" --format csv | sed 1d |
		awk -F, '{ printf "%s:%s [%s, %s]\n", $1, $3, $8 / 1000, $9 / 1000 }'
}
# ops DB: tb_plugin's comm_ops rows, run:[name, calls, total bytes, avg bytes, total latency,
# avg latency, transfer, avg transfer] in µs; the averages rounded from the ns ones half to even
# (awk's printf, as Python's round())
ops() {
	"$PROFQ" dist-comm-ops "$1" --format csv | sed 1d |
		awk -F, '{ printf "%s:[%s, %s, %s, %s, %s, %.0f, %s, %.0f]\n", $1, $3, $4, $5, $6, $7 / 1000, $7 / 1000 / $4, $9 / 1000, $9 / 1000 / $4 }'
}
steps() {
	"$PROFQ" step-breakdown "$1" --run "$2" --format csv | cut -d, -f2- | sed 1d | head -1 | awk -F, '{
		printf "%s:", $1; for (i = 2; i <= NF; i++) printf "%s%s", $i / 1000, (i < NF ? "," : "") }'
}

# --- test_distributed_nccl
trace_begin "$TMP/n0.json"
X cpu_op nccl:broadcast 23803 0 75 "\"External id\": 146, $F"
X Kernel 'ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclWorkElem)' 'stream 16' 16 16 '"device": 0, "correlation": 28506, "external id": 146'
X cpu_op aten::add_ 23803 100 20 "\"External id\": 24504, $A"
X Kernel 'void at::native::vectorized_elementwise_kernel' 'stream 7' 130 161 '"device": 0, "correlation": 99765, "external id": 24504'
X cpu_op nccl:all_reduce 25166 160 75 "\"External id\": 2513, $R"
X Kernel 'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)' 'stream 16' 162 1556 '"device": 0, "correlation": 33218, "external id": 2513'
trace_end
trace_begin "$TMP/n1.json"
X cpu_op nccl:broadcast 23803 0 20 "\"External id\": 146, $F"
X Kernel 'ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclWorkElem)' 'stream 16' 8 31 '"device": 0, "correlation": 28506, "external id": 146'
X cpu_op aten::add_ 23803 25 20 "\"External id\": 24504, $A"
X Kernel 'void at::native::vectorized_elementwise_kernel' 'stream 7' 30 161 '"device": 0, "correlation": 99765, "external id": 24504'
X cpu_op nccl:all_reduce 25166 160 75 "\"External id\": 2513, $R"
X Kernel 'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)' 'stream 16' 562 1058 '"device": 0, "correlation": 33218, "external id": 2513'
trace_end
"$PROFQ" import -q -o "$TMP/n.db" "$TMP/n0.json" "$TMP/n1.json" >/dev/null
is "$(steps "$TMP/n.db" 2 | cut -d, -f4)" "74" "test_distributed_nccl: worker1 costs[3] (Communication) 74"
is "$(overlap "$TMP/n.db")" "1:0 [30, 75, 75, 55]
1:all [30, 75, 75, 55]
2:0 [121, 40, 74, 0]
2:all [121, 40, 74, 0]" "test_distributed_nccl: steps_to_overlap worker0 [30,75,75,55], worker1 [121,40,74,0]"
is "$(wait_ "$TMP/n.db")" "1:0 [1169, 464]
1:all [1169, 464]
2:0 [1169, 3]
2:all [1169, 3]" "test_distributed_nccl: steps_to_wait worker0 [1169,464], worker1 [1169,3]"
is "$(ops "$TMP/n.db")" "1:[nccl:broadcast, 1, 212480, 212480, 75, 75, 36, 36]
1:[nccl:all_reduce, 1, 8196000, 8196000, 1558, 1558, 1133, 1133]
2:[nccl:broadcast, 1, 212480, 212480, 39, 39, 36, 36]
2:[nccl:all_reduce, 1, 8196000, 8196000, 1133, 1133, 1133, 1133]" "test_distributed_nccl: comm_ops rows of both workers"
is "$("$PROFQ" dist-comm-ops "$TMP/n.db" --run 2 --format csv | sed 1d | cut -d, -f1,3 | tr '\n' ' ')" \
	"2,nccl:broadcast 2,nccl:all_reduce " "dist-comm-ops --run 2: only worker1's rows"

# --- test_distributed_gloo_gpu / test_distributed_gloo_cpu: gloo ops on three threads; the
# aten::add_ work is a kernel (gpu) or the host op aten::mul (cpu)
gloo() {  # gloo FILE gpu|cpu worker: the inline trace of that worker
	trace_begin "$1"
	if [ "$3" = 0 ]; then
		set -- "$@" 16 38 25 36 66 18 20 30 101 110 18 120 36 165 166 167
	else
		set -- "$@" 20 28 28 30 77 6 30 70 70 88 38 130 16 256 257 258
	fi
	X cpu_op gloo:broadcast 23803 "$4" "$5" "\"External id\": ${17}, $F"
	X cpu_op gloo:broadcast 23805 "$6" "$7" "\"External id\": ${18}, $F"
	X cpu_op gloo:broadcast 23803 "$8" "$9" "\"External id\": ${19}, $F"
	X cpu_op aten::add_ 23800 0 "${10}" "\"External id\": 24504, $A"
	if [ "$2" = gpu ]; then
		X Kernel 'void at::native::vectorized_elementwise_kernel' 'stream 7' "${11}" "${12}" '"device": 0, "correlation": 99765, "external id": 24504'
	else
		X cpu_op aten::mul 23800 "${11}" "${12}" '"External id": 24505'
	fi
	X cpu_op gloo:all_reduce 23805 "${13}" "${14}" "\"External id\": 2513, $R"
	X cpu_op gloo:all_reduce 23803 "${15}" "${16}" "\"External id\": 2516, $R"
	trace_end
}
for kind in gpu cpu; do
	gloo "$TMP/g${kind}0.json" $kind 0
	gloo "$TMP/g${kind}1.json" $kind 1
	"$PROFQ" import -q -o "$TMP/g$kind.db" "$TMP/g${kind}0.json" "$TMP/g${kind}1.json" >/dev/null
done
is "$(steps "$TMP/ggpu.db" 2)" "0:70,0,0,44,0,0,20,12,146" "test_distributed_gloo_gpu: worker1 costs [70,0,0,44,0,0,20,12,146]"
is "$(steps "$TMP/gcpu.db" 2)" "0:0,0,0,98,0,0,36,12,146" "test_distributed_gloo_cpu: worker1 costs [0,0,0,98,0,0,36,12,146]"
is "$(overlap "$TMP/ggpu.db" | grep -v all)" "1:0 [31, 70, 39, 16]
2:0 [16, 54, 44, 32]" "test_distributed_gloo_gpu: steps_to_overlap worker0 [31,70,39,16], worker1 [16,54,44,32]"
is "$(overlap "$TMP/gcpu.db" | grep -v all)" "1:0 [47, 74, 35, 0]
2:0 [36, 64, 34, 12]" "test_distributed_gloo_cpu: steps_to_overlap (CPU Exec as computation) [47,74,35,0], [36,64,34,12]"
for kind in gpu cpu; do
	is "$(wait_ "$TMP/g$kind.db" | grep -v all)" "1:0 [75, 34]
2:0 [78, 20]" "test_distributed_gloo_$kind: steps_to_wait worker0 [75,34], worker1 [78,20]"
	is "$(ops "$TMP/g$kind.db")" "1:[gloo:broadcast, 3, 637440, 212480, 63, 21, 41, 14]
1:[gloo:all_reduce, 2, 16392000, 8196000, 46, 23, 34, 17]
2:[gloo:broadcast, 3, 637440, 212480, 44, 15, 44, 15]
2:[gloo:all_reduce, 2, 16392000, 8196000, 54, 27, 34, 17]" "test_distributed_gloo_$kind: comm_ops rows of both workers"
done

# --- Not a tb_plugin test (values from running tb_plugin's RunLoader._process_distributed_profiles
# on these traces): two ProfilerSteps per worker with runtime calls, step 2 of worker0 extended to
# its broadcast kernel's end (650); an fp16 [3, 5] plus a long int scalar input (15 x 2 + 8 bytes)
ms() {  # ms FILE, then per worker: step1 len, add kernel ts dur, all_reduce op ts, its kernel ts dur,
	# step2 start len, mul ts, mul kernel ts dur, all_reduce op ts, kernel ts dur, broadcast op ts, kernel ts dur
	trace_begin "$1"
	X cpu_op 'ProfilerStep#1' 1 0 "$2" '"External id": 1'
	X cpu_op aten::add_ 1 10 30 '"External id": 10'
	X cuda_runtime cudaLaunchKernel 1 15 5 '"correlation": 1, "external id": 10'
	X kernel 'void at::native::vectorized_elementwise_kernel<4>' 'stream 7' "$3" "$4" '"device": 0, "correlation": 1, "external id": 10'
	X cpu_op nccl:all_reduce 1 "$5" 30 '"External id": 11, "Input Dims": [[1000]], "Input type": ["float"]'
	X cuda_runtime cudaLaunchKernel 1 $(($5 + 5)) 5 '"correlation": 2, "external id": 11'
	X kernel 'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)' 'stream 16' "$6" "$7" '"device": 0, "correlation": 2, "external id": 11'
	X cpu_op 'ProfilerStep#2' 1 "$8" "$9" '"External id": 2'
	X cpu_op aten::mul 1 "${10}" 20 '"External id": 12'
	X cuda_runtime cudaLaunchKernel 1 $((${10} + 2)) 4 '"correlation": 3, "external id": 12'
	X kernel 'void at::native::vectorized_elementwise_kernel<4>' 'stream 7' "${11}" "${12}" '"device": 0, "correlation": 3, "external id": 12'
	X cpu_op nccl:all_reduce 1 "${13}" 30 '"External id": 13, "Input Dims": [[1000]], "Input type": ["float"]'
	X cuda_runtime cudaLaunchKernel 1 $((${13} + 5)) 5 '"correlation": 4, "external id": 13'
	X kernel 'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)' 'stream 16' "${14}" "${15}" '"device": 0, "correlation": 4, "external id": 13'
	X cpu_op nccl:broadcast 1 "${16}" 20 '"External id": 14, "Input Dims": [[3, 5], []], "Input type": ["c10::Half", "long int"]'
	X cuda_runtime cudaLaunchKernel 1 $((${16} + 5)) 5 '"correlation": 5, "external id": 14'
	X kernel 'ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclWorkElem)' 'stream 16' "${17}" "${18}" '"device": 0, "correlation": 5, "external id": 14'
	trace_end
}
ms "$TMP/m0.json" 300 50 100 100 120 140 300 300 310 340 80 350 400 100 500 530 120
ms "$TMP/m1.json" 310 45 115 90 200 80 310 310 320 350 50 360 380 90 540 560 50
"$PROFQ" import -q -o "$TMP/m.db" "$TMP/m0.json" "$TMP/m1.json" >/dev/null
is "$(overlap "$TMP/m.db" | grep -v all)" "1:1 [50, 50, 110, 90]
1:2 [30, 50, 220, 50]
2:1 [85, 30, 80, 115]
2:2 [10, 40, 140, 120]" "two steps: overlap per worker and step"
is "$(wait_ "$TMP/m.db" | grep -v all)" "1:1 [110, 50]
1:2 [190, 80]
2:1 [110, 0]
2:2 [180, 0]" "two steps: wait per worker and step"
# tb_plugin's 'all' is the µs mean truncated: worker1 [47, 35, 110, 117]; here the ns mean
is "$("$PROFQ" dist-summary "$TMP/m.db" --format csv | grep ',all,')" "1,,all,40000,50000,165000,70000,150000,65000
2,,all,47500,35000,110000,117500,145000,0" "two steps: 'all' is the mean over the steps"
is "$(ops "$TMP/m.db")" "1:[nccl:all_reduce, 2, 8000, 4000, 290, 145, 230, 115]
1:[nccl:broadcast, 1, 38, 38, 140, 140, 70, 70]
2:[nccl:all_reduce, 2, 8000, 4000, 220, 110, 220, 110]
2:[nccl:broadcast, 1, 38, 38, 70, 70, 70, 70]" "two steps: comm ops in first-call order, bytes by input type"

# tb_plugin shows no distributed view when the workers' communication nodes do not match
"$PROFQ" import -q -o "$TMP/bad.db" "$TMP/n0.json" "$TMP/m1.json" >/dev/null
is "$("$PROFQ" dist-summary "$TMP/bad.db" --format csv | sed 1d | wc -l | tr -d ' ')" 0 "2 vs 3 communication nodes: no dist-summary rows"
is "$("$PROFQ" dist-comm-ops "$TMP/bad.db" --format csv | sed 1d | wc -l | tr -d ' ')" 0 "2 vs 3 communication nodes: no dist-comm-ops rows"
# a worker with both NCCL and Gloo ops has no communication nodes (tb_plugin clears them)
for w in 0 1; do
	{ sed '$d' "$TMP/n$w.json"; printf ',{"ph":"X","cat":"cpu_op","name":"gloo:broadcast","pid":1,"tid":"9","ts":5,"dur":5,"args":{"External id":7}}\n]\n'; } >"$TMP/x$w.json"
done
"$PROFQ" import -q -o "$TMP/mix.db" "$TMP/x0.json" "$TMP/x1.json" >/dev/null
is "$("$PROFQ" dist-summary "$TMP/mix.db" --format csv | sed 1d | wc -l | tr -d ' ')" 0 "NCCL and Gloo in one worker: no rows"
is "$(sqlite "$TMP/n.db" ".load $EXT" ".mode csv" ".param set :run NULL" ".param set :limit NULL" \
	".read $TOP/queries/dist-summary.sql" 2>&1 | wc -l | tr -d ' ')" 4 "dist-summary runs in sqlite3"
is "$(sqlite "$TMP/n.db" ".load $EXT" ".mode csv" ".param set :run NULL" ".param set :limit NULL" \
	".read $TOP/queries/dist-comm-ops.sql" 2>&1 | wc -l | tr -d ' ')" 4 "dist-comm-ops runs in sqlite3"
done_testing
