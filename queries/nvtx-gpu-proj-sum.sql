-- NVTX ranges projected onto their GPU work, summed per range name (nsys nvtx_gpu_proj_sum)
.load build/profq
--
-- Columns: time_pct, total_proj_ns, total_range_ns, range_instances, proj_avg_ns, proj_med_ns,
-- proj_min_ns, proj_max_ns, proj_stddev_ns, total_gpu_ops, avg_gpu_ops, avg_range_level,
-- avg_num_child, style, range.
-- Per (range name, style), over the ranges of nvtx-gpu-proj-trace (same definition: an operation
-- belongs to every range on its launching thread that contains its API call; ranges without GPU
-- work are not counted): projected time = latest op end - earliest op start per range instance;
-- total_range_ns is the ranges' own (CPU) duration. Child time is not subtracted from parents, so
-- totals can exceed the capture. time_pct is the share of total_proj_ns over all rows;
-- avg/stddev (sample, 0 for one instance) rounded to 0.1 ns, proj_med_ns exact; averages of ops,
-- level and children rounded to 0.01. Sorted by total_proj_ns descending.
-- Grouped by the interned names (strings are unique, so the same text is the same id) rather
-- than by the concatenated text, which costs a text sort of every range: the one difference is
-- that two (domain, name) pairs whose "domain:name" texts coincide, a colon inside one of the
-- names, stay two rows.
-- Runs: all runs together unless --run ID (:run). No run_id column: rows are keyed by range
-- name and style, which mean the same in every run, so a row sums over the runs as nsys's do.
-- Parameters: :run, :limit.
-- Needs the profq extension (nvtx_gpu_proj, median, stddev): see top-kernels.sql.
WITH p AS (
  SELECT coalesce(nd.name_id, (SELECT id FROM strings WHERE value = '')) AS domain_name_id,
         r.name_id, r.kind, p.proj_end_ns - p.proj_start_ns AS d,
         p.range_end_ns - r.start_ns AS rd,
         p.num_gpu_ops, p.level, p.num_child
  FROM nvtx_gpu_proj(:run) p
  JOIN ranges r ON r.id = p.range_id
  LEFT JOIN nvtx_domains nd ON nd.id = r.domain_id
), g AS (
  SELECT domain_name_id, name_id, kind, sum(d) AS total_proj_ns, sum(rd) AS total_range_ns,
         count(*) AS range_instances, avg(d) AS proj_avg_ns, median(d) AS proj_med_ns,
         min(d) AS proj_min_ns, max(d) AS proj_max_ns, coalesce(stddev(d), 0) AS proj_stddev_ns,
         sum(num_gpu_ops) AS total_gpu_ops, avg(num_gpu_ops) AS avg_gpu_ops,
         avg(level) AS avg_range_level, avg(num_child) AS avg_num_child
  FROM p GROUP BY domain_name_id, name_id, kind
), named AS (
  SELECT g.*, CASE kind WHEN 0 THEN 'PushPop' ELSE 'StartEnd' END AS style,
         coalesce(ds.value, '') || ':' || n.value AS range
  FROM g JOIN strings n ON n.id = g.name_id LEFT JOIN strings ds ON ds.id = g.domain_name_id
)
SELECT round(100.0 * total_proj_ns / sum(total_proj_ns) OVER (), 1) AS time_pct, total_proj_ns,
       total_range_ns, range_instances, round(proj_avg_ns, 1) AS proj_avg_ns, proj_med_ns,
       proj_min_ns, proj_max_ns, round(proj_stddev_ns, 1) AS proj_stddev_ns, total_gpu_ops,
       round(avg_gpu_ops, 2) AS avg_gpu_ops, round(avg_range_level, 2) AS avg_range_level,
       round(avg_num_child, 2) AS avg_num_child, style, range
FROM named
ORDER BY total_proj_ns DESC, range_instances DESC, range, style
LIMIT coalesce(:limit, -1);
