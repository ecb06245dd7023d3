-- HTA temporal breakdown per rank and GPU: idle, compute and non-compute time of the GPU span
-- option include-last-step=0|1 (default 0): 1 keeps the last ProfilerStep (HTA's include_last_profiler_step)
.load build/profq
-- Columns: rank, device, idle_ns, compute_ns, non_compute_ns, kernel_ns, idle_pct, compute_pct,
-- non_compute_pct (percentages of kernel_ns, rounded to 2 places as HTA does).
-- Parameters: :run (default: every run; a run is a rank, runs.rank or 0 when unknown);
-- :include_last_step = 1 keeps the last ProfilerStep (HTA's include_last_profiler_step).
--
-- Follows Holistic Trace Analysis, not tb_plugin (facebookresearch/HolisticTraceAnalysis
-- hta/analyzers/breakdown_analysis.py get_temporal_breakdown, hta/common/trace.py,
-- hta/common/types.py at f4d0062c; notes/kineto_hta.md §3.1-3.2):
--  * step selection (HTA's default): with two or more ProfilerStep#N ranges, only GPU work
--    launched by a runtime call starting before the last ProfilerStep's start is kept (the last
--    step and anything launched after it are dropped); with fewer, everything is kept.
--  * GPU events: kernels, memcpys and memsets. kernel_ns = last end - first start;
--    idle = kernel_ns - |union of all GPU events|; compute = |union of COMPUTATION kernels|;
--    non_compute = kernel_ns - compute - idle (communication, memory and other GPU time not
--    hidden under computation).
--  * kernel classes by name (HTA's anchored regexes, as GLOBs): COMMUNICATION nccl*, hip*, hccl*,
--    *ncclKernel*; MEMORY Memcpy*, hipMemcpy*, Memset*, hipMemset*, dma* (and every memcpy and
--    memset row); COMPUTATION any other name not matching HTA's non-compute list
--    (*Memcpy*, *Memset*, *dma*, *Sync*, Stream Wait Event*, cuda*LaunchKernel*, runFunction*,
--    job_exe*, packet*, pe_exe*, cpum_exe_subgraph*, collective_subgraph_execution*); else OTHER.
--  * tb_plugin's GPU utilization differs on purpose: it divides kernel time by the step span
--    (gpu-summary), HTA by the GPU's own busy span.
WITH
sel AS (SELECT id AS run_id, coalesce(rank, 0) AS rank FROM runs WHERE :run IS NULL OR id = :run),
cut AS MATERIALIZED (  -- per run: the last ProfilerStep's start when there are two or more, else NULL
  SELECT s.run_id,
         (SELECT CASE WHEN count(*) >= 2 AND coalesce(:include_last_step, 0) = 0 THEN max(r.start_ns) END
            FROM ranges r JOIN strings n ON n.id = r.name_id
           WHERE r.run_id = s.run_id AND n.value GLOB 'ProfilerStep#*' AND r.kind IN (2, 3)) AS last_start
  FROM sel s
),
gpu AS (
  SELECT k.run_id, k.device_id, k.process_id, k.correlation_id, k.start_ns, k.end_ns,
         CASE
           WHEN n.value GLOB 'nccl*' OR n.value GLOB 'hip*' OR n.value GLOB 'hccl*' OR n.value GLOB '*ncclKernel*'
             THEN 'COMMUNICATION'
           WHEN n.value GLOB 'Memcpy*' OR n.value GLOB 'hipMemcpy*' OR n.value GLOB 'Memset*'
                OR n.value GLOB 'hipMemset*' OR n.value GLOB 'dma*' THEN 'MEMORY'
           WHEN NOT (n.value GLOB '*Memcpy*' OR n.value GLOB '*Memset*' OR n.value GLOB '*dma*'
                OR n.value GLOB '*Sync*' OR n.value GLOB 'Stream Wait Event*' OR n.value GLOB 'cuda*LaunchKernel*'
                OR n.value GLOB 'runFunction*' OR n.value GLOB 'job_exe*' OR n.value GLOB 'packet*'
                OR n.value GLOB 'pe_exe*' OR n.value GLOB 'cpum_exe_subgraph*'
                OR n.value GLOB 'collective_subgraph_execution*') THEN 'COMPUTATION'
           ELSE 'OTHER' END AS type
  FROM kernels k JOIN strings n ON n.id = k.name_id WHERE k.run_id IN (SELECT run_id FROM sel)
  UNION ALL
  SELECT run_id, device_id, process_id, correlation_id, start_ns, end_ns, 'MEMORY' FROM memcpys
   WHERE run_id IN (SELECT run_id FROM sel)
  UNION ALL
  SELECT run_id, device_id, process_id, correlation_id, start_ns, end_ns, 'MEMORY' FROM memsets
   WHERE run_id IN (SELECT run_id FROM sel)
),
gpu_m AS MATERIALIZED (SELECT row_number() OVER () AS gid, * FROM gpu),
launch AS MATERIALIZED (  -- the launching runtime call's start, by correlation id
  SELECT g.gid, min(a.start_ns) AS rt_start
  FROM gpu_m g JOIN api_calls a ON a.process_id = g.process_id AND a.correlation_id = g.correlation_id
  GROUP BY g.gid
),
kept AS (
  SELECT g.* FROM gpu_m g JOIN cut c ON c.run_id = g.run_id
  LEFT JOIN launch l ON l.gid = g.gid
  WHERE c.last_start IS NULL OR l.rt_start < c.last_start
),
per AS (
  SELECT run_id, device_id, max(end_ns) - min(start_ns) AS kernel_ns,
         interval_union_ns(start_ns, end_ns) AS busy_ns,
         interval_union_ns(CASE WHEN type = 'COMPUTATION' THEN start_ns END, end_ns) AS compute_ns
  FROM kept GROUP BY run_id, device_id
)
SELECT s.rank, d.ordinal AS device,
       p.kernel_ns - p.busy_ns AS idle_ns, p.compute_ns,
       p.busy_ns - p.compute_ns AS non_compute_ns, p.kernel_ns,
       round(100.0 * (p.kernel_ns - p.busy_ns) / p.kernel_ns, 2) AS idle_pct,
       round(100.0 * p.compute_ns / p.kernel_ns, 2) AS compute_pct,
       round(100.0 * (p.busy_ns - p.compute_ns) / p.kernel_ns, 2) AS non_compute_pct
FROM per p JOIN sel s USING (run_id) LEFT JOIN devices d ON d.id = p.device_id
ORDER BY s.rank, p.run_id, d.ordinal
LIMIT coalesce(:limit, -1);
