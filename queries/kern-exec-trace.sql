-- Per kernel launch: API time, queue time, kernel time, total (nsys stats cuda_kern_exec_trace)
.load build/profq
--
-- Columns: api_start_ns, api_dur_ns, queue_start_ns, queue_dur_ns, kernel_start_ns,
-- kernel_dur_ns, total_dur_ns, pid, tid, device, api_name, kernel_name, run_id.
-- Each kernel joined to its launching API call (run, process, correlation_id); kernels without
-- one are left out. queue = kernel start - API end, only when >= 0 (else NULL, as nsys: the
-- kernel started before the call returned); total = max(API end, kernel end) - API start.
-- api_name without version suffix, kernel_name demangled. Sorted by API start.
-- Runs: all runs (run_id column) unless --run ID (:run). Parameters: :run, :limit.
-- Plain SQL (no extension function needed); the .load line is harmless.
SELECT a.start_ns AS api_start_ns, a.end_ns - a.start_ns AS api_dur_ns,
       CASE WHEN k.start_ns >= a.end_ns THEN a.end_ns END AS queue_start_ns,
       CASE WHEN k.start_ns >= a.end_ns THEN k.start_ns - a.end_ns END AS queue_dur_ns,
       k.start_ns AS kernel_start_ns, k.end_ns - k.start_ns AS kernel_dur_ns,
       max(a.end_ns, k.end_ns) - a.start_ns AS total_dur_ns,
       t.pid, t.tid, d.ordinal AS device,
       CASE WHEN rtrim(an.value, '0123456789') <> an.value
             AND rtrim(an.value, '0123456789') LIKE '%\_v' ESCAPE '\'
            THEN substr(an.value, 1, length(rtrim(an.value, '0123456789')) - 2)
            ELSE an.value END AS api_name,
       coalesce(dn.value, n.value) AS kernel_name, k.run_id
FROM kernels k
JOIN api_calls a ON a.process_id = k.process_id AND a.correlation_id = k.correlation_id
                AND a.run_id = k.run_id
JOIN strings an ON an.id = a.name_id
JOIN strings n ON n.id = k.name_id
LEFT JOIN strings dn ON dn.id = k.demangled_name_id
LEFT JOIN v_threads t ON t.thread_id = a.thread_id
LEFT JOIN devices d ON d.id = k.device_id
WHERE :run IS NULL OR k.run_id = :run
ORDER BY a.start_ns, k.start_ns
LIMIT coalesce(:limit, -1);
