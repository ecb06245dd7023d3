#!/bin/sh
# profq record waits for descendants that outlive the command (tests/nvtx/nvtx_orphan): they are
# reparented to profq, their rows are in the run, the run completes after them, and the exit
# status is still the command's.
. "${0%/*}/../lib.sh"
[ -f "$BUILD/libprofq_collector.so" ] || skip_all "the collector is not built (no CUPTI)"
cd "$TMP"
APP=$BUILD/tests/nvtx/nvtx_orphan
N=40

timeout -k 5 60 "$PROFQ" record -o o.db -- "$APP" $N 5 >o.out 2>/dev/null
is "$?" 5 "the exit status is the command's (5), not the orphan's (7)"
q() { sqlite o.db "$1"; }
parent=$(sed -n 's/^parent \([0-9]*\)$/\1/p' o.out)
set -- $(sed -n 's/^orphan \([0-9]*\) ppid \([0-9]*\)$/\1 \2/p' o.out)
orphan=$1 ppid=$2
is "$ppid" "$(q "SELECT value FROM run_metadata WHERE key = 'launcher_pid'")" \
	"the orphan was reparented to profq (its subreaper), not to init"
is "$(q "SELECT count(*) FROM v_ranges WHERE pid = $orphan AND name = 'orphan'")" $N \
	"every range the orphan made after its parent exited is stored ($N)"
is "$(q "SELECT (SELECT min(start_ns) FROM v_ranges WHERE pid = $orphan) >
	(SELECT ts_ns FROM v_marks WHERE pid = $parent AND name = 'parent exiting')")" 1 \
	"and they all start after the parent's last event"
is "$(q "SELECT status FROM runs")" complete "the run is complete"
is "$(q "SELECT end_ns >= (SELECT max(end_ns) FROM ranges) FROM runs")" 1 \
	"the run's span covers the orphan's last range"
is "$(q "SELECT value FROM run_metadata WHERE key = 'process.$orphan.exit'")" exit \
	"the orphan's collector finished normally (before the run was completed)"
is "$(q "SELECT value FROM run_metadata WHERE key = 'exit'")" "exited with status 5" \
	"the run records the command's exit"
ok "$(kill -0 "$orphan" 2>/dev/null; [ $? -ne 0 ]; echo $?)" "no descendant is left running"

# Signals sent to profq after the command exited go on to the orphan.
"$PROFQ" record -o l.db -- "$APP" linger 3 >l.out 2>/dev/null &
lp=$!
for i in $(seq 200); do grep -q ready l.out 2>/dev/null && break; sleep 0.05; done
set -- $(sed -n 's/^orphan \([0-9]*\) ppid \([0-9]*\)$/\1 \2/p' l.out)
lorphan=$1
is "$2" "$lp" "the lingering orphan's parent is profq"
kill -TERM $lp
wait $lp; is "$?" 3 "profq returns the command's status (3) once the orphan is gone"
is "$(sqlite l.db "SELECT value FROM run_metadata WHERE key = 'process.$lorphan.exit'")" SIGTERM \
	"the orphan got the forwarded SIGTERM and flushed"
ok "$([ "$(sqlite l.db "SELECT count(*) FROM v_ranges WHERE pid = $lorphan AND end_ns IS NOT NULL")" -ge 1 ]; echo $?)" \
	"its ranges are stored"
is "$(sqlite l.db "SELECT status FROM runs")" complete "that run is complete too"

# --wait primary: the run completes when the command exits; the orphan is not profq's.
"$PROFQ" record -o p.db --wait primary -- "$APP" $N 4 >p.out 2>/dev/null
is "$?" 4 "--wait primary returns the command's status"
# (up to 20 s: on a loaded machine the orphan can print late)
for i in $(seq 400); do grep -q '^orphan ' p.out && break; sleep 0.05; done
set -- $(sed -n 's/^orphan \([0-9]*\) ppid \([0-9]*\)$/\1 \2/p' p.out)
isnt_profq=$([ -n "${2:-}" ] && [ "$2" != "$(sqlite p.db "SELECT value FROM run_metadata WHERE key = 'launcher_pid'")" ]; echo $?)
ok "$isnt_profq" "the orphan was not reparented to profq"
# (a busy timeout: the orphan's collector may be closing its connection, which locks the file
# for the moment it checkpoints)
is "$(sqlite p.db ".timeout 5000" "SELECT status FROM runs")" complete "the run is complete at once"
for i in $(seq 100); do kill -0 "${1:-0}" 2>/dev/null || break; sleep 0.05; done
"$PROFQ" record --wait sometimes -- true 2>/dev/null; is "$?" 2 "--wait takes all or primary"

# The program forks right after its first NVTX call, while the collector's writer thread has just
# been started. Under gcc 12's ASan, whose allocator is not locked across fork, a child forked
# while that thread was still in its start-up inherited an allocator lock held and deadlocked
# (5 runs of 120, 4 at a time); pq_writer_start now returns once the thread runs. 24 runs, 4 at a
# time, each must end with the command's status.
ended=0
for round in 1 2 3 4 5 6; do
	for j in 1 2 3 4; do
		(mkdir -p "s$j" && cd "s$j" && rm -f s.db &&
		 timeout -k 5 60 "$PROFQ" record -o s.db -- "$APP" 5 6 >/dev/null 2>&1; echo $? >rc) &
	done
	wait
	for j in 1 2 3 4; do [ "$(cat "s$j/rc")" = 6 ] && ended=$((ended + 1)); done
done
is "$ended" 24 "24 runs of a program that forks at once all end with its status"
done_testing
