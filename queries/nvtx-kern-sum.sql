-- Kernels per enclosing NVTX range: per (thread, range, kernel) instances and time (nsys stats nvtx_kern_sum)
.load build/profq
--
-- Columns: pid, tid, range, style, nvtx_inst, kern_inst, total_ns, avg_ns, med_ns, min_ns, max_ns,
-- stddev_ns, kernel_name, run_id.
-- A kernel is attributed to every NVTX range (push/pop or start/end, ended on the thread it
-- started on) on the thread of its launching API call whose [start, end] contains the call's
-- [start, end] -- not only the innermost, so same-named nested ranges count a kernel twice (nsys
-- warns about this too). nvtx_inst = distinct ranges, kern_inst = kernels; times are kernel GPU
-- durations. Kernels without their API row are left out; a range never closed ends at the run's
-- last NVTX timestamp. Sorted by total_ns descending.
-- The (range, kernel) pairs come from the extension's nvtx_kernel_ranges table-valued function
-- (the sweep behind nvtx_gpu_proj), not from a range join.
-- Runs: all runs unless --run ID (:run), each its own rows (run_id column): pid and tid are the
-- run's own numbers, which another run can repeat. Parameters: :run, :limit.
-- Needs the profq extension (median, stddev): see top-kernels.sql for how it is loaded.
WITH x AS (
  SELECT r.thread_id, r.id AS range_id, r.name_id, r.domain_id, r.kind,
         k.end_ns - k.start_ns AS d, coalesce(k.demangled_name_id, k.name_id) AS kname_id
  FROM nvtx_kernel_ranges(:run) p
  JOIN ranges r ON r.id = p.range_id
  JOIN kernels k ON k.id = p.kernel_id
), g AS (
  SELECT thread_id, name_id, domain_id, kind, kname_id, count(DISTINCT range_id) AS nvtx_inst,
         count(*) AS kern_inst, sum(d) AS total_ns, avg(d) AS avg_ns, median(d) AS med_ns,
         min(d) AS min_ns, max(d) AS max_ns, coalesce(stddev(d), 0) AS stddev_ns
  FROM x GROUP BY thread_id, name_id, domain_id, kind, kname_id
)
SELECT t.pid, t.tid, coalesce(ds.value, '') || ':' || n.value AS range,
       CASE g.kind WHEN 0 THEN 'PushPop' ELSE 'StartEnd' END AS style, nvtx_inst, kern_inst,
       total_ns, round(avg_ns, 1) AS avg_ns, med_ns, min_ns, max_ns,
       round(stddev_ns, 1) AS stddev_ns, kn.value AS kernel_name, t.run_id
FROM g
JOIN strings n ON n.id = g.name_id
JOIN strings kn ON kn.id = g.kname_id
LEFT JOIN nvtx_domains nd ON nd.id = g.domain_id
LEFT JOIN strings ds ON ds.id = nd.name_id
LEFT JOIN v_threads t ON t.thread_id = g.thread_id
ORDER BY total_ns DESC, kern_inst DESC, range, kernel_name, t.run_id
LIMIT coalesce(:limit, -1);
