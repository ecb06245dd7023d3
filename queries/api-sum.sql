-- CUDA runtime and driver API calls by total time (nsys stats cuda_api_sum)
.load build/profq
--
-- Columns: time_pct, total_ns, num_calls, avg_ns, med_ns, min_ns, max_ns, stddev_ns, name.
-- One row per function name (every api_calls row, runtime and driver), the name without its
-- runtime version suffix: a trailing '_v' and digits is removed (cudaLaunchKernel_v7000 ->
-- cudaLaunchKernel, cudaLaunchKernelExC_v11060 -> cudaLaunchKernelExC). nsys strips only
-- four-digit versions (it checks the 6th/5th characters from the end for '_v'), so nsys prints
-- cudaLaunchKernelExC_v11060 unchanged; calls differing only in the suffix are one row here.
-- time_pct is the share of the total of all rows of this report, rounded to 0.1; avg/stddev
-- (sample; 0 for one call) are rounded to 0.1 ns, med_ns is exact. Sorted by total_ns descending.
-- Runs: all runs together unless --run ID (:run). No run_id column: rows are keyed by function
-- name, which means the same in every run, so a row sums over the runs as nsys's columns do.
-- Parameters: :run, :limit.
-- Needs the profq extension (median, stddev): see top-kernels.sql for how it is loaded.
WITH names AS MATERIALIZED (
  SELECT s.id, CASE WHEN rtrim(s.value, '0123456789') <> s.value
                     AND rtrim(s.value, '0123456789') LIKE '%\_v' ESCAPE '\'
                    THEN substr(s.value, 1, length(rtrim(s.value, '0123456789')) - 2)
                    ELSE s.value END AS name
  FROM strings s WHERE s.id IN (SELECT DISTINCT name_id FROM api_calls)
), g AS (
  SELECT n.name, sum(a.end_ns - a.start_ns) AS total_ns, count(*) AS num_calls,
         avg(a.end_ns - a.start_ns) AS avg_ns, median(a.end_ns - a.start_ns) AS med_ns,
         min(a.end_ns - a.start_ns) AS min_ns, max(a.end_ns - a.start_ns) AS max_ns,
         coalesce(stddev(a.end_ns - a.start_ns), 0) AS stddev_ns
  FROM api_calls a JOIN names n ON n.id = a.name_id
  WHERE :run IS NULL OR a.run_id = :run
  GROUP BY n.name
)
SELECT round(100.0 * total_ns / sum(total_ns) OVER (), 1) AS time_pct, total_ns, num_calls,
       round(avg_ns, 1) AS avg_ns, med_ns, min_ns, max_ns, round(stddev_ns, 1) AS stddev_ns, name
FROM g
ORDER BY total_ns DESC, num_calls DESC, name
LIMIT coalesce(:limit, -1);
