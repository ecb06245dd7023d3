#!/bin/sh
# The derived tables (docs/schema.md, Derived tables): written with every finished run, the same
# rows their views compute from the events (some computed in C: lib/derive_*.c), read by the reports; a run without them (an open one, an older file) computed on the
# fly with the same numbers; added to an older file by the next write; kept by merge.
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"
cd "$TMP"
K1=$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
K4=$DATA/kineto/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz
GM=$DATA/kineto/tb_plugin_test/gpu_metrics_input.json
NSYS=$DATA/nsys/mock.sqlite
REPORTS="step-breakdown gpu-summary op-sum kernel-sum memory-sum temporal-breakdown idle-breakdown comm-overlap"

py "$TOP/tests/reports/hta_traces.py" --rank 0 --sync >hta.json      # partial overlaps, NCCL
py "$TOP/bench/gen_module_trace.py" 30 mod.json                      # same-name chains, modules
"$PROFQ" import -q -o all.db "$K1" "$K4" "$GM" "$NSYS" hta.json mod.json >/dev/null
ok $? "six traces (Kineto samples, a tb_plugin test trace, an nsys export, generated) in one file"
is "$(sqlite all.db "SELECT count(*) FROM derived_runs")" 54 "every run is listed for each of the 9 tables"

check() { # DB: each table's stored rows are its view's
	py "$TOP/tests/reports/derived_check.py" "$1" "$EXT" >check.out 2>&1
	ok $? "derived_check.py $1 ran$(grep -v '	' check.out | head -c 200)"
	tab=$(printf '\t')
	while IFS="$tab" read -r t result; do
		[ "$t" = listed ] && continue
		like "$result" '^same' "$1: $t holds what v_$t computes"
	done <check.out
}
check all.db

# tb_gpu_metrics' Tensor Core share (lib/derive_gpu.c matches runtime calls and host ranges in C):
# a kernel counts once per runtime call of its correlation id whose external id is 0 or that of an
# ended cpu_op or "python" range; a python_function range or an unknown id does not count. By
# hand: device 0: the s884 kernel 10 of 10 + 20 (the python range's) + 8 (external id 0; its
# kernel names no device: Kineto's device 0) = 26.32 %; device 1: the s884 kernel 40 (external id
# 0) of 40 + 5 twice (two calls with its correlation id) = 80 %; the python_function range's
# kernel (30) and the unknown id's (50) left out.
trace_begin tc.json
X user_annotation ProfilerStep#1 123 100 300
X user_annotation ProfilerStep#2 123 400 300
X Operator aten::mm 123 110 50 '"External id": 10'
X python bar 123 170 20 '"External id": 11'
X python_function baz 123 200 20 '"External id": 12'
X Runtime cudaLaunchKernel 123 120 2 '"correlation": 1, "external id": 10'
X Kernel volta_s884gemm_128x128 'stream 7' 125 10 '"correlation": 1, "external id": 10, "device": 0'
X Runtime cudaLaunchKernel 123 175 2 '"correlation": 2, "external id": 11'
X Kernel kernel_a 'stream 7' 180 20 '"correlation": 2, "external id": 11, "device": 0'
X Runtime cudaLaunchKernel 123 205 2 '"correlation": 3, "external id": 12'
X Kernel kernel_b 'stream 7' 210 30 '"correlation": 3, "external id": 12, "device": 0'
X Runtime cudaLaunchKernel 123 250 2 '"correlation": 4, "external id": 0'
X Kernel volta_s884gemm_128x128 'stream 8' 255 40 '"correlation": 4, "external id": 0, "device": 1'
X Runtime cudaLaunchKernel 123 260 2 '"correlation": 5, "external id": 99'
X Kernel kernel_c 'stream 8' 300 50 '"correlation": 5, "external id": 99, "device": 1'
X Runtime cudaLaunchKernel 123 350 2 '"correlation": 6, "external id": 10'
X Runtime cudaLaunchKernel 123 355 2 '"correlation": 6, "external id": 10'
X Kernel kernel_d 'stream 8' 360 5 '"correlation": 6, "external id": 10, "device": 1'
X Runtime cudaLaunchKernel 123 370 2 '"correlation": 7, "external id": 0'
X Kernel kernel_e 'stream 9' 375 8 '"correlation": 7, "external id": 0'
trace_end
import_trace tc.json tc.db
is "$(sqlite tc.db "SELECT group_concat(tensor_core_pct, ' ') FROM
	(SELECT tensor_core_pct FROM tb_gpu_metrics ORDER BY device_id)")" "26.32 80.0" \
   "tb_gpu_metrics: the Tensor Core share by hand (devices 0 and 1)"
check tc.db

# The input shapes tb_op_sums groups by are read off the args text by lib/derive_ops.c when the
# value is a minified array or object, else by json_extract, as the view reads them: args rewritten
# with spaces, a string, null, lowercase "Input dims", a duplicate key, an escaped key, an array,
# none; a memory event's bytes made a REAL (lib/derive_memory.c leaves such a run to the view);
# the next import derives the runs again (derived_runs emptied).
cp all.db shapes.db
sqlite shapes.db "UPDATE ranges SET args = CASE id % 8
  WHEN 0 THEN replace(args, ',', ' , ')
  WHEN 1 THEN json_set(args, '\$.\"Input Dims\"', 'text')
  WHEN 2 THEN json_set(args, '\$.\"Input Dims\"', json('null'))
  WHEN 3 THEN replace(args, '\"Input Dims\"', '\"Input dims\"')
  WHEN 4 THEN '{\"Input Dims\":[[' || id || ']],\"Input Dims\":[[2]]}'
  WHEN 5 THEN replace(args, '\"Input Dims\"', '\"Input\\u0020Dims\"')
  WHEN 6 THEN NULL ELSE '[1,2]' END WHERE kind = 2 AND id % 3 = 0;
  UPDATE memory_events SET bytes = bytes + 0.5 WHERE id = (SELECT min(id) FROM memory_events);
  DELETE FROM derived_runs"
is "$(sqlite shapes.db "SELECT count(DISTINCT id % 8) FROM ranges WHERE kind = 2 AND id % 3 = 0")" 8 "every rewrite is there"
"$PROFQ" import -q -o shapes.db "$GM" --again >/dev/null
ok $? "another import derives every run again"
check shapes.db

# A large run (over 100 k host operator ranges) is derived in another order, the operator sums
# only once the steps are written, with less page cache (memory): PROFQ_DERIVE_LARGE=0 takes that
# path on these traces. Every table holds the same rows.
PROFQ_DERIVE_LARGE=0 "$PROFQ" import -q -o large.db "$K1" "$K4" "$GM" "$NSYS" hta.json mod.json >/dev/null
ok $? "the same traces, derived as large runs are"
check large.db
for t in tb_steps tb_step_times tb_gpu_metrics tb_kernel_sums tb_op_sums tb_memory_sums \
	hta_temporal_breakdown hta_idle_breakdown hta_comm_overlap; do
	is "$(sqlite large.db "SELECT * FROM $t" | sort | md5sum)" "$(sqlite all.db "SELECT * FROM $t" | sort | md5sum)" \
		"large-run order: $t the same"
done
ok "$([ "$(sqlite all.db "SELECT count(*) FROM tb_op_sums")" -gt 100 ]; echo $?)" "tb_op_sums has rows"

# The reports on stored rows and on rows computed from the events (nothing listed) agree.
cp all.db none.db
sqlite none.db "DELETE FROM derived_runs"
for r in $REPORTS; do
	is "$("$PROFQ" "$r" none.db --format csv)" "$("$PROFQ" "$r" all.db --format csv)" "$r: computed = stored"
done
is "$("$PROFQ" op-sum none.db --by name+input-shape --format csv | md5sum)" \
	"$("$PROFQ" op-sum all.db --by name+input-shape --format csv | md5sum)" "op-sum by shape: computed = stored"
is "$(sqlite none.db "SELECT count(*) FROM sqlite_temp_master")" 0 "reading did not write anything"

# HTA's reports read their stored rows for the default options only: with the rows altered, the
# default output moves by the alteration and every other option gives what it computes.
cp all.db alt.db
sqlite alt.db "UPDATE hta_temporal_breakdown SET idle_ns = idle_ns + 1000; UPDATE hta_idle_breakdown SET other_ns = other_ns + 1000"
is "$(sqlite alt.db "SELECT sum(idle_ns) FROM hta_temporal_breakdown")" \
	"$(sqlite all.db "SELECT sum(idle_ns) + 1000 * count(*) FROM hta_temporal_breakdown")" "temporal rows altered"
is "$("$PROFQ" temporal-breakdown alt.db --format csv | cut -d, -f4 | sed 1d | awk '{ s += $1 } END { print s }')" \
	"$(($("$PROFQ" temporal-breakdown all.db --format csv | cut -d, -f4 | sed 1d | awk '{ s += $1 } END { print s }') + 1000 * $(sqlite all.db "SELECT count(*) FROM hta_temporal_breakdown")))" \
	"temporal-breakdown reads the stored rows"
for opt in "--mode exact" "--include-last-step 1"; do
	# shellcheck disable=SC2086
	is "$("$PROFQ" temporal-breakdown alt.db $opt --format csv)" "$("$PROFQ" temporal-breakdown none.db $opt --format csv)" \
		"temporal-breakdown $opt: computed, not stored"
done
for opt in "--mode exact" "--include-last-step 1" "--consecutive-kernel-delay-us 10"; do
	# shellcheck disable=SC2086
	is "$("$PROFQ" idle-breakdown alt.db $opt --format csv)" "$("$PROFQ" idle-breakdown none.db $opt --format csv)" \
		"idle-breakdown $opt: computed, not stored"
done
isnt() { [ "$1" != "$2" ]; ok $? "$3"; }
isnt "$("$PROFQ" idle-breakdown alt.db --format csv)" "$("$PROFQ" idle-breakdown none.db --format csv)" \
	"idle-breakdown reads the stored rows"

# A run still being written is computed from its events, then derived once it is closed.
cp all.db open.db
sqlite open.db "UPDATE runs SET status = 'open' WHERE id = 1; DELETE FROM derived_runs WHERE run_id = 1"
is "$("$PROFQ" op-sum open.db --run 1 --format csv)" "$("$PROFQ" op-sum all.db --run 1 --format csv)" \
	"an open run: computed from its events"
"$PROFQ" repair open.db >/dev/null 2>&1
is "$(sqlite open.db "SELECT status, (SELECT count(*) FROM derived_runs WHERE run_id = 1) FROM runs WHERE id = 1")" \
	"aborted|9" "repair closes it as aborted and derives it"

# A file written before the derived tables: read as before, upgraded by the next write.
"$PROFQ" import -q -o old.db "$K1" >/dev/null
sqlite old.db "DROP VIEW v_tb_op_sums; DROP VIEW v_tb_op_nodes; DROP VIEW v_tb_kernel_sums; DROP VIEW v_tb_memory_sums; DROP TABLE tb_memory_sums;
	DROP VIEW v_tb_gpu_metrics; DROP VIEW v_tb_step_times; DROP VIEW v_tb_steps; DROP TABLE derived_runs; DROP TABLE tb_steps;
	DROP TABLE tb_step_times; DROP TABLE tb_gpu_metrics; DROP TABLE tb_kernel_sums; DROP TABLE tb_op_sums;
	DROP VIEW v_hta_temporal_breakdown; DROP VIEW v_hta_idle_breakdown; DROP TABLE hta_temporal_breakdown;
	DROP TABLE hta_idle_breakdown; DROP VIEW v_hta_comm_overlap; DROP TABLE hta_comm_overlap"
for r in $REPORTS; do
	is "$("$PROFQ" "$r" old.db --format csv)" "$("$PROFQ" "$r" all.db --run 1 --format csv)" "older file: $r as before"
done
is "$(sqlite old.db "SELECT count(*) FROM sqlite_master WHERE name LIKE 'tb_%' OR name LIKE 'hta_%' OR name = 'derived_runs'")" 0 \
	"reading it added nothing"
like "$(cd "$TOP" && sqlite "$TMP/old.db" ".load $EXT" ".read queries/op-sum.sql" 2>&1)" "no such table" \
	"sqlite3 on it: no such table"
"$PROFQ" import -q -o old.db mod.json >/dev/null
is "$(sqlite old.db "SELECT count(*) FROM derived_runs")" 18 "an import into it adds the tables and derives both runs"
check old.db

# A file written by a profq with the other derived tables but not hta_comm_overlap: read as before,
# and the next write adds the table and derives it for every run, the earlier ones too.
cp all.db part.db
sqlite part.db "DROP VIEW v_hta_comm_overlap; DROP TABLE hta_comm_overlap; DELETE FROM derived_runs WHERE name = 'hta_comm_overlap'"
is "$("$PROFQ" comm-overlap part.db --format csv)" "$("$PROFQ" comm-overlap all.db --format csv)" \
	"without hta_comm_overlap: comm-overlap as before"
py "$TOP/bench/gen_module_trace.py" 10 mod10.json
"$PROFQ" import -q -o part.db mod10.json >/dev/null
is "$(sqlite part.db "SELECT count(*) FROM derived_runs WHERE name = 'hta_comm_overlap'")" 7 \
	"an import into it derives hta_comm_overlap for the six runs and the new one"
check part.db

# The same for tb_memory_sums, which the operator sums' job writes too: the next write derives it
# for every run, and tb_op_sums only for the new one (its other runs keep their rows, not twice).
cp all.db mem.db
sqlite mem.db "DROP VIEW v_tb_memory_sums; DROP TABLE tb_memory_sums; DELETE FROM derived_runs WHERE name = 'tb_memory_sums'"
is "$("$PROFQ" memory-sum mem.db --format csv)" "$("$PROFQ" memory-sum all.db --format csv)" \
	"without tb_memory_sums: memory-sum as before"
"$PROFQ" import -q -o mem.db mod10.json >/dev/null
is "$(sqlite mem.db "SELECT count(*) FROM derived_runs WHERE name = 'tb_memory_sums'")" 7 \
	"an import into it derives tb_memory_sums for the six runs and the new one"
is "$(sqlite mem.db "SELECT count(*) FROM tb_op_sums WHERE run_id <= 6")" "$(sqlite all.db "SELECT count(*) FROM tb_op_sums")" \
	"tb_op_sums of the six runs not written again"
check mem.db

# merge keeps them (ids mapped), and they still match.
"$PROFQ" import -q -o a.db "$GM" >/dev/null && "$PROFQ" import -q -o b.db mod.json >/dev/null &&
	"$PROFQ" merge -o m.db a.db b.db >/dev/null 2>&1
ok $? "merge two files"
is "$(sqlite m.db "SELECT count(*) FROM derived_runs")" 18 "the merged runs are derived"
check m.db

done_testing
