#!/bin/sh
# `profq info`: runs, devices, row counts and span, checked against sqlite3 on the same file.
. "${0%/*}/../lib.sh"
cd "$TMP"
"$BUILD/examples/demo" demo.db

out=$("$PROFQ" info demo.db); is "$?" 0 "info exits 0"
like "$out" "^file: demo.db \\(profq schema version 1\\)" "names the file and schema version"
like "$out" "^  1  demo    complete  2026-01-01 00:00:00.000 UTC" "lists the run with its UTC start"
like "$out" "NVIDIA A100-SXM4-40GB +8.0 +108 +39.59 +1555.0" "lists the device and its properties"

json=$("$PROFQ" info demo.db --format json); is "$?" 0 "info --format json exits 0"
for t in kernels memcpys memsets api_calls ranges marks memory_events counters synchronizations \
	flows processes threads devices streams strings; do
	want=$(sqlite demo.db "SELECT count(*) FROM $t")
	got=$(printf '%s' "$json" | py -c "import json,sys
d = json.load(sys.stdin)
print([r['rows'] for r in d['rows'] if r['table'] == '$t'][0])")
	is "$got" "$want" "row count of $t equals sqlite3's count(*)"
done
span=$(printf '%s' "$json" | py -c 'import json,sys; v = json.load(sys.stdin)["time_span"][0]["span_s"]; print("%.6f" % v if type(v) is float else repr(v))')
want=$(sqlite demo.db "SELECT printf('%.6f', (max(e) - min(s)) / 1e9) FROM (
	SELECT min(start_ns) s, max(end_ns) e FROM kernels UNION ALL
	SELECT min(start_ns), max(end_ns) FROM api_calls UNION ALL
	SELECT min(start_ns), max(end_ns) FROM ranges UNION ALL
	SELECT min(start_ns), max(end_ns) FROM memcpys UNION ALL
	SELECT min(ts_ns), max(ts_ns) FROM marks UNION ALL
	SELECT min(ts_ns), max(ts_ns) FROM memory_events)")
is "$span" "$want" "time span is first event to last event, a JSON number"
is "$(printf '%s' "$json" | py -c 'import json,sys
d = json.load(sys.stdin)
print(" ".join("%s=%s" % (k, "number" if type(r[k]) in (int, float) else type(r[k]).__name__) for r in d["runs"] + d["devices"] for k in
      ("run", "duration_s", "processes", "devices", "device", "sm_count", "memory_gib", "bandwidth_gb_s") if k in r))')" \
	"run=number duration_s=number processes=number devices=number run=number device=number sm_count=number memory_gib=number bandwidth_gb_s=number" \
	"info --format json: counts, durations and sizes are JSON numbers"
want=$(sqlite demo.db "SELECT round(global_memory_bytes / 1073741824.0, 2) || ' ' || round(memory_bandwidth_bytes_per_s / 1e9, 1) FROM devices")
is "$(printf '%s' "$json" | py -c 'import json,sys; d = json.load(sys.stdin)["devices"][0]; print(float(d["memory_gib"]), float(d["bandwidth_gb_s"]))')" \
	"$want" "memory in GiB (2^30 bytes), bandwidth in GB/s (10^9 bytes/s)"

# A second run appended by another writer shows up as run 2.
"$BUILD/examples/demo" demo.db
is "$("$PROFQ" info demo.db --format json | py -c 'import json,sys; print(len(json.load(sys.stdin)["runs"]))')" \
	2 "writing into an existing database adds a run"

# Each run has its own span (runs of one file can be years apart): one time_span row per run, from
# that run's first event to its last, on the Unix clock or, for run 3, its own relative one.
cat >rel.json <<'EOF'
[{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 100, "dur": 50},
 {"ph": "X", "cat": "cpu_op", "name": "b", "pid": 1, "tid": 1, "ts": 400, "dur": 25}]
EOF
"$PROFQ" import -q -o demo.db rel.json >/dev/null
json=$("$PROFQ" info demo.db --format json); is "$?" 0 "three runs: info --format json exits 0"
got=$(printf '%s' "$json" | py -c 'import json,sys
for r in json.load(sys.stdin)["time_span"]: print(r["run"], r["first_event"], r["last_event"], r["span_s"])')
want=$(sqlite demo.db "SELECT run_id,
	CASE WHEN run_id < 3 THEN strftime('%Y-%m-%d %H:%M:%f', min(s) / 1e9, 'unixepoch') || ' UTC'
	     ELSE min(s) || ' ns (relative)' END,
	CASE WHEN run_id < 3 THEN strftime('%Y-%m-%d %H:%M:%f', max(e) / 1e9, 'unixepoch') || ' UTC'
	     ELSE max(e) || ' ns (relative)' END,
	round((max(e) - min(s)) / 1e9, 6) FROM (
	SELECT run_id, start_ns s, end_ns e FROM kernels UNION ALL
	SELECT run_id, start_ns, end_ns FROM api_calls UNION ALL
	SELECT run_id, start_ns, end_ns FROM ranges UNION ALL
	SELECT run_id, start_ns, end_ns FROM memcpys UNION ALL
	SELECT run_id, ts_ns, ts_ns FROM marks UNION ALL
	SELECT run_id, ts_ns, ts_ns FROM memory_events)
	GROUP BY run_id ORDER BY run_id" | tr '|' ' ')
is "$got" "$want" "time_span: one row per run, from its first event to its last"
like "$("$PROFQ" info demo.db | sed -n '/^time_span:/,$p')" \
	"^  3  [0-9]+ ns \\(relative\\) +[0-9]+ ns \\(relative\\) +0\\.000325$" \
	"the table shows the relative run on its own clock: 325 µs"

done_testing
