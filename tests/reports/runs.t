#!/bin/sh
# The per-run reports on a file holding several runs of different sources: an nsys export first
# (it used to be the only run these reports read, so they gave empty tables), then two Kineto
# samples and a small trace with nn.Module ranges. Each run's rows must equal the report on that
# trace alone in its own file; the nsys run gives none; --run keeps one run.
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"

NSYS=$DATA/nsys/mock.sqlite
K1=$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
K2=$DATA/kineto/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz
[ -f "$NSYS" ] && [ -f "$K1" ] && [ -f "$K2" ] || skip_all "no ../shared/data nsys and kineto samples"

# A module hierarchy with device work (the mod2 case of pytorch_microcases.t, shortened); its
# external ids repeat the samples', so a report that joined across runs would show it.
trace_begin "$TMP/mod.json"
X cpu_op 'ProfilerStep#1' 1 0 1000 '"External id": 1'
P() { X python_function "$1" 1 "$2" "$3" "\"Python id\": $4${5:+, \"Python parent id\": $5}${6:+, \"Python module id\": $6}"; }
P train 5 990 1
P 'nn.Module: Net' 10 590 2 1 0
P forward 12 578 3 2
P 'nn.Module: Block' 20 280 4 3 1
X cpu_op aten::linear 1 30 170 '"External id": 10, "Input Dims": [[8, 16], [4, 16], [4]], "Input type": ["float", "float", "float"]'
X cpu_op aten::addmm 1 40 150 '"External id": 11, "Input Dims": [[4], [8, 16], [16, 4]], "Input type": ["float", "float", "float"]'
X cuda_runtime cudaLaunchKernel 1 50 5 '"correlation": 1, "external id": 11'
X kernel gemm_kernel 'stream 7' 60 100 '"device": 0, "correlation": 1, "external id": 11'
X cpu_op aten::relu 1 210 50 '"External id": 12'
X cuda_runtime cudaLaunchKernel 1 215 5 '"correlation": 2, "external id": 12'
X kernel relu_kernel 'stream 7' 230 20 '"device": 0, "correlation": 2, "external id": 12'
raw '{"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": 13721, "tid": 1, "ts": 215, "args": {"Device Type": 1, "Device Id": 0, "Addr": 1, "Bytes": 512, "Total Allocated": 512, "Total Reserved": 2048}}'
P 'nn.Module: Net' 620 280 6 1 0
X cpu_op aten::mse_loss 1 915 40 '"External id": 16'
trace_end

"$PROFQ" import -q -o "$TMP/all.db" "$NSYS" "$K1" "$K2" "$TMP/mod.json" >/dev/null 2>&1
ok $? "one file: nsys export (run 1), two Kineto samples (runs 2, 3), a module trace (run 4)"
"$PROFQ" import -q -o "$TMP/k1.db" "$K1" >/dev/null 2>&1 &&
	"$PROFQ" import -q -o "$TMP/k2.db" "$K2" >/dev/null 2>&1 &&
	"$PROFQ" import -q -o "$TMP/mod.db" "$TMP/mod.json" >/dev/null 2>&1
ok $? "and each Kineto trace alone in its own file"

# rows RUN: report output without its header, rows of that run only, the run_id column cut off
rows() { grep "^$1," | cut -d, -f2-; }

for r in op-sum step-breakdown gpu-summary kernel-sum memory-curve memory-sum module-view kernel-flops; do
	all=$("$PROFQ" "$r" "$TMP/all.db" --format csv)
	is "$(printf '%s\n' "$all" | head -1 | cut -d, -f1)" run_id "$r: the first column is run_id"
	is "$(printf '%s\n' "$all" | sed 1d | rows 1)" "" "$r: no rows for the nsys export"
	want=""
	n=2
	for f in k1 k2 mod; do
		alone=$("$PROFQ" "$r" "$TMP/$f.db" --format csv | sed 1d)
		[ -n "$alone" ] && want="$want $n"
		is "$(printf '%s\n' "$all" | sed 1d | rows $n)" "$(printf '%s\n' "$alone" | rows 1)" \
			"$r: run $n's rows equal $f's alone"
		n=$((n + 1))
	done
	is "$(printf '%s\n' "$all" | sed 1d | cut -d, -f1 | uniq | tr '\n' ' ')" "${want# } " \
		"$r: rows for the runs that have the data (${want# }), in run order"
	is "$("$PROFQ" "$r" "$TMP/all.db" --run 3 --format csv | sed 1d)" \
		"$(printf '%s\n' "$all" | grep '^3,')" "$r --run 3: run 3's rows only"
done

# The options keep working per run.
is "$("$PROFQ" op-sum "$TMP/all.db" --param by=name+input-shape --run 4 --format csv | sed 1d | rows 4)" \
	"$("$PROFQ" op-sum "$TMP/mod.db" --param by=name+input-shape --format csv | sed 1d | rows 1)" \
	"op-sum by name+input-shape: run 4 as alone"
is "$("$PROFQ" kernel-sum "$TMP/all.db" --param by=kernel+op --format csv | sed 1d | rows 2)" \
	"$("$PROFQ" kernel-sum "$TMP/k1.db" --param by=kernel+op --format csv | sed 1d | rows 1)" \
	"kernel-sum by kernel+op: run 2 as alone"
is "$("$PROFQ" kernel-flops "$TMP/all.db" --param by=op --format csv | sed 1d | rows 3)" \
	"$("$PROFQ" kernel-flops "$TMP/k2.db" --param by=op --format csv | sed 1d | rows 1)" \
	"kernel-flops by op: run 3 as alone"
is "$("$PROFQ" memory-curve "$TMP/all.db" --plot step --format csv | sed 1d | rows 4)" \
	"$("$PROFQ" memory-curve "$TMP/mod.db" --plot step --format csv | sed 1d | rows 1)" \
	"memory-curve --plot step: run 4 as alone"

# The distributed view: the nsys export is no worker, and the column is run_id.
is "$("$PROFQ" dist-summary "$TMP/all.db" --format csv | head -1 | cut -d, -f1,2)" "run_id,rank" \
	"dist-summary: leading run_id, rank"
is "$("$PROFQ" dist-comm-ops "$TMP/all.db" --format csv | head -1 | cut -d, -f1,2)" "run_id,rank" \
	"dist-comm-ops: leading run_id, rank"

# nsys-style reports: sums keyed by name add the runs up; rows keyed by pid/tid (which another
# run can repeat) carry run_id, so the same export imported twice gives two identical row sets.
H=$DATA/nsys/h100_2gpu_1s.sqlite
R1=$DATA/nsys/report1.sqlite
if [ -f "$H" ] && [ -f "$R1" ]; then
	"$PROFQ" import -q -o "$TMP/n.db" "$H" "$R1" >/dev/null 2>&1 &&
		"$PROFQ" import -q -o "$TMP/n.db" --again "$H" >/dev/null 2>&1 &&
		"$PROFQ" import -q -o "$TMP/h.db" "$H" >/dev/null 2>&1
	ok $? "nsys: h100 export, report1, h100 again (runs 1-3); h100 alone"
	# run RUN: the CSV rows whose run_id is RUN, without run_id and the file's own row ids
	run() { py -c 'import csv, sys
rows = csv.reader(sys.stdin); h = next(rows); i = h.index("run_id")
drop = {i} | {h.index(c) for c in ("range_id", "parent_id") if c in h}
for x in rows:
    if x[i] == sys.argv[1]: print(",".join(v for j, v in enumerate(x) if j not in drop))' "$1"; }
	for r in kern-exec-sum nvtx-kern-sum nvtx-gpu-proj-trace; do
		all=$("$PROFQ" "$r" "$TMP/n.db" --format csv)
		is "$(printf '%s\n' "$all" | head -1 | awk -F, '{ print $NF }')" run_id "$r: run_id column (last)"
		alone=$("$PROFQ" "$r" "$TMP/h.db" --format csv | run 1)
		[ -n "$alone" ]; ok $? "$r: the export alone has rows"
		is "$(printf '%s\n' "$all" | run 1)" "$alone" "$r: run 1's rows equal the export alone"
		is "$(printf '%s\n' "$all" | run 3)" "$alone" "$r: run 3's rows too"
	done
	sum() { "$PROFQ" top-kernels "$TMP/n.db" --format csv "$@" | sed 1d | awk -F, '{ n += $3 } END { print n }'; }
	is "$(sum)" "$(($(sum --run 1) + $(sum --run 2) + $(sum --run 3)))" \
		"top-kernels: instances over all runs are the runs' sum"
else
	skip "nsys-style reports on several runs" "no h100_2gpu_1s.sqlite and report1.sqlite"
fi

# A file written before the v_tb_steps view: profq gives its connection a TEMP copy and leaves
# the file alone; plain sqlite3 says the view is missing instead of giving other numbers.
cp "$TMP/k1.db" "$TMP/old.db"
sqlite "$TMP/old.db" "DROP VIEW v_tb_steps"
is "$("$PROFQ" step-breakdown "$TMP/old.db" --format csv)" "$("$PROFQ" step-breakdown "$TMP/k1.db" --format csv)" \
	"a file without v_tb_steps: step-breakdown as before"
is "$("$PROFQ" gpu-summary "$TMP/old.db" --format csv)" "$("$PROFQ" gpu-summary "$TMP/k1.db" --format csv)" \
	"a file without v_tb_steps: gpu-summary as before"
is "$(sqlite "$TMP/old.db" "SELECT count(*) FROM sqlite_master WHERE name = 'v_tb_steps'")" 0 \
	"reading it did not write the view into the file"
got=$(sqlite "$TMP/old.db" ".load $EXT" ".read $TOP/queries/step-breakdown.sql" 2>&1)
like "$got" "no such table: (main\.)?v_tb_steps" "sqlite3 on it: 'no such table: v_tb_steps' (the step time view reads it)"
"$PROFQ" import -q -o "$TMP/old.db" "$TMP/mod.json" >/dev/null 2>&1
is "$(sqlite "$TMP/old.db" "SELECT count(*) FROM sqlite_master WHERE name = 'v_tb_steps'")" 1 \
	"an import into it adds the view"
is "$(sqlite "$TMP/old.db" ".load $EXT" ".mode csv" ".read $TOP/queries/step-breakdown.sql" 2>&1 | grep -c .)" \
	"$("$PROFQ" step-breakdown "$TMP/old.db" --format csv | sed 1d | grep -c .)" \
	"then sqlite3 runs step-breakdown"

done_testing
