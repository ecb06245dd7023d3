#!/bin/sh
# The nsys-stats-compatible reports on every Nsight Systems export (nsys_exports): each
# report's counts, totals, min, max and median equal an independent computation over the export's
# own tables (tests/reports/nsys_expect.py; Python's statistics.median); gpu-sum and kern-exec-sum
# likewise (kern-exec-sum also avg to 0.1 ns and the queue-time counts), and the trace reports
# kern-exec-trace, gpu-trace and api-trace row for row (as multisets of their time, id and name
# fields, timestamps moved to UTC by the session start).
. "${0%/*}/../lib.sh"
[ -d "$DATA/nsys" ] || skip_all "no $DATA/nsys"
here=$(cd "${0%/*}" && pwd)

for f in $(nsys_exports); do
	b=$(basename "$f" .sqlite)
	"$PROFQ" import -q -o "$TMP/$b.db" "$f" >/dev/null 2>&1
	is "$?" 0 "$b: imported"
	for r in top-kernels top-kernels:short-name api-sum gpu-mem-time-sum gpu-mem-size-sum \
		nvtx-sum nvtx-pushpop-sum nvtx-startend-sum gpu-sum kern-exec-sum kern-exec-trace \
		gpu-trace api-trace; do
		name=${r%%:*}
		set -- --format csv
		[ "$name" != "$r" ] && set -- "$@" --by "${r#*:}"
		"$PROFQ" "$name" "$TMP/$b.db" "$@" >"$TMP/out.csv" 2>"$TMP/err"
		is "$?:$(cat "$TMP/err")" "0:" "$b: $r runs"
		is "$(py "$here/nsys_expect.py" "$r" "$f" "$TMP/out.csv")" ok "$b: $r equals nsys's tables"
	done
done
# kernels.sql is the same report as top-kernels.sql.
is "$("$PROFQ" kernels "$TMP/h100_2gpu_1s.db" --format csv)" \
	"$("$PROFQ" top-kernels "$TMP/h100_2gpu_1s.db" --format csv)" "kernels is top-kernels"
done_testing
