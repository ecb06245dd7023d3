#!/bin/sh
# Bad input: exit 1, one "profq: FILE: ..." line, and the database exactly as before (or no file
# when there was none). --keep-going skips bad events and records them.
. "${0%/*}/../lib.sh"

sample=$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
small=$DATA/kineto/tb_plugin_test/gpu_metrics_input.json
hash() { sha256sum "$1" | cut -d' ' -f1; }

# expect_failure NAME FILE REGEX: fails on a new and on an existing database, changing neither.
expect_failure() {
	rm -f "$TMP/new.db"
	"$PROFQ" import -q -o "$TMP/new.db" "$2" >"$TMP/out" 2>"$TMP/err"
	is "$?" 1 "$1: exit 1"
	is "$(wc -l <"$TMP/err" | tr -d ' ')" 1 "$1: one line on stderr"
	like "$(cat "$TMP/err")" "^profq: $2: $3" "$1: says what and where"
	is "$(cat "$TMP/out")" "" "$1: nothing on stdout"
	ok "$(test ! -e "$TMP/new.db" && test ! -e "$TMP/new.db-wal"; echo $?)" "$1: no database left behind"
	before=$(hash "$TMP/old.db")
	"$PROFQ" import -q -o "$TMP/old.db" "$2" >/dev/null 2>&1
	is "$?" 1 "$1: exit 1 on an existing database"
	is "$(hash "$TMP/old.db")" "$before" "$1: the existing database is byte-identical"
	ok "$(test ! -e "$TMP/old.db-wal"; echo $?)" "$1: no WAL file left"
}

# An existing database with one run in it.
printf '[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"}]' >"$TMP/ok.json"
"$PROFQ" import -q -o "$TMP/old.db" "$TMP/ok.json" >/dev/null
ok $? "a database to keep"

# Hand-made bad files (no data needed).
printf '{"traceEvents":[\n{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"},\n{"ph":"X","pid":1,"tid":1,"ts":2,,"dur":1,"name":"b"},\n{"ph":"X","pid":1,"tid":1,"ts":3,"dur":1,"name":"c"}]}' >"$TMP/invalid.json"
expect_failure "invalid JSON mid-file" "$TMP/invalid.json" 'event 1 at byte 71: invalid JSON near byte 10[0-9]$'
# 2000 good events, then a bad one: large enough next to old.db's one row that the import drops
# the event indexes for speed (pq_store_expect_rows); the rollback must bring them back too.
{ printf '['; for i in $(seq 2000); do printf '{"ph":"X","pid":1,"tid":1,"ts":%d,"dur":1,"name":"a"},\n' "$i"; done
  printf '{"ph":"X","pid":1,"tid":1,"dur":1,"name":"b"}]'; } >"$TMP/late.json"
expect_failure "a bad event after 2000 good ones" "$TMP/late.json" 'event 2000 at byte [0-9]+: X event without ts$'
printf '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"},{"ph":"X","pid":1,"tid":1,"dur":1,"name":"b"}]}' >"$TMP/nots.json"
expect_failure "X without ts" "$TMP/nots.json" 'event 1 at byte 69: X event without ts$'
printf '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"name":"a"}]}' >"$TMP/nodur.json"
expect_failure "X without dur" "$TMP/nodur.json" 'event 0 at byte 16: X event without dur$'
printf '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":"soon","dur":1,"name":"a"}]}' >"$TMP/badts.json"
expect_failure "ts not a number" "$TMP/badts.json" 'event 0 at byte 16: "ts" is not a number'
printf '{"name":"package","version":"1.0.0","dependencies":{}}' >"$TMP/package.json"
expect_failure "JSON of another kind" "$TMP/package.json" 'not a Chrome trace: the JSON object has no traceEvents array$'
printf '\x89PNG\r\n\x1a\n0000000000000000' >"$TMP/image.png"
expect_failure "a file of another kind" "$TMP/image.png" 'neither a Chrome trace'
printf '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"},{"ph":"X","pid":1,"ti' >"$TMP/cut.json"
expect_failure "truncated JSON object" "$TMP/cut.json" 'event 1 at byte 69: truncated event at the end of the file$'
printf '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"}]} trailing' >"$TMP/trailing.json"
expect_failure "text after the JSON" "$TMP/trailing.json" 'unexpected text after the JSON at byte 71$'
gzip -c "$TMP/ok.json" | head -c 20 >"$TMP/tiny.json.gz"
expect_failure "truncated small gzip" "$TMP/tiny.json.gz" 'truncated gzip data'

if [ -f "$sample" ]; then
	head -c 600000 "$sample" >"$TMP/truncated.json.gz"
	expect_failure "truncated gzip" "$TMP/truncated.json.gz" 'truncated gzip data after [0-9]+ bytes of JSON'
	cp "$sample" "$TMP/corrupt.json.gz"
	chmod u+w "$TMP/corrupt.json.gz"
	printf 'garbage garbage garbage garbage garbage garbage' |
		dd of="$TMP/corrupt.json.gz" bs=1 seek=500000 conv=notrunc 2>/dev/null
	# Garbage in the deflate data: zlib refuses it, or it inflates to text that is not JSON.
	expect_failure "corrupt gzip" "$TMP/corrupt.json.gz" \
		'(corrupt gzip data after [0-9]+ bytes of JSON|event [0-9]+ at byte [0-9]+: invalid JSON)'
	# A wrong CRC in the trailer: only zlib can tell, at the very end.
	cp "$sample" "$TMP/crc.json.gz"
	chmod u+w "$TMP/crc.json.gz"
	size=$(wc -c <"$TMP/crc.json.gz")
	printf 'XXXX' | dd of="$TMP/crc.json.gz" bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null
	expect_failure "gzip CRC mismatch" "$TMP/crc.json.gz" 'corrupt gzip data after [0-9]+ bytes of JSON: incorrect data check$'
else
	skip "truncated and corrupt gzip" "no $sample"
fi

# --keep-going: bad events are skipped, counted and recorded; the good ones are kept.
cat "$TMP/invalid.json" >"$TMP/mixed.json"
out=$("$PROFQ" import --keep-going -o "$TMP/kg.db" "$TMP/mixed.json" 2>&1)
ok $? "--keep-going imports a file with a bad event"
like "$out" ': 3 events, 2 rows, 1 skipped$' "the CLI line counts the skipped event"
is "$(sqlite "$TMP/kg.db" "SELECT value FROM run_metadata WHERE key = 'import.skipped_events'")" 1 \
	"import.skipped_events recorded"
is "$(sqlite "$TMP/kg.db" "SELECT value FROM run_metadata WHERE key = 'import.first_error'")" \
	"event 1 at byte 71: invalid JSON near byte 105" \
	"import.first_error recorded"
printf '[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"},{"ph":"X","ts":2},{"ph":"i","name":"m"},{"ph":"B","pid":1,"tid":1,"ts":3,"name":"b"},7,{"ph":"E","pid":1,"tid":1,"ts":4}' >"$TMP/mixed2.json"
out=$("$PROFQ" import -k -o "$TMP/kg2.db" "$TMP/mixed2.json" 2>&1)
ok $? "--keep-going: missing dur, missing ts, a non-object"
like "$out" ': 5 events, 2 rows, 3 skipped$' "three skipped, two rows"
is "$(sqlite "$TMP/kg2.db" "SELECT value FROM run_metadata WHERE key = 'import.first_error'")" \
	"event 1 at byte 54: X event without dur" "the error of the earliest event is the one recorded"
# Structural damage still fails with --keep-going: there is nothing to resynchronise on.
rm -f "$TMP/kg3.db"
"$PROFQ" import -k -o "$TMP/kg3.db" "$TMP/cut.json" 2>/dev/null
is "$?" 1 "--keep-going does not accept a truncated object form"
done_testing
