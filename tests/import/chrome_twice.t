#!/bin/sh
# Importing the same file twice (--again) gives two runs with identical contents (every table, ids
# aside).
. "${0%/*}/../lib.sh"
[ -d "$DATA/kineto" ] || skip_all "no $DATA/kineto"

sqlite "$TMP/fresh.db" <"$TOP/schema/schema.sql"
indexes="SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name)"
want=$(sqlite "$TMP/fresh.db" "$indexes")

for f in "$DATA/kineto/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz" \
	"$DATA/kineto/libkineto_test_traces/before_fix_trace.json" \
	"$DATA/kineto/tb_plugin_test/gpu_metrics_input.json"; do
	[ -f "$f" ] || { skip "$(basename "$f") twice" "absent"; continue; }
	db=$TMP/twice.db
	rm -f "$db"
	"$PROFQ" import -q -o "$db" --again "$f" "$f" >/dev/null
	ok $? "$(basename "$f"): imported twice in one command"
	"$PROFQ" import -q -o "$db" --again "$f" >/dev/null
	ok $? "$(basename "$f"): and a third time later"
	py "${0%/*}/run_dump.py" "$db" 1 >"$TMP/r1"
	py "${0%/*}/run_dump.py" "$db" 2 >"$TMP/r2"
	py "${0%/*}/run_dump.py" "$db" 3 >"$TMP/r3"
	ok "$(test -s "$TMP/r1"; echo $?)" "$(basename "$f"): run 1 has rows"
	cmp -s "$TMP/r1" "$TMP/r2"
	ok $? "$(basename "$f"): runs 1 and 2 identical"
	cmp -s "$TMP/r1" "$TMP/r3"
	ok $? "$(basename "$f"): runs 1 and 3 identical"
	# The first import wrote without the event indexes and built them at its end.
	is "$(sqlite "$db" "$indexes")" "$want" "$(basename "$f"): every index of the schema is there"
	is "$(sqlite "$db" "PRAGMA integrity_check")" ok "$(basename "$f"): and matches the rows"
done
done_testing
