#!/bin/sh
# Reports while profq record writes: every reading command succeeds, none says "database is
# locked", and what it counts only grows. Then the recording completes as usual.
. "${0%/*}/../lib.sh"
[ -f "$BUILD/libprofq_collector.so" ] || skip_all "the collector is not built (no CUPTI)"
cd "$TMP"
APP=$BUILD/tests/nvtx/nvtx_app

"$PROFQ" record -o live.db --flush-interval-ms 20 -- "$APP" loop 50 >app.out 2>rec.err &
lp=$!
for i in $(seq 100); do grep -q ready app.out 2>/dev/null && break; sleep 0.1; done

prev=0; fails=0; shrank=0; locked=0; rounds=0
end=$(($(date +%s) + 4))
while [ "$(date +%s)" -lt "$end" ]; do
	rounds=$((rounds + 1))
	n=$("$PROFQ" sql live.db "SELECT count(*) FROM ranges" --format csv 2>>read.err | tail -1) || fails=$((fails + 1))
	"$PROFQ" info live.db >/dev/null 2>>read.err || fails=$((fails + 1))
	"$PROFQ" nvtx-sum live.db --format csv >sum.csv 2>>read.err || fails=$((fails + 1))
	"$PROFQ" info --format json live.db >/dev/null 2>>read.err || fails=$((fails + 1))
	case $n in ''|*[!0-9]*) fails=$((fails + 1)); n=$prev ;; esac
	[ "$n" -ge "$prev" ] || shrank=$((shrank + 1))
	prev=$n
done
grep -qi "locked\|busy" read.err && locked=1
is "$fails" 0 "$rounds rounds of sql, info, info --format json and nvtx-sum: no failure"
is "$locked" 0 "nobody was told the database is locked"
is "$shrank" 0 "the range count only grew (last $prev)"
is "$(cat read.err)" "" "nothing on stderr"
ok "$([ "$prev" -gt 50 ]; echo $?)" "the readers saw the recording grow ($prev ranges)"
kill -TERM $lp; wait $lp
is "$?" 143 "the recording ends on SIGTERM"
is "$(sqlite live.db "SELECT status FROM runs")" complete "and completes"
ok "$([ "$(sqlite live.db "SELECT count(*) FROM ranges")" -ge "$prev" ]; echo $?)" "with at least what the readers saw"
is "$(grep -v 'GPU activity will not be recorded' rec.err)" "" "the recorder reported no error (a GPU-less host's warning aside)"
done_testing
