-- NVTX start/end ranges by total time (nsys stats nvtx_startend_sum)
.load build/profq
--
-- Columns: time_pct, total_ns, instances, avg_ns, med_ns, min_ns, max_ns, stddev_ns, range.
-- Only start/end ranges (nvtx-sum with style StartEnd). One row per range:
-- '<domain>:<message>', with an empty domain for the default domain (':my_range'). A range never closed
-- (end_ns NULL) lasts until the run's last NVTX timestamp. time_pct is the share of the total of
-- all rows of this report; avg/stddev (sample, 0 for one instance) rounded to 0.1 ns; med_ns exact.
-- Framework ranges (PyTorch operators, annotations) are not NVTX: see range-sum.
-- Runs: all runs together unless --run ID (:run). No run_id column: rows are keyed by range
-- name, which means the same in every run, so a row sums over the runs as nsys's columns do.
-- Parameters: :run, :limit.
-- Needs the profq extension (median, stddev): see top-kernels.sql for how it is loaded.
WITH last AS (
  SELECT run_id, max(ts) AS ts FROM (
    SELECT run_id, max(coalesce(end_ns, start_ns)) AS ts FROM ranges WHERE kind IN (0, 1)
    GROUP BY run_id
    UNION ALL
    SELECT run_id, max(ts_ns) FROM marks WHERE kind = 0 GROUP BY run_id)
  GROUP BY run_id
), r AS (
  SELECT coalesce(ds.value, '') || ':' || n.value AS range,
         CASE r.kind WHEN 0 THEN 'PushPop' ELSE 'StartEnd' END AS style,
         coalesce(r.end_ns, l.ts) - r.start_ns AS d
  FROM ranges r
  JOIN strings n ON n.id = r.name_id
  JOIN last l ON l.run_id = r.run_id
  LEFT JOIN nvtx_domains nd ON nd.id = r.domain_id
  LEFT JOIN strings ds ON ds.id = nd.name_id
  WHERE r.kind IN (0, 1) AND (:run IS NULL OR r.run_id = :run)
    AND r.kind = 1
), g AS (
  SELECT range, style, sum(d) AS total_ns, count(*) AS instances, avg(d) AS avg_ns,
         median(d) AS med_ns, min(d) AS min_ns, max(d) AS max_ns,
         coalesce(stddev(d), 0) AS stddev_ns
  FROM r GROUP BY range, style
)
SELECT round(100.0 * total_ns / sum(total_ns) OVER (), 1) AS time_pct, total_ns, instances,
       round(avg_ns, 1) AS avg_ns, med_ns, min_ns, max_ns, round(stddev_ns, 1) AS stddev_ns,
       range
FROM g
ORDER BY total_ns DESC, instances DESC, range, style
LIMIT coalesce(:limit, -1);
