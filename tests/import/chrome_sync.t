#!/bin/sh
# Kineto cuda_sync events keep their External id and their wait_on_* fields (the fields the
# libkineto before/after traces differ in), checked against Python's json on the source.
. "${0%/*}/../lib.sh"
dir=$DATA/kineto/libkineto_test_traces
[ -f "$dir/before_fix_trace.json" ] || skip_all "no $dir"
cd "$TMP"

for f in before_fix_trace after_fix_trace; do
	"$PROFQ" import -q -o "$f.db" "$dir/$f.json" >/dev/null
	is "$?" 0 "$f imports"
	want=$(py - "$dir/$f.json" <<'PY'
import json, sys
evs = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("cat") == "cuda_sync"]
evs.sort(key=lambda e: (float(e["ts"]), e["args"].get("correlation", 0)))
for e in evs:
    a = e["args"]
    print(f'{a.get("External id")}|{a.get("wait_on_stream")}|{a.get("wait_on_cuda_event_record_corr_id")}')
PY
)
	got=$(sqlite "$f.db" "SELECT external_id, json_extract(args, '$.wait_on_stream'),
		json_extract(args, '$.wait_on_cuda_event_record_corr_id')
		FROM synchronizations ORDER BY start_ns, correlation_id")
	is "$got" "$want" "$f: external id and wait_on_* of every cuda_sync"
done
ok "$([ "$(sqlite before_fix_trace.db "SELECT group_concat(args) FROM synchronizations")" != \
	"$(sqlite after_fix_trace.db "SELECT group_concat(args) FROM synchronizations")" ]; echo $?)" \
	"the two traces differ where libkineto's fix changed them"

done_testing
