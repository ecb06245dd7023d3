#!/bin/sh
# NVTX extended payloads and counters (tests/nvtx/nvtx_payload): registered schemas and enums
# decode into the args of ranges and marks, and counter samples become counters rows, with exactly
# the values the program passed (it prints them; see its header for the line format).
. "${0%/*}/../lib.sh"
[ -f "$BUILD/libprofq_collector.so" ] || skip_all "the collector is not built (no CUPTI)"
cd "$TMP"
"$PROFQ" record -o p.db -- "$BUILD/tests/nvtx/nvtx_payload" >p.out 2>/dev/null; is "$?" 0 "recording exits 0"
q() { sqlite p.db "$1"; }
EV="(SELECT s.value AS name, r.args FROM ranges r JOIN strings s ON s.id = r.name_id UNION ALL
	SELECT s.value, m.args FROM marks m JOIN strings s ON s.id = m.name_id)"

is "$(q "SELECT group_concat(name, ',') FROM (SELECT name FROM $EV WHERE args IS NOT NULL ORDER BY name)")" \
	"$(sed -n 's/^event //p' p.out | sort | paste -sd,)" \
	"the events that carried payloads, named by their message, EVENT_MESSAGE field or schema"
is "$(q "SELECT count(*) FROM $EV WHERE args IS NOT NULL AND json_valid(args)")" \
	"$(grep -c '^event ' p.out)" "every args is valid JSON"

n=0 bad=""
while IFS='|' read -r kind path want; do
	case $kind in
	"field "*)
		ev=${kind#field }
		case $path in \$*) expr="json_extract(args, '$path')";; *) expr=$path;; esac
		got=$(q "SELECT $expr = $want FROM $EV WHERE name = '$ev'")
		[ "$got" = 1 ] || bad="$bad [$ev $path: $(q "SELECT $expr FROM $EV WHERE name = '$ev'") != $want]"
		n=$((n + 1));;
	"raw "*)
		ev=${kind#raw }
		got=$(q "SELECT instr(args, '$path') > 0 FROM $EV WHERE name = '$ev'")
		[ "$got" = 1 ] || bad="$bad [$ev lacks $path]"
		n=$((n + 1));;
	esac
done < p.out
is "$bad" "" "every decoded field equals what the program wrote ($n checks: integers of every width and sign, float, double, inline and pointed-to strings, enums, flag enums, fixed and length-indexed arrays, 64-bit unsigned, nested schema, a predefined-type payload)"
is "$n" "$(grep -c '^field \|^raw ' p.out)" "every check the program printed was made"
is "$(q "SELECT count(*) FROM ranges WHERE end_ns IS NULL")" 0 "payload ranges are closed by their pops and ends"
is "$(q "SELECT domain FROM v_ranges WHERE name = 'train step'")" profq.payload \
	"a payload range keeps its domain"

want=$(sed -n 's/^counter //p' p.out)
is "$(q "SELECT count(*) FROM counters")" "$(printf '%s\n' "$want" | wc -l)" \
	"one counters row per sample and field (NoValue samples make none)"
k=0 bad=""
printf '%s\n' "$want" > want.txt
while IFS='|' read -r series value; do
	got=$(q "SELECT name = '$series' AND value = $value FROM (SELECT name, value FROM v_counters
		ORDER BY ts_ns, id LIMIT 1 OFFSET $k)")
	[ "$got" = 1 ] || bad="$bad [$k: $series $value]"
	k=$((k + 1))
done < want.txt
is "$bad" "" "counter samples in order, with the program's names and values (int64, double, struct fields as <counter>.<field>)"
is "$(q "SELECT count(DISTINCT process_id) FROM counters WHERE process_id IS NOT NULL")" 1 \
	"counters belong to the recorded process"
done_testing
