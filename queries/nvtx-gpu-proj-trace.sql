-- NVTX ranges projected onto the GPU work launched inside them, one row per range (nsys nvtx_gpu_proj_trace)
.load build/profq
--
-- Columns: name, proj_start_ns, proj_duration_ns, orig_start_ns, orig_duration_ns, style, pid,
-- tid, num_gpu_ops, level, num_child, range_id, parent_id, run_id.
-- A GPU operation (kernel, memcpy, memset) belongs to every NVTX range on the thread of its
-- launching API call whose [start, end] contains the call's [start, end] (nested ranges all get
-- it); projected start = earliest operation start, projected duration = latest operation end -
-- projected start; num_gpu_ops counts distinct correlation ids. Ranges that launched no GPU work,
-- ranges ended on another thread, and operations whose API row is missing are left out. Ranges
-- never closed end at the run's last NVTX timestamp. level (0 = outermost), num_child and
-- parent_id describe the nesting on the thread. name is '<domain>:<message>' as in nvtx-sum;
-- style PushPop or StartEnd. Sorted by projected start. The work is done by the extension's
-- nvtx_gpu_proj table-valued function (a per-thread sweep, no range join).
-- Runs: all runs (run_id column: pid and tid are the run's own numbers) unless --run ID (:run).
-- Parameters: :run, :limit. Needs the profq extension: see top-kernels.sql for how it is loaded.
SELECT coalesce(ds.value, '') || ':' || n.value AS name,
       p.proj_start_ns, p.proj_end_ns - p.proj_start_ns AS proj_duration_ns,
       r.start_ns AS orig_start_ns,
       p.range_end_ns - r.start_ns AS orig_duration_ns,
       CASE r.kind WHEN 0 THEN 'PushPop' ELSE 'StartEnd' END AS style,
       t.pid, t.tid, p.num_gpu_ops, p.level, p.num_child, p.range_id, p.parent_id, r.run_id
FROM nvtx_gpu_proj(:run) p
JOIN ranges r ON r.id = p.range_id
JOIN strings n ON n.id = r.name_id
LEFT JOIN nvtx_domains nd ON nd.id = r.domain_id
LEFT JOIN strings ds ON ds.id = nd.name_id
LEFT JOIN v_threads t ON t.thread_id = r.thread_id
ORDER BY p.proj_start_ns, p.level, p.range_id
LIMIT coalesce(:limit, -1);
