#!/bin/sh
# Hand-written traces: the trace-event phases any producer may write, and the document forms.
. "${0%/*}/../lib.sh"

q() { sqlite "$db" "$1"; }

# --- a bare array whose closing bracket is missing; relative clock; exponent ts --------------
db=$TMP/a.db
cat >"$TMP/a.json" <<'JSON'
[
{"ph":"X","pid":1,"tid":2,"ts":10.5,"dur":100,"name":"step","cat":"cpu_op"},
{"ph":"X","pid":1,"tid":2,"ts":"20","dur":1.5e1,"name":"launch","cat":"cuda_runtime","args":{"correlation":7,"cbid":211}},
{"ph":"X","pid":1,"tid":2,"ts":30,"dur":1,"name":"mystery","tts":5,"cname":"good","args":{"x":[1,2.50]}},
{},
JSON
out=$("$PROFQ" import -o "$db" "$TMP/a.json" 2>&1)
ok $? "bare array without ] imports"
like "$out" ': 4 events, 3 rows$' "4 events, 3 rows"
is "$(q "SELECT time_base, time_offset_ns FROM runs")" "relative|0" "µs from an arbitrary start: relative time base"
is "$(q "SELECT value FROM run_metadata WHERE key = 'import.time_base'")" \
	"relative: first ts before 2000-01-01" "the rule is recorded"
is "$(q "SELECT start_ns, end_ns, kind FROM ranges WHERE name_id = (SELECT id FROM strings WHERE value = 'step')")" \
	"10500|110500|2" "fractional ts, cpu_op kind"
is "$(q "SELECT start_ns, end_ns, correlation_id, cbid FROM api_calls")" "20000|35000|7|211" \
	"numeric-string ts, exponent dur, runtime call"
is "$(q "SELECT args FROM ranges WHERE kind = 6")" '{"x":[1,2.50],"_event":{"tts":5,"cname":"good"}}' \
	"unknown fields go to args._event, numbers keep their text"

# --- B/E nesting, unmatched E, unclosed B; instants; counters; flows; M; async ---------------
db=$TMP/b.db
cat >"$TMP/b.json" <<'JSON'
{"displayTimeUnit":"ns","otherData":{"v":1},"traceEvents":[
 {"ph":"M","pid":7,"tid":8,"name":"thread_name","args":{"name":"main"}},
 {"ph":"B","pid":7,"tid":8,"ts":1000,"name":"outer","cat":"user_annotation","args":{"a":1}},
 {"ph":"B","pid":7,"tid":8,"ts":1100,"name":"inner"},
 {"ph":"E","pid":7,"tid":8,"ts":1200},
 {"ph":"E","pid":7,"tid":8,"ts":1300,"args":{"b":2}},
 {"ph":"E","pid":7,"tid":8,"ts":1310},
 {"ph":"B","pid":7,"tid":9,"ts":1400,"name":"never_closed"},
 {"ph":"i","pid":7,"tid":8,"ts":1150,"name":"marker","s":"g","args":{"k":"v"}},
 {"ph":"C","pid":7,"ts":1160,"name":"mem","args":{"allocated":1024,"cached":"2.5","label":"x"}},
 {"ph":"C","pid":7,"ts":1170,"name":"mem","id":3,"args":{"allocated":2048}},
 {"ph":"s","pid":7,"tid":8,"ts":1110,"id":42,"cat":"fwdbwd","name":"fwdbwd"},
 {"ph":"t","pid":7,"tid":8,"ts":1120,"id":42,"cat":"fwdbwd","name":"fwdbwd"},
 {"ph":"f","pid":7,"tid":9,"ts":1410,"id":42,"cat":"fwdbwd","name":"fwdbwd","bp":"e"},
 {"ph":"b","pid":7,"tid":8,"ts":2000,"id":"0x10","cat":"net","name":"request"},
 {"ph":"b","pid":7,"tid":8,"ts":2100,"id":"0x10","cat":"net","name":"dns"},
 {"ph":"n","pid":7,"tid":8,"ts":2150,"id":"0x10","cat":"net","name":"progress"},
 {"ph":"e","pid":7,"tid":9,"ts":2200,"id":"0x10","cat":"net","name":"dns"},
 {"ph":"e","pid":7,"tid":8,"ts":2300,"id":"0x10","cat":"net","name":"request","args":{"status":200}},
 {"ph":"e","pid":7,"tid":8,"ts":2400,"id":"0x11","cat":"net","name":"stray"},
 {"ph":"b","pid":7,"tid":8,"ts":2500,"id":5,"cat":"net","name":"open"},
 {"ph":"M","pid":7,"name":"process_name","args":{"name":"trainer"}},
 {"ph":"M","pid":7,"name":"process_sort_index","args":{"sort_index":3}},
 {"ph":"M","pid":7,"tid":8,"name":"thread_sort_index","args":{"sort_index":-1}},
 {"ph":"M","pid":7,"name":"process_labels","args":{"labels":"rank 0"}},
 {"ph":"X","pid":"Spans","tid":"PyTorch Profiler","ts":1000,"dur":5,"name":"span","cat":"Trace"}
],"distributedInfo":{"rank":3,"world_size":4},"schemaVersion":"2.0",
"baseTimeNanoseconds":1700000000000000000}
JSON
out=$("$PROFQ" import -o "$db" "$TMP/b.json" 2>&1)
ok $? "object form with keys before and after traceEvents imports"
like "$out" ', 4 unmatched$' "unmatched E, unclosed B, stray e and open b: 4 unmatched"
base=1700000000000000000
is "$(q "SELECT time_base, time_offset_ns, rank, source_version FROM runs")" \
	"unix|$base|3|2.0" "baseTimeNanoseconds, rank and schemaVersion after the events reach the run"
is "$(q "SELECT s.value, r.start_ns - $base, coalesce(r.end_ns - $base, 'open'), r.depth, r.kind, coalesce(r.args, '')
	FROM ranges r JOIN strings s ON s.id = r.name_id WHERE r.kind <> 7 ORDER BY r.start_ns")" \
"outer|1000000|1300000|0|3|{\"a\":1,\"b\":2}
span|1000000|1005000||6|
inner|1100000|1200000|1|6|
never_closed|1400000|open|0|6|" "B/E nest with depth; E args merge over B; unclosed B has no end"
is "$(q "SELECT key, value FROM run_metadata WHERE key LIKE 'import.un%' ORDER BY key")" \
"import.unclosed_B|1
import.unclosed_async_b|1
import.unmatched_E|1
import.unmatched_async_e|1
import.unmatched_events|4" "unmatched halves counted in run_metadata"
is "$(q "SELECT s.value, r.start_ns - $base, coalesce(r.end_ns - $base, 'open'), r.range_key, r.depth,
	coalesce(r.args, '') FROM ranges r JOIN strings s ON s.id = r.name_id WHERE r.kind = 7 ORDER BY r.start_ns")" \
"request|2000000|2300000|16|0|{\"_event\":{\"id\":\"0x10\"},\"status\":200}
dns|2100000|2200000|16|1|{\"_event\":{\"id\":\"0x10\"}}
open|2500000|open|5|0|{\"_event\":{\"id\":5}}" "async b/e matched by cat, id and name; keys from ids"
is "$(q "SELECT count(*) FROM ranges r JOIN threads t ON t.id = r.end_thread_id WHERE r.kind = 7 AND t.tid = 9")" 1 \
	"an async e on another thread sets end_thread_id"
is "$(q "SELECT name, ts_ns - $base, scope, coalesce(args, '') FROM v_marks ORDER BY ts_ns")" \
"marker|1150000|g|{\"k\":\"v\"}
progress|2150000||{\"_event\":{\"id\":\"0x10\"}}" "instants and async n become marks"
is "$(q "SELECT name, ts_ns - $base, value FROM v_counters ORDER BY ts_ns, name")" \
"mem.allocated|1160000|1024.0
mem.cached|1160000|2.5
mem[3].allocated|1170000|2048.0" "counters: one series per args key; numeric strings accepted"
is "$(q "SELECT value FROM run_metadata WHERE key = 'import.non_numeric_counter_values'")" 1 \
	"a non-numeric counter value is counted"
is "$(q "SELECT phase, ts_ns - $base, flow_key, binds_enclosing, t.tid FROM flows f JOIN threads t ON t.id = f.thread_id ORDER BY ts_ns")" \
"s|1110000|42|1|8
t|1120000|42|1|8
f|1410000|42|1|9" "flows s/t/f with their keys and binding"
is "$(q "SELECT pid, process_name, tid, thread_name FROM v_threads ORDER BY pid DESC, tid")" \
"7|trainer|8|main
7|trainer|9|
-1|Spans|-2|PyTorch Profiler" "M names processes and threads; string pids get synthetic ids and their text as name"
is "$(q "SELECT p.sort_index, t.sort_index FROM threads t JOIN processes p ON p.id = t.process_id WHERE t.tid = 8")" \
	"3|-1" "sort indexes"
is "$(q "SELECT key || '=' || value FROM run_metadata WHERE key IN ('process_labels.7', 'displayTimeUnit', 'otherData', 'distributedInfo') ORDER BY key")" \
"displayTimeUnit=ns
distributedInfo={\"rank\":3,\"world_size\":4}
otherData={\"v\":1}
process_labels.7=rank 0" "other top-level keys and process labels in run_metadata"

# --- gzip of the same trace gives the same rows -----------------------------------------------
gzip -c "$TMP/b.json" >"$TMP/b.json.gz"
"$PROFQ" import -q -o "$db" "$TMP/b.json.gz" >/dev/null
ok $? "the gzip form imports"
py "${0%/*}/run_dump.py" "$db" 1 | grep -v "^runs " >"$TMP/r1"
py "${0%/*}/run_dump.py" "$db" 2 | grep -v "^runs " >"$TMP/r2"
cmp -s "$TMP/r1" "$TMP/r2"
ok $? "gzip and plain give identical runs"

# --- a trace on the epoch without baseTimeNanoseconds ------------------------------------------
db=$TMP/c.db
printf '{"traceEvents":[{"ph":"i","pid":1,"tid":1,"ts":1623143089861123.456,"name":"x"}]}' >"$TMP/c.json"
"$PROFQ" import -q -o "$db" "$TMP/c.json" >/dev/null
ok $? "epoch-µs trace imports"
is "$(q "SELECT time_base, ts_ns FROM runs, marks")" "unix|1623143089861123456" \
	"epoch µs: unix time base, sub-µs digits kept"
done_testing
