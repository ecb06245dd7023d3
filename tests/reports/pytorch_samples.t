#!/bin/sh
# The PyTorch-profiler reports on the shared Kineto samples, against the numbers tb_plugin and HTA
# publish or produce for them (/work/shared/notes/kineto_hta.md §2.2, §5.1, §5.2).
. "${0%/*}/../lib.sh"

R0=$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
GM=$DATA/kineto/tb_plugin_test/gpu_metrics_input.json
[ -f "$R0" ] && [ -f "$GM" ] || skip_all "no ../shared/data/kineto samples"
"$PROFQ" import -o "$TMP/r0.db" "$R0" >/dev/null
"$PROFQ" import -o "$TMP/gm.db" "$GM" >/dev/null

# µs rows of step-breakdown, rounded to the µs
us() { "$PROFQ" "$@" --format csv | sed 1d | awk -F, '{ printf "%s", $1; for (i = 2; i <= NF; i++) printf ",%d", ($i / 1000) + 0.5; print "" }'; }

# tb_plugin's result_check_file.txt (Step Time Breakdown of resnet50_num_workers_0, span 1):
# step, Kernel, Memcpy, Memset, Communication, Runtime, DataLoader, CPU Exec, Other, Total
is "$(us step-breakdown "$TMP/r0.db")" "5,98598,1941,90,0,2796,69317,14091,1115,187948
6,98570,1947,89,0,2762,57669,12968,1148,175153
7,98596,1931,91,0,2877,61257,13768,1213,179733
8,98623,1938,89,0,2841,56453,13420,1200,174564
9,98504,1937,87,0,2788,62690,15025,1141,182172
10,98641,1798,88,0,3381,48185,12773,1117,165983
average,98589,1915,89,0,2908,59262,13674,1156,177592" "step-breakdown: ResNet50 sample equals tb_plugin's table"
is "$("$PROFQ" step-breakdown "$TMP/r0.db" --format csv | tail -1)" \
	"average,98588667,1915333,89000,0,2907500,59261833,13674167,1155667,177592167" \
	"step-breakdown: exact averages (98588.667 µs, ...)"
is "$("$PROFQ" gpu-summary "$TMP/r0.db" --format csv | sed 1d)" \
	"0,Tesla V100-DGXS-32GB,31.74,7.0,55.51,54.68,49.13,0.0" \
	"gpu-summary: 55.51 / 54.68 / 49.13 / 0.0 %"

# tb_plugin on test/gpu_metrics_input.json (run here, notes §5.1)
is "$(us step-breakdown "$TMP/gm.db" | head -1)" "2,48,2,0,0,619,725,8745,3271,13410" \
	"step-breakdown: gpu_metrics_input.json step 2"
is "$("$PROFQ" gpu-summary "$TMP/gm.db" --format csv | sed 1d | cut -d, -f5,6)" "0.36,0.01" \
	"gpu-summary: gpu_metrics_input.json utilization 0.36 %, SM efficiency 0.01 %"

done_testing
