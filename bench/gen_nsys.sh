#!/bin/sh
# gen_nsys.sh OUT.sqlite [ROWS] [TEMPLATE.sqlite]
# Writes a large Nsight Systems SQLite export for the import benchmark: a copy of a real export
# (default tests/data/nsys/h100_2gpu_1s.sqlite: 3,442 kernels, 5,796 runtime calls, 16,782 NVTX
# events) whose CUDA and NVTX rows are repeated until the event tables hold about ROWS rows
# (default 2,500,000, the size of nsys-ai #300's export at 1/10 scale). Copy c is the template's
# rows shifted by c capture spans in time and by c times the largest id in correlation and NVTX
# range ids, so the copies are later work of the same processes, not duplicates. Every other
# table (strings, threads, devices, enums) stays as it is.
set -eu
out=$1
rows=${2:-2500000}
top=$(cd "$(dirname "$0")/.." && pwd)
src=${3:-$top/tests/data/nsys/h100_2gpu_1s.sqlite}
rm -f "$out"
cp "$src" "$out"
chmod u+w "$out"
q() { sqlite3 -batch -noheader -separator ' ' "$out" "$@"; }

tables=""
for t in CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_RUNTIME NVTX_EVENTS \
	CUPTI_ACTIVITY_KIND_MEMCPY CUPTI_ACTIVITY_KIND_MEMSET CUPTI_ACTIVITY_KIND_SYNCHRONIZATION; do
	[ "$(q "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '$t'")" = 1 ] &&
		tables="$tables $t"
done
span=0 per=0 ids=0
for t in $tables; do
	set -- $(q "SELECT max(coalesce(\"end\", start)) - min(start), count(*) FROM $t")
	[ "${1:-0}" -gt "$span" ] && span=$1
	per=$((per + $2))
	for col in correlationId rangeId; do
		[ "$(q "SELECT count(*) FROM pragma_table_info('$t') WHERE name = '$col'")" = 1 ] || continue
		m=$(q "SELECT coalesce(max($col), 0) FROM $t")
		[ "$m" -gt "$ids" ] && ids=$m
	done
done
span=$((span + 1000000))
ids=$((ids + 1))
copies=$(((rows + per - 1) / per))
for t in $tables; do
	cols=$(q "SELECT group_concat(CASE WHEN name IN ('start', 'end') THEN printf('\"%w\" + c * $span', name)
		WHEN name IN ('correlationId', 'rangeId') THEN printf('\"%w\" + c * $ids', name)
		WHEN pk > 0 AND upper(type) = 'INTEGER' THEN 'NULL'
		ELSE printf('\"%w\"', name) END, ', ') FROM pragma_table_info('$t')")
	n=$(q "SELECT max(rowid) FROM $t")
	q "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
	   WITH RECURSIVE k(c) AS (SELECT 1 UNION ALL SELECT c + 1 FROM k WHERE c + 1 < $copies)
	   INSERT INTO $t SELECT $cols FROM k, $t WHERE $t.rowid <= $n ORDER BY c, $t.rowid" >/dev/null
done
echo "$out: $copies copies of $per event rows ($(for t in $tables; do
	printf '%s %s; ' "${t#CUPTI_ACTIVITY_KIND_}" "$(q "SELECT count(*) FROM $t")"; done))"
