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
WITH k AS (
  SELECT CASE coalesce(:by, 'demangled')
           WHEN 'name' THEN n.value
           WHEN 'short-name' THEN coalesce(sn.value, kernel_short_name(coalesce(dn.value, n.value)))
           ELSE coalesce(dn.value, n.value) END AS name,
         k.end_ns - k.start_ns AS d
  FROM kernels k
  JOIN strings n ON n.id = k.name_id
  LEFT JOIN strings dn ON dn.id = k.demangled_name_id
  LEFT JOIN strings sn ON sn.id = k.short_name_id
  WHERE :run IS NULL OR k.run_id = :run
), g AS (
  SELECT name, sum(d) AS total_ns, count(*) AS instances, avg(d) AS avg_ns, median(d) AS med_ns,
         min(d) AS min_ns, max(d) AS max_ns, coalesce(stddev(d), 0) AS stddev_ns
  FROM k GROUP BY name
)
SELECT round(100.0 * total_ns / sum(total_ns) OVER (), 1) AS time_pct, total_ns, instances,
       round(avg_ns, 1) AS avg_ns, med_ns, min_ns, max_ns, round(stddev_ns, 1) AS stddev_ns, name
FROM g
ORDER BY total_ns DESC, instances DESC, name
LIMIT coalesce(:limit, -1);
