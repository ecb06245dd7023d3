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
echo "== GPU kernels by total time (profq sql $db ...)"
"$profq" sql "$db" "
SELECT printf('%.1f', 100.0 * sum(duration_ns) / (SELECT sum(duration_ns) FROM v_kernels))
         AS time_pct,
       sum(duration_ns) AS total_ns, count(*) AS instances,
       CAST(round(avg(duration_ns)) AS INTEGER) AS avg_ns,
       min(duration_ns) AS min_ns, max(duration_ns) AS max_ns, short_name AS name
FROM v_kernels GROUP BY name ORDER BY total_ns DESC"

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
