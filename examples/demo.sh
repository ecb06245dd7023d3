#!/bin/sh
# demo.sh BUILD: the main job on a built-in example. Writes BUILD/demo.db with examples/demo.c
# (through the same store the collector and importers use), then asks it questions.
set -eu
build=${1:-build}
db=$build/demo.db
profq=$build/profq

rm -f "$db" "$db-wal" "$db-shm"
"$build/examples/demo" "$db"
echo "== profq info $db"
"$profq" info "$db"

echo
echo "== profq top-kernels $db --by short-name   (the report nsys calls cuda_gpu_kern_sum)"
"$profq" top-kernels "$db" --by short-name

echo
echo "== profq nvtx-gpu-proj-sum $db   (NVTX ranges projected onto the GPU work they launched)"
"$profq" nvtx-gpu-proj-sum "$db"

echo
echo "== NVTX ranges on the main thread"
"$profq" sql "$db" "
SELECT CASE WHEN name LIKE 'step %' THEN 'step N' ELSE name END AS range, count(*) AS count,
       sum(duration_ns) AS total_ns, CAST(round(avg(duration_ns)) AS INTEGER) AS avg_ns
FROM v_ranges WHERE thread_name = 'MainThread' GROUP BY 1 ORDER BY total_ns DESC"

echo
echo "== GPU busy time per step (plain SQL over the friendly views)"
"$profq" sql "$db" "
SELECT s.name AS step, count(g.start_ns) AS gpu_ops,
       sum(g.duration_ns) AS gpu_busy_ns, s.duration_ns AS step_ns,
       printf('%.1f', 100.0 * sum(g.duration_ns) / s.duration_ns) AS busy_pct
FROM v_ranges s
JOIN v_gpu_activities g ON g.start_ns >= s.start_ns AND g.start_ns < s.end_ns AND g.stream = 7
WHERE s.name LIKE 'step %'
GROUP BY s.id ORDER BY s.start_ns"

echo
echo "Try your own: $profq sql $db \"SELECT * FROM v_kernels LIMIT 5\""

# Part 2: a real recording. examples/nvtx_demo.c is an NVTX-annotated program; `profq record`
# injects the collector and writes what it did (no GPU needed: NVTX only, with a warning).
if [ -f "$build/libprofq_collector.so" ] && [ -x "$build/examples/nvtx_demo" ]; then
	rec=$build/recorded.db
	rm -f "$rec" "$rec-wal" "$rec-shm"
	echo
	echo "== profq record -o $rec -- $build/examples/nvtx_demo"
	"$profq" record -o "$rec" -- "$build/examples/nvtx_demo"
	echo
	echo "== NVTX ranges by total time, per thread"
	"$profq" sql "$rec" "
SELECT thread_name AS thread, name AS range, count(*) AS count, sum(duration_ns) AS total_ns,
       CAST(round(avg(duration_ns)) AS INTEGER) AS avg_ns
FROM v_ranges GROUP BY 1, 2 ORDER BY total_ns DESC"
fi
