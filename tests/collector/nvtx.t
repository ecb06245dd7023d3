#!/bin/sh
# NVTX for real: tests/nvtx/nvtx_app (nvtx3 headers, a second NVTX instance in libnvtxpeer.so,
# threads, a fork) under `profq record`; the database holds exactly what the program did.
. "${0%/*}/../lib.sh"
[ -f "$BUILD/libprofq_collector.so" ] || skip_all "the collector is not built (no CUPTI)"
cd "$TMP"
out=$("$PROFQ" record -o app.db -- "$BUILD/tests/nvtx/nvtx_app" 2>err.txt); is "$?" 0 "recording exits 0"
q() { sqlite app.db "$1"; }
pid=$(printf '%s\n' "$out" | sed -n 's/^pid \([0-9]*\) child \([0-9]*\)$/\1/p')
child=$(printf '%s\n' "$out" | sed -n 's/^pid \([0-9]*\) child \([0-9]*\)$/\2/p')
is "$(q "SELECT count(*) FROM runs")" 1 "one run"
is "$(q "SELECT status FROM runs")" complete "the run is complete"
is "$(q "SELECT group_concat(pid) FROM (SELECT pid FROM processes ORDER BY pid)")" \
	"$(printf '%s\n%s\n' "$pid" "$child" | sort -n | paste -sd,)" "the program and its fork child"
is "$(q "SELECT count(*) FROM v_ranges")" 410 "exactly the ranges the program made (9 + 400 + 1)"
is "$(q "SELECT group_concat(name || ':' || depth || ':' || ifnull((SELECT s.value FROM ranges p
	JOIN strings s ON s.id = p.name_id WHERE p.id = v.parent_id), '-'), ' ')
	FROM (SELECT * FROM v_ranges WHERE tid = $pid AND kind = 'nvtx_push_pop' AND domain IS NULL
	ORDER BY start_ns) v")" \
	"outer:0:- inner wide é:1:outer pushEx:1:outer timed:0:- peer range:0:-" \
	"push/pop nesting and parents on the main thread (W variant decoded)"
is "$(q "SELECT category || '|' || color || '|' || payload FROM v_ranges WHERE name = 'pushEx'")" \
	"io|4278255360|42" "category name, ARGB colour and payload of RangePushEx"
is "$(q "SELECT kind || '|' || domain || '|' || category || '|' || payload FROM v_ranges
	WHERE name = 'domain range'")" "nvtx_start_end|profq.test|compute|2.5" \
	"a domain start/end range with its domain category and double payload"
is "$(q "SELECT domain || ':' || depth FROM v_ranges WHERE name = 'registered-name'")" \
	"profq.test:0" "a registered string names a domain push"
is "$(q "SELECT count(*) FROM nvtx_domains")" 1 "one profq.test domain (only the parent used it)"
is "$(q "SELECT count(*) FROM v_ranges WHERE domain = 'profq.test' AND pid = $pid")" 3 \
	"the app's and the shared library's NVTX instances share the domain"
is "$(q "SELECT t1.tid = $pid AND t2.tid != t1.tid FROM ranges r JOIN strings s ON s.id = r.name_id
	JOIN threads t1 ON t1.id = r.thread_id JOIN threads t2 ON t2.id = r.end_thread_id
	WHERE s.value = 'cross-thread'")" 1 "a range ended on another thread records both threads"
is "$(q "SELECT group_concat(thread_name || '=' || n, ' ') FROM (SELECT thread_name, count(*) n
	FROM v_ranges WHERE name IN ('work', 'step') GROUP BY 1 ORDER BY 1)")" \
	"worker 0=200 worker 1=200" "2 named worker threads x 100 nested pairs"
is "$(q "SELECT count(*) FROM v_ranges WHERE name = 'step' AND depth = 1")" 200 "steps nest in work"
is "$(q "SELECT thread_name FROM v_ranges WHERE name = 'outer'")" "main thread" "nvtxNameOsThreadA"
is "$(q "SELECT group_concat(name, ',') FROM (SELECT name FROM v_marks WHERE pid = $pid
	ORDER BY ts_ns)")" "hello mark,registered-name,wide mark,peer mark,after fork" "marks in order"
is "$(q "SELECT group_concat(name, ',') FROM (SELECT name FROM v_ranges WHERE pid = $child UNION ALL
	SELECT name FROM v_marks WHERE pid = $child)")" "child range,in child" \
	"the fork child records only its own events"
is "$(q "SELECT value FROM run_metadata WHERE key = 'process.$child.forked_from'")" "$pid" \
	"the child says whose fork it is"
set -- $(printf '%s\n' "$out" | sed -n 's/^timed //p')
is "$(q "SELECT start_ns <= $1 AND end_ns >= $2 AND duration_ns - ($2 - $1) < 5000000
	FROM v_ranges WHERE name = 'timed'")" 1 "durations agree with the program's own clock"
is "$(q "SELECT count(*) FROM ranges WHERE end_ns IS NULL OR end_ns < start_ns")" 0 \
	"every range is closed and ends after it starts"
is "$(q "SELECT value FROM run_metadata WHERE key = 'process.$pid.nvtx_dropped'")" 0 "nothing dropped"
like "$(cat err.txt)" "^profq: warning: GPU activity will not be recorded \(no CUDA driver" \
	"one warning line without a driver"
# (under PROFQ_ASAN=1, LeakSanitizer may add its own "thread was not suspended" note after fork)
is "$(grep -c "^profq:" err.txt)" 1 "and only one"
like "$(q "SELECT value FROM run_metadata WHERE key = 'gpu_tracing'")" "^off: no CUDA driver" \
	"the reason is in the run metadata"
is "$(q "PRAGMA integrity_check")" ok "integrity_check"

# A second recording into the same file is a second run.
"$PROFQ" record -o app.db -- "$BUILD/tests/nvtx/nvtx_app" exit 3 >/dev/null 2>&1
is "$?" 3 "the command's exit status is returned"
is "$(q "SELECT count(*) FROM ranges WHERE run_id = 2")" 1 "a second run in the same file"

# Capture range: only inside 'timed'.
"$PROFQ" record -o cap.db --capture-range nvtx:timed -- "$BUILD/tests/nvtx/nvtx_app" >/dev/null 2>&1
is "$(sqlite cap.db "SELECT group_concat(name) FROM v_ranges")" timed "--capture-range nvtx:NAME"
done_testing
