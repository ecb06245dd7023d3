#!/bin/sh
# Odd input, each with its documented handling (docs/hardening.md, "Odd input"): events that end
# before they start, invalid UTF-8, NUL in strings, numbers out of range, nsys exports missing
# tables, a full disk.
. "${0%/*}/../lib.sh"
cd "$TMP"
j() { printf '%s' "$2" >"$1.json"; }
meta() { sqlite "$1" "SELECT value FROM run_metadata WHERE key = '$2'"; }

# --- events that end before they start: rejected with the event's index, or kept (zero length)
# and counted under --keep-going ---
j negdur '{"traceEvents":[{"ph":"X","name":"ok","pid":1,"tid":1,"ts":10,"dur":5},{"ph":"X","name":"neg","pid":1,"tid":1,"ts":20,"dur":-3}]}'
j be '{"traceEvents":[{"ph":"B","name":"r","pid":1,"tid":1,"ts":10},{"ph":"E","pid":1,"tid":1,"ts":4}]}'
j async '{"traceEvents":[{"ph":"b","name":"a","cat":"c","id":1,"pid":1,"tid":1,"ts":10},{"ph":"e","name":"a","cat":"c","id":1,"pid":1,"tid":1,"ts":9}]}'
for case in "negdur|1|X event (negative dur)|3000|neg|20000|20000" "be|1|B/E range|6000|r|10000|10000" \
	"async|1|async range (b/e)|1000|a|10000|10000"; do
	IFS='|' read -r f idx what early name s e <<EOF2
$case
EOF2
	"$PROFQ" import -q -o "$f.db" "$f.json" >/dev/null 2>err; is "$?" 1 "$f: refused"
	is "$(cat err)" "profq: $f.json: event $idx at byte $(grep -bo '{"ph"' "$f.json" | sed -n "$((idx + 1))p" | cut -d: -f1): $what ends before it starts ($early ns early; --keep-going keeps it with zero length)" \
		"$f: the event's index and byte, what is wrong, by how much"
	ok "$([ ! -e "$f.db" ]; echo $?)" "$f: no database left"
	"$PROFQ" import -q --keep-going -o "$f.db" "$f.json" >/dev/null 2>err; is "$?" 0 "$f: --keep-going imports"
	is "$(cat err)" "profq: warning: $f.json: 1 events end before they start; kept with zero length (run metadata import.clamped_ends)" \
		"$f: with a counted warning"
	is "$(sqlite "$f.db" "SELECT s.value, r.start_ns, r.end_ns FROM ranges r JOIN strings s ON s.id = r.name_id WHERE s.value = '$name'")" \
		"$name|$s|$e" "$f: the event is kept with zero length at its start"
	is "$(meta "$f.db" import.clamped_ends)" 1 "$f: run metadata import.clamped_ends"
done
is "$(sqlite negdur.db "SELECT end_ns - start_ns FROM ranges r JOIN strings s ON s.id = r.name_id WHERE s.value = 'ok'")" \
	5000 "the valid event beside it is untouched"

# --- invalid UTF-8: each bad sequence becomes U+FFFD, counted, so every output is valid ---
printf '{"traceEvents":[{"ph":"X","name":"a\377b\300\257c\355\240\200d\342\202","pid":1,"tid":1,"ts":1,"dur":1,"args":{"k":"v\376"}}]}' >utf.json
"$PROFQ" import -q -o utf.db utf.json >/dev/null 2>err; is "$?" 0 "invalid UTF-8 imports"
# a, FF, b, C0 AF (overlong: each byte), c, ED A0 80 (surrogate: each byte), d, E2 82 (truncated: one)
is "$(sqlite utf.db "SELECT hex(value) FROM strings WHERE value LIKE 'a%'")" \
	"61EFBFBD62EFBFBDEFBFBD63EFBFBDEFBFBDEFBFBD64EFBFBD" "each invalid sequence is one U+FFFD"
like "$(sqlite utf.db "SELECT hex(args) FROM ranges")" "76EFBFBD" "args text too"
is "$(meta utf.db invalid_utf8_replaced)" 2 "run metadata invalid_utf8_replaced counts the texts"
for fmt in json csv table; do
	"$PROFQ" sql utf.db "SELECT name, args FROM v_ranges" --format $fmt >out.$fmt
	is "$(py -c 'import sys; open(sys.argv[1], encoding="utf-8", errors="strict").read(); print("ok")' out.$fmt 2>&1)" \
		ok "--format $fmt output is valid UTF-8"
done
is "$(py -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["name"])' out.json)" "a�b��c���d�" "and valid JSON"

# --- NUL in strings: \u0000 becomes U+FFFD instead of cutting the string; "\\u0000" is text ---
j nul '{"traceEvents":[{"ph":"X","name":"a\u0000b","pid":1,"tid":1,"ts":1,"dur":1},{"ph":"X","name":"c\\u0000","pid":1,"tid":1,"ts":2,"dur":1}]}'
"$PROFQ" import -q -o nul.db nul.json >/dev/null; is "$?" 0 "NUL escapes import"
is "$(sqlite nul.db "SELECT hex(value) FROM strings ORDER BY id")" "61EFBFBD62
635C7530303030" "the NUL is U+FFFD and the rest of the name survives; an escaped backslash stays text"

# --- numbers out of range: an event's are refused with its index; a device property is dropped ---
j bigts '{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1e300,"dur":5}]}'
"$PROFQ" import -q -o big.db bigts.json 2>err; is "$?" 1 "ts 1e300: refused"
is "$(cat err)" 'profq: bigts.json: event 0 at byte 16: "ts" is not a number of microseconds: 1e300' "saying which and why"
j bigpid '{"traceEvents":[{"ph":"X","name":"a","pid":1e30,"tid":1,"ts":1,"dur":5},{"ph":"X","name":"b","pid":1,"tid":1,"ts":1,"dur":5}]}'
"$PROFQ" import -q --keep-going -o bigpid.db bigpid.json >/dev/null 2>&1; is "$?" 0 "pid 1e30 under --keep-going"
is "$(meta bigpid.db import.skipped_events)|$(sqlite bigpid.db "SELECT count(*) FROM ranges")" "1|1" "the event is skipped and counted"
# Found by make fuzz: a device property of 2E2448 (inf) was cast to an integer (undefined).
j dev '{"deviceProperties":[{"id":0,"name":"H100","totalGlobalMem":2E2448,"numSms":1e19,"warpSize":32}],"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}]}'
"$PROFQ" import -q -o dev.db dev.json >/dev/null; is "$?" 0 "device properties out of range: imports"
is "$(sqlite dev.db "SELECT coalesce(global_memory_bytes, 'null'), coalesce(sm_count, 'null'), warp_size FROM devices")" \
	"null|null|32" "they are left NULL, the others kept"

# --- nsys exports without tables ---
NSYS=$DATA/nsys/mock.sqlite
if [ -f "$NSYS" ]; then
	drop() { cp "$NSYS" "$1.sqlite"; chmod u+w "$1.sqlite"; sqlite "$1.sqlite" "DROP TABLE $2"; }
	drop nostrings StringIds
	"$PROFQ" import -q -o ns.db nostrings.sqlite >/dev/null 2>err; is "$?" 1 "no StringIds: refused"
	is "$(cat err)" "profq: nostrings.sqlite: the export has no table StringIds, which the names in CUPTI_ACTIVITY_KIND_KERNEL and CUPTI_ACTIVITY_KIND_RUNTIME refer to" \
		"naming the table it needs and what needs it"
	drop nokernel CUPTI_ACTIVITY_KIND_KERNEL
	"$PROFQ" import -q -o nk.db nokernel.sqlite >/dev/null 2>err; is "$?" 0 "no kernel table: imports"
	is "$(cat err)" "profq: warning: nokernel.sqlite: missing tables: CUPTI_ACTIVITY_KIND_KERNEL (no kernels)" "with a warning"
	is "$(meta nk.db nsys.missing_tables)" CUPTI_ACTIVITY_KIND_KERNEL "and run metadata nsys.missing_tables"
	drop nostart TARGET_INFO_SESSION_START_TIME
	sqlite nostart.sqlite "DROP TABLE ThreadNames"
	"$PROFQ" import -q -o nt.db nostart.sqlite >/dev/null 2>err; is "$?" 0 "no session start, no thread names: imports"
	is "$(cat err)" "profq: warning: nostart.sqlite: missing tables: TARGET_INFO_SESSION_START_TIME (times stay relative to the capture), ThreadNames (no thread names)" \
		"both named, with what is lost"
	"$PROFQ" import -q -o whole.db "$NSYS" >/dev/null 2>err; is "$(cat err)" "" "a complete export: no warning"
else
	skip "nsys exports without tables" "no $NSYS"
fi

# --- a full disk (a file size limit): a clear error, the file unchanged, no new file left ---
big=$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
if [ -f "$big" ]; then
	"$PROFQ" import -q -o full.db negdur.json --keep-going >/dev/null 2>&1
	before=$(sha256sum <full.db)
	(ulimit -f 1000; "$PROFQ" import -q -o full.db "$big") >/dev/null 2>err; is "$?" 1 "over the size limit: exit 1, not SIGXFSZ"
	like "$(cat err)" "^profq: .*: disk I/O error \(.*(File too large|size limit)" "a clear error"
	is "$(sha256sum <full.db)" "$before" "the database is byte for byte as it was"
	(ulimit -f 1000; "$PROFQ" import -q -o new.db "$big") >/dev/null 2>&1; is "$?" 1 "a new file: exit 1"
	ok "$([ ! -e new.db ] && [ ! -e new.db-wal ]; echo $?)" "and no file left behind"
else
	skip "a full disk" "no $big"
fi
done_testing
