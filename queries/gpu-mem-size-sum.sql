-- GPU memory operations (memcpy, memset) by total size in MB (nsys stats cuda_gpu_mem_size_sum)
.load build/profq
--
-- Columns: total_mb, count, avg_mb, med_mb, min_mb, max_mb, stddev_mb, operation.
-- One row per operation, named as in gpu-mem-time-sum. MB is 10^6 bytes, as nsys prints it;
-- values are rounded to 6 decimals, i.e. to the byte (med_mb to 7: a median can be a half byte;
-- stddev: sample, 0 for one operation).
-- Operations without a byte count are left out. Sorted by total_mb descending.
-- Runs: all runs together unless --run ID (:run). No run_id column: rows are keyed by operation,
-- which means the same in every run, so a row sums over the runs as nsys's columns do.
-- Parameters: :run, :limit.
-- Needs the profq extension (median, stddev): see top-kernels.sql for how it is loaded.
WITH ops AS (
  SELECT '[CUDA memcpy ' || ck.label || ']' AS operation, m.bytes AS b
  FROM memcpys m JOIN copy_kinds ck ON ck.id = m.copy_kind
  WHERE (:run IS NULL OR m.run_id = :run) AND m.bytes IS NOT NULL
  UNION ALL
  SELECT '[CUDA memset]', m.bytes
  FROM memsets m
  WHERE (:run IS NULL OR m.run_id = :run) AND m.bytes IS NOT NULL
)
SELECT round(sum(b) / 1e6, 6) AS total_mb, count(*) AS count, round(avg(b) / 1e6, 6) AS avg_mb,
       round(median(b) / 1e6, 7) AS med_mb, round(min(b) / 1e6, 6) AS min_mb,
       round(max(b) / 1e6, 6) AS max_mb, round(coalesce(stddev(b), 0) / 1e6, 6) AS stddev_mb,
       operation
FROM ops
GROUP BY operation
ORDER BY sum(b) DESC, count(*) DESC, operation
LIMIT coalesce(:limit, -1);
