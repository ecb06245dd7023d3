-- analyze rule cuda_memset_sync: synchronous memsets on pinned or managed memory (nsys analyze cuda_memset_sync)
-- advice: cudaMemset on pinned or managed memory blocks the host; use cudaMemsetAsync on a stream.
-- severity: warning
.load build/profq
--
-- Columns: start_ns, duration_ns (the API call), gpu_start_ns, gpu_duration_ns, bytes,
-- memory_kind, pid, tid, api_name, run_id. Memsets of Pinned (1) or Managed (4) memory launched by
-- an API call named 'cudaMemset%' but not '%async%'. Sorted by API duration, longest first.
-- Runs: all unless --run ID (:run). Plain SQL.
SELECT a.start_ns, a.end_ns - a.start_ns AS duration_ns, m.start_ns AS gpu_start_ns,
       m.end_ns - m.start_ns AS gpu_duration_ns, m.bytes, mk.label AS memory_kind, t.pid, t.tid,
       n.value AS api_name, m.run_id
FROM memsets m
JOIN api_calls a ON a.process_id = m.process_id AND a.correlation_id = m.correlation_id
                AND a.run_id = m.run_id
JOIN strings n ON n.id = a.name_id
LEFT JOIN memory_kinds mk ON mk.id = m.memory_kind
LEFT JOIN v_threads t ON t.thread_id = a.thread_id
WHERE n.value LIKE 'cudaMemset%' AND n.value NOT LIKE '%async%' AND m.memory_kind IN (1, 4)
  AND (:run IS NULL OR m.run_id = :run)
ORDER BY duration_ns DESC, a.start_ns
LIMIT coalesce(:limit, -1);
