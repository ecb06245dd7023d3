#!/bin/sh
# Every trace in tests/data/kineto imports, and the run's counts and sums equal what Python's
# json/gzip modules compute from the file independently (tests/import/chrome_counts.py).
. "${0%/*}/../lib.sh"
[ -d "$DATA/kineto" ] || skip_all "no $DATA/kineto"

files=$(find "$DATA/kineto" -name '*.json' -o -name '*.json.gz' | sort)
[ -n "$files" ] || skip_all "no traces in $DATA/kineto"
db=$TMP/k.db

# The same keys as chrome_counts.py prints, from SQL over run $1.
db_counts() {
	sqlite "$db" <<SQL
SELECT 'api_calls', count(*) FROM api_calls WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'api_correlation', sum(correlation_id) FROM api_calls WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'api_dur_ns', sum(end_ns - start_ns) FROM api_calls WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'cpu_op_dur_ns', sum(end_ns - start_ns) FROM ranges WHERE run_id = $1 AND kind = 2 HAVING count(*) > 0;
SELECT 'cpu_op_external', sum(coalesce(external_id, 0)) FROM ranges WHERE run_id = $1 AND kind = 2 HAVING count(*) > 0;
SELECT 'cpu_ops', count(*) FROM ranges WHERE run_id = $1 AND kind = 2 HAVING count(*) > 0;
SELECT 'devices', count(*) FROM devices WHERE run_id = $1 AND name IS NOT NULL;
SELECT 'events', count(*) FROM (SELECT 1 FROM runs WHERE id = $1) JOIN (SELECT 0);
SELECT 'flows', count(*) FROM flows WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'kernel_dur_ns', sum(end_ns - start_ns) FROM kernels WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'kernel_grid_x', sum(grid_x) FROM kernels WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'kernel_regs', sum(registers_per_thread) FROM kernels WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'kernel_start_ns', sum(start_ns % 1000000000000) FROM kernels WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'kernels', count(*) FROM kernels WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'marks', count(*) FROM marks WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'memcpy_bytes', sum(bytes) FROM memcpys WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'memcpys', count(*) FROM memcpys WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'memory_abs_bytes', sum(bytes) FROM memory_events WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'memory_events', count(*) FROM memory_events WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'memset_bytes', sum(bytes) FROM memsets WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'memsets', count(*) FROM memsets WHERE run_id = $1 HAVING count(*) > 0;
SELECT 'other_ranges', count(*) FROM ranges WHERE run_id = $1 AND kind = 6 HAVING count(*) > 0;
SELECT 'profiler_steps', count(*) FROM ranges r JOIN strings s ON s.id = r.name_id
 WHERE run_id = $1 AND kind = 2 AND s.value LIKE 'ProfilerStep#%' HAVING count(*) > 0;
SELECT 'syncs', count(*) FROM synchronizations WHERE run_id = $1 HAVING count(*) > 0;
SQL
}

run=0
for f in $files; do
	name=${f#"$DATA/kineto/"}
	"$PROFQ" import -o "$db" "$f" >"$TMP/out" 2>"$TMP/err"
	ok $? "$name imports"
	run=$((run + 1))
	# The CLI line, with its digit grouping taken out for the numbers compared below.
	out=$(sed 's/\([0-9]\),\([0-9]\)/\1\2/g' "$TMP/err")
	is "$(wc -l <"$TMP/err")$(cat "$TMP/out")" 1 "$name: one line for the run, on stderr"
	like "$out" "^profq: imported .* as run $run \\(chrome-json\\) in [0-9.]+ s: [0-9]+ events, [0-9]+ rows$" \
		"$name: the line names the run, the format, events and rows"
	py "${0%/*}/chrome_counts.py" "$f" | grep -v -e '^metadata_events ' -e '^events ' >"$TMP/want"
	# The events total comes from the CLI line.
	db_counts $run | tr '|' ' ' | grep -v '^events ' >"$TMP/got"
	is "$(cat "$TMP/got")" "$(cat "$TMP/want")" "$name: counts and sums match Python's reading"
	events=$(py "${0%/*}/chrome_counts.py" "$f" | sed -n 's/^events //p')
	like "$out" ": $events events," "$name: $events events read"
	is "$(sqlite "$db" "SELECT status FROM runs WHERE id = $run")" complete "$name: run complete"
done

# The ResNet50 samples: 8772 kernels each in num_workers_0 (tb_plugin's own figures).
for f in "$DATA"/kineto/resnet50_num_workers_0/*.json.gz; do
	[ -f "$f" ] || continue
	n=$(sqlite "$db" "SELECT count(*) FROM kernels k JOIN runs r ON r.id = k.run_id
		WHERE r.source_path = '$f'")
	is "$n" 8772 "$(basename "$f"): 8772 kernels"
done

# Kineto GPU tracks: kernels sit on devices and streams of the host process, not on pid 0.
is "$(sqlite "$db" "SELECT count(*) FROM processes WHERE pid BETWEEN 0 AND 15")" 0 \
	"no OS process rows for GPU pids"
is "$(sqlite "$db" "SELECT count(*) FROM kernels WHERE device_id IS NULL OR stream_id IS NULL
	OR process_id IS NULL")" 0 "every kernel has a device, a stream and its host process"
is "$(sqlite "$db" "SELECT count(*) FROM v_kernels k JOIN runs r ON r.id = k.run_id
	WHERE r.source_path LIKE '%resnet50%' AND (k.device <> 0 OR k.stream <> 7)")" 0 \
	"ResNet50 kernels are on device 0, stream 7"
# Kernel -> launching runtime call through (process_id, correlation_id).
is "$(sqlite "$db" "SELECT count(*) FROM kernels k LEFT JOIN api_calls a
	ON a.process_id = k.process_id AND a.correlation_id = k.correlation_id
	WHERE a.id IS NULL")" 0 "every kernel joins its launch by process and correlation id"
is "$(sqlite "$db" "SELECT count(*) FROM devices d JOIN runs r ON r.id = d.run_id
	WHERE r.source_path LIKE '%resnet50%' AND d.sm_count = 80 AND d.compute_major = 7")" 16 \
	"V100 properties stored (4 devices x 4 runs)"
is "$(sqlite "$db" "SELECT count(*) FROM runs WHERE source = 'chrome-json' AND source_version = '1'")" \
	"$run" "schemaVersion is the source version"
is "$(sqlite "$db" "SELECT group_concat(DISTINCT time_base) FROM runs")" unix "all runs on the epoch"
is "$(sqlite "$db" "SELECT count(*) FROM memory_events WHERE memory_kind IS NULL")" 0 \
	"memory events have a memory kind"
is "$(sqlite "$db" "SELECT count(*) FROM memcpys WHERE copy_kind = 1 AND src_kind = 0 AND dst_kind = 2")" \
	"$(sqlite "$db" "SELECT count(*) FROM memcpys")" "Memcpy HtoD (Pageable -> Device) -> htod, pageable, device"
done_testing
