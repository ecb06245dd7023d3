#!/bin/sh
# profq export --format chrome on hand-made traces: overlapping GPU work and CPU ranges that do
# not nest go to extra tracks; flows; exact sub-microsecond timestamps; never-closed and async
# ranges; several runs; --run, --from/--to; errors leave no file behind.
. "${0%/*}/../lib.sh"

check() { py "${0%/*}/chrome_check.py" "$1" >/dev/null; }
# py: the value of an expression over the trace's events (list e) and document (doc)
q() {
	py - "$1" "$2" <<'PY'
import decimal, gzip, json, sys
p = sys.argv[1]
doc = json.load((gzip.open if p.endswith('.gz') else open)(p, 'rt'), parse_float=decimal.Decimal)
e = doc['traceEvents']
def ns(v): return int(decimal.Decimal(v) * 1000)
def X(name): return [x for x in e if x.get('ph') == 'X' and x['name'] == name][0]
def tname(pid, tid): return [x['args']['name'] for x in e if x.get('ph') == 'M' and x['name'] == 'thread_name' and x['pid'] == pid and x.get('tid') == tid][0]
def pname(pid): return [x['args']['name'] for x in e if x.get('ph') == 'M' and x['name'] == 'process_name' and x['pid'] == pid][0]
print(eval(sys.argv[2]))
PY
}

# --- The Perfetto test vector (notes/perfetto.md §6.5) plus a launch of the second kernel.
cat >"$TMP/v.json" <<'JSON'
{"traceEvents":[
 {"ph":"M","pid":1,"tid":1,"name":"process_name","args":{"name":"host"}},
 {"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"main"}},
 {"ph":"X","pid":1,"tid":1,"ts":10.5,"dur":100,"name":"step","cat":"cpu_op"},
 {"ph":"X","pid":1,"tid":1,"ts":20,"dur":30,"name":"cudaLaunchKernel","cat":"cuda_runtime","args":{"correlation":7}},
 {"ph":"X","pid":1,"tid":1,"ts":55,"dur":10,"name":"cudaLaunchKernel","cat":"cuda_runtime","args":{"correlation":8}},
 {"ph":"X","pid":1,"tid":1,"ts":100,"dur":50,"name":"crosses_step_end","cat":"cpu_op"},
 {"ph":"X","pid":0,"tid":7,"ts":60,"dur":25,"name":"gemm","cat":"kernel","args":{"correlation":7}},
 {"ph":"X","pid":0,"tid":7,"ts":80,"dur":25,"name":"gemm_pdl","cat":"kernel","args":{"correlation":8}},
 {"ph":"X","pid":0,"tid":7,"ts":105,"dur":5,"name":"after","cat":"kernel"},
 {"ph":"C","pid":0,"ts":60,"name":"mem","args":{"allocated":1024}},
 {"ph":"B","pid":1,"tid":1,"ts":200,"name":"nvtx:epoch"},
 {"ph":"E","pid":1,"tid":1,"ts":300},
 {"ph":"B","pid":1,"tid":1,"ts":400,"name":"never_closed"},
 {"ph":"b","pid":1,"tid":1,"ts":410,"name":"req","cat":"async_cat","id":"0x5"},
 {"ph":"e","pid":1,"tid":1,"ts":420,"name":"req","cat":"async_cat","id":"0x5"},
 {"ph":"i","pid":1,"tid":1,"ts":150,"name":"marker","s":"t"},
 {}
],"displayTimeUnit":"ns"}
JSON
"$PROFQ" import -q -o "$TMP/v.db" "$TMP/v.json" >/dev/null
ok $? "test vector imports"
"$PROFQ" export --format chrome "$TMP/v.db" -o "$TMP/v.out.json" >"$TMP/msg"
ok $? "test vector exports"
like "$(cat "$TMP/msg")" "v.out.json: 1 run, 9 slices, 2 flows, 2 overlap tracks" "summary line: slices, flows, extra tracks"
check "$TMP/v.out.json"
ok $? "structure check passes (nesting kept by the extra tracks)"
is "$(q "$TMP/v.out.json" "(X('gemm')['tid'], X('after')['tid'], tname(0, X('gemm_pdl')['tid']))")" \
	"(7, 7, 'stream 7 (overlap 1)')" "gemm_pdl overlaps gemm: on 'stream 7 (overlap 1)', gemm and the next kernel on stream 7"
is "$(q "$TMP/v.out.json" "(X('step')['tid'], tname(1, X('crosses_step_end')['tid']))")" \
	"(1, 'main (overlap 1)')" "a range crossing its parent's end goes to 'main (overlap 1)'"
is "$(q "$TMP/v.out.json" "sorted((x['ph'], x['tid'], ns(x['ts'])) for x in e if x.get('ph') in 'sf')")" \
	"[('f', 7, 60000), ('f', $(q "$TMP/v.out.json" "X('gemm_pdl')['tid']"), 80000), ('s', 1, 20000), ('s', 1, 55000)]" \
	"flows from each launch to its kernel, the second one ending on the overlap track"
is "$(q "$TMP/v.out.json" "('baseTimeNanoseconds' in doc, X('step')['ts'], X('step')['dur'])")" \
	"(False, Decimal('10.5'), 100)" "a relative clock: no base, ts are the stored times"
is "$(q "$TMP/v.out.json" "[(x['name'], ns(x['ts'])) for x in e if x.get('ph') == 'B']")" \
	"[('never_closed', 400000)]" "a never-closed range is a B without E"
is "$(q "$TMP/v.out.json" "[(x['ph'], x['name'], x['cat'], ns(x['ts'])) for x in e if x.get('ph') in 'be']")" \
	"[('b', 'req', 'async_cat', 410000), ('e', 'req', 'async_cat', 420000)]" "async range as b/e with one id"
is "$(q "$TMP/v.out.json" "[(x['name'], x['args']) for x in e if x.get('ph') == 'C' and x['name'] == 'mem']")" \
	"[('mem', {'allocated': 1024})]" "counter series mem.allocated written back as mem {allocated}"
is "$(q "$TMP/v.out.json" "max(x['args']['percent'] for x in e if x.get('ph') == 'C' and x['name'] == 'GPU utilization')")" \
	"100.00" "GPU utilization counter: buckets inside the kernels are 100 %"
"$PROFQ" import -q -o "$TMP/v2.db" "$TMP/v.out.json" >/dev/null
ok $? "the export imports"
py "${0%/*}/roundtrip.py" "$TMP/v.db" "$TMP/v2.db" >/dev/null
ok $? "round trip keeps kernels, API calls and ranges (never-closed and async included)"
is "$(sqlite "$TMP/v2.db" "SELECT kind, end_ns IS NULL FROM ranges WHERE kind = 7 OR end_ns IS NULL ORDER BY 1")" \
	"6|1
7|0" "the async range stays async, the never-closed one open"

# --- Exact sub-microsecond times on the epoch: ts written from the integer ns.
cat >"$TMP/e.json" <<'JSON'
[{"ph":"X","pid":5,"tid":5,"ts":1623143089861123.456,"dur":0.001,"name":"a","cat":"cpu_op"},
 {"ph":"X","pid":5,"tid":5,"ts":1623143089861124.5,"dur":2.25,"name":"b","cat":"cpu_op"},
 {"ph":"X","pid":0,"tid":7,"ts":1623143089861125.007,"dur":1.999,"name":"k","cat":"kernel"}]
JSON
"$PROFQ" import -q -o "$TMP/e.db" "$TMP/e.json" >/dev/null
"$PROFQ" export "$TMP/e.db" -o "$TMP/e.out.json" >/dev/null
ok $? "--format defaults to chrome"
is "$(grep -o '"ts":[0-9.]*,"dur":[0-9.]*' "$TMP/e.out.json" | tr '\n' ' ')" \
	'"ts":0,"dur":0.001 "ts":1.044,"dur":2.25 "ts":1.551,"dur":1.999 ' "ts and dur in decimal microseconds, ns exact"
is "$(q "$TMP/e.out.json" "doc['baseTimeNanoseconds']")" "1623143089861123456" "base is the first event's ns"
"$PROFQ" import -q -o "$TMP/e2.db" "$TMP/e.out.json" >/dev/null
is "$(sqlite "$TMP/e2.db" "SELECT start_ns, end_ns FROM ranges UNION ALL SELECT start_ns, end_ns FROM kernels")" \
	"$(sqlite "$TMP/e.db" "SELECT start_ns, end_ns FROM ranges UNION ALL SELECT start_ns, end_ns FROM kernels")" \
	"reimported times equal the original ns"

# --- Several runs: a process group each; --run keeps one.
"$PROFQ" import -q -o "$TMP/m.db" "$TMP/v.json" "$TMP/e.json" >/dev/null
"$PROFQ" export "$TMP/m.db" -o "$TMP/m.json.gz" >/dev/null
ok $? "two runs export (gzip)"
is "$(head -c 2 "$TMP/m.json.gz" | od -An -tx1 | tr -d ' ')" "1f8b" ".gz output is gzip"
check "$TMP/m.json.gz"
ok $? "two runs: structure check passes"
is "$(q "$TMP/m.json.gz" "sorted({pname(x['pid']).split(':')[0] for x in e if x.get('ph') == 'X'})")" \
	"['run 1', 'run 2']" "every process name says its run"
is "$(q "$TMP/m.json.gz" "len({x['pid'] for x in e if x.get('ph') == 'X' and pname(x['pid']).startswith('run 1')} & {x['pid'] for x in e if x.get('ph') == 'X' and pname(x['pid']).startswith('run 2')})")" \
	"0" "the runs share no pid"
"$PROFQ" import -q -o "$TMP/m2.db" "$TMP/m.json.gz" >/dev/null
is "$(sqlite "$TMP/m2.db" "SELECT count(*) FROM kernels")" "$(sqlite "$TMP/m.db" "SELECT count(*) FROM kernels")" \
	"reimported: the kernels of both runs"
"$PROFQ" export "$TMP/m.db" --run 2 -o "$TMP/m2.json" >/dev/null
is "$(q "$TMP/m2.json" "sorted(x['name'] for x in e if x.get('ph') == 'X')")" "['a', 'b', 'k']" "--run 2: that run only"

# --- --from/--to: events overlapping the window, whole.
from=$(sqlite "$TMP/v.db" "SELECT start_ns FROM kernels WHERE correlation_id = 8")
"$PROFQ" export "$TMP/v.db" --from "$from" --to $((from + 1)) -o "$TMP/w.json" >/dev/null
is "$(q "$TMP/w.json" "sorted(x['name'] for x in e if x.get('ph') == 'X')")" \
	"$(sqlite "$TMP/v.db" "SELECT '[' || group_concat('''' || name || '''', ', ') || ']' FROM (SELECT name FROM (
		SELECT n.value name, start_ns s, end_ns e FROM kernels k JOIN strings n ON n.id = k.name_id
		UNION ALL SELECT n.value, start_ns, end_ns FROM api_calls a JOIN strings n ON n.id = a.name_id
		UNION ALL SELECT n.value, start_ns, coalesce(end_ns, 9e18) FROM ranges r JOIN strings n ON n.id = r.name_id WHERE kind <> 7)
		WHERE s < $from + 1 AND e > $from ORDER BY 1)")" "--from/--to: the slices overlapping the window (as SQL selects them)"
check "$TMP/w.json"
ok $? "window export: structure check passes"

# --- A broken row (end before start) is written with dur 0, so the file stays loadable.
cp "$TMP/v.db" "$TMP/broken.db"
sqlite "$TMP/broken.db" "UPDATE kernels SET end_ns = start_ns - 5 WHERE correlation_id = 7"
"$PROFQ" export "$TMP/broken.db" -o "$TMP/broken.json" >/dev/null
is "$(q "$TMP/broken.json" "X('gemm')['dur']")" "0" "end before start: dur 0"
check "$TMP/broken.json"
ok $? "... and the structure check passes"

is "$(ls "$TMP" | grep -c -e '-wal$' -e '-shm$')" 0 "exported databases get no side files (opened read-only, immutable)"

# --- Errors: usage 2, failure 1, never a file left behind, an existing file untouched.
"$PROFQ" export "$TMP/v.db" 2>"$TMP/err"; is $? 2 "no -o: usage error"
like "$(cat "$TMP/err")" "^profq: export: no output file" "no -o: says so"
"$PROFQ" export --format svg "$TMP/v.db" -o "$TMP/x.json" 2>/dev/null; is $? 2 "unknown format: usage error"
"$PROFQ" export "$TMP/v.db" --from 10 --to 5 -o "$TMP/x.json" 2>/dev/null; is $? 2 "--from after --to: usage error"
"$PROFQ" export "$TMP/v.db" --from x -o "$TMP/x.json" 2>/dev/null; is $? 2 "--from not a number: usage error"
"$PROFQ" export "$TMP/nope.db" -o "$TMP/x.json" 2>/dev/null; is $? 1 "missing database: failure"
echo keep >"$TMP/keep.json"
"$PROFQ" export "$TMP/v.db" --run 99 -o "$TMP/keep.json" 2>"$TMP/err"; is $? 1 "--run 99: failure"
like "$(cat "$TMP/err")" "^profq: export: no run 99" "--run 99: says there is no such run"
is "$(cat "$TMP/keep.json")" "keep" "a failed export leaves an existing file as it was"
"$PROFQ" export "$TMP/v.db" -o "$TMP/no/such/dir/x.json" 2>/dev/null; is $? 1 "unwritable output: failure"
is "$(ls "$TMP" | grep -c '\.tmp\.')" 0 "no temporary file left behind"
"$PROFQ" export "$TMP/v.db" -o - | py -c 'import json,sys; print(len(json.load(sys.stdin)["traceEvents"]) > 0)' >"$TMP/o"
is "$(cat "$TMP/o")" "True" "-o - writes the trace to standard output"
like "$("$PROFQ" export --help | head -1)" "^Usage: profq export" "export --help"
like "$("$PROFQ" --help)" "  export +a Chrome trace of the profile" "profq --help lists export"
done_testing
