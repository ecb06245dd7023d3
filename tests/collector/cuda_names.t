#!/bin/sh
# NVTX names of CUDA objects (tests/nvtx/nvtx_names: every nvtxNameCu* / nvtxNameCuda* call, A and
# W, with made-up handles) land in cuda_names exactly as the program passed them.
. "${0%/*}/../lib.sh"
[ -f "$BUILD/libprofq_collector.so" ] || skip_all "the collector is not built (no CUPTI)"
cd "$TMP"
"$PROFQ" record -o n.db -- "$BUILD/tests/nvtx/nvtx_names" >n.out 2>/dev/null; is "$?" 0 "recording exits 0"
q() { sqlite n.db "$1"; }
want=$(sed -n 's/^name //p' n.out)
is "$(printf '%s\n' "$want" | wc -l)" 14 "the program made 14 naming calls (8 driver, 6 runtime)"
is "$(q "SELECT n.resource || ' ' || n.api || ' ' || n.handle || ' ' || s.value
	FROM cuda_names n JOIN strings s ON s.id = n.name_id ORDER BY n.ts_ns, n.id")" "$want" \
	"every call is a row, in call order, with the handle, API and (UTF-8) name it passed"
is "$(q "SELECT count(*) FROM cuda_names WHERE cupti_id IS NOT NULL")" 0 \
	"without a driver no handle is mapped to a CUPTI id"
is "$(q "SELECT count(DISTINCT process_id) || ' ' || count(DISTINCT thread_id) || ' ' ||
	(SELECT count(*) FROM cuda_names n JOIN threads t ON t.id = n.thread_id
	 JOIN processes p ON p.id = n.process_id WHERE t.tid = p.pid) FROM cuda_names")" "1 1 14" \
	"all named by the program's main thread"
h=$(printf '%s\n' "$want" | sed -n 's/^stream runtime \([0-9]*\) compute renamed$/\1/p')
is "$(q "SELECT s.value FROM cuda_names n JOIN strings s ON s.id = n.name_id
	WHERE n.resource = 'stream' AND n.handle = $h ORDER BY n.ts_ns DESC LIMIT 1")" \
	"compute renamed" "the newest row of a handle is its current name"
like "$("$PROFQ" info n.db)" "stream +runtime +0x7f0000004000 +compute renamed" \
	"profq info lists each object's current name"
done_testing
