-- Every CUDA runtime and driver API call in start order (nsys stats cuda_api_trace)
.load build/profq
--
-- Columns: start_ns, duration_ns, name, return_value, correlation_id, pid, tid, thread_name, api,
-- run_id. name without the runtime version suffix (as api-sum); api is runtime or driver.
-- Sorted by start_ns.
-- Runs: all runs (run_id column) unless --run ID (:run). Parameters: :run, :limit.
-- Plain SQL (no extension function needed); the .load line is harmless.
SELECT a.start_ns, a.end_ns - a.start_ns AS duration_ns,
       CASE WHEN rtrim(n.value, '0123456789') <> n.value
             AND rtrim(n.value, '0123456789') LIKE '%\_v' ESCAPE '\'
            THEN substr(n.value, 1, length(rtrim(n.value, '0123456789')) - 2)
            ELSE n.value END AS name,
       a.return_value, a.correlation_id, t.pid, t.tid, t.thread_name, ak.name AS api, a.run_id
FROM api_calls a
JOIN strings n ON n.id = a.name_id
JOIN api_kinds ak ON ak.id = a.api_kind
LEFT JOIN v_threads t ON t.thread_id = a.thread_id
WHERE :run IS NULL OR a.run_id = :run
ORDER BY a.start_ns, a.run_id
LIMIT coalesce(:limit, -1);
