#!/bin/sh
# The PyTorch-profiler reports on the shared Kineto samples, against the numbers tb_plugin and HTA
# publish or produce for them (/work/shared/notes/kineto_hta.md §2.2, §5.1, §5.2).
. "${0%/*}/../lib.sh"

R0=$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
GM=$DATA/kineto/tb_plugin_test/gpu_metrics_input.json
[ -f "$R0" ] && [ -f "$GM" ] || skip_all "no tests/data/kineto samples"
"$PROFQ" import -q -o "$TMP/r0.db" "$R0" >/dev/null
"$PROFQ" import -q -o "$TMP/gm.db" "$GM" >/dev/null

# µs rows of step-breakdown, rounded to the µs
us() { "$PROFQ" "$@" --format csv | cut -d, -f2- | sed 1d | awk -F, '{ printf "%s", $1; for (i = 2; i <= NF; i++) printf ",%d", ($i / 1000) + 0.5; print "" }'; }

# tb_plugin's result_check_file.txt (Step Time Breakdown of resnet50_num_workers_0, span 1):
# step, Kernel, Memcpy, Memset, Communication, Runtime, DataLoader, CPU Exec, Other, Total
is "$(us step-breakdown "$TMP/r0.db")" "5,98598,1941,90,0,2796,69317,14091,1115,187948
6,98570,1947,89,0,2762,57669,12968,1148,175153
7,98596,1931,91,0,2877,61257,13768,1213,179733
8,98623,1938,89,0,2841,56453,13420,1200,174564
9,98504,1937,87,0,2788,62690,15025,1141,182172
10,98641,1798,88,0,3381,48185,12773,1117,165983
average,98589,1915,89,0,2908,59262,13674,1156,177592" "step-breakdown: ResNet50 sample equals tb_plugin's table"
is "$("$PROFQ" step-breakdown "$TMP/r0.db" --format csv | cut -d, -f2- | tail -1)" \
	"average,98588667,1915333,89000,0,2907500,59261833,13674167,1155667,177592167" \
	"step-breakdown: exact averages (98588.667 µs, ...)"
is "$("$PROFQ" gpu-summary "$TMP/r0.db" --format csv | cut -d, -f2- | sed 1d)" \
	"0,Tesla V100-DGXS-32GB,31.74,7.0,55.51,54.68,49.13,0.0" \
	"gpu-summary: 55.51 / 54.68 / 49.13 / 0.0 %"

# tb_plugin on test/gpu_metrics_input.json (run here, notes §5.1)
is "$(us step-breakdown "$TMP/gm.db" | head -1)" "2,48,2,0,0,619,725,8745,3271,13410" \
	"step-breakdown: gpu_metrics_input.json step 2"
is "$("$PROFQ" gpu-summary "$TMP/gm.db" --format csv | cut -d, -f2- | sed 1d | cut -d, -f5,6)" "0.36,0.01" \
	"gpu-summary: gpu_metrics_input.json utilization 0.36 %, SM efficiency 0.01 %"

# tb_plugin's kernel view (result_check_file.txt): 67 kernels, 8772 calls, 591532 µs; top three rows
kj=$("$PROFQ" kernel-sum "$TMP/r0.db" --format json)
is "$(printf '%s' "$kj" | py -c 'import json,sys; r=json.load(sys.stdin); print(len(r), sum(x["calls"] for x in r), sum(x["total_ns"] for x in r))')" \
	"67 8772 591532000" "kernel-sum: 67 kernels, 8772 calls, 591532 µs"
is "$(printf '%s' "$kj" | py -c '
import json, sys
for x in json.load(sys.stdin)[:3]:
    print(x["name"][:35], x["tensor_cores_used"], x["calls"], x["total_ns"] // 1000, round(x["mean_ns"] / 1000),
          x["max_ns"] // 1000, x["min_ns"] // 1000, float(x["mean_blocks_per_sm"]), float(x["mean_est_achieved_occupancy_pct"]))')" \
"void cudnn::detail::dgrad_engine<fl 0 162 80756 498 1017 323 42.25 29.97
void cudnn::cnn::wgrad_alg0_engine< 0 156 66472 426 745 345 9.78 38.0
void cudnn::bn_bw_1C11_kernel_new<f 0 264 59642 226 915 45 4.34 67.98" "kernel-sum: top rows equal tb_plugin's"

# tb_plugin's operator view: 76 operators; top five by device self time
is "$("$PROFQ" op-sum "$TMP/r0.db" --format csv | cut -d, -f2- | sed 1d | wc -l)" 76 "op-sum: 76 operators"
is "$("$PROFQ" op-sum "$TMP/r0.db" --format csv --limit 5 | cut -d, -f2- | sed 1d | cut -d, -f1,3-7)" \
"aten::cudnn_convolution_backward_weight,318,142461000,142461000,22804000,40246000
aten::cudnn_convolution_backward_input,312,130967000,130967000,29324000,41445000
aten::cudnn_convolution,318,126619000,126619000,33121000,56998000
aten::cudnn_batch_norm_backward,318,61939000,61939000,12238000,30460000
aten::cudnn_batch_norm,318,34245000,34245000,19843000,71527000" "op-sum: top five rows equal tb_plugin's"
# aten::div > aten::div chains (only child, same name) are one node in tb_plugin (remove_dup_nodes)
is "$("$PROFQ" op-sum "$TMP/r0.db" --format csv | cut -d, -f2- | grep '^aten::div,' | cut -d, -f1,3-7)" \
	"aten::div,198,144000,144000,20135000,35158000" "op-sum: aten::div as tb_plugin's (198 calls, device total 144)"
like "$("$PROFQ" op-sum "$TMP/r0.db" --param by=name+input-shape --format csv | cut -d, -f2- | sed 1d | wc -l)" '^[0-9]+$' \
	"op-sum --param by=name+input-shape runs"

# HTA on the same sample, default step selection (steps 5-9; notes §5.2)
is "$("$PROFQ" temporal-breakdown "$TMP/r0.db" --format csv | sed 1d)" \
	"1,0,0,327463000,492891000,10140000,830494000,39.43,59.35,1.22" \
	"temporal-breakdown: HTA's 327463 / 492891 / 10140 of 830494 µs (39.43 / 59.35 / 1.22 %)"

# tb_plugin memory statistics of the ResNet50 sample (§5.1, ran): GPU0 aten::empty 4404 calls,
# self size increase = allocation size 34000779264 bytes, 2694 allocations
is "$("$PROFQ" memory-sum "$TMP/r0.db" --format csv | cut -d, -f2- | grep '^GPU0,aten::empty,' | cut -d, -f3,5,7,9)" \
	"4404,34000779264,2694,34000779264" "memory-sum: GPU0 aten::empty as tb_plugin"
# HTA idle time breakdown of the ResNet50 sample (§5.2, ran): stream 7 host_wait 318934 µs (0.97),
# kernel_wait 8529 µs (0.03)
is "$("$PROFQ" idle-breakdown "$TMP/r0.db" --format csv | sed 1d | cut -d, -f4-7)" \
	"7,318934000,8529000,0" "idle-breakdown: stream 7 as HTA"

done_testing
