#!/bin/sh
# profq export --format chrome on every sample in ../shared/data (Kineto JSON and nsys SQLite):
# the trace passes the structure check (chrome_check.py: fields per phase, exact decimal ts,
# X/B/E nesting per (pid, tid), flows paired and bound to slices), and `profq import` of it gives
# back every kernel, memcpy, memset, API call and range with the same times and names
# (roundtrip.py compares both databases with Python's sqlite3 alone).
. "${0%/*}/../lib.sh"
[ -d "$DATA" ] || skip_all "no $DATA"

n=0
for f in "$DATA"/kineto/*/*.json "$DATA"/kineto/*/*.json.gz "$DATA"/nsys/*.sqlite; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	name=$(basename "$f")
	db=$TMP/s$n.db
	"$PROFQ" import -q -o "$db" "$f" >/dev/null
	ok $? "$name imports"
	# every other sample compressed: .json.gz output is gzip and reads back the same
	out=$TMP/s$n.json
	[ $((n % 2)) = 0 ] && out=$TMP/s$n.json.gz
	"$PROFQ" export --format chrome "$db" -o "$out" >/dev/null
	ok $? "$name exports"
	check=$(py "${0%/*}/chrome_check.py" "$out")
	ok $? "$name: trace structure${check:+ ($(printf '%s' "$check" | head -3 | tr '\n' ' ' | cut -c1-200))}"
	# as many X events per category as the database has rows
	is "$(printf '%s' "$check" | py -c '
import json, sys
c = json.load(sys.stdin)
print(c.get("X:kernel", 0), c.get("X:gpu_memcpy", 0), c.get("X:gpu_memset", 0),
      c.get("X:cuda_runtime", 0) + c.get("X:cuda_driver", 0))' 2>/dev/null)" \
		"$(sqlite "$db" "SELECT (SELECT count(*) FROM kernels), (SELECT count(*) FROM memcpys),
			(SELECT count(*) FROM memsets), (SELECT count(*) FROM api_calls)" | tr '|' ' ')" \
		"$name: one X event per kernel, memcpy, memset and API call"
	"$PROFQ" import -q -o "$TMP/r$n.db" "$out" >/dev/null
	ok $? "$name: the export imports"
	diff=$(py "${0%/*}/roundtrip.py" "$db" "$TMP/r$n.db")
	ok $? "$name: round trip keeps every kernel, memcpy, memset, API call and range ($(printf '%s' "$diff" | tr '\n' ' '))"
	is "$(sqlite "$TMP/r$n.db" "SELECT count(*) FROM memory_events")" \
		"$(sqlite "$db" "SELECT count(*) FROM memory_events")" "$name: allocations round-trip"
	is "$(sqlite "$TMP/r$n.db" "SELECT sync_type, count(*), sum(end_ns - start_ns) FROM synchronizations GROUP BY 1")" \
		"$(sqlite "$db" "SELECT sync_type, count(*), sum(end_ns - start_ns) FROM synchronizations GROUP BY 1")" \
		"$name: synchronizations round-trip with their types"
	is "$(sqlite "$TMP/r$n.db" "SELECT ordinal, name, sm_count FROM devices ORDER BY 1")" \
		"$(sqlite "$db" "SELECT ordinal, name, sm_count FROM devices ORDER BY 1")" "$name: devices round-trip"
	is "$(sqlite "$TMP/r$n.db" "SELECT time_base, start_ns FROM runs")" \
		"$(sqlite "$db" "SELECT time_base, (SELECT min(t) FROM (SELECT start_ns t FROM runs
			UNION ALL SELECT min(start_ns) FROM kernels UNION ALL SELECT min(start_ns) FROM ranges
			UNION ALL SELECT min(start_ns) FROM api_calls UNION ALL SELECT min(start_ns) FROM memcpys))
			FROM runs")" "$name: the reimported run starts at the first event, on the same clock"
done
[ "$n" -gt 0 ] || skip "samples" "no sample files in $DATA"
done_testing
