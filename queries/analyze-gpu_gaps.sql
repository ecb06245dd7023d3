-- analyze rule gpu_gaps: GPU idle periods longer than --gap-ms (default 500 ms) (nsys analyze gpu_gaps)
-- option gap-ms=<ms> (default 500): report gaps longer than this many milliseconds
-- advice: The GPU was idle here; look at what the CPU did in these periods (data loading, synchronization, Python overhead) and overlap it with GPU work.
-- severity: warning
.load build/profq
--
-- Columns: start_ns (the gap's start), end_ns, duration_ns, pid, device, run_id.
-- Per (run, process, device), between its first and last GPU operation (kernels, memcpys,
-- memsets): the operations' starts and ends are sorted separately and gap i = start[i] - end[i-1],
-- as nsys does; gaps longer than :gap_ms milliseconds (default 500) are listed. nsys also removes
-- gaps caused by profiler overhead; that is not done here. Sorted by duration, longest first.
-- Runs: every run separately unless --run ID (:run). Plain SQL.
WITH ops AS (
  SELECT run_id, process_id, device_id, start_ns, end_ns FROM kernels
  WHERE :run IS NULL OR run_id = :run
  UNION ALL SELECT run_id, process_id, device_id, start_ns, end_ns FROM memcpys
  WHERE :run IS NULL OR run_id = :run
  UNION ALL SELECT run_id, process_id, device_id, start_ns, end_ns FROM memsets
  WHERE :run IS NULL OR run_id = :run
), ends AS (   -- start[i] and end[i-1] side by side: pair them by grouping, not by a join
  SELECT run_id, process_id, device_id, start_ns AS t, 0 AS is_end,
         row_number() OVER (PARTITION BY run_id, process_id, device_id ORDER BY start_ns) AS i
  FROM ops
  UNION ALL
  SELECT run_id, process_id, device_id, end_ns, 1,
         row_number() OVER (PARTITION BY run_id, process_id, device_id ORDER BY end_ns) + 1
  FROM ops
), g AS (
  SELECT run_id, process_id, device_id, max(CASE WHEN is_end THEN t END) AS gap_start,
         max(CASE WHEN NOT is_end THEN t END) AS gap_end
  FROM ends GROUP BY run_id, process_id, device_id, i
)
SELECT g.gap_start AS start_ns, g.gap_end AS end_ns, g.gap_end - g.gap_start AS duration_ns,
       p.pid, d.ordinal AS device, g.run_id
FROM g
LEFT JOIN processes p ON p.id = g.process_id
LEFT JOIN devices d ON d.id = g.device_id
WHERE g.gap_end - g.gap_start > coalesce(:gap_ms, 500) * 1000000
ORDER BY duration_ns DESC, start_ns
LIMIT coalesce(:limit, -1);
