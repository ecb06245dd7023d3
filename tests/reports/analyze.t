#!/bin/sh
# profq analyze on a hand-built database: each rule's condition (notes/nsys.md §3.1), options,
# the summary row per rule, --rule with advice; and every report runs on the Kineto samples.
. "${0%/*}/../lib.sh"
cd "$TMP"
cat "$TOP/schema/schema.sql" "$TOP/schema/views.sql" | sqlite a.db || exit 1
sqlite a.db <<'SQL' || exit 1
INSERT INTO runs(id, source, created_utc, profq_version) VALUES (1, 'test', '2024', 'test');
INSERT INTO processes(id, run_id, pid) VALUES (1, 1, 100);
INSERT INTO threads(id, run_id, process_id, tid) VALUES (1, 1, 1, 100);
INSERT INTO devices(id, run_id, ordinal) VALUES (1, 1, 0);
INSERT INTO strings(id, value) VALUES (1, 'cudaMemcpyAsync_v3020'), (2, 'cudaMemcpy_v3020'),
  (3, 'cudaMemset_v3020'), (4, 'cudaDeviceSynchronize_v3020'), (5, 'k'), (6, 'cudaLaunchKernel');
INSERT INTO api_calls(run_id, process_id, thread_id, start_ns, end_ns, api_kind, name_id, correlation_id) VALUES
  (1, 1, 1, 0, 10, 0, 1, 1),          -- async copy from pageable: cuda_memcpy_async
  (1, 1, 1, 20, 30, 0, 1, 2),         -- async copy from pinned: fine
  (1, 1, 1, 40, 60, 0, 2, 3),         -- sync D2H copy: cuda_memcpy_sync
  (1, 1, 1, 70, 80, 0, 2, 4),         -- sync H2D of 64000 bytes: excluded
  (1, 1, 1, 90, 95, 0, 3, 5),         -- sync memset on pinned memory: cuda_memset_sync
  (1, 1, 1, 96, 99, 0, 3, 6),         -- sync memset on device memory: fine
  (1, 1, 1, 100, 2000000000, 0, 4, 7),-- cuda_api_sync
  (1, 1, 1, 100, 110, 0, 6, 8);
INSERT INTO memcpys(run_id, process_id, device_id, start_ns, end_ns, correlation_id, bytes, copy_kind, src_kind, dst_kind) VALUES
  (1, 1, 1, 0, 100, 1, 1000, 1, 0, 2), (1, 1, 1, 100, 200, 2, 1000, 1, 1, 2),
  (1, 1, 1, 200, 300, 3, 1000, 2, 2, 1), (1, 1, 1, 300, 400, 4, 64000, 1, 1, 2);
INSERT INTO memsets(run_id, process_id, device_id, start_ns, end_ns, correlation_id, bytes, memory_kind) VALUES
  (1, 1, 1, 400, 500, 5, 8, 1), (1, 1, 1, 500, 600, 6, 8, 2);
-- a kernel 1 s after the last memset: a 999,999,400 ns gap; then one busy second
INSERT INTO kernels(run_id, process_id, device_id, start_ns, end_ns, correlation_id, name_id)
VALUES (1, 1, 1, 1000000000, 2000000000, 8, 5);
SQL

is "$("$PROFQ" analyze a.db --format csv)" \
"rule,severity,count,summary
cuda_api_sync,info,1,\"1 event, 2000.000 ms in total\"
cuda_memcpy_async,warning,1,\"1 event, 0.000 ms in total\"
cuda_memcpy_sync,warning,1,\"1 event, 0.000 ms in total\"
cuda_memset_sync,warning,1,\"1 event, 0.000 ms in total\"
gpu_gaps,warning,1,\"1 event, 999.999 ms in total\"
gpu_time_util,info,1,\"1 event, 1000.000 ms in total\"" "analyze: one row per rule"

is "$("$PROFQ" analyze a.db --rule gpu_gaps --format csv 2>err)" \
	"$(printf 'start_ns,end_ns,duration_ns,pid,device,run_id\n600,1000000000,999999400,100,0,1')" \
	"--rule gpu_gaps lists the gap"
like "$(cat err)" "^Advice \(gpu_gaps\): The GPU was idle" "the advice goes to stderr for csv"
is "$("$PROFQ" analyze a.db --rule gpu_gaps --gap-ms 1000 --format csv 2>/dev/null | wc -l)" 1 \
	"--gap-ms 1000: the 999.9 ms gap is not reported"
# gpu_time_util: span [0, 2e9) in 2 chunks: [0, 1e9) is 600 ns busy, [1e9, 2e9) fully busy.
is "$("$PROFQ" analyze a.db --rule gpu_time_util --chunks 2 --format csv 2>/dev/null)" \
	"$(printf 'start_ns,end_ns,duration_ns,util_pct,chunks,pid,device,run_id\n0,1000000000,1000000000,0.0,1,100,0,1')" \
	"--rule gpu_time_util --chunks 2"
is "$("$PROFQ" analyze a.db --rule gpu_time_util --chunks 4 --threshold 101 --format csv 2>/dev/null | cut -d, -f1-5)" \
	"$(printf 'start_ns,end_ns,duration_ns,util_pct,chunks\n0,2000000000,2000000000,50.0,4')" \
	"consecutive low chunks merge (length-weighted utilization)"
is "$("$PROFQ" analyze a.db --rule cuda_memcpy_sync --format csv 2>/dev/null | cut -d, -f1,2,5,6)" \
	"$(printf 'start_ns,duration_ns,bytes,copy_kind\n40,20,1000,Device-to-Host')" \
	"cuda_memcpy_sync: small H2D copies are left out"
"$PROFQ" analyze a.db --rule nosuch >/dev/null 2>&1
is "$?" 2 "an unknown rule is a usage error"

# Every report runs on the Kineto samples and on the demo profile.
[ -d "$DATA/kineto" ] || { skip "kineto samples" "no $DATA/kineto"; done_testing; }
"$BUILD/examples/demo" demo.db >/dev/null 2>&1
for f in "$DATA"/kineto/*/*.json*; do
	"$PROFQ" import -q -o kineto.db "$f" >/dev/null 2>&1 || { ok 1 "import $f"; continue; }
done
for db in kineto.db demo.db; do
	fails=""
	for r in $("$PROFQ" report --list | cut -d' ' -f1); do
		"$PROFQ" "$r" $db --format csv >/dev/null 2>err || fails="$fails $r:$(head -1 err)"
	done
	"$PROFQ" analyze $db >/dev/null 2>err || fails="$fails analyze:$(head -1 err)"
	is "$fails" "" "every report runs on $db"
done
is "$("$PROFQ" top-kernels kineto.db --format csv --limit 1 --run 1 | cut -d, -f3)" \
	"$(printf 'instances\n%s' "$(sqlite kineto.db "SELECT count(*) FROM kernels k JOIN strings s ON s.id = k.name_id WHERE run_id = 1 GROUP BY s.value ORDER BY sum(end_ns - start_ns) DESC LIMIT 1")")" \
	"top-kernels on a Kineto run"
like "$("$PROFQ" range-sum kineto.db --format csv | grep -c ProfilerStep)" "^[1-9]" \
	"range-sum lists the ProfilerStep ranges of the Kineto traces"
done_testing
