-- analyze rule cuda_memcpy_async: asynchronous memcpys that use pageable host memory (nsys analyze cuda_memcpy_async)
-- advice: The API calls were asynchronous but the copies used pageable host memory, which makes them synchronous; allocate the host buffers pinned (cudaHostAlloc, cudaMallocHost, or tensor.pin_memory()).
-- severity: warning
.load build/profq
--
-- Columns: start_ns, duration_ns (the API call), gpu_start_ns, gpu_duration_ns, bytes, src_kind,
-- dst_kind, pid, tid, api_name, run_id. A memcpy whose source or destination is Pageable
-- (memory_kinds 0) and whose launching API call's name matches 'cudaMemcpy%Async%'. Sorted by API
-- duration, longest first. Runs: all unless --run ID (:run). Plain SQL.
SELECT a.start_ns, a.end_ns - a.start_ns AS duration_ns, m.start_ns AS gpu_start_ns,
       m.end_ns - m.start_ns AS gpu_duration_ns, m.bytes, sk.label AS src_kind,
       dk.label AS dst_kind, t.pid, t.tid, n.value AS api_name, m.run_id
FROM memcpys m
JOIN api_calls a ON a.process_id = m.process_id AND a.correlation_id = m.correlation_id
                AND a.run_id = m.run_id
JOIN strings n ON n.id = a.name_id
LEFT JOIN memory_kinds sk ON sk.id = m.src_kind
LEFT JOIN memory_kinds dk ON dk.id = m.dst_kind
LEFT JOIN v_threads t ON t.thread_id = a.thread_id
WHERE (m.src_kind = 0 OR m.dst_kind = 0) AND n.value LIKE 'cudaMemcpy%Async%'
  AND (:run IS NULL OR m.run_id = :run)
ORDER BY duration_ns DESC, a.start_ns
LIMIT coalesce(:limit, -1);
