-- analyze rule cuda_api_sync: host-blocking synchronization calls (nsys analyze cuda_api_sync)
-- advice: The host waited for the GPU in these calls; synchronize less often (events, stream callbacks) so the CPU can queue more work ahead of the GPU.
-- severity: info
.load build/profq
--
-- Columns: start_ns, duration_ns, pid, tid, api_name, run_id. API calls named
-- 'cudaDeviceSynchronize%' or 'cudaStreamSynchronize%'. Sorted by duration, longest first.
-- Runs: all unless --run ID (:run). Plain SQL.
SELECT a.start_ns, a.end_ns - a.start_ns AS duration_ns, t.pid, t.tid, n.value AS api_name,
       a.run_id
FROM api_calls a
JOIN strings n ON n.id = a.name_id
LEFT JOIN v_threads t ON t.thread_id = a.thread_id
WHERE (n.value LIKE 'cudaDeviceSynchronize%' OR n.value LIKE 'cudaStreamSynchronize%')
  AND (:run IS NULL OR a.run_id = :run)
ORDER BY duration_ns DESC, a.start_ns
LIMIT coalesce(:limit, -1);
