-- Per-GPU summary as TensorBoard's profiler plugin shows it: utilization, SM efficiency, occupancy, Tensor Cores
.load build/profq
-- Columns: run_id, device (CUDA ordinal), name, memory_gib (totalGlobalMem / 2^30, rounded to 2 places,
-- as tb_plugin prints "GB"), compute_capability ('7.0'), gpu_utilization_pct, sm_efficiency_pct,
-- achieved_occupancy_pct, tensor_core_pct (all rounded to 2 places, as tb_plugin's overview).
-- One row per run that has steps (PyTorch profiler traces) and device that ran kernels in it.
-- Parameters: :run (default: every run).
--
-- Definition: tb_plugin 0.4.3 (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/
-- gpu_metrics_parser.py, tensor_cores_parser.py at 041e7ce9; notes/kineto_hta.md §1.4), in the
-- v_tb_gpu_metrics view (schema/views.sql, docs/schema.md; stored for finished runs in
-- tb_gpu_metrics). The "steps span" of a run is [first step start, last step end) of its steps
-- in the v_tb_steps view (tb_plugin's step extension and tail trimming, as in step-breakdown).
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
SELECT m.run_id, d.ordinal AS device, d.name,
       round(d.global_memory_bytes / 1073741824.0, 2) AS memory_gib,
       d.compute_major || '.' || d.compute_minor AS compute_capability,
       m.gpu_utilization_pct, m.sm_efficiency_pct, m.achieved_occupancy_pct, m.tensor_core_pct
FROM v_tb_gpu_metrics m JOIN devices d ON d.id = m.device_id
WHERE :run IS NULL OR m.run_id = :run
ORDER BY m.run_id, d.ordinal
LIMIT coalesce(:limit, -1);
