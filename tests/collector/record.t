#!/bin/sh
# profq record: usage errors, a missing command, another tool's variables, the environment the
# command gets, the degrade path without a driver, and exit/signal/flush behaviour.
. "${0%/*}/../lib.sh"
[ -f "$BUILD/libprofq_collector.so" ] || skip_all "the collector is not built (no CUPTI)"
cd "$TMP"
APP=$BUILD/tests/nvtx/nvtx_app

"$PROFQ" record >out 2>err; is "$?" 2 "no command: usage error"
like "$(cat err)" "no command given" "says so"
"$PROFQ" record --flush-interval-ms 0 -- true 2>err; is "$?" 2 "bad --flush-interval-ms"
"$PROFQ" record --kinds kernel,bogus -- true 2>err; is "$?" 2 "bad --kinds"
like "$(cat err)" "unknown kind 'bogus'" "names the bad kind"
"$PROFQ" record --capture-range nope -- true 2>err; is "$?" 2 "bad --capture-range"
"$PROFQ" record --help | grep -q "^Usage: profq record"; is "$?" 0 "--help"

"$PROFQ" record -o nf.db -- ./no-such-command 2>err; is "$?" 127 "command not found: 127 like a shell"
like "$(cat err)" "cannot run ./no-such-command: No such file" "says why"
ok "$([ ! -e nf.db ]; echo $?)" "and leaves no database behind"
"$PROFQ" record -o keep.db -- true 2>/dev/null
ix="SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name)"
before=$(sqlite keep.db "$ix; SELECT count(*) FROM runs")
"$PROFQ" record -o keep.db -- ./no-such-command 2>/dev/null; is "$?" 127 "command not found, existing database: 127"
is "$(sqlite keep.db "$ix; SELECT count(*) FROM runs")" "$before" "its run is gone and every index is back"
printf 'x' > notexec; chmod -x notexec
"$PROFQ" record -o ne.db -- ./notexec 2>/dev/null; is "$?" 126 "not executable: 126"

CUDA_INJECTION64_PATH=/opt/other/lib.so "$PROFQ" record -o r.db -- true 2>err
is "$?" 1 "refuses when another tool's CUDA_INJECTION64_PATH is set"
like "$(cat err)" "CUDA_INJECTION64_PATH is already set" "clearly"
NVTX_INJECTION64_PATH=/x.so "$PROFQ" record -o r.db -- true 2>/dev/null; is "$?" 1 "and for NVTX_INJECTION64_PATH"

"$PROFQ" record -o env.db -- sh -c 'echo "$CUDA_INJECTION64_PATH|$NVTX_INJECTION64_PATH|$PROFQ_RUN_ID"' \
	>env.txt 2>/dev/null
IFS='|' read -r c n r < env.txt
is "$c" "$n" "both injection variables name the same library"
ok "$(case $c in /*) [ -f "$c" ];; *) false;; esac; echo $?)" "an absolute path to an existing file"
is "$r" 1 "the run id is passed on"
is "$(sqlite env.db "SELECT status FROM runs")" complete "a command without CUDA or NVTX still completes"

# The CUDA injection path without a driver (a stand-in for cuInit): NVTX-only, with the reason.
"$PROFQ" record -o fd.db -- "$BUILD/tests/fake_driver" >fd.txt 2>fd.err
is "$(cat fd.txt)" "init 1 1" "InitializeInjection succeeds (idempotently) and degrades"
like "$(sqlite fd.db "SELECT value FROM run_metadata WHERE key LIKE 'process.%.gpu_tracing'")" \
	"^off: cupti[A-Za-z_]* failed: .*no usable CUDA driver" "the reason is stored per process"

# SIGTERM: flushed, and the exit status is still death by SIGTERM.
"$PROFQ" record -o term.db --flush-interval-ms 100000 -- "$APP" loop 50 >term.out 2>/dev/null &
lp=$!
for i in $(seq 100); do grep -q ready term.out 2>/dev/null && break; sleep 0.1; done
kill -TERM $lp
wait $lp; is "$?" 143 "SIGTERM: exit status 128+15 as without profq"
ok "$([ "$(sqlite term.db "SELECT count(*) FROM ranges WHERE end_ns IS NOT NULL")" -ge 50 ]; echo $?)" \
	"every range before the signal was flushed (interval far longer than the run)"
like "$(sqlite term.db "SELECT value FROM run_metadata WHERE key LIKE 'process.%.exit'")" SIGTERM \
	"the collector says it stopped on SIGTERM"

# atexit flush with a long interval.
"$PROFQ" record -o ex.db --flush-interval-ms 100000 -- "$APP" exit 0 >/dev/null 2>&1
is "$(sqlite ex.db "SELECT count(*) FROM ranges")" 1 "exit flushes what the interval had not"

# SIGKILL loses at most the last interval; a reader sees the file grow meanwhile.
"$PROFQ" record -o kill.db --flush-interval-ms 200 -- "$APP" loop 100 >kill.out 2>/dev/null &
lp=$!
for i in $(seq 100); do grep -q ready kill.out 2>/dev/null && break; sleep 0.1; done
sleep 0.5
n1=$(sqlite kill.db "SELECT count(*) FROM ranges")
ok "$([ "$n1" -ge 100 ]; echo $?)" "a reader sees committed ranges while recording ($n1)"
# The recorded processes write without the event tables' secondary indexes; profq says so.
like "$("$PROFQ" info kill.db | sed -n 2p)" "^event indexes: [1-9][0-9]* missing \(a recording is running" \
	"profq info tells a reader the event indexes are not built yet"
app=$(pgrep -P $lp)
kill -KILL "$app"; t_kill=$(date +%s%N)
wait $lp; is "$?" 137 "SIGKILL: 128+9"
is "$(sqlite kill.db "PRAGMA integrity_check")" ok "the database passes integrity_check"
sqlite fresh.db <"$TOP/schema/schema.sql"
indexes="SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name)"
want=$(sqlite fresh.db "$indexes")
is "$(sqlite kill.db "$indexes")" "$want" "the launcher built every index of the schema once the command ended"
is "$(sqlite kill.db "SELECT count(*) FROM ranges INDEXED BY ranges_run_time WHERE run_id = 1 AND start_ns > 0")" \
	"$(sqlite kill.db "SELECT count(*) FROM ranges NOT INDEXED WHERE run_id = 1")" "and the index holds every range"

# A launcher killed before it could build them leaves them missing; the next import builds them.
"$PROFQ" record -o lk.db -- "$APP" loop 100 >lk.out 2>/dev/null &
lp=$!
for i in $(seq 100); do grep -q ready lk.out 2>/dev/null && break; sleep 0.1; done
app=$(pgrep -P $lp)
kill -KILL $lp; kill -KILL "$app"; wait $lp 2>/dev/null
like "$("$PROFQ" info lk.db | sed -n 2p)" "^event indexes: [1-9][0-9]* missing" "a killed launcher leaves the indexes missing"
echo '[{"name": "x", "ph": "X", "ts": 1, "dur": 1, "pid": 1, "tid": 1}]' >one.json
"$PROFQ" import -q -o lk.db one.json >/dev/null
is "$(sqlite lk.db "$indexes")" "$want" "the next import into the file builds them"
is "$("$PROFQ" info --format json lk.db 2>/dev/null | py -c 'import json,sys; print(json.load(sys.stdin)["missing_event_indexes"])')" 0 \
	"profq info --format json: missing_event_indexes 0"
last=$(sqlite kill.db "SELECT max(end_ns) FROM ranges")
ok "$([ $((t_kill - last)) -lt 600000000 ]; echo $?)" \
	"the newest stored range ended within the last interval (+ margin) before the kill"
done_testing
