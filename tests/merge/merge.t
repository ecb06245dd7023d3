#!/bin/sh
# profq merge: every run of every input (profq databases, Chrome traces, nsys exports) lands in
# the output whole: run_dump.py (tests/import) prints each run's rows with run-independent values
# and the input's dump equals the output's; ranks from distributedInfo or --rank; a run merged
# twice is refused; inputs are never changed; a failed merge leaves no output.
. "${0%/*}/../lib.sh"
K=$DATA/kineto
[ -f "$K/tb_plugin_test/gpu_metrics_input.json" ] && [ -f "$DATA/nsys/mock.sqlite" ] ||
	skip_all "no sample traces in $DATA"

dump() { py "$TOP/tests/import/run_dump.py" "$1" "$2" | grep -v "'merge.source'" |
	sed "s/('rank', [^)]*), //"; }
sums() { for f in "$@"; do sha1sum "$f"; done; }

# Inputs: a profq database with two runs, one with one run, a Chrome trace, an nsys export, and
# two ranks made from a Kineto sample (make_ranks.py writes distributedInfo).
"$PROFQ" import -q -o "$TMP/two.db" "$K/libkineto_test_traces/after_fix_trace.json" \
	"$K/libkineto_test_traces/before_fix_trace.json" >/dev/null
"$PROFQ" import -q -o "$TMP/one.db" "$DATA/nsys/nsight-2025.5.2.sqlite" >/dev/null
py "$TOP/tests/reports/make_ranks.py" "$K/tb_plugin_test/gpu_metrics_input.json" "$TMP"
ok $? "make_ranks.py writes two ranks"
before=$(sums "$TMP/two.db" "$TMP/one.db" "$K/tb_plugin_test/gpu_metrics_input.json" "$DATA/nsys/mock.sqlite")
"$PROFQ" merge -o "$TMP/job.db" "$TMP/two.db" "$TMP/one.db" --rank 7 "$K/tb_plugin_test/gpu_metrics_input.json" \
	"$DATA/nsys/mock.sqlite" "$TMP/rank1.json" "$TMP/rank0.json" >"$TMP/out"
ok $? "merge of 6 inputs (databases and traces)"
is "$(tail -1 "$TMP/out")" "$TMP/job.db: 7 runs merged" "7 runs merged"
is "$(sums "$TMP/two.db" "$TMP/one.db" "$K/tb_plugin_test/gpu_metrics_input.json" "$DATA/nsys/mock.sqlite")" "$before" \
	"inputs unchanged (same bytes)"
is "$(ls "$TMP" | grep -c -e '-wal$' -e '-shm$' -e '\.tmp\.' -e '\.import\.')" 0 "no side files or temporary files left"

# Each output run equals its input run, row for row.
"$PROFQ" import -q -o "$TMP/t.db" "$K/tb_plugin_test/gpu_metrics_input.json" >/dev/null
"$PROFQ" import -q -o "$TMP/m.db" "$DATA/nsys/mock.sqlite" >/dev/null
"$PROFQ" import -q -o "$TMP/r1.db" "$TMP/rank1.json" >/dev/null
"$PROFQ" import -q -o "$TMP/r0.db" "$TMP/rank0.json" >/dev/null
n=0
for pair in two.db:1 two.db:2 one.db:1 t.db:1 m.db:1 r1.db:1 r0.db:1; do
	n=$((n + 1))
	db=${pair%:*}
	dump "$TMP/$db" "${pair#*:}" | grep -v "^runs " >"$TMP/want"
	dump "$TMP/job.db" $n | grep -v "^runs " >"$TMP/got"
	is "$(wc -l <"$TMP/got" | tr -d ' ')" "$(wc -l <"$TMP/want" | tr -d ' ')" "run $n: as many rows as $pair"
	# Traces imported by the merge differ from a separate import in their creation time only.
	cmp -s "$TMP/want" "$TMP/got"
	ok $? "run $n: every row of $pair, references and names mapped"
done
is "$(sqlite "$TMP/job.db" "SELECT group_concat(coalesce(rank, '-'), ' ') FROM (SELECT rank FROM runs ORDER BY id)")" \
	"- - - 7 - 1 0" "ranks: --rank 7, distributedInfo 1 and 0, none for the rest"
is "$(sqlite "$TMP/job.db" "SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM kernels WHERE run_id = r.id) <> (SELECT count(*) FROM kernels k JOIN runs x ON x.id = k.run_id WHERE x.id = r.id)")" 0 \
	"kernels stay with their runs"
is "$(sqlite "$TMP/job.db" "SELECT count(*) FROM (SELECT value FROM strings GROUP BY value HAVING count(*) > 1)")" 0 \
	"strings interned once"
is "$(sqlite "$TMP/job.db" "PRAGMA foreign_key_check" | wc -l | tr -d ' ')" 0 "every reference points at an existing row"
is "$(sqlite "$TMP/job.db" "PRAGMA integrity_check")" "ok" "integrity check"
is "$("$PROFQ" info "$TMP/job.db" | grep -c 'event indexes')" 0 "event indexes built"

# A run merged twice is refused; the output is left as it was.
sum=$(sha1sum <"$TMP/job.db")
"$PROFQ" merge -o "$TMP/job.db" "$TMP/one.db" 2>"$TMP/err"
is $? 1 "merging a database again: failure"
like "$(cat "$TMP/err")" "^profq: merge: run 1 of '.*one.db' is already run 3 of the output" "says which run it already is"
is "$(sha1sum <"$TMP/job.db")" "$sum" "the existing output is unchanged"
cp "$TMP/one.db" "$TMP/copy.db"
"$PROFQ" merge -o "$TMP/j2.db" "$TMP/one.db" "$TMP/copy.db" >/dev/null 2>"$TMP/err"
is $? 1 "a copy of an input (same source, time, counts): refused"
"$PROFQ" merge -o "$TMP/j2.db" "$TMP/one.db" "$TMP/one.db" >/dev/null 2>"$TMP/err"
is $? 1 "the same file twice: refused"
like "$(cat "$TMP/err")" "given twice" "says it is given twice"
[ ! -e "$TMP/j2.db" ]
ok $? "a failed merge leaves no output"
# Appending new runs to an existing output keeps its runs.
"$PROFQ" merge -o "$TMP/j3.db" "$TMP/one.db" >/dev/null && "$PROFQ" merge -o "$TMP/j3.db" "$TMP/m.db" >/dev/null
is "$(sqlite "$TMP/j3.db" "SELECT group_concat(source, ' ') FROM runs")" "nsys-sqlite nsys-sqlite" "merging into an existing output adds runs"
dump "$TMP/j3.db" 1 | grep -v "^runs " >"$TMP/got"
dump "$TMP/one.db" 1 | grep -v "^runs " >"$TMP/want"
cmp -s "$TMP/got" "$TMP/want"
ok $? "... and keeps the ones it had"

# Failures in the middle leave nothing.
printf 'not a trace' >"$TMP/bad.json"
"$PROFQ" merge -o "$TMP/j4.db" "$TMP/one.db" "$TMP/bad.json" 2>"$TMP/err"
is $? 1 "an input that is no trace: failure"
like "$(cat "$TMP/err")" "^profq: merge: .*bad.json" "names the input"
"$PROFQ" merge -o "$TMP/j4.db" "$TMP/one.db" "$TMP/missing.db" 2>/dev/null
is $? 1 "a missing input: failure"
[ ! -e "$TMP/j4.db" ] && [ "$(ls "$TMP" | grep -c -e '\.tmp\.' -e '\.import\.')" = 0 ]
ok $? "no output and no temporary file after a failure"
"$PROFQ" merge -o "$TMP/j5.db" --rank 1 "$TMP/two.db" 2>"$TMP/err"
is $? 1 "--rank for an input with two runs: failure"
"$PROFQ" merge "$TMP/one.db" 2>/dev/null; is $? 2 "no -o: usage error"
"$PROFQ" merge -o "$TMP/j6.db" 2>/dev/null; is $? 2 "no input: usage error"
"$PROFQ" merge -o "$TMP/j6.db" "$TMP/one.db" --rank 2>/dev/null; is $? 2 "--rank without a value: usage error"
"$PROFQ" merge -o "$TMP/j6.db" "$TMP/one.db" --rank 3 2>/dev/null; is $? 2 "--rank after the last input: usage error"
"$PROFQ" merge -o "$TMP/one.db" "$TMP/one.db" 2>/dev/null; is $? 2 "output given as input: usage error"

# The merged file exports as one process group per run.
"$PROFQ" export "$TMP/job.db" -o "$TMP/job.json" >/dev/null
ok $? "the merged file exports"
py "$TOP/tests/export/chrome_check.py" "$TMP/job.json" >/dev/null
ok $? "... with a valid structure"
like "$("$PROFQ" merge --help | head -1)" "^Usage: profq merge" "merge --help"
like "$("$PROFQ" --help)" "  merge +the ranks of a job" "profq --help lists merge"
done_testing
