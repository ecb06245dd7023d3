#!/bin/sh
# The NVTX projection reports and range-sum on every Nsight Systems export (nsys_exports),
# against an independent computation over the export's own tables (tests/reports/nsys_expect.py,
# notes/nsys.md §2.4): NVTX_EVENTS 59/60/70/71 ranges named '<domain>:<text>', each GPU op
# (KERNEL, MEMCPY, MEMSET) joined to its RUNTIME row by correlationId within the process and
# given to every range on the launching globalTid whose [start, end] contains the call's
# [start, end] (per thread: calls sorted by start, each range bisects to the calls inside it).
# nvtx-gpu-proj-trace row for row (name, UTC projected/original start, durations, style, pid, tid,
# GPU op count); nvtx-gpu-proj-sum per (range, style) instances, totals, min, max, median,
# avg/stddev to 0.1 ns, GPU ops; nvtx-kern-sum per (pid, tid, range, style, kernel) range and
# kernel counts, total, min, max, median; range-sum count, total, mean per (message, kind).
# Exports without NVTX rows (all but h100_2gpu_1s) must run and return no rows.
. "${0%/*}/../lib.sh"
[ -d "$DATA/nsys" ] || skip_all "no $DATA/nsys"
here=$(cd "${0%/*}" && pwd)

for f in $(nsys_exports); do
	b=$(basename "$f" .sqlite)
	"$PROFQ" import -q -o "$TMP/$b.db" "$f" >/dev/null 2>&1
	is "$?" 0 "$b: imported"
	nvtx=$(sqlite "$f" "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71)" \
		2>/dev/null || echo 0)
	for r in nvtx-gpu-proj-trace nvtx-gpu-proj-sum nvtx-kern-sum range-sum; do
		"$PROFQ" "$r" "$TMP/$b.db" --format csv >"$TMP/out.csv" 2>"$TMP/err"
		is "$?:$(cat "$TMP/err")" "0:" "$b: $r runs"
		rows=$(($(wc -l <"$TMP/out.csv") - 1))
		if [ "$nvtx" = 0 ]; then
			is "$rows" 0 "$b: $r has no rows (no NVTX ranges)"
		else
			ok "$([ "$rows" -gt 0 ]; echo $?)" "$b: $r has rows"
		fi
		is "$(py "$here/nsys_expect.py" "$r" "$f" "$TMP/out.csv")" ok "$b: $r equals nsys's tables"
	done
done
done_testing
