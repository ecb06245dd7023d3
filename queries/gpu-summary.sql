-- Per-GPU summary as TensorBoard's profiler plugin shows it: utilization, SM efficiency, occupancy, Tensor Cores
.load build/profq
-- Columns: device (CUDA ordinal), name, memory_gib (totalGlobalMem / 2^30, rounded to 2 places,
-- as tb_plugin prints "GB"), compute_capability ('7.0'), gpu_utilization_pct, sm_efficiency_pct,
-- achieved_occupancy_pct, tensor_core_pct (all rounded to 2 places, as tb_plugin's overview).
-- One row per device that ran kernels. Parameters: :run (default: the lowest run id).
--
-- Definition: tb_plugin 0.4.3 (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/
-- gpu_metrics_parser.py, tensor_cores_parser.py at 041e7ce9; notes/kineto_hta.md §1.4). The
-- "steps span" is [first step start, last step end) after tb_plugin's step extension and tail
-- trimming (the same step rules as the step-breakdown report, repeated below).
--  * gpu_utilization_pct: union of the device's kernels (not memcpy/memset) clipped to the span,
--    over the span length.
--  * sm_efficiency_pct: per kernel Kineto's "blocks per SM" (> 0 only); a sweep sums the values of
--    the kernels running at each instant, capped at 1; the time integral inside the span over the
--    span length (idle time counts 0). NULL when no kernel has the value.
--  * achieved_occupancy_pct: Kineto's "est. achieved occupancy %" (>= 0 only) weighted by each
--    kernel's time inside the span, over that time (kernel time, not wall time). NULL without values.
--  * tensor_core_pct: time of kernels whose name matches tb_plugin's Tensor Core allowlist
--    (tensor_core_pattern(): the extension's list minus its additions, so exactly tb_plugin's 18
--    patterns) over the time of all kernels attributed to an operator (runtime call with external
--    id 0 or the external id of a host range); NULL when no kernel is attributed.
WITH
sel AS (SELECT coalesce(:run, (SELECT min(id) FROM runs)) AS run_id),
host AS (  -- tb_plugin's host-side events: Operator, UserAnnotation, Python
  SELECT r.id, r.kind, r.start_ns, r.end_ns, r.external_id, n.value AS name,
         CASE WHEN r.kind = 5 THEN 'python' ELSE 'op' END AS role_kind
  FROM ranges r JOIN strings n ON n.id = r.name_id
  LEFT JOIN strings c ON c.id = r.category_id
  WHERE r.run_id = (SELECT run_id FROM sel) AND r.end_ns IS NOT NULL
    AND (r.kind IN (2, 3) OR (r.kind = 5 AND lower(c.value) = 'python'))
),
host_steps AS (
  SELECT CAST(substr(name, 14) AS INTEGER) AS step, start_ns AS hs, end_ns AS he
  FROM host WHERE role_kind = 'op' AND name GLOB 'ProfilerStep#*'
  UNION ALL
  SELECT 0, min(start_ns), max(end_ns) FROM host   -- no ProfilerStep: cpu_op and python ranges
  WHERE NOT EXISTS (SELECT 1 FROM host WHERE role_kind = 'op' AND name GLOB 'ProfilerStep#*')
        AND (role_kind = 'python' OR kind = 2) HAVING count(*) > 0
),
hsteps AS (SELECT row_number() OVER (ORDER BY hs, he) - 1 AS idx, step, hs, he FROM host_steps),
rt AS (
  SELECT a.id, a.process_id, a.correlation_id, a.start_ns, a.end_ns FROM api_calls a
  WHERE a.run_id = (SELECT run_id FROM sel) AND a.api_kind = 0
),
dev AS (
  SELECT 'k' AS t, id, process_id, correlation_id, start_ns, end_ns, external_id FROM kernels
   WHERE run_id = (SELECT run_id FROM sel)
  UNION ALL
  SELECT 'c', id, process_id, correlation_id, start_ns, end_ns, external_id FROM memcpys
   WHERE run_id = (SELECT run_id FROM sel)
  UNION ALL
  SELECT 's', id, process_id, correlation_id, start_ns, end_ns, external_id FROM memsets
   WHERE run_id = (SELECT run_id FROM sel)
),
rt_step AS (  -- runtime calls lying inside a host step
  SELECT s.idx, rt.process_id, rt.correlation_id
  FROM hsteps s JOIN rt ON rt.start_ns >= s.hs AND rt.end_ns <= s.he
),
dev_step AS (  -- device events launched from inside a step
  SELECT r.idx, d.t, d.id, d.start_ns, d.end_ns
  FROM rt_step r JOIN dev d ON d.process_id = r.process_id AND d.correlation_id = r.correlation_id
),
dstep AS (
  SELECT s.idx, min(d.start_ns) AS ds, max(d.end_ns) AS de, count(d.id) AS n
  FROM hsteps s LEFT JOIN dev_step d ON d.idx = s.idx GROUP BY s.idx
),
gpu AS (SELECT EXISTS (SELECT 1 FROM dev_step) AS used),
init AS (  -- prev_end before the first step
  SELECT max((SELECT hs FROM hsteps WHERE idx = 0),
             coalesce((SELECT max(d.end_ns) FROM dev d
                        WHERE d.end_ns < (SELECT ds FROM dstep WHERE idx = 0)
                          AND NOT EXISTS (SELECT 1 FROM dev_step x WHERE x.t = d.t AND x.id = d.id)),
                      (SELECT hs FROM hsteps WHERE idx = 0))) AS prev_end
),
ext AS (
  SELECT s.idx, s.step, s.hs, d.n,
         max((SELECT prev_end FROM init),
             max(max(s.he, coalesce(d.de, s.he))) OVER (ORDER BY s.idx ROWS UNBOUNDED PRECEDING)) AS e
  FROM hsteps s JOIN dstep d USING (idx)
),
ext2 AS (
  SELECT idx, step, n,
         max(hs, coalesce(lag(e) OVER (ORDER BY idx), (SELECT prev_end FROM init))) AS start_ns,
         e AS end_ns
  FROM ext
),
last_dev AS (SELECT max(idx) AS l FROM dstep WHERE n > 0),
keep AS (
  SELECT CASE
    WHEN NOT (SELECT used FROM gpu) OR (SELECT count(*) FROM hsteps) <= 1 THEN (SELECT count(*) FROM hsteps)
    WHEN (SELECT l FROM last_dev) > 0
         AND (SELECT n FROM dstep WHERE idx = (SELECT l FROM last_dev) - 1) * 0.8
             > (SELECT n FROM dstep WHERE idx = (SELECT l FROM last_dev))
      THEN (SELECT l FROM last_dev)
    ELSE (SELECT l FROM last_dev) + 1 END AS k
),
steps AS (
  SELECT e.step, e.idx,
         CASE WHEN (SELECT used FROM gpu) THEN e.start_ns ELSE s.hs END AS start_ns,
         CASE WHEN (SELECT used FROM gpu) THEN e.end_ns ELSE s.he END AS end_ns
  FROM ext2 e JOIN hsteps s USING (idx)
  WHERE e.idx < (SELECT k FROM keep)
),
sp AS (SELECT min(start_ns) AS s0, max(end_ns) AS s1 FROM steps),
kern AS (
  SELECT k.id, k.device_id, k.process_id, k.correlation_id, k.start_ns, k.end_ns,
         k.blocks_per_sm, k.est_occupancy_pct, n.value AS name
  FROM kernels k JOIN strings n ON n.id = k.name_id
  WHERE k.run_id = (SELECT run_id FROM sel)
),
util AS (
  SELECT device_id,
         interval_union_ns(max(start_ns, (SELECT s0 FROM sp)), min(end_ns, (SELECT s1 FROM sp))) AS busy
  FROM kern GROUP BY device_id
),
-- SM efficiency: tb_plugin range_utils.merge_ranges_with_value as a sweep over the endpoints
endpoints AS (
  SELECT device_id, start_ns AS t, 0 AS typ, blocks_per_sm AS v FROM kern WHERE blocks_per_sm > 0
  UNION ALL
  SELECT device_id, end_ns, 1, -blocks_per_sm FROM kern WHERE blocks_per_sm > 0
),
sweep AS (
  SELECT device_id, t,
         sum(v) OVER w AS level,
         lead(t) OVER w AS t_next
  FROM endpoints
  WINDOW w AS (PARTITION BY device_id ORDER BY t, typ ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
sm AS (
  SELECT device_id,
         total(min(level, 1.0) * overlap_ns(t, t_next, (SELECT s0 FROM sp), (SELECT s1 FROM sp))) AS w,
         count(*) AS n
  FROM sweep WHERE t_next > t AND level > 0.0
    AND t_next > (SELECT s0 FROM sp) AND t < (SELECT s1 FROM sp)   -- segments inside the span only
  GROUP BY device_id
),
occ AS (
  SELECT device_id,
         total(est_occupancy_pct * overlap_ns(start_ns, end_ns, (SELECT s0 FROM sp), (SELECT s1 FROM sp))) AS w,
         sum(overlap_ns(start_ns, end_ns, (SELECT s0 FROM sp), (SELECT s1 FROM sp))) AS t
  FROM kern WHERE est_occupancy_pct >= 0 GROUP BY device_id
),
tc AS (  -- kernels reachable from tb_plugin's operator trees
  SELECT k.device_id,
         sum(CASE WHEN tensor_core_pattern(k.name) IN ('h884', 's884', 'h1688', 's1688', 'hmma',
               'i8816', '16816', 'dgrad_1x1_stride_2x2', 'first_layer_wgrad_kernel', 'conv1x1',
               'conv2d_c1_k1', 'direct_group', 'xmma_implicit_gemm', 'xmma_sparse_conv',
               'xmma_warp_specialized_implicit_gemm', 'xmma_gemm', 'xmma_sparse_gemm', 'c1688')
             THEN k.end_ns - k.start_ns ELSE 0 END) AS tc_ns,
         sum(k.end_ns - k.start_ns) AS all_ns
  FROM kern k JOIN api_calls a ON a.process_id = k.process_id AND a.correlation_id = k.correlation_id
                              AND a.api_kind = 0
  WHERE a.external_id = 0
     OR EXISTS (SELECT 1 FROM host h WHERE h.external_id = a.external_id)
  GROUP BY k.device_id
)
SELECT d.ordinal AS device, d.name,
       round(d.global_memory_bytes / 1073741824.0, 2) AS memory_gib,
       d.compute_major || '.' || d.compute_minor AS compute_capability,
       round(100.0 * u.busy / ((SELECT s1 FROM sp) - (SELECT s0 FROM sp)), 2) AS gpu_utilization_pct,
       round(100.0 * sm.w / ((SELECT s1 FROM sp) - (SELECT s0 FROM sp)), 2) AS sm_efficiency_pct,
       CASE WHEN occ.t > 0 THEN round(occ.w / occ.t, 2) END AS achieved_occupancy_pct,
       CASE WHEN (SELECT count(*) FROM tc) > 0
            THEN round(100.0 * coalesce(tc.tc_ns, 0) / nullif(tc.all_ns, 0), 2) END AS tensor_core_pct
FROM util u JOIN devices d ON d.id = u.device_id
LEFT JOIN sm ON sm.device_id = u.device_id
LEFT JOIN occ ON occ.device_id = u.device_id
LEFT JOIN tc ON tc.device_id = u.device_id
ORDER BY d.ordinal
LIMIT coalesce(:limit, -1);
