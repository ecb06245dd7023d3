#!/bin/sh
# A tampered profile runs nothing: profq refuses to write into a file carrying triggers or views it
# did not make (exit 1, the objects named, the file byte for byte as it was), its connections do
# not trust the file's schema (a view can call only innocuous functions), and reading commands
# never write, tampered file or not.
. "${0%/*}/../lib.sh"
cd "$TMP"
trace=$DATA/kineto/libkineto_test_traces/before_fix_trace.json
[ -f "$trace" ] || skip_all "no $trace"
"$PROFQ" import -q -o base.db "$trace" >/dev/null || { echo "Bail out! import failed"; exit 1; }
# The database file's hash, and the size of its WAL (a reader may create an empty one, never more).
sums() { echo "$(sha256sum <"$1") wal $(cat "$1-wal" 2>/dev/null | wc -c)"; }

# The attack from issue 14: a trigger on runs that writes a table when profq imports.
cp base.db trig.db
sqlite trig.db "CREATE TABLE pwned(run_id); CREATE TRIGGER spy AFTER INSERT ON runs
	BEGIN INSERT INTO pwned VALUES (new.id); END;"
before=$(sums trig.db)
"$PROFQ" import -o trig.db "$trace" >out 2>err; is "$?" 1 "import into a file with a foreign trigger: exit 1"
like "$(cat err)" "^profq: 'trig.db' holds an object profq did not make \(trigger spy\); profq does not write" \
	"names the trigger"
is "$(cat out)" "" "nothing on stdout"
is "$(sums trig.db)" "$before" "the file is byte for byte as it was"
is "$(sqlite trig.db "SELECT count(*) FROM pwned; SELECT count(*) FROM runs")" "0
1" "the trigger never fired; no run was added"
"$PROFQ" repair trig.db >/dev/null 2>err; is "$?" 1 "repair refuses too"
"$PROFQ" sql trig.db "INSERT INTO strings(value) VALUES ('x')" >/dev/null 2>err; is "$?" 1 "so does writing SQL"
like "$(cat err)" "trigger spy" "naming it"
if [ -f "$BUILD/libprofq_collector.so" ]; then
	"$PROFQ" record -o trig.db -- true >/dev/null 2>err; is "$?" 1 "and record"
	like "$(cat err)" "trigger spy" "naming it"
fi
is "$(sums trig.db)" "$before" "still unchanged"
# Reading still works, and does not fire or change anything.
is "$("$PROFQ" sql trig.db "SELECT count(*) FROM kernels" --format csv)" "count(*)
$(sqlite base.db "SELECT count(*) FROM kernels")" "reading commands read it"
"$PROFQ" info trig.db >/dev/null; is "$?" 0 "info reads it"
is "$(sums trig.db)" "$before" "unchanged by reading"

# Foreign views, several objects: all named.
cp base.db views.db
sqlite views.db "CREATE VIEW mine AS SELECT 1; CREATE TRIGGER t2 BEFORE DELETE ON kernels BEGIN SELECT 1; END;"
before=$(sums views.db)
"$PROFQ" import -o views.db "$trace" >/dev/null 2>err; is "$?" 1 "foreign view and trigger: refused"
like "$(cat err)" "holds objects profq did not make \(trigger t2, view mine\)" "both named"
is "$(sums views.db)" "$before" "unchanged"

# A view of profq's name with other text (an older profq, or a tamper): refreshed on write.
cp base.db stale.db
sqlite stale.db "DROP VIEW v_kernels; CREATE VIEW v_kernels AS SELECT 42 AS id"
"$PROFQ" import -q --again -o stale.db "$trace" >/dev/null 2>err; is "$?" 0 "a changed profq view does not block a write"
q="SELECT sql FROM sqlite_master WHERE name = 'v_kernels'"
is "$(sqlite stale.db "$q")" "$(sqlite base.db "$q")" "and the write restores its definition"

# The schema is not trusted: a view calling a function that is not innocuous fails; the
# extension's pure functions are innocuous and work from a view, as profq's own views do.
cp base.db fn.db
sqlite fn.db "CREATE VIEW pure AS SELECT kernel_short_name('_Z3fooIiEvT_') AS k;
	CREATE VIEW impure AS SELECT device_peak_flops(id, 'fp32') AS f FROM devices"
is "$("$PROFQ" sql fn.db "SELECT k FROM pure" --format csv | tail -1)" "foo" "an innocuous function runs in a view"
"$PROFQ" sql fn.db "SELECT * FROM impure" >/dev/null 2>err; is "$?" 1 "a function reading the database does not"
like "$(cat err)" "unsafe use of device_peak_flops" "SQLite says why (trusted_schema off)"
is "$("$PROFQ" sql fn.db "SELECT device_peak_flops(0, 'fp32') IS NULL OR 1" --format csv | tail -1)" 1 \
	"the same function called directly is fine"
is "$("$PROFQ" sql base.db "SELECT count(*) FROM v_kernels" --format csv | tail -1)" \
	"$(sqlite base.db "SELECT count(*) FROM kernels")" "profq's own views work"

# Reading commands never write: info, sql SELECT, reports.
cp base.db read.db
before=$(sums read.db)
for cmd in "info read.db" "info --format json read.db" "top-kernels read.db" "sql read.db SELECT 1" \
	"sql read.db SELECT count(*) FROM v_ranges" "analyze read.db"; do
	# shellcheck disable=SC2086
	"$PROFQ" $cmd >/dev/null 2>&1
	is "$(sums read.db)" "$before" "'profq $cmd' leaves the file as it was"
done
done_testing
