-- analyze rule gpu_gaps: GPU idle periods longer than --gap-ms (default 500 ms) (nsys analyze gpu_gaps)
-- option gap-ms=<ms>: report gaps longer than this many milliseconds (default 500)
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
), s AS (
  SELECT run_id, process_id, device_id, start_ns AS t,
         row_number() OVER (PARTITION BY run_id, process_id, device_id ORDER BY start_ns) AS i
  FROM ops
), e AS (
  SELECT run_id, process_id, device_id, end_ns AS t,
         row_number() OVER (PARTITION BY run_id, process_id, device_id ORDER BY end_ns) AS i
  FROM ops
)
SELECT e.t AS start_ns, s.t AS end_ns, s.t - e.t AS duration_ns, p.pid, d.ordinal AS device,
       s.run_id
FROM s
JOIN e ON e.run_id = s.run_id AND e.process_id IS s.process_id AND e.device_id IS s.device_id
      AND e.i = s.i - 1
LEFT JOIN processes p ON p.id = s.process_id
LEFT JOIN devices d ON d.id = s.device_id
WHERE s.t - e.t > coalesce(:gap_ms, 500) * 1000000
ORDER BY duration_ns DESC, start_ns
LIMIT coalesce(:limit, -1);
