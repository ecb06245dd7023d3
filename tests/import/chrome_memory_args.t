#!/bin/sh
# A [memory] instant's args text (memory_events.args) holds what has no column. The reader thread
# makes it ahead for ph "i" and "I" (once the first 1024 events, held until the run begins, are
# past); the importer's thread makes it for the events held and for the other instant phases
# ("n", "R"). Every way gives the same rows. Hand-worked: Bytes, Addr and the totals are columns;
# Device Type and Device Id only when they became memory_kind (0 CPU, 1 CUDA) and device_id (CUDA
# with an id >= 0); other args, and top-level fields without a column (under "_event"), stay.
. "${0%/*}/../lib.sh"
. "${0%/*}/../reports/trace.sh"
cd "$TMP"

# M PH TS ARGS_BODY [EXTRA_TOP_LEVEL]
M() { raw "{\"ph\":\"$1\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":7,\"tid\":7,\"ts\":$2,\"args\":{$3}${4:+,$4}}"; }
# the five events at T+10 .. T+50
five() {
	M "$1" $(($2 + 10)) '"Device Type":1,"Device Id":0,"Addr":1,"Bytes":512,"Total Allocated":512,"Total Reserved":2048'
	M "$1" $(($2 + 20)) '"Device Type":1,"Device Id":-1,"Bytes":-512,"Stream":7'
	M "$1" $(($2 + 30)) '"Device Type":0,"Device Id":-1,"Bytes":64' '"id":"x9"'
	M "$1" $(($2 + 40)) '"Device Type":2,"Device Id":3,"Bytes":8,"Total Allocated":8'
	M "$1" $(($2 + 50)) '"Bytes":16,"Addr":"not a number"'
}

for ph in i I n R; do
	trace_begin "$ph.json"
	five "$ph" 0
	i=0
	while [ $i -lt 1100 ]; do
		raw "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"filler\",\"pid\":7,\"tid\":7,\"ts\":$((100 + i))}"
		i=$((i + 1))
	done
	five "$ph" 100000
	trace_end
	"$PROFQ" import -q -o "$ph.db" "$ph.json" >/dev/null
	ok $? "ph $ph: the trace imports"
	for part in 0 1; do
		sqlite "$ph.db" "SELECT ts_ns - $part * 100000000, operation, bytes, coalesce(address, '-'),
		                        coalesce(total_allocated, '-'), memory_kind, coalesce(args, '-')
		                 FROM memory_events WHERE ts_ns / 100000000 = $part ORDER BY ts_ns" \
			>"$ph.$part.txt"
	done
done
# operation 0 alloc, 1 free; memory_kind 2 device, 0 pageable host, 7 unknown
expected="10000|0|512|1|512|2|-
20000|1|512|-|-|2|{\"Device Id\":-1,\"Stream\":7}
30000|0|64|-|-|0|{\"Device Id\":-1,\"_event\":{\"id\":\"x9\"}}
40000|0|8|-|8|7|{\"Device Type\":2,\"Device Id\":3}
50000|0|16|-|-|7|{\"Addr\":\"not a number\"}"
for ph in i I n R; do
	is "$(cat "$ph.0.txt")" "$expected" "ph $ph, held before the run begins: each row's columns and the args left over"
	is "$(cat "$ph.1.txt")" "$expected" "ph $ph, after: the same"
done
done_testing
