-- HTA CUDA kernel launch stats: per launch, CPU call time, GPU time, launch delay and outlier flags
-- option mode=hta|exact (default hta): hta reproduces HTA's numbers (whole µs, HTA's step cut); exact uses ns times and every launch
-- option runtime-cutoff-us=<us> (default 50): runtime_outlier marks CPU calls longer than this
-- option launch-delay-cutoff-us=<us> (default 100): launch_delay_outlier marks launch delays longer than this
-- option include-last-step=0|1 (default 0): 1 keeps the last ProfilerStep (HTA's include_last_profiler_step)
.load build/profq
-- Columns: run_id, rank, correlation_id, runtime (API name), kernel (GPU event name), cpu_dur_ns,
-- gpu_dur_ns, launch_delay_ns, short_kernel (gpu < cpu duration), runtime_outlier
-- (cpu_dur > runtime-cutoff-us), launch_delay_outlier (delay > launch-delay-cutoff-us). Rows per
-- run; --run keeps one run (a run is a rank: runs.rank, 0 when unknown).
-- Follows HTA (facebookresearch/HolisticTraceAnalysis at f4d0062c:
-- hta/analyzers/cuda_kernel_analysis.py cuda_kernel_launch_stats; notes/kineto_hta.md §3.2):
-- launches are cudaLaunchKernel, cudaLaunchKernelExC, cudaMemcpyAsync and cudaMemsetAsync joined
-- to their GPU event by correlation id; launch_delay = max(0, gpu start - cpu start - cpu
-- duration). mode=hta (default): HTA's step selection applies (as temporal-breakdown: with two or
-- more ProfilerStep#N names, launches starting at or after the last ProfilerStep's start, its GPU
-- projection included, are dropped) and times are HTA's whole µs for Kineto runs (start rounded
-- up, start + dur rounded down), so a sub-µs call or kernel can last -1 µs. mode=exact: every
-- launch, ns times.
-- Checked against HTA's own output on generated traces (tests/reports/hta_match.t).
WITH
sel AS (
  SELECT id AS run_id, coalesce(rank, 0) AS rank, coalesce(time_offset_ns, 0) AS off,
         source = 'chrome-json' AND coalesce(:mode, 'hta') = 'hta' AS us  -- HTA's µs: Kineto files only
  FROM runs WHERE :run IS NULL OR id = :run
),
opt AS (SELECT coalesce(:mode, 'hta') = 'hta' AS hta, coalesce(:include_last_step, 0) AS keep_last),
calls AS MATERIALIZED (
  SELECT a.run_id, s.rank, s.us, s.off, a.process_id, a.correlation_id, n.value AS name, a.start_ns,
         CASE WHEN s.us THEN hta_start_ns(a.start_ns, s.off) ELSE a.start_ns END AS ts,
         CASE WHEN s.us THEN hta_end_ns(a.start_ns, a.end_ns, s.off) ELSE a.end_ns END AS e
  FROM api_calls a JOIN sel s USING (run_id) JOIN strings n ON n.id = a.name_id
  WHERE a.name_id IN (SELECT id FROM strings WHERE value IN ('cudaLaunchKernel', 'cudaLaunchKernelExC',
                                                             'cudaMemcpyAsync', 'cudaMemsetAsync'))
),
steps AS (  -- every event named ProfilerStep#N, gpu_user_annotation projections included
  SELECT s.run_id, n.value AS name,
         CASE WHEN s.us THEN hta_start_ns(r.start_ns, s.off) ELSE r.start_ns END AS ts,
         CASE WHEN s.us THEN hta_end_ns(r.start_ns, coalesce(r.end_ns, r.start_ns), s.off) ELSE r.end_ns END AS e
  FROM ranges r JOIN sel s ON s.run_id = +r.run_id  -- by the name index: a few rows
  JOIN strings n ON n.id = r.name_id
  WHERE r.name_id IN (SELECT id FROM strings WHERE value GLOB 'ProfilerStep#[0-9]*')
    AND n.value GLOB 'ProfilerStep#[0-9]*' AND (SELECT hta FROM opt)
),
cut AS MATERIALIZED (  -- per run: the bound on launch times (hta), NULL when everything is kept
  SELECT s.run_id,
         (SELECT CASE WHEN count(DISTINCT st.name) >= 2 THEN CASE WHEN o.keep_last = 0 THEN max(st.ts) ELSE max(st.e) END END
            FROM steps st WHERE st.run_id = s.run_id) AS bound
  FROM sel s, opt o
),
-- each launch's GPU events, found by the correlation indexes
launched AS (
  SELECT a.*, n.value AS kernel, k.start_ns AS gs, k.end_ns AS ge
  FROM calls a JOIN kernels k ON k.process_id IS a.process_id AND k.correlation_id = a.correlation_id
   AND +k.run_id = a.run_id JOIN strings n ON n.id = k.name_id
  UNION ALL
  SELECT a.*, '[CUDA memcpy ' || ck.label || ']', m.start_ns, m.end_ns
  FROM calls a JOIN memcpys m ON m.process_id IS a.process_id AND m.correlation_id = a.correlation_id
   AND +m.run_id = a.run_id JOIN copy_kinds ck ON ck.id = m.copy_kind
  UNION ALL
  SELECT a.*, '[CUDA memset]', m.start_ns, m.end_ns
  FROM calls a JOIN memsets m ON m.process_id IS a.process_id AND m.correlation_id = a.correlation_id
   AND +m.run_id = a.run_id
),
timed AS (
  SELECT l.*, CASE WHEN l.us THEN hta_start_ns(l.gs, l.off) ELSE l.gs END AS gts,
         CASE WHEN l.us THEN hta_end_ns(l.gs, l.ge, l.off) ELSE l.ge END AS ge_
  FROM launched l
)
SELECT a.run_id, a.rank, a.correlation_id, a.name AS runtime, a.kernel,
       (a.e - a.ts) AS cpu_dur_ns, (a.ge_ - a.gts) AS gpu_dur_ns,
       max(0, a.gts - a.e) AS launch_delay_ns,
       (a.ge_ - a.gts) < (a.e - a.ts) AS short_kernel,
       (a.e - a.ts) > 1000 * coalesce(:runtime_cutoff_us, 50) AS runtime_outlier,
       max(0, a.gts - a.e) > 1000 * coalesce(:launch_delay_cutoff_us, 100) AS launch_delay_outlier
FROM timed a CROSS JOIN cut c ON c.run_id = a.run_id, (SELECT keep_last FROM opt) f
WHERE c.bound IS NULL OR a.ts < c.bound OR (f.keep_last = 1 AND a.ts = c.bound)
ORDER BY a.run_id, a.start_ns, a.correlation_id
LIMIT coalesce(:limit, -1);
