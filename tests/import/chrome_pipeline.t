#!/bin/sh
# The Chrome import's two threads (a reader that parses batches of events, the importer that
# writes rows): errors far into a file still name the right event and byte and leave no run,
# --keep-going still counts, an early error stops the reader, events larger than a batch and keys
# after traceEvents still work, and the rows do not depend on where batches end.
. "${0%/*}/../lib.sh"

# gen N [BAD_INDEX KIND]: a Kineto-like array of N events over several reader batches (1024
# events each); prints the byte offset of event BAD_INDEX on fd 3.
gen() {
	py - "$@" <<'PY' 3>"$TMP/offset"
import os, sys
n = int(sys.argv[1]); bad = int(sys.argv[2]) if len(sys.argv) > 2 else -1
kind = sys.argv[3] if len(sys.argv) > 3 else ""
out = ['{"schemaVersion": 1, "traceEvents": [\n']
pos = len(out[0])
for i in range(n):
    if i % 3 == 0:
        e = '{"ph":"X","cat":"kernel","name":"k%d","pid":0,"tid":7,"ts":%d.250,"dur":3,"args":{"device":0,"stream":7,"correlation":%d,"grid":[1,2,3]}}' % (i % 17, 1000 + i, i)
    elif i % 3 == 1:
        e = '{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":5,"tid":6,"ts":%d,"dur":2,"args":{"correlation":%d,"cbid":211}}' % (1000 + i, i)
    else:
        e = '{"ph":"B","cat":"user_annotation","name":"r%d","pid":5,"tid":6,"ts":%d}, {"ph":"E","pid":5,"tid":6,"ts":%d.5}' % (i, 1000 + i, 1000 + i)
    if i == bad:
        os.write(3, str(pos).encode())
        if kind == "json":
            e = '{"ph":"X","pid":5,"tid":6,"ts":1,,"dur":1,"name":"bad"}'
        elif kind == "nots":
            e = '{"ph":"X","pid":5,"tid":6,"dur":1,"name":"bad"}'
    s = e + (",\n" if i < n - 1 else "\n")
    out.append(s)
    pos += len(s)
out.append("]}\n")
sys.stdout.write("".join(out))
PY
}
hash() { sha256sum "$1" | cut -d' ' -f1; }

# Events whose index is counted: a B/E pair is two events.
gen 6000 3501 json >"$TMP/badjson.json"
off=$(cat "$TMP/offset")
rm -f "$TMP/a.db"
"$PROFQ" import -q -o "$TMP/a.db" "$TMP/badjson.json" 2>"$TMP/err"
is "$?" 1 "invalid JSON in a late batch: exit 1"
like "$(cat "$TMP/err")" "^profq: $TMP/badjson.json: event 4668 at byte $off: invalid JSON near byte [0-9]+$" \
	"names the event and byte"
ok "$(test ! -e "$TMP/a.db"; echo $?)" "no database left behind"

printf '[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"}]' >"$TMP/ok.json"
"$PROFQ" import -q -o "$TMP/old.db" "$TMP/ok.json" >/dev/null
before=$(hash "$TMP/old.db")
gen 6000 5000 nots >"$TMP/nots.json"
off=$(cat "$TMP/offset")
"$PROFQ" import -q -o "$TMP/old.db" "$TMP/nots.json" 2>"$TMP/err"
is "$?" 1 "X without ts in a late batch: exit 1"
like "$(cat "$TMP/err")" "event 6666 at byte $off: X event without ts$" "names the event and byte"
is "$(hash "$TMP/old.db")" "$before" "the existing database is unchanged"

out=$("$PROFQ" import --keep-going -o "$TMP/kg.db" "$TMP/badjson.json" 2>&1)
ok $? "--keep-going imports it"
like "$out" ': 8,000 events, 5,999 rows, 1 skipped$' "--keep-going counts the skipped event"
like "$(sqlite "$TMP/kg.db" "SELECT value FROM run_metadata WHERE key = 'import.first_error'")" \
	"^event 4668 at byte [0-9]+: invalid JSON near byte [0-9]+$" "first_error recorded"

# An error early in a big file: the reader stops, the import ends at once.
gen 200000 10 json >"$TMP/early.json"
"$PROFQ" import -q -o "$TMP/early.db" "$TMP/early.json" 2>"$TMP/err"
is "$?" 1 "an early error in a big file: exit 1"
like "$(cat "$TMP/err")" "event 13 at byte [0-9]+: invalid JSON" "names the early event"

# The same events: gzip, and keys after traceEvents (the run is read again), give the same rows.
gen 6000 >"$TMP/good.json"
gzip -c "$TMP/good.json" >"$TMP/good.json.gz"
sed 's/^{"schemaVersion": 1, "traceEvents": \[/{"traceEvents": [/; s/^\]}$/], "schemaVersion": 1, "baseTimeNanoseconds": 1700000000000000000}/' \
	"$TMP/good.json" >"$TMP/late.json"
sed 's/^{"schemaVersion": 1, /{"schemaVersion": 1, "baseTimeNanoseconds": 1700000000000000000, /' \
	"$TMP/good.json" >"$TMP/early_base.json"
rm -f "$TMP/r.db"
"$PROFQ" import -q -o "$TMP/r.db" "$TMP/good.json" "$TMP/good.json.gz" "$TMP/late.json" \
	"$TMP/early_base.json" >/dev/null
ok $? "plain, gzip, late and early keys import"
# Every row but the runs row (which names the file).
for r in 1 2 3 4; do py "${0%/*}/run_dump.py" "$TMP/r.db" $r | grep -v '^runs ' >"$TMP/r$r"; done
is "$(wc -l <"$TMP/r1" | tr -d ' ')" "$(wc -l <"$TMP/r2" | tr -d ' ')" "gzip: as many lines"
cmp -s "$TMP/r1" "$TMP/r2"
ok $? "gzip: the same rows"
cmp -s "$TMP/r3" "$TMP/r4"
ok $? "baseTimeNanoseconds after the events: the same rows as before them"
is "$(sqlite "$TMP/r.db" "SELECT count(*) FROM kernels WHERE run_id = 1")" 2000 "every kernel"
is "$(sqlite "$TMP/r.db" "SELECT count(*) FROM ranges WHERE run_id = 1 AND end_ns IS NOT NULL")" \
	2000 "every B/E pair across batch ends"

# One event larger than a batch's text (1 MiB).
py - >"$TMP/big.json" <<'PY'
import sys
big = "x" * (3 << 20)
sys.stdout.write('[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"},'
                 '{"ph":"X","pid":1,"tid":1,"ts":2,"dur":1,"name":"big","args":{"s":"%s"}},'
                 '{"ph":"X","pid":1,"tid":1,"ts":3,"dur":1,"name":"c"}]' % big)
PY
rm -f "$TMP/big.db"
"$PROFQ" import -q -o "$TMP/big.db" "$TMP/big.json" >/dev/null
ok $? "an event larger than a batch imports"
is "$(sqlite "$TMP/big.db" "SELECT name || ':' || coalesce(length(args), 0) FROM v_ranges ORDER BY start_ns" | tr '\n' ' ')" \
	"a:0 big:$(((3 << 20) + 8)) c:0 " "its args are whole"
# The reader makes an X event's args text ahead from its category; on a GPU track (a device in
# deviceProperties) the row can be another kind, and the args text follows what it became.
cat >"$TMP/track.json" <<'JSON'
{"deviceProperties":[{"id":0,"name":"GPU"}],"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"op","pid":5,"tid":6,"ts":1,"dur":10,"args":{"External id":3,"device":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":0,"tid":7,"ts":2,"dur":1,"args":{"correlation":5,"cbid":211,"device":0,"stream":7,"External id":3}},
{"ph":"X","cat":"Trace","name":"span","pid":0,"tid":7,"ts":3,"dur":1,"args":{"device":0,"stream":7,"correlation":9,"x":1}},
{"ph":"X","cat":"cuda_sync","name":"Weird Sync","pid":0,"tid":7,"ts":4,"dur":1,"args":{"device":0,"stream":7,"correlation":10}},
{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":6,"dur":1,"tts":3,"args":{"device":0,"stream":7,"correlation":5,"grid":[1,1,1],"blocks per SM":"0.5","note":"n"}}
]}
JSON
rm -f "$TMP/track.db"
"$PROFQ" import -q -o "$TMP/track.db" "$TMP/track.json" >/dev/null
ok $? "X events on a GPU track import"
is "$(sqlite "$TMP/track.db" "SELECT name || ' ' || coalesce(args, '-') FROM v_ranges ORDER BY start_ns" | tr '\n' '|')" \
	'op {"device":1}|cudaLaunchKernel {"cbid":211}|span {"x":1}|Weird Sync -|' \
	"a runtime call on a GPU track is a range and keeps cbid in args; host args keep device"
is "$(sqlite "$TMP/track.db" "SELECT args || ' ' || blocks_per_sm FROM kernels")" \
	'{"note":"n","_event":{"tts":3}} 0.5' "a kernel's columns leave args"
done_testing
