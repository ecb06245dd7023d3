-- GPU kernels and memory operations together by total time (nsys stats cuda_gpu_sum)
.load build/profq
--
-- Columns: time_pct, total_ns, instances, avg_ns, med_ns, min_ns, max_ns, stddev_ns, category, name.
-- category is CUDA_KERNEL (name: the demangled kernel name, as top-kernels) or MEMORY_OPER (name:
-- '[CUDA memcpy <kind>]' / '[CUDA memset]', as gpu-mem-time-sum). time_pct is the share of the total
-- of all rows of this report; avg/stddev (sample, 0 for one instance) rounded to 0.1 ns, med_ns
-- exact. Sorted by total_ns descending.
-- Runs: all runs together unless --run ID (:run). No run_id column: rows are keyed by category
-- and name, which mean the same in every run, so a row sums over the runs as nsys's columns do.
-- Parameters: :run, :limit.
-- Needs the profq extension (median, stddev): see top-kernels.sql for how it is loaded.
WITH ops AS (
  SELECT 'CUDA_KERNEL' AS category, coalesce(dn.value, n.value) AS name, k.end_ns - k.start_ns AS d
  FROM kernels k JOIN strings n ON n.id = k.name_id
  LEFT JOIN strings dn ON dn.id = k.demangled_name_id
  WHERE :run IS NULL OR k.run_id = :run
  UNION ALL
  SELECT 'MEMORY_OPER', '[CUDA memcpy ' || ck.label || ']', m.end_ns - m.start_ns
  FROM memcpys m JOIN copy_kinds ck ON ck.id = m.copy_kind
  WHERE :run IS NULL OR m.run_id = :run
  UNION ALL
  SELECT 'MEMORY_OPER', '[CUDA memset]', m.end_ns - m.start_ns
  FROM memsets m WHERE :run IS NULL OR m.run_id = :run
), g AS (
  SELECT category, name, sum(d) AS total_ns, count(*) AS instances, avg(d) AS avg_ns,
         median(d) AS med_ns, min(d) AS min_ns, max(d) AS max_ns,
         coalesce(stddev(d), 0) AS stddev_ns
  FROM ops GROUP BY category, name
)
SELECT round(100.0 * total_ns / sum(total_ns) OVER (), 1) AS time_pct, total_ns, instances,
       round(avg_ns, 1) AS avg_ns, med_ns, min_ns, max_ns, round(stddev_ns, 1) AS stddev_ns,
       category, name
FROM g
ORDER BY total_ns DESC, instances DESC, name
LIMIT coalesce(:limit, -1);
