#!/bin/sh
# The four HTA reports against HTA's own output on generated two-rank Kineto traces
# (tests/reports/hta_traces.py: ns-resolution ts on a base that is not a whole µs, sub-µs kernels,
# four streams, NCCL kernels with collective args overlapping compute, memcpys and memsets
# overlapping kernels, ProfilerStep#N with their gpu_user_annotation projections, ac2g and fwdbwd
# flows, distributedInfo ranks; variants: epoch-µs ts without baseTimeNanoseconds, whole µs, one
# step only, cuda_sync events).
# Expected values: facebookresearch/HolisticTraceAnalysis at f4d0062c, its get_temporal_breakdown,
# get_idle_time_breakdown, get_comm_comp_overlap and get_cuda_kernel_launch_stats run on the same
# files (HTA_SRC=... /usr/bin/python3 tests/reports/hta_reference.py DIR), all µs.
# These traces have no tie between a -1 µs event and another event starting in the same µs at the
# start of a merged interval: there HTA's unstable sort decides (temporal-breakdown's header).
. "${0%/*}/../lib.sh"

# trace NAME ARGS...: ranks 0 and 1 made with ARGS, imported into $TMP/NAME.db
trace() {
	_n=$1; shift
	for _r in 0 1; do py "$TOP/tests/reports/hta_traces.py" --rank "$_r" "$@" >"$TMP/$_n.$_r.json"; done
	"$PROFQ" import -q -o "$TMP/$_n.db" "$TMP/$_n.0.json" "$TMP/$_n.1.json" >/dev/null
}
q() { "$PROFQ" "$@" --format csv | sed 1d; }
# rank, idle, compute, non-compute, kernel time (µs) and HTA's percentages
temporal() { q temporal-breakdown "$TMP/$1.db" | awk -F, '{ printf "%d %d %d %d %d %.2f %.2f %.2f\n", $2, $4 / 1000, $5 / 1000, $6 / 1000, $7 / 1000, $8, $9, $10 }'; }
# rank, stream, host wait, kernel wait, other (µs), sorted as text
idle() { q idle-breakdown "$TMP/$1.db" | awk -F, '{ print $2, $4, $5 / 1000, $6 / 1000, $7 / 1000 }' | sort; }
overlap() { q comm-overlap "$TMP/$1.db" | awk -F, '{ print $2, $5 }'; }
# rank, launches, Σ cpu, Σ gpu, Σ delay (µs), short kernels, runtime outliers, delay outliers
launch() {
	"$PROFQ" launch-stats "$TMP/$1.db" --format json | py -c '
import json, sys
rows = json.load(sys.stdin)
for k in sorted({r["rank"] for r in rows}):
    v = [r for r in rows if r["rank"] == k]
    print(k, len(v), *(sum(r[c] for r in v) // 1000 for c in ("cpu_dur_ns", "gpu_dur_ns", "launch_delay_ns")),
          *(sum(int(r[c]) for r in v) for c in ("short_kernel", "runtime_outlier", "launch_delay_outlier")))'
}

trace base --seed 1
is "$(temporal base)" "0 1736 11192 1001 13929 12.46 80.35 7.19
1 768 11372 1308 13448 5.71 84.56 9.73" "temporal-breakdown: HTA's, ns-resolution trace"
is "$(idle base)" "0 13 9246 0 0
0 20 9195 5 0
0 24 12001 25 0
0 7 1901 626 97
1 13 10176 0 0
1 20 5239 16 45
1 24 9429 41 0
1 7 1297 628 113" "idle-breakdown: HTA's, ns-resolution trace"
is "$(overlap base)" "0 81.83
1 77.65" "comm-overlap: HTA's, ns-resolution trace"
is "$(launch base)" "0 365 1973 17274 83349 121 4 220
1 361 2025 19010 123538 123 5 254" "launch-stats: HTA's, ns-resolution trace"

trace epoch --seed 3 --absolute
is "$(temporal epoch)" "0 649 13720 762 15131 4.29 90.67 5.04
1 310 13202 613 14125 2.19 93.47 4.34" "temporal-breakdown: HTA's, epoch µs with ns"
is "$(idle epoch)" "0 13 10406 4 0
0 20 6293 12 0
0 24 9093 38 0
0 7 431 618 0
1 13 10902 0 0
1 20 6637 19 0
1 24 10785 30 0
1 7 0 660 0" "idle-breakdown: HTA's, epoch µs with ns"
is "$(overlap epoch)" "0 91.89
1 92.28" "comm-overlap: HTA's, epoch µs with ns"
is "$(launch epoch)" "0 361 2238 20934 793853 114 9 291
1 372 2340 21557 412404 117 9 311" "launch-stats: HTA's, epoch µs with ns"

trace whole --seed 4 --integer
is "$(temporal whole)" "0 1922 10887 546 13355 14.39 81.52 4.09
1 1209 11830 1392 14431 8.38 81.98 9.65" "temporal-breakdown: HTA's, whole µs"
is "$(idle whole)" "0 13 11033 6 0
0 20 6455 12 0
0 24 10031 17 0
0 7 2018 408 94
1 13 11057 0 0
1 20 5876 17 0
1 24 10937 33 161
1 7 2096 417 194" "idle-breakdown: HTA's, whole µs"
is "$(overlap whole)" "0 94.04
1 80.26" "comm-overlap: HTA's, whole µs"
is "$(launch whole)" "0 362 2442 19209 108319 117 8 227
1 369 2641 20056 134654 125 9 229" "launch-stats: HTA's, whole µs"

trace onestep --seed 6 --steps 1
is "$(temporal onestep)" "0 481 4115 474 5070 9.49 81.16 9.35
1 359 3922 323 4604 7.80 85.19 7.02" "temporal-breakdown: HTA's, one step (nothing cut)"
is "$(idle onestep)" "0 13 1766 0 0
0 20 1290 7 0
0 24 4116 3 0
0 7 648 212 213
1 13 1292 0 0
1 20 1887 7 0
1 24 3004 7 0
1 7 233 212 0" "idle-breakdown: HTA's, one step"
is "$(overlap onestep)" "0 82.25
1 90.69" "comm-overlap: HTA's, one step"
is "$(launch onestep)" "0 120 794 6972 17016 39 4 61
1 120 524 6259 80882 34 0 90" "launch-stats: HTA's, one step"

trace sync --seed 9 --sync
is "$(temporal sync)" "0 2929 9442 1727 14098 20.78 66.97 12.25
1 1707 10808 1882 14397 11.86 75.07 13.07" "temporal-breakdown: HTA's, with cuda_sync events"
is "$(idle sync)" "0 13 11301 8 0
0 20 8159 1 0
0 24 11274 20 0
0 7 4100 593 388
1 13 12059 3 0
1 20 7164 20 0
1 24 11221 18 0
1 7 2132 610 750" "idle-breakdown: HTA's, with cuda_sync events"
is "$(overlap sync)" "0 65.21
1 71.87" "comm-overlap: HTA's, with cuda_sync events"
is "$(launch sync)" "0 361 2176 15008 62648 132 7 157
1 361 2163 18846 68407 112 8 205" "launch-stats: HTA's, with cuda_sync events"

# --run keeps one run; rows per run otherwise (issue #12): rank 1's run only
is "$(q temporal-breakdown "$TMP/base.db" --run 2 | cut -d, -f1,2)" "2,1" "temporal-breakdown --run 2: that run's row"

done_testing
