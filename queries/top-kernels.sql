-- GPU kernels by total time (nsys stats cuda_gpu_kern_sum); --by name|short-name|demangled
-- option by=demangled|name|short-name: the name kernels are grouped by: demangled (the default, as nsys), name (as recorded, mangled), short-name (function name only, as nsys :base)
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
  SELECT CASE coalesce(:by, 'demangled')
           WHEN 'name' THEN k.name_id
           WHEN 'short-name' THEN coalesce(k.short_name_id, kernel_short_name(
             (SELECT value FROM strings WHERE id = coalesce(k.demangled_name_id, k.name_id))))
           ELSE coalesce(k.demangled_name_id, k.name_id) END AS key,
         sum(k.end_ns - k.start_ns) AS total_ns, count(*) AS instances,
         avg(k.end_ns - k.start_ns) AS avg_ns, median(k.end_ns - k.start_ns) AS med_ns,
         min(k.end_ns - k.start_ns) AS min_ns, max(k.end_ns - k.start_ns) AS max_ns,
         coalesce(stddev(k.end_ns - k.start_ns), 0) AS stddev_ns
  FROM kernels k
  WHERE :run IS NULL OR k.run_id = :run
  GROUP BY key
), n AS (
  SELECT g.*, CASE WHEN typeof(key) = 'integer' THEN (SELECT value FROM strings WHERE id = key)
                   ELSE key END AS name
  FROM g
)
SELECT round(100.0 * total_ns / sum(total_ns) OVER (), 1) AS time_pct, total_ns, instances,
       round(avg_ns, 1) AS avg_ns, med_ns, min_ns, max_ns, round(stddev_ns, 1) AS stddev_ns, name
FROM n
ORDER BY total_ns DESC, instances DESC, name
LIMIT coalesce(:limit, -1);
