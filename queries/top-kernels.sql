-- GPU kernels by total time (nsys stats cuda_gpu_kern_sum); --by name|short-name|demangled
-- option by=demangled|name|short-name (default demangled): the name kernels are grouped by: demangled (as nsys), name (as recorded, mangled), short-name (function name only, as nsys :base)
.load build/profq
--
-- Columns: time_pct, total_ns, instances, avg_ns, med_ns, min_ns, max_ns, stddev_ns, name.
-- One row per kernel name; duration = end_ns - start_ns. time_pct is the row's share of the total
-- of all rows of this report (not of wall time), rounded to 0.1 like nsys; avg_ns and stddev_ns
-- (sample, n - 1; 0 for one instance) are rounded to 0.1 ns; med_ns is exact. Sorted by total_ns
-- descending, then instances, then name. --limit N keeps the first N rows (time_pct unchanged).
-- Runs: every run of the database together (a name seen in two runs is one row); --run ID (the
-- :run parameter) keeps one run.
-- Parameters (sqlite3: sqlite3 -cmd ".param set :by 'short-name'" profile.db < this file):
--   :by, :run, :limit. Unset parameters are NULL and mean the default.
-- Needs the profq extension (median, stddev, kernel_short_name): the .load line above works from
-- the repository root; the copy `make install` puts in share/profq/queries/ loads the installed
-- lib/profq/profq instead. profq itself skips lines starting with '.'.
-- Rows are grouped by the interned name id (strings are unique, so one id is one name), and by
-- text only for --by short-name on kernels without a recorded short name (Kineto, collector),
-- where kernel_short_name() derives it.
WITH g AS (
  -- One branch per grouping (the WHERE on :by is constant, so two branches read nothing): the
  -- default one groups by exactly the expression of the kernels_name index (schema.sql), which
  -- then gives the rows in key order and SQLite aggregates them without sorting all kernels
  -- first (databases made before that index still work, with the sort). avg_ns is
  -- total_ns / instances: the same double avg() gives, one aggregate less per row.
  SELECT coalesce(k.demangled_name_id, k.name_id) AS key,
         sum(k.end_ns - k.start_ns) AS total_ns, count(*) AS instances,
         median(k.end_ns - k.start_ns) AS med_ns,
         min(k.end_ns - k.start_ns) AS min_ns, max(k.end_ns - k.start_ns) AS max_ns,
         coalesce(stddev(k.end_ns - k.start_ns), 0) AS stddev_ns
  FROM kernels k
  WHERE coalesce(:by, 'demangled') NOT IN ('name', 'short-name')
    AND (:run IS NULL OR k.run_id = :run)
  GROUP BY coalesce(k.demangled_name_id, k.name_id)
  UNION ALL
  SELECT k.name_id,
         sum(k.end_ns - k.start_ns), count(*), median(k.end_ns - k.start_ns),
         min(k.end_ns - k.start_ns), max(k.end_ns - k.start_ns),
         coalesce(stddev(k.end_ns - k.start_ns), 0)
  FROM kernels k
  WHERE :by = 'name' AND (:run IS NULL OR k.run_id = :run)
  GROUP BY k.name_id
  UNION ALL
  SELECT coalesce(k.short_name_id, kernel_short_name(
           (SELECT value FROM strings WHERE id = coalesce(k.demangled_name_id, k.name_id)))),
         sum(k.end_ns - k.start_ns), count(*), median(k.end_ns - k.start_ns),
         min(k.end_ns - k.start_ns), max(k.end_ns - k.start_ns),
         coalesce(stddev(k.end_ns - k.start_ns), 0)
  FROM kernels k
  WHERE :by = 'short-name' AND (:run IS NULL OR k.run_id = :run)
  GROUP BY 1
), n AS (
  SELECT g.*, CASE WHEN typeof(key) = 'integer' THEN (SELECT value FROM strings WHERE id = key)
                   ELSE key END AS name
  FROM g
)
SELECT round(100.0 * total_ns / sum(total_ns) OVER (), 1) AS time_pct, total_ns, instances,
       round(1.0 * total_ns / instances, 1) AS avg_ns, med_ns, min_ns, max_ns, round(stddev_ns, 1) AS stddev_ns, name
FROM n
ORDER BY total_ns DESC, instances DESC, name
LIMIT coalesce(:limit, -1);
