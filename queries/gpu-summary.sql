-- Per-GPU summary as TensorBoard's profiler plugin shows it: utilization, SM efficiency, occupancy, Tensor Cores
.load build/profq
-- Columns: run_id, device (CUDA ordinal), name, memory_gib (totalGlobalMem / 2^30, rounded to 2 places,
-- as tb_plugin prints "GB"), compute_capability ('7.0'), gpu_utilization_pct, sm_efficiency_pct,
-- achieved_occupancy_pct, tensor_core_pct (all rounded to 2 places, as tb_plugin's overview).
-- One row per run that has steps (PyTorch profiler traces) and device that ran kernels in it.
-- Parameters: :run (default: every run).
--
-- Definition: tb_plugin 0.4.3 (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/
-- gpu_metrics_parser.py, tensor_cores_parser.py at 041e7ce9; notes/kineto_hta.md §1.4). The
-- "steps span" of a run is [first step start, last step end) of its steps in the v_tb_steps view
-- (tb_plugin's step extension and tail trimming, as in the step-breakdown report).
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
sp AS MATERIALIZED (  -- each run's steps span
  SELECT run_id, min(start_ns) AS s0, max(end_ns) AS s1 FROM v_tb_steps
  WHERE :run IS NULL OR run_id = :run GROUP BY run_id
),
kern AS MATERIALIZED (  -- kernels with their run's span (device ids are per run)
  SELECT k.run_id, k.id, k.device_id, k.process_id, k.correlation_id, k.start_ns, k.end_ns,
         k.blocks_per_sm, k.est_occupancy_pct, n.value AS name, sp.s0, sp.s1
  FROM sp JOIN kernels k ON k.run_id = sp.run_id JOIN strings n ON n.id = k.name_id
),
util AS (
  SELECT run_id, device_id, s0, s1, interval_union_ns(max(start_ns, s0), min(end_ns, s1)) AS busy
  FROM kern GROUP BY device_id
),
-- SM efficiency: tb_plugin range_utils.merge_ranges_with_value as a sweep over the endpoints
endpoints AS (
  SELECT device_id, s0, s1, start_ns AS t, 0 AS typ, blocks_per_sm AS v FROM kern WHERE blocks_per_sm > 0
  UNION ALL
  SELECT device_id, s0, s1, end_ns, 1, -blocks_per_sm FROM kern WHERE blocks_per_sm > 0
),
sweep AS (
  SELECT device_id, s0, s1, t,
         sum(v) OVER w AS level,
         lead(t) OVER w AS t_next
  FROM endpoints
  WINDOW w AS (PARTITION BY device_id ORDER BY t, typ ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
sm AS (
  SELECT device_id,
         total(min(level, 1.0) * overlap_ns(t, t_next, s0, s1)) AS w,
         count(*) AS n
  FROM sweep WHERE t_next > t AND level > 0.0
    AND t_next > s0 AND t < s1   -- segments inside the span only
  GROUP BY device_id
),
occ AS (
  SELECT device_id,
         total(est_occupancy_pct * overlap_ns(start_ns, end_ns, s0, s1)) AS w,
         sum(overlap_ns(start_ns, end_ns, s0, s1)) AS t
  FROM kern WHERE est_occupancy_pct >= 0 GROUP BY device_id
),
tc AS (  -- kernels reachable from tb_plugin's operator trees
  SELECT k.run_id, k.device_id,
         sum(CASE WHEN tensor_core_pattern(k.name) IN ('h884', 's884', 'h1688', 's1688', 'hmma',
               'i8816', '16816', 'dgrad_1x1_stride_2x2', 'first_layer_wgrad_kernel', 'conv1x1',
               'conv2d_c1_k1', 'direct_group', 'xmma_implicit_gemm', 'xmma_sparse_conv',
               'xmma_warp_specialized_implicit_gemm', 'xmma_gemm', 'xmma_sparse_gemm', 'c1688')
             THEN k.end_ns - k.start_ns ELSE 0 END) AS tc_ns,
         sum(k.end_ns - k.start_ns) AS all_ns
  FROM kern k JOIN api_calls a ON a.process_id = k.process_id AND a.correlation_id = k.correlation_id
                              AND a.api_kind = 0
  WHERE a.external_id = 0
     OR EXISTS (SELECT 1 FROM ranges h LEFT JOIN strings c ON c.id = h.category_id
                WHERE h.external_id = a.external_id AND h.run_id = k.run_id AND h.end_ns IS NOT NULL
                  AND (h.kind IN (2, 3) OR (h.kind = 5 AND lower(c.value) = 'python')))
  GROUP BY k.device_id
),
tc_runs AS (SELECT DISTINCT run_id FROM tc)   -- runs where some kernel is attributed
SELECT u.run_id, d.ordinal AS device, d.name,
       round(d.global_memory_bytes / 1073741824.0, 2) AS memory_gib,
       d.compute_major || '.' || d.compute_minor AS compute_capability,
       round(100.0 * u.busy / (u.s1 - u.s0), 2) AS gpu_utilization_pct,
       round(100.0 * sm.w / (u.s1 - u.s0), 2) AS sm_efficiency_pct,
       CASE WHEN occ.t > 0 THEN round(occ.w / occ.t, 2) END AS achieved_occupancy_pct,
       CASE WHEN u.run_id IN (SELECT run_id FROM tc_runs)
            THEN round(100.0 * coalesce(tc.tc_ns, 0) / nullif(tc.all_ns, 0), 2) END AS tensor_core_pct
FROM util u JOIN devices d ON d.id = u.device_id
LEFT JOIN sm ON sm.device_id = u.device_id
LEFT JOIN occ ON occ.device_id = u.device_id
LEFT JOIN tc ON tc.device_id = u.device_id
ORDER BY u.run_id, d.ordinal
LIMIT coalesce(:limit, -1);
