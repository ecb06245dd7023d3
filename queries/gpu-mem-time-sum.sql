-- GPU memory operations (memcpy, memset) by total time (nsys stats cuda_gpu_mem_time_sum)
.load build/profq
--
-- Columns: time_pct, total_ns, count, avg_ns, med_ns, min_ns, max_ns, stddev_ns, operation.
-- One row per operation: '[CUDA memcpy <copy kind>]' (copy_kinds.label, e.g.
-- '[CUDA memcpy Host-to-Device]') for memcpys, '[CUDA memset]' for memsets. time_pct is the share
-- of the total of all rows of this report, rounded to 0.1; avg/stddev rounded to 0.1 ns (stddev
-- sample, 0 for one operation), med_ns exact. Sorted by total_ns descending.
-- Runs: all runs together unless --run ID (:run). No run_id column: rows are keyed by operation,
-- which means the same in every run, so a row sums over the runs as nsys's columns do.
-- Parameters: :run, :limit.
-- Needs the profq extension (median, stddev): see top-kernels.sql for how it is loaded.
WITH ops AS (
  SELECT '[CUDA memcpy ' || ck.label || ']' AS operation, m.end_ns - m.start_ns AS d
  FROM memcpys m JOIN copy_kinds ck ON ck.id = m.copy_kind
  WHERE :run IS NULL OR m.run_id = :run
  UNION ALL
  SELECT '[CUDA memset]', m.end_ns - m.start_ns
  FROM memsets m
  WHERE :run IS NULL OR m.run_id = :run
), g AS (
  SELECT operation, sum(d) AS total_ns, count(*) AS count, avg(d) AS avg_ns, median(d) AS med_ns,
         min(d) AS min_ns, max(d) AS max_ns, coalesce(stddev(d), 0) AS stddev_ns
  FROM ops GROUP BY operation
)
SELECT round(100.0 * total_ns / sum(total_ns) OVER (), 1) AS time_pct, total_ns, count,
       round(avg_ns, 1) AS avg_ns, med_ns, min_ns, max_ns, round(stddev_ns, 1) AS stddev_ns,
       operation
FROM g
ORDER BY total_ns DESC, count DESC, operation
LIMIT coalesce(:limit, -1);
