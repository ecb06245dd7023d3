#!/bin/sh
# The collector's bounded NVTX memory (PROFQ_BUFFER_MB, collector/buffers.c): events beyond it are
# dropped and counted, never waited for. tests/nvtx/nvtx_flood makes far more marks than 1 MB
# holds from 4 threads; every event is either a row or counted in process.<pid>.nvtx_dropped.
. "${0%/*}/../lib.sh"
[ -f "$BUILD/libprofq_collector.so" ] || skip_all "the collector is not built (no CUPTI)"
cd "$TMP"
# 4 x 250000 marks of 64 bytes = 64 MB of events against a 1 MB pool.
PROFQ_BUFFER_MB=1 timeout 120 "$PROFQ" record -o d.db -- "$BUILD/tests/nvtx/nvtx_flood" 4 250000 \
	>d.out 2>d.err
is "$?" 0 "the flood completes (no deadlock, no crash) and exits 0"
emitted=$(sed -n 's/^emitted //p' d.out)
is "$emitted" 1000000 "the program made 1000000 events"
q() { sqlite d.db "$1"; }
stored=$(q "SELECT count(*) FROM marks")
dropped=$(q "SELECT sum(value) FROM run_metadata WHERE key LIKE 'process.%.nvtx_dropped'")
ok "$([ "$dropped" -gt 0 ]; echo $?)" "events were dropped ($dropped), so the drop path ran"
ok "$([ "$stored" -gt 0 ]; echo $?)" "and events were stored ($stored)"
is "$dropped" "$((emitted - stored))" "dropped = emitted - stored, exactly"
is "$(q "SELECT count(*) FROM marks WHERE ts_ns IS NULL OR name_id IS NULL")" 0 "stored marks are whole"
is "$(q "SELECT status FROM runs")" complete "the run is complete"
is "$(grep -c "^profq collector" d.err)" 0 "no write errors"
is "$(q "PRAGMA integrity_check")" ok "integrity_check"
done_testing
