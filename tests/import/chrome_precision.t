#!/bin/sh
# libkineto traces with fractional-microsecond ts keep sub-microsecond precision exactly:
# every X event's start and end equal baseTimeNanoseconds + Decimal(ts text) * 1000.
. "${0%/*}/../lib.sh"
[ -d "$DATA/kineto/libkineto_test_traces" ] || skip_all "no $DATA/kineto/libkineto_test_traces"

for f in "$DATA"/kineto/libkineto_test_traces/*.json; do
	name=$(basename "$f")
	db=$TMP/p.db
	rm -f "$db"
	"$PROFQ" import -q -o "$db" "$f" >/dev/null
	ok $? "$name imports"
	py - "$f" >"$TMP/want" <<'PY'
import json, sys
from decimal import Decimal
doc = json.load(open(sys.argv[1]), parse_float=Decimal)
base = int(doc["baseTimeNanoseconds"])
rows = []
for e in doc["traceEvents"]:
    if e.get("ph") == "X":
        s = base + int(Decimal(e["ts"]) * 1000)
        assert Decimal(e["ts"]) * 1000 == int(Decimal(e["ts"]) * 1000)
        rows.append((s, s + int(Decimal(e["dur"]) * 1000)))
for r in sorted(rows):
    print(*r)
PY
	sqlite "$db" "SELECT start_ns, end_ns FROM (
		SELECT start_ns, end_ns FROM kernels UNION ALL SELECT start_ns, end_ns FROM api_calls
		UNION ALL SELECT start_ns, end_ns FROM ranges
		UNION ALL SELECT start_ns, end_ns FROM synchronizations) ORDER BY 1, 2" |
		tr '|' ' ' >"$TMP/got"
	is "$(cat "$TMP/got")" "$(cat "$TMP/want")" "$name: every X event's ns times are exact"
	like "$(sqlite "$db" "SELECT count(*) FROM kernels WHERE start_ns % 1000 <> 0")" '^[1-9]' \
		"$name: kernels have sub-microsecond digits"
	is "$(sqlite "$db" "SELECT time_base, time_offset_ns FROM runs")" \
		"unix|$(sed -n 's/.*"baseTimeNanoseconds": *\([0-9]*\).*/\1/p' "$f")" \
		"$name: unix time base, offset = baseTimeNanoseconds"
	is "$(sqlite "$db" "SELECT value FROM run_metadata WHERE key = 'baseTimeNanoseconds'")" \
		"$(sed -n 's/.*"baseTimeNanoseconds": *\([0-9]*\).*/\1/p' "$f")" \
		"$name: baseTimeNanoseconds kept exactly in run_metadata"
	# A flow's end is on a GPU track: no thread; its key is the correlation id.
	is "$(sqlite "$db" "SELECT count(*) FROM flows f JOIN kernels k ON k.correlation_id = f.flow_key
		AND k.start_ns = f.ts_ns WHERE f.phase = 'f' AND f.thread_id IS NULL")" 1 \
		"$name: the ac2g flow ends at its kernel"
done
done_testing
