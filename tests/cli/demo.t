#!/bin/sh
# The built-in example (examples/demo.c) is a consistent trace: checked with plain SQL against the
# shape its header describes.
. "${0%/*}/../lib.sh"
cd "$TMP"
"$BUILD/examples/demo" demo.db; is "$?" 0 "demo writes a database"

q() { sqlite demo.db "$1"; }
is "$(q "SELECT count(*) FROM kernels")" 200 "5 steps x 40 kernels"
is "$(q "SELECT count(*) FROM v_ranges WHERE name LIKE 'step %'")" 5 "5 step ranges"
is "$(q "SELECT count(*) FROM kernels k LEFT JOIN api_calls a
	ON a.process_id = k.process_id AND a.correlation_id = k.correlation_id
	WHERE a.id IS NULL OR a.start_ns >= k.start_ns")" 0 \
	"every kernel has its launch call, which starts before it"
is "$(q "SELECT count(*) FROM (SELECT start_ns, lag(end_ns) OVER (PARTITION BY stream_id
	ORDER BY start_ns) AS prev_end FROM kernels) WHERE prev_end > start_ns")" 0 \
	"kernels on one stream never overlap"
# backward GEMMs: 5 x 2 x 2250 us; relu grads: 5 x 9 x 25 us
is "$(q "SELECT sum(duration_ns) FROM v_kernels WHERE name = 'ampere_sgemm_128x64_tn'")" \
	22500000 "backward GEMM time is 5 x 4500 us"
is "$(q "SELECT sum(duration_ns) FROM v_kernels WHERE short_name = 'relu_grad_kernel'")" \
	1125000 "relu grad time is 5 x 9 x 25 us"
is "$(q "SELECT sum(bytes) FROM memcpys")" $((5 * 32 * 3 * 224 * 224 * 4)) "memcpy bytes: 5 batches"
is "$(q "SELECT max(total_allocated), min(total_allocated) FROM memory_events")" \
	"$((64 << 20))|0" "activations allocated and freed each step"
is "$(q "SELECT count(*) FROM synchronizations s WHERE s.end_ns != 4000 +
	(SELECT max(end_ns) FROM kernels WHERE correlation_id < s.correlation_id)")" 0 \
	"each stream synchronize returns 4 us after its step's last kernel"
is "$(q "SELECT status FROM runs")" complete "the run is complete"

out=$(sh "$TOP/examples/demo.sh" "$BUILD" 2>&1); is "$?" 0 "examples/demo.sh runs"
like "$out" "ampere_sgemm_128x64_tn" "and reports the kernels"
rm -f "$BUILD/demo.db" "$BUILD/demo.db-wal" "$BUILD/demo.db-shm"

done_testing
