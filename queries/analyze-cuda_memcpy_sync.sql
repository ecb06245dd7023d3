-- analyze rule cuda_memcpy_sync: synchronous memcpys that block the host (nsys analyze cuda_memcpy_sync)
-- advice: The host waited for these copies; use cudaMemcpyAsync (with pinned host memory) on a stream so the CPU and GPU keep working.
-- severity: warning
.load build/profq
--
-- Columns: start_ns, duration_ns (the API call), gpu_start_ns, gpu_duration_ns, bytes,
-- copy_kind, pid, tid, api_name, run_id. Memcpys launched by an API call named 'cudaMemcpy%' but
-- not '%Async%', except Host-to-Device copies of at most 64,000 bytes (which return as soon as
-- the data is staged) and copies whose source and destination device are the same device, as
-- nsys. Sorted by API duration, longest first. Runs: all unless --run ID (:run). Plain SQL.
SELECT a.start_ns, a.end_ns - a.start_ns AS duration_ns, m.start_ns AS gpu_start_ns,
       m.end_ns - m.start_ns AS gpu_duration_ns, m.bytes, ck.label AS copy_kind, t.pid, t.tid,
       n.value AS api_name, m.run_id
FROM memcpys m
JOIN api_calls a ON a.process_id = m.process_id AND a.correlation_id = m.correlation_id
                AND a.run_id = m.run_id
JOIN strings n ON n.id = a.name_id
JOIN copy_kinds ck ON ck.id = m.copy_kind
LEFT JOIN v_threads t ON t.thread_id = a.thread_id
WHERE n.value LIKE 'cudaMemcpy%' AND n.value NOT LIKE '%Async%'
  AND NOT (m.copy_kind = 1 AND m.bytes <= 64000)
  AND NOT (m.src_device_id IS NOT NULL AND m.src_device_id IS m.dst_device_id)
  AND (:run IS NULL OR m.run_id = :run)
ORDER BY duration_ns DESC, a.start_ns
LIMIT coalesce(:limit, -1);
