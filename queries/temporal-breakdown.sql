-- HTA temporal breakdown per run and GPU: idle, compute and non-compute time of the GPU span
-- option mode=hta|exact (default hta): hta reproduces HTA's numbers, its whole-µs rounding and other quirks included; exact uses ns times, GPU work only and the last CPU ProfilerStep
-- option include-last-step=0|1 (default 0): 1 keeps the last ProfilerStep (HTA's include_last_profiler_step)
.load build/profq
-- Columns: run_id, rank, device, idle_ns, compute_ns, non_compute_ns, kernel_ns, idle_pct,
-- compute_pct, non_compute_pct (percentages of kernel_ns, rounded to 2 places as HTA does: half
-- to even, numpy's round).
-- A row per run and GPU; --run keeps one run (a run is a rank: runs.rank, 0 when unknown).
--
-- Follows Holistic Trace Analysis, not tb_plugin (facebookresearch/HolisticTraceAnalysis at
-- f4d0062c: hta/analyzers/breakdown_analysis.py get_temporal_breakdown, _get_idle_time_for_kernels;
-- hta/common/trace.py _filter_irrelevant_gpu_kernels; hta/common/trace_parser.py
-- round_down_time_stamps; hta/common/trace_filter.py GPUKernelFilter; hta/utils/utils.py
-- merge_kernel_intervals, get_kernel_type; notes/kineto_hta.md §3.1-3.2). mode=hta (default):
--  * times: HTA works in whole µs of the trace's own clock (ts relative to baseTimeNanoseconds):
--    start rounded up, start + dur rounded down, in double precision as Python does. An event
--    shorter than 1 µs that does not cross a µs boundary gets a length of -1 µs, and a merged
--    interval made of it alone counts -1 µs of busy time (HTA does this; it adds idle time).
--    Only for runs imported from Chrome/Kineto JSON: HTA reads nothing else, and runs recorded
--    by profq or imported from nsys keep their ns times.
--  * GPU events: every event with a stream: kernels, memcpys, memsets and stream synchronizations
--    (Kineto's cuda_sync "Stream Sync" / "Stream Wait Event", which carry a stream; class OTHER).
--    gpu_user_annotation spans have no stream arg and are never GPU events.
--  * steps: with two or more distinct ProfilerStep#N names, only GPU events whose correlation id
--    matches a host event starting before the last ProfilerStep's start are kept (the last step
--    and work launched after it dropped). The last ProfilerStep is taken over every event so
--    named, gpu_user_annotation projections included: their start is later than the CPU step's,
--    so HTA keeps GPU work launched early in the last step. include-last-step=1 keeps what was
--    launched up to the last ProfilerStep's end (its GPU projection's, when later).
--  * kernel_ns = end of the last merged interval - first start; idle = kernel_ns - |union|;
--    compute = |union of COMPUTATION events|; non_compute = kernel_ns - compute - idle. Merging
--    as HTA: in start order, an interval starting after the largest end so far opens a new
--    group; touching intervals merge. Ties go in file order, as a stable sort would have them:
--    HTA's numpy quicksort is not stable, and where a -1 µs event ties with another event at a
--    group's start HTA's own result moves by 1 µs with the input order.
--  * kernel classes by name (HTA's anchored regexes, as GLOBs): COMMUNICATION nccl*, hip*, hccl*,
--    *ncclKernel*; MEMORY Memcpy*, hipMemcpy*, Memset*, hipMemset*, dma* (and every memcpy and
--    memset row); COMPUTATION any other name not matching HTA's non-compute list
--    (*Memcpy*, *Memset*, *dma*, *Sync*, Stream Wait Event*, cuda*LaunchKernel*, runFunction*,
--    job_exe*, packet*, pe_exe*, cpum_exe_subgraph*, collective_subgraph_execution*); else OTHER.
-- mode=exact: ns times as recorded; GPU work only (kernels, memcpys, memsets; a synchronization
-- is a wait, not work); the last step is the last CPU ProfilerStep (cpu_op/user_annotation) and a
-- GPU event is kept when its launching runtime call started before it; include-last-step=1 keeps
-- everything.
-- Features checked against HTA's own output (tests/reports/hta_match.t on generated traces,
-- tests/reports/hta_rules.t on hand-made ones; the same table holds for idle-breakdown,
-- comm-overlap and launch-stats):
--   trace feature                                     | what HTA does (mode=hta)
--   ns-resolution ts, base not on a whole µs           | ceil(ts), floor(ts + dur) on the trace's clock
--   kernels/memsets under 1 µs                         | length -1 µs where no µs boundary is crossed
--   memcpys/memsets overlapping kernels                | in the union (not kernels only), MEMORY
--   several streams, one GPU                           | one union over all streams
--   NCCL kernels (collective args) overlapping compute | COMMUNICATION by name; args unused
--   cuda_sync Stream Sync / Event Sync                 | Stream Sync is GPU time (OTHER); Event Sync not
--   gpu_user_annotation (ProfilerStep#N projections)   | no stream: host events; cut at their start
--   include_last_profiler_step                         | launches up to the last step's end only
--   ac2g / fwdbwd flows                                | not used
--   two ranks (distributedInfo)                        | a row per run (= rank)
--   epoch-µs ts without baseTimeNanoseconds; whole µs  | same rules
--   one ProfilerStep only                              | nothing cut
--   percentages                                        | numpy's round: half to even
-- Not reproduced: HTA counts distinct ProfilerStep names over all ranks of a directory (profq per
-- run); HTA treats any host event with a "stream" arg (Triton cpu_op) as GPU work; HTA's sort of
-- tied starts (above).
-- tb_plugin's GPU utilization differs on purpose: it divides kernel time by the step span
-- (gpu-summary), HTA by the GPU's own busy span.
-- Stored: with the default options, a finished run's numbers are read from hta_temporal_breakdown (written
-- at import from this file: docs/schema.md, Derived tables); other options compute every run.
WITH
asked AS MATERIALIZED (SELECT id AS run_id, coalesce(rank, 0) AS rank FROM runs WHERE :run IS NULL OR id = :run),
stored AS MATERIALIZED (  -- runs whose rows hta_temporal_breakdown holds: the default options only
  SELECT run_id FROM derived_runs
  WHERE name = 'hta_temporal_breakdown' AND run_id IN (SELECT run_id FROM asked)
    AND coalesce(:mode, 'hta') = 'hta' AND coalesce(:include_last_step, 0) = 0
),
sel AS MATERIALIZED (  -- the runs computed from their events
  SELECT id AS run_id, coalesce(rank, 0) AS rank, coalesce(time_offset_ns, 0) AS off,
         source = 'chrome-json' AND coalesce(:mode, 'hta') = 'hta' AS us  -- HTA's µs: Kineto files only
  FROM runs WHERE (:run IS NULL OR id = :run) AND id NOT IN (SELECT run_id FROM stored)
),
opt AS (SELECT coalesce(:mode, 'hta') = 'hta' AS hta, coalesce(:include_last_step, 0) AS keep_last),
ktype AS MATERIALIZED (  -- kernel class per name: GLOBs once per name, not once per kernel
  SELECT n.id,
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
  FROM strings n WHERE n.id IN (SELECT name_id FROM kernels WHERE run_id IN (SELECT run_id FROM sel))
),
steps AS (  -- ProfilerStep#N events: any kind (hta) or CPU ones only (exact); names first (ranges_name)
  SELECT r.run_id, n.value AS name,
         CASE WHEN s.us THEN hta_start_ns(r.start_ns, s.off) ELSE r.start_ns END AS ts,
         CASE WHEN s.us THEN hta_end_ns(r.start_ns, coalesce(r.end_ns, r.start_ns), s.off) ELSE r.end_ns END AS e
  FROM strings n CROSS JOIN ranges r ON r.name_id = n.id JOIN sel s ON s.run_id = r.run_id, opt o
  WHERE n.value GLOB 'ProfilerStep#[0-9]*' AND (o.hta OR r.kind IN (2, 3))
),
cut AS MATERIALIZED (  -- per run: the bound on launch times, NULL when everything is kept
  SELECT s.run_id, s.us, s.off, o.hta, o.keep_last,
         (SELECT CASE WHEN (o.hta AND count(DISTINCT st.name) >= 2) OR (NOT o.hta AND count(*) >= 2)
                      THEN CASE WHEN o.keep_last = 0 THEN max(st.ts) WHEN o.hta THEN max(st.e) END END
            FROM steps st WHERE st.run_id = s.run_id) AS bound
  FROM sel s, opt o
),
-- GPU events with their run's clock and cut; CROSS JOIN keeps the event tables in the inner
-- loop, and the union stays a co-routine (no join above it)
gpu AS (
  SELECT k.run_id, 0 AS src, k.id, k.device_id, k.process_id, k.correlation_id, k.start_ns, k.end_ns, t.type,
         c.us, c.off, c.bound, c.hta, c.keep_last
  FROM cut c CROSS JOIN kernels k ON k.run_id = c.run_id CROSS JOIN ktype t ON t.id = k.name_id
  UNION ALL
  SELECT m.run_id, 1, m.id, m.device_id, m.process_id, m.correlation_id, m.start_ns, m.end_ns, 'MEMORY',
         c.us, c.off, c.bound, c.hta, c.keep_last
  FROM cut c CROSS JOIN memcpys m ON m.run_id = c.run_id
  UNION ALL
  SELECT m.run_id, 2, m.id, m.device_id, m.process_id, m.correlation_id, m.start_ns, m.end_ns, 'MEMORY',
         c.us, c.off, c.bound, c.hta, c.keep_last
  FROM cut c CROSS JOIN memsets m ON m.run_id = c.run_id
  UNION ALL  -- HTA's GPUKernelFilter: stream >= 0 and a correlation id
  SELECT m.run_id, 3, m.id, m.device_id, m.process_id, m.correlation_id, m.start_ns, m.end_ns, 'OTHER',
         c.us, c.off, c.bound, c.hta, c.keep_last
  FROM cut c CROSS JOIN synchronizations m ON m.run_id = c.run_id
  WHERE m.stream_id IS NOT NULL AND m.correlation_id IS NOT NULL AND c.hta
),
-- HTA's clock (hta_start_ns, hta_end_ns: ts rounded up, ts + dur rounded down) or ns (exact)
gpu_m AS (
  SELECT run_id, src, id, device_id, process_id, correlation_id, type, us, off, bound, hta, keep_last,
         CASE WHEN us THEN hta_start_ns(start_ns, off) ELSE start_ns END AS ts,
         CASE WHEN us THEN hta_end_ns(start_ns, end_ns, off) ELSE end_ns END AS e
  FROM gpu
),
-- kept: launched (by any API call with the correlation id) before the cut, in the same unit;
-- LIMIT -1 keeps it a co-routine, so ts and e are computed once a row, not once a use below
kept AS (
  SELECT g.run_id, g.device_id, g.src, g.id, g.type, g.ts, g.e FROM gpu_m g
  WHERE g.bound IS NULL
     OR (g.hta AND EXISTS (SELECT 1 FROM api_calls h WHERE h.process_id IS g.process_id
           AND h.correlation_id = g.correlation_id AND h.run_id = g.run_id
           AND CASE WHEN g.us THEN hta_start_ns(h.start_ns, g.off)
                    ELSE h.start_ns END < g.bound + g.keep_last))
     OR (NOT g.hta AND (SELECT min(h.start_ns) FROM api_calls h WHERE h.process_id IS g.process_id
           AND h.correlation_id = g.correlation_id AND +h.run_id = g.run_id) < g.bound)
  LIMIT -1
),
-- HTA's merge_kernel_intervals, for all events and for COMPUTATION ones: interval_merge_ns and
-- interval_merge_end (ties on ts in file order: src, id)
res AS (
  SELECT run_id, device_id, interval_merge_end(ts, e, src, id) - min(ts) AS kernel_ns,
         interval_merge_ns(ts, e, src, id) AS busy_ns,
         interval_merge_ns(CASE WHEN type = 'COMPUTATION' THEN ts END, e, src, id) AS compute_ns
  FROM kept GROUP BY run_id, device_id
),
core AS (  -- per run and GPU: stored, or computed (v_hta_temporal_breakdown is this)
  SELECT run_id, device_id, idle_ns, compute_ns, non_compute_ns, kernel_ns FROM hta_temporal_breakdown
  WHERE run_id IN (SELECT run_id FROM stored)
  UNION ALL
  SELECT run_id, device_id, kernel_ns - busy_ns, compute_ns, busy_ns - compute_ns, kernel_ns FROM res
),
pct AS (  -- HTA: round(100 * (part / kernel), 2) with numpy's round half to even: rint(y) / 100
  SELECT c.*, 100.0 * (100.0 * (1.0 * idle_ns / kernel_ns)) AS yi,
         100.0 * (100.0 * (1.0 * compute_ns / kernel_ns)) AS yc,
         100.0 * (100.0 * (1.0 * non_compute_ns / kernel_ns)) AS yn
  FROM core c
),
fl AS (
  SELECT p.*, CAST(yi AS INTEGER) - (yi < CAST(yi AS INTEGER)) AS fi,
         CAST(yc AS INTEGER) - (yc < CAST(yc AS INTEGER)) AS fc,
         CAST(yn AS INTEGER) - (yn < CAST(yn AS INTEGER)) AS fn
  FROM pct p
)
SELECT r.run_id, s.rank, d.ordinal AS device, r.idle_ns, r.compute_ns, r.non_compute_ns, r.kernel_ns,
       (r.fi + (r.yi - r.fi > 0.5 OR (r.yi - r.fi = 0.5 AND r.fi % 2 <> 0))) / 100.0 AS idle_pct,
       (r.fc + (r.yc - r.fc > 0.5 OR (r.yc - r.fc = 0.5 AND r.fc % 2 <> 0))) / 100.0 AS compute_pct,
       (r.fn + (r.yn - r.fn > 0.5 OR (r.yn - r.fn = 0.5 AND r.fn % 2 <> 0))) / 100.0 AS non_compute_pct
FROM fl r JOIN asked s USING (run_id) LEFT JOIN devices d ON d.id = r.device_id
ORDER BY r.run_id, d.ordinal
LIMIT coalesce(:limit, -1);
