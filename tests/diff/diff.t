#!/bin/sh
# profq diff: on the two resnet50_num_workers_0 samples every row (per kernel, per operator, GPU
# busy time, step time) equals what Python computes from the two JSON files themselves; a
# hand-worked pair with names on one side only; --run-a/--run-b on a merged file; errors.
. "${0%/*}/../lib.sh"
. "${0%/*}/../reports/trace.sh"

# --- Hand-worked: before A 10+20 us, B 5 us; after A 40 us, C 7 us (kernels on one stream).
trace_begin "$TMP/a.json"
X kernel A 'stream 7' 0 10 '"device": 0'
X kernel A 'stream 7' 20 20 '"device": 0'
X kernel B 'stream 7' 50 5 '"device": 0'
X cpu_op 'ProfilerStep#1' 1 0 100
trace_end
trace_begin "$TMP/b.json"
X kernel A 'stream 7' 0 40 '"device": 0'
X kernel C 'stream 8' 30 7 '"device": 0'
X cpu_op 'ProfilerStep#1' 1 0 80
trace_end
"$PROFQ" import -q -o "$TMP/a.db" "$TMP/a.json" >/dev/null && "$PROFQ" import -o "$TMP/b.db" "$TMP/b.json" >/dev/null
is "$("$PROFQ" diff "$TMP/a.db" "$TMP/b.db" --format csv)" \
"count_before,count_after,total_ns_before,total_ns_after,delta_ns,delta_pct,name
3,2,35000,40000,5000,14.29,[GPU busy time]
1,1,100000,80000,-20000,-20.0,[step time]
2,1,30000,40000,10000,33.33,A
0,1,,7000,7000,,C
1,0,5000,,-5000,-100.0,B" "hand-worked: busy 35->40 us (C overlaps A), step 100->80, A +10 us, C new, B gone; by |delta|"
is "$("$PROFQ" diff "$TMP/a.db" "$TMP/a.db" --format csv | sed 1d | cut -d, -f5 | sort -u)" "0" "a file against itself: every delta 0"

# --- The resnet50_num_workers_0 samples.
S=$DATA/kineto/resnet50_num_workers_0
set -- "$S"/*.pt.trace.json.gz
[ -f "$1" ] && [ -f "${2:-}" ] || { skip "resnet50 samples" "not in $DATA"; done_testing; }
"$PROFQ" import -q -o "$TMP/r1.db" "$1" >/dev/null && "$PROFQ" import -o "$TMP/r2.db" "$2" >/dev/null
ok $? "both samples import"
# The expected rows, from the JSON files alone: sums of dur per name (Decimal us -> ns), the
# union of GPU work per device, the ProfilerStep#N durations.
expect() {
	py - "$1" "$2" "$3" <<'PY'
import collections, decimal, gzip, json, sys
from decimal import Decimal
def load(p):
    return json.load(gzip.open(p, 'rt'), parse_float=Decimal)['traceEvents']
def ns(v): return int(Decimal(v) * 1000)
def side(p, by):
    ev = [e for e in load(p) if e.get('ph') == 'X']
    rows = {}
    gpu = [e for e in ev if e.get('cat', '').lower() in ('kernel', 'memcpy', 'memset', 'gpu_memcpy', 'gpu_memset')]
    busy = 0
    for dev in {e['args'].get('device', e['pid']) for e in gpu}:
        iv = sorted((ns(e['ts']), ns(e['ts']) + ns(e['dur'])) for e in gpu if e['args'].get('device', e['pid']) == dev)
        cs, ce = iv[0]
        for s, t in iv[1:]:
            if s > ce:
                busy += ce - cs; cs, ce = s, t
            else:
                ce = max(ce, t)
        busy += ce - cs
    rows['[GPU busy time]'] = (len(gpu), busy)
    steps = [e for e in ev if e['name'].startswith('ProfilerStep#')]
    rows['[step time]'] = (len(steps), sum(ns(e['dur']) for e in steps) if steps else None)
    want = ('kernel',) if by == 'kernel' else ('operator', 'cpu_op')
    per = collections.defaultdict(lambda: [0, 0])
    for e in ev:
        if e.get('cat', '').lower() in want and not e['name'].startswith('ProfilerStep#'):
            per[e['name']][0] += 1
            per[e['name']][1] += ns(e['dur'])
    rows.update({k: tuple(v) for k, v in per.items()})
    return rows
a, b = side(sys.argv[1], sys.argv[3]), side(sys.argv[2], sys.argv[3])
out = []
for name in set(a) | set(b):
    na, ta = a.get(name, (0, None)); nb, tb = b.get(name, (0, None))
    d = (tb or 0) - (ta or 0)
    o = 0 if name == '[GPU busy time]' else 1 if name == '[step time]' else 2
    out.append((o, -abs(d) if o == 2 else 0, name, na, nb, ta, tb, d))
for o, _, name, na, nb, ta, tb, d in sorted(out):
    print(na, nb, '' if ta is None else ta, '' if tb is None else tb, d, name, sep='\t')
PY
}
got() { "$PROFQ" diff "$@" --format csv | sed 1d | py -c '
import csv, sys
for r in csv.reader(sys.stdin):
    print(*r[:5], r[6], sep="\t")'; }
# Rows equal in |delta| may come in any order: compare sorted, and check the order separately.
for by in kernel op; do
	expect "$1" "$2" $by >"$TMP/want.$by"
	got "$TMP/r1.db" "$TMP/r2.db" --by $by >"$TMP/got.$by"
	is "$(wc -l <"$TMP/got.$by" | tr -d ' ')" "$(wc -l <"$TMP/want.$by" | tr -d ' ')" "--by $by: one row per name of either file, plus busy and step time"
	is "$(sort "$TMP/got.$by" | md5sum)" "$(sort "$TMP/want.$by" | md5sum)" \
		"--by $by: every row's counts, totals and delta equal the two files' own sums"
	is "$(head -2 "$TMP/got.$by" | cut -f6 | tr '\n' ' ')" "[GPU busy time] [step time] " "--by $by: busy and step time first"
	is "$(sed 1,2d "$TMP/got.$by" | awk -F'\t' '{ d = $5 < 0 ? -$5 : $5; if (NR > 1 && d > p) bad = 1; p = d } END { print bad + 0 }')" 0 \
		"--by $by: sorted by |delta_ns| descending"
done
like "$(cut -f1,2 "$TMP/got.kernel" | sort -u | wc -l)" "^[0-9]+$" "counts present"
"$PROFQ" diff "$TMP/r1.db" "$TMP/r2.db" --format csv | sed 1d | awk -F, '$3 != "" && $3 != 0 { p = 100 * $5 / $3; r = $6 - p; if (r > 0.006 || r < -0.006) bad++ } END { print bad + 0 }' >"$TMP/pct"
is "$(cat "$TMP/pct")" 0 "delta_pct = 100 * delta / before (2 places)"

# --run-a / --run-b on one merged file give the same rows.
"$PROFQ" merge -o "$TMP/m.db" "$TMP/r1.db" "$TMP/r2.db" >/dev/null
is "$(got "$TMP/m.db" "$TMP/m.db" --run-a 1 --run-b 2 | sort | md5sum)" "$(sort "$TMP/got.kernel" | md5sum)" \
	"--run-a 1 --run-b 2 of the merged file: the same rows"
is "$("$PROFQ" diff "$TMP/m.db" "$TMP/m.db" --run-a 1 --run-b 1 --format csv | sed 1d | cut -d, -f5 | sort -u)" 0 "a run against itself: 0"

is "$(ls "$TMP" | grep -c -e '-wal$' -e '-shm$')" 0 "the compared files get no side files (attached read-only)"

# Errors.
"$PROFQ" diff "$TMP/r1.db" 2>/dev/null; is $? 2 "one database: usage error"
"$PROFQ" diff "$TMP/r1.db" "$TMP/r2.db" --by name 2>/dev/null; is $? 2 "--by name: usage error"
"$PROFQ" diff "$TMP/r1.db" "$TMP/nope.db" 2>"$TMP/err"; is $? 1 "missing second file: failure"
like "$(cat "$TMP/err")" "^profq: diff: cannot open" "says it cannot open it"
"$PROFQ" diff "$TMP/r1.db" "$TMP/a.json" 2>"$TMP/err"; is $? 1 "a JSON file as after: failure"
like "$(cat "$TMP/err")" "not a (profq )?database" "says it is not a database"
"$PROFQ" diff "$TMP/m.db" "$TMP/m.db" --run-b 9 2>"$TMP/err"; is $? 1 "--run-b 9: failure"
like "$(cat "$TMP/err")" "no run 9" "says there is no run 9"
"$PROFQ" diff --help | head -1 | grep -q '^Usage: profq diff'
ok $? "diff --help"
like "$("$PROFQ" --help)" "  diff +what changed between two profiles" "profq --help lists diff"
done_testing
