#!/bin/sh
# A recorder killed with -9: its run is seen as such (no process holds the run lock), profq info
# says so without writing, and profq repair -- or the next command that writes into the file --
# closes it as 'aborted' at its last commit and builds the indexes it left missing. A recording
# still running is left alone. Files written before 'aborted' existed are upgraded on write.
. "${0%/*}/../lib.sh"
[ -f "$BUILD/libprofq_collector.so" ] || skip_all "the collector is not built (no CUPTI)"
cd "$TMP"
APP=$BUILD/tests/nvtx/nvtx_app
sqlite fresh.db <"$TOP/schema/schema.sql"
indexes="SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name)"
want_ix=$(sqlite fresh.db "$indexes")
missing() { "$PROFQ" info --format json "$1" | py -c 'import json,sys; print(json.load(sys.stdin)["missing_event_indexes"])'; }
status() { sqlite "$1" "SELECT group_concat(id || ':' || status, ' ') FROM runs"; }

# start DB: records nvtx_app in the background until it has written 100 ranges; $lp, $app
start() {
	"$PROFQ" record -o "$1" --flush-interval-ms 100 -- "$APP" loop 100 >"$1.out" 2>/dev/null &
	lp=$!
	for i in $(seq 100); do grep -q ready "$1.out" 2>/dev/null && break; sleep 0.1; done
	sleep 0.3
	app=$(pgrep -P $lp)
}

start k.db
out=$("$PROFQ" repair k.db); is "$?" 0 "repair while recording: exit 0"
is "$out" "1 run still being recorded, left open" "a live recording is left alone"
is "$(status k.db)" "1:open" "and stays open"
like "$("$PROFQ" info k.db | grep collector)" " open  " "info: open, not 'recorder gone', while it runs"
kill -KILL $lp $app; wait $lp 2>/dev/null; t_kill=$(date +%s%N)
ok "$([ -e k.db-lock ]; echo $?)" "kill -9 leaves the lock file (its lock went with the processes)"
n_missing=$(missing k.db)
ok "$([ "$n_missing" -gt 0 ]; echo $?)" "the killed recording left $n_missing event indexes missing"
sum=$(sha256sum k.db)
like "$("$PROFQ" info k.db | grep collector)" "open \(recorder gone\)" "info: the run's recorder is gone"
"$PROFQ" sql k.db "SELECT count(*) FROM ranges" >/dev/null
"$PROFQ" nvtx-sum k.db >/dev/null
is "$(sha256sum k.db)" "$sum" "info, sql and a report leave the file byte for byte as it was"
is "$(status k.db)" "1:open" "reading repairs nothing"

out=$("$PROFQ" repair k.db); is "$?" 0 "repair: exit 0"
is "$out" "run 1: closed as aborted (its recorder is gone)
built $n_missing missing event indexes" "repair names the run and the indexes"
is "$(status k.db)" "1:aborted" "the run is aborted"
is "$(sqlite k.db "$indexes")" "$want_ix" "every index of the schema is there"
is "$(sqlite k.db "SELECT count(*) FROM ranges INDEXED BY ranges_run_time WHERE run_id = 1 AND start_ns > 0")" \
	"$(sqlite k.db "SELECT count(*) FROM ranges NOT INDEXED WHERE run_id = 1")" "and holds every range"
last=$(sqlite k.db "SELECT value FROM run_metadata WHERE run_id = 1 AND key = 'last_commit_ns'")
is "$(sqlite k.db "SELECT end_ns FROM runs WHERE id = 1")" "$last" "the run ends at its last commit"
ok "$([ "$last" -le "$t_kill" ] && [ $((t_kill - last)) -lt 1000000000 ]; echo $?)" \
	"which is before the kill and within a second of it"
is "$(sqlite k.db "SELECT start_ns = (SELECT min(start_ns) FROM ranges WHERE run_id = 1) FROM runs")" 1 \
	"and starts at its first event"
like "$(sqlite k.db "SELECT value FROM run_metadata WHERE run_id = 1 AND key = 'aborted'")" \
	"^its writers are gone" "run_metadata says why"
ok "$([ ! -e k.db-lock ]; echo $?)" "the stale lock file is gone"
is "$(sqlite k.db "PRAGMA integrity_check")" ok "integrity_check"
is "$("$PROFQ" repair k.db)" "nothing to repair" "a second repair has nothing to do"
like "$("$PROFQ" info k.db | grep collector)" " aborted " "info shows the status"

# The next command that writes closes it too: an import...
start i.db
kill -KILL $lp $app; wait $lp 2>/dev/null
echo '[{"name": "x", "ph": "X", "ts": 1, "dur": 1, "pid": 1, "tid": 1}]' >one.json
"$PROFQ" import -o i.db one.json >/dev/null; is "$?" 0 "import into a file with a dead run"
is "$(status i.db)" "1:aborted 2:complete" "closed the dead run as aborted"
is "$(sqlite i.db "$indexes")" "$want_ix" "and built the indexes"
# ... and a new recording.
start r.db
kill -KILL $lp $app; wait $lp 2>/dev/null
"$PROFQ" record -o r.db -- true 2>/dev/null; is "$?" 0 "record into a file with a dead run"
is "$(status r.db)" "1:aborted 2:complete" "closed the dead run as aborted"
ok "$([ ! -e r.db-lock ]; echo $?)" "a finished recording leaves no lock file"

# Two recordings at once: killing one does not touch the other.
start a.db; lp_a=$lp; app_a=$app
"$PROFQ" record -o a.db --flush-interval-ms 100 -- "$APP" loop 100 >b.out 2>/dev/null &
lp_b=$!
for i in $(seq 100); do grep -q ready b.out 2>/dev/null && break; sleep 0.1; done
kill -KILL $lp_a $app_a; wait $lp_a 2>/dev/null
is "$("$PROFQ" repair a.db)" "run 1: closed as aborted (its recorder is gone)
1 run still being recorded, left open" "repair closes the dead run, keeps the live one"
kill -TERM $lp_b; wait $lp_b
is "$(status a.db)" "1:aborted 2:complete" "the live one completes normally"
is "$(sqlite a.db "$indexes")" "$want_ix" "and builds the indexes when it ends"

# A file written before 'aborted' existed: runs' CHECK is older; a write upgrades it.
# It also lacks the views the build makes from the reports (schema/views.sql only).
sed "s/'failed', 'aborted')/'failed')/" "$TOP/schema/schema.sql" >old.sql
cat "$TOP/schema/views.sql" >>old.sql
sqlite old.db <old.sql
sqlite old.db "INSERT INTO runs(source, created_utc, profq_version) VALUES ('collector', 'x', '0.0');
	INSERT INTO processes(run_id, pid) VALUES (1, 7); INSERT INTO strings(value) VALUES ('r');
	INSERT INTO ranges(run_id, process_id, start_ns, end_ns, kind, name_id) VALUES (1, 1, 5, 9, 0, 1)"
ok "$(sqlite old.db "UPDATE runs SET status = 'aborted'" 2>/dev/null; [ $? -ne 0 ]; echo $?)" \
	"the old runs table refuses 'aborted'"
is "$("$PROFQ" repair old.db)" "run 1: closed as aborted (its recorder is gone)" "repair upgrades and closes it"
is "$(status old.db)" "1:aborted" "status aborted"
is "$(sqlite old.db "SELECT count(*), min(start_ns), max(end_ns) FROM ranges")|$(sqlite old.db "SELECT start_ns, end_ns FROM runs")" \
	"1|5|9|5|9" "rows kept; no commit time recorded, so the span is the events'"
fresh_views="SELECT group_concat(name || sql, '|') FROM (SELECT name, sql FROM sqlite_master WHERE type = 'view' ORDER BY name)"
sqlite fresh.db <"$BUILD/gen/views.sql"
is "$(sqlite old.db "$fresh_views")" "$(sqlite fresh.db "$fresh_views")" "the views are back, as the schema has them"
is "$(sqlite old.db "SELECT count(*) FROM v_ranges")" 1 "and work"
is "$(sqlite old.db "PRAGMA integrity_check; PRAGMA foreign_key_check")" ok "integrity and foreign keys hold"
done_testing
