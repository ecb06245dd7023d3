-- HTA CUDA kernel launch stats: per launch, CPU call time, GPU time, launch delay and outlier flags
-- option runtime-cutoff-us=<us> (default 50): runtime_outlier marks CPU calls longer than this
-- option launch-delay-cutoff-us=<us> (default 100): launch_delay_outlier marks launch delays longer than this
.load build/profq
-- Columns: rank, correlation_id, runtime (API name), kernel (GPU event name), cpu_dur_ns,
-- gpu_dur_ns, launch_delay_ns, short_kernel (gpu < cpu duration), runtime_outlier
-- (cpu_dur > :runtime_cutoff_us µs, default 50), launch_delay_outlier (delay > :launch_delay_cutoff_us
-- µs, default 100). Parameters: :run (default every run).
-- Follows HTA (hta/analyzers/cuda_kernel_analysis.py get_cuda_kernel_launch_stats at f4d0062c;
-- notes/kineto_hta.md §3.2): launches are cudaLaunchKernel, cudaLaunchKernelExC, cudaMemcpyAsync and
-- cudaMemsetAsync joined to their GPU event by correlation id;
-- launch_delay = max(0, gpu start - cpu start - cpu duration). HTA's step selection is not applied.
WITH
sel AS (SELECT id AS run_id, coalesce(rank, 0) AS rank FROM runs WHERE :run IS NULL OR id = :run),
gpu AS (
  SELECT k.run_id, k.process_id, k.correlation_id, k.start_ns, k.end_ns, n.value AS name
  FROM kernels k JOIN strings n ON n.id = k.name_id WHERE k.run_id IN (SELECT run_id FROM sel)
  UNION ALL SELECT run_id, process_id, correlation_id, start_ns, end_ns, operation FROM v_memcpys m
   JOIN (SELECT id, process_id FROM memcpys) USING (id) WHERE run_id IN (SELECT run_id FROM sel)
  UNION ALL SELECT run_id, process_id, correlation_id, start_ns, end_ns, operation FROM v_memsets m
   JOIN (SELECT id, process_id FROM memsets) USING (id) WHERE run_id IN (SELECT run_id FROM sel)
)
SELECT s.rank, a.correlation_id, n.value AS runtime, g.name AS kernel,
       a.end_ns - a.start_ns AS cpu_dur_ns, g.end_ns - g.start_ns AS gpu_dur_ns,
       max(0, g.start_ns - a.end_ns) AS launch_delay_ns,
       (g.end_ns - g.start_ns) < (a.end_ns - a.start_ns) AS short_kernel,
       (a.end_ns - a.start_ns) > 1000 * coalesce(:runtime_cutoff_us, 50) AS runtime_outlier,
       max(0, g.start_ns - a.end_ns) > 1000 * coalesce(:launch_delay_cutoff_us, 100) AS launch_delay_outlier
FROM api_calls a JOIN strings n ON n.id = a.name_id JOIN sel s ON s.run_id = a.run_id
JOIN gpu g ON g.process_id = a.process_id AND g.correlation_id = a.correlation_id
WHERE n.value IN ('cudaLaunchKernel', 'cudaLaunchKernelExC', 'cudaMemcpyAsync', 'cudaMemsetAsync')
ORDER BY s.rank, a.start_ns
LIMIT coalesce(:limit, -1);
