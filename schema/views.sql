-- profq friendly views, schema version 1.
--
-- Plain SQL only (no extension functions), so Grafana's SQLite datasource and any SQLite client can
-- use them. Each v_<table> view joins names back from `strings` and the dimension tables, and adds
-- `duration_ns` and `time` (start in seconds, REAL, the form Grafana reads as a timestamp).

CREATE VIEW v_threads AS
SELECT t.id AS thread_id, t.run_id, p.pid, t.tid, ps.value AS process_name, ts.value AS thread_name,
       t.process_id
FROM threads t
JOIN processes p ON p.id = t.process_id
LEFT JOIN strings ps ON ps.id = p.name_id
LEFT JOIN strings ts ON ts.id = t.name_id;

CREATE VIEW v_streams AS
SELECT s.id AS stream_id, s.run_id, p.pid, d.ordinal AS device, s.stream, s.context, s.priority,
       st.name AS stream_type, n.value AS stream_name
FROM streams s
LEFT JOIN processes p ON p.id = s.process_id
LEFT JOIN devices d ON d.id = s.device_id
LEFT JOIN stream_types st ON st.id = s.stream_type
LEFT JOIN strings n ON n.id = s.name_id;

CREATE VIEW v_kernels AS
SELECT k.id, k.run_id, p.pid, d.ordinal AS device, s.stream,
       k.start_ns, k.end_ns, k.end_ns - k.start_ns AS duration_ns, k.start_ns / 1e9 AS time,
       n.value AS name, coalesce(dn.value, n.value) AS demangled_name,
       coalesce(sn.value, dn.value, n.value) AS short_name,
       k.correlation_id, k.external_id,
       k.grid_x, k.grid_y, k.grid_z, k.block_x, k.block_y, k.block_z,
       k.registers_per_thread, k.static_shared_bytes, k.dynamic_shared_bytes,
       k.blocks_per_sm, k.warps_per_sm, k.est_occupancy_pct
FROM kernels k
JOIN strings n ON n.id = k.name_id
LEFT JOIN strings dn ON dn.id = k.demangled_name_id
LEFT JOIN strings sn ON sn.id = k.short_name_id
LEFT JOIN processes p ON p.id = k.process_id
LEFT JOIN devices d ON d.id = k.device_id
LEFT JOIN streams s ON s.id = k.stream_id;

CREATE VIEW v_memcpys AS
SELECT m.id, m.run_id, p.pid, d.ordinal AS device, s.stream,
       m.start_ns, m.end_ns, m.end_ns - m.start_ns AS duration_ns, m.start_ns / 1e9 AS time,
       '[CUDA memcpy ' || ck.label || ']' AS operation, ck.label AS copy_kind,
       sk.label AS src_kind, dk.label AS dst_kind, m.bytes, m.is_async,
       m.correlation_id, m.external_id
FROM memcpys m
JOIN copy_kinds ck ON ck.id = m.copy_kind
LEFT JOIN memory_kinds sk ON sk.id = m.src_kind
LEFT JOIN memory_kinds dk ON dk.id = m.dst_kind
LEFT JOIN processes p ON p.id = m.process_id
LEFT JOIN devices d ON d.id = m.device_id
LEFT JOIN streams s ON s.id = m.stream_id;

CREATE VIEW v_memsets AS
SELECT m.id, m.run_id, p.pid, d.ordinal AS device, s.stream,
       m.start_ns, m.end_ns, m.end_ns - m.start_ns AS duration_ns, m.start_ns / 1e9 AS time,
       '[CUDA memset]' AS operation, mk.label AS memory_kind, m.bytes, m.value, m.is_async,
       m.correlation_id, m.external_id
FROM memsets m
LEFT JOIN memory_kinds mk ON mk.id = m.memory_kind
LEFT JOIN processes p ON p.id = m.process_id
LEFT JOIN devices d ON d.id = m.device_id
LEFT JOIN streams s ON s.id = m.stream_id;

-- Every GPU operation (kernels, memcpys, memsets) with a category column: GPU busy time, per-stream
-- timelines and gap analysis start here.
CREATE VIEW v_gpu_activities AS
SELECT run_id, pid, device, stream, start_ns, end_ns, duration_ns, time,
       'kernel' AS category, name, correlation_id, external_id, NULL AS bytes
FROM v_kernels
UNION ALL
SELECT run_id, pid, device, stream, start_ns, end_ns, duration_ns, time,
       'memcpy', operation, correlation_id, external_id, bytes
FROM v_memcpys
UNION ALL
SELECT run_id, pid, device, stream, start_ns, end_ns, duration_ns, time,
       'memset', operation, correlation_id, external_id, bytes
FROM v_memsets;

CREATE VIEW v_api_calls AS
SELECT a.id, a.run_id, t.pid, t.tid, t.thread_name,
       a.start_ns, a.end_ns, a.end_ns - a.start_ns AS duration_ns, a.start_ns / 1e9 AS time,
       ak.name AS api, n.value AS name, a.cbid, a.correlation_id, a.external_id, a.return_value
FROM api_calls a
JOIN strings n ON n.id = a.name_id
JOIN api_kinds ak ON ak.id = a.api_kind
LEFT JOIN v_threads t ON t.thread_id = a.thread_id;

CREATE VIEW v_ranges AS
SELECT r.id, r.run_id, t.pid, t.tid, t.thread_name, d.ordinal AS device, s.stream,
       r.start_ns, r.end_ns, r.end_ns - r.start_ns AS duration_ns, r.start_ns / 1e9 AS time,
       rk.name AS kind, n.value AS name,
       coalesce(c.value, cn.value) AS category, dn.value AS domain,
       r.color, r.payload, r.depth, r.parent_id, r.correlation_id, r.external_id, r.args
FROM ranges r
JOIN strings n ON n.id = r.name_id
JOIN range_kinds rk ON rk.id = r.kind
LEFT JOIN strings c ON c.id = r.category_id
LEFT JOIN nvtx_domains nd ON nd.id = r.domain_id
LEFT JOIN strings dn ON dn.id = nd.name_id
LEFT JOIN nvtx_categories ncat
       ON ncat.run_id = r.run_id AND ncat.category = r.nvtx_category
      AND ncat.process_id IS r.process_id AND ncat.domain_id IS r.domain_id
LEFT JOIN strings cn ON cn.id = ncat.name_id
LEFT JOIN v_threads t ON t.thread_id = r.thread_id
LEFT JOIN devices d ON d.id = r.device_id
LEFT JOIN streams s ON s.id = r.stream_id;

CREATE VIEW v_marks AS
SELECT m.id, m.run_id, t.pid, t.tid, t.thread_name, m.ts_ns, m.ts_ns / 1e9 AS time,
       mk.name AS kind, n.value AS name, c.value AS category, dn.value AS domain,
       m.color, m.payload, m.scope, m.args
FROM marks m
JOIN strings n ON n.id = m.name_id
JOIN mark_kinds mk ON mk.id = m.kind
LEFT JOIN strings c ON c.id = m.category_id
LEFT JOIN nvtx_domains nd ON nd.id = m.domain_id
LEFT JOIN strings dn ON dn.id = nd.name_id
LEFT JOIN v_threads t ON t.thread_id = m.thread_id;

CREATE VIEW v_memory_events AS
SELECT e.id, e.run_id, p.pid, d.ordinal AS device, e.ts_ns, e.ts_ns / 1e9 AS time,
       mo.name AS operation, e.address, e.bytes, mk.label AS memory_kind,
       e.total_allocated, e.total_reserved, e.correlation_id, e.external_id
FROM memory_events e
JOIN memory_operations mo ON mo.id = e.operation
LEFT JOIN memory_kinds mk ON mk.id = e.memory_kind
LEFT JOIN processes p ON p.id = e.process_id
LEFT JOIN devices d ON d.id = e.device_id;

CREATE VIEW v_counters AS
SELECT c.id, c.run_id, p.pid, d.ordinal AS device, n.value AS name, c.ts_ns, c.ts_ns / 1e9 AS time,
       c.value
FROM counters c
JOIN strings n ON n.id = c.name_id
LEFT JOIN processes p ON p.id = c.process_id
LEFT JOIN devices d ON d.id = c.device_id;

CREATE VIEW v_synchronizations AS
SELECT y.id, y.run_id, p.pid, t.tid, d.ordinal AS device, s.stream,
       y.start_ns, y.end_ns, y.end_ns - y.start_ns AS duration_ns, y.start_ns / 1e9 AS time,
       st.name AS sync_type, y.correlation_id, y.external_id, y.event_id, y.return_value, y.args
FROM synchronizations y
JOIN sync_types st ON st.id = y.sync_type
LEFT JOIN processes p ON p.id = y.process_id
LEFT JOIN threads t ON t.id = y.thread_id
LEFT JOIN devices d ON d.id = y.device_id
LEFT JOIN streams s ON s.id = y.stream_id;

-- The kernel names tb_plugin counts as using Tensor Cores (tensor_core.py TC_Allowlist: its 18
-- patterns, tensor_core_pattern()); v_tb_gpu_metrics and v_tb_op_nodes read it, lib/derive_ops.c
-- asks it about each kernel name.
CREATE VIEW v_tb_tc_names AS
SELECT id FROM strings
WHERE tensor_core_pattern(value) IN ('h884', 's884', 'h1688', 's1688', 'hmma', 'i8816', '16816',
  'dgrad_1x1_stride_2x2', 'first_layer_wgrad_kernel', 'conv1x1', 'conv2d_c1_k1', 'direct_group',
  'xmma_implicit_gemm', 'xmma_sparse_conv', 'xmma_warp_specialized_implicit_gemm', 'xmma_gemm',
  'xmma_sparse_gemm', 'c1688');

-- What tb_plugin makes of each host range name (node.py, op_tree.py, overall_parser.py,
-- event_parser.py at 041e7ce9; the tb_* views read it, and lib/derive_host.c asks it about each
-- name): annot, a node of the operator tree when an annotation (user_annotation); listed, shown
-- in the operator table; step, a ProfilerStep#N, step_number its N; tcl, in tb_plugin's
-- TC_OP_Allowlist (tensor_cores_parser.py); role, what the step time breakdown makes of it:
-- 'comm' (Communication: the nccl:/gloo: collectives), 'dl' (DataLoader), 'step', else NULL.
CREATE VIEW v_tb_host_names AS
SELECT id,
       value GLOB 'ProfilerStep#*' OR value GLOB 'Optimizer.step*'
         OR (value GLOB 'enumerate(DataLoader)#*' AND value GLOB '*.__next__')
         OR value GLOB 'enumerate(DataPipe)#*'
         OR value IN ('nccl:broadcast', 'nccl:reduce', 'nccl:all_reduce', 'nccl:all_gather',
           'nccl:reduce_scatter', 'gloo:broadcast', 'gloo:reduce', 'gloo:all_reduce',
           'gloo:all_gather', 'gloo:reduce_scatter') AS annot,
       NOT (value GLOB 'ProfilerStep#*' OR value GLOB 'Optimizer.*'
            OR value GLOB 'enumerate(DataLoader)#*' OR value GLOB 'enumerate(DataPipe)#*'
            OR value IN ('DataParallel.forward', 'DistributedDataParallel.forward')) AS listed,
       value GLOB 'ProfilerStep#*' AS step,
       value IN ('aten::_convolution', 'aten::conv1d', 'aten::conv2d', 'aten::conv3d',
         'aten::conv_tbc', 'aten::conv_transpose1d', 'aten::conv_transpose2d', 'aten::conv_transpose3d',
         'aten::convolution', 'aten::cudnn_convolution', 'aten::cudnn_convolution_transpose',
         'aten::prelu', 'aten::addmm', 'aten::addmv', 'aten::addr', 'aten::matmul', 'aten::mm',
         'aten::mv', 'aten::linear', 'aten::addbmm', 'aten::baddbmm', 'aten::bmm',
         'aten::chain_matmul', 'aten::linalg_multi_dot', 'aten::_thnn_fused_lstm_cell',
         'aten::_thnn_fused_gru_cell', 'aten::lstm_cell', 'aten::gru_cell', 'aten::rnn_tanh_cell',
         'aten::rnn_relu_cell', 'CudnnConvolutionBackward', 'BmmBackward0',
         'aten::cudnn_convolution_transpose_backward', 'CudnnConvolutionTransposeBackward',
         'MmBackward', 'aten::cudnn_convolution_backward_weight', 'aten::addmm_', 'AddmvBackward',
         'MvBackward', 'aten::cudnn_convolution_transpose_backward_weight',
         'aten::cudnn_convolution_transpose_backward_input', 'AddmmBackward',
         'aten::cudnn_convolution_backward_input', 'AddbmmBackward',
         'aten::cudnn_convolution_backward') AS tcl,
       CASE WHEN value IN ('nccl:broadcast', 'nccl:reduce', 'nccl:all_reduce', 'nccl:all_gather',
              'nccl:reduce_scatter', 'gloo:broadcast', 'gloo:reduce', 'gloo:all_reduce',
              'gloo:all_gather', 'gloo:reduce_scatter') THEN 'comm'
            WHEN (value GLOB 'enumerate(DataLoader)#*' AND value GLOB '*.__next__')
                 OR value GLOB 'enumerate(DataPipe)#*' THEN 'dl'
            WHEN value GLOB 'ProfilerStep#*' THEN 'step' END AS role,
       CASE WHEN value GLOB 'ProfilerStep#*' THEN CAST(substr(value, 14) AS INTEGER) END AS step_number
FROM strings;

-- tb_plugin's training steps (TensorBoard profiler plugin 0.4.3, event_parser.py StepParser; the
-- step-breakdown, gpu-summary and dist-summary reports read them). Per run:
--  * host steps: the ProfilerStep#N cpu_op / user_annotation ranges (step = N). Without any, one
--    step 0 spanning the cpu_op and python (category "python") ranges. Runs without either (an
--    nsys export) have no steps.
--  * a runtime call (api_kind 0) inside a host step belongs to it; the kernels, memcpys and
--    memsets it launched (same process and correlation id) are the step's device events. When
--    some step launched device work, steps are extended: prev_end starts at the first host step's
--    start, raised to the end of any device event launched by no step that ends before the first
--    step's first device start; start = max(prev_end, host start), end = max(host end, last device
--    end, start); prev_end = end. Steps after the last one that launched device work are dropped,
--    and that one too if it launched < 0.8x the device events of the step before it.
-- step_index counts a run's steps from 0 in time order. A finished run's rows are stored in
-- tb_steps (derived_runs lists it); the definition below computes the other runs ("todo").
CREATE VIEW v_tb_steps AS
WITH
todo AS MATERIALIZED (SELECT id AS run_id FROM runs
  WHERE id NOT IN (SELECT run_id FROM derived_runs WHERE name = 'tb_steps')),
pstep AS (  -- names first: the strings index finds the ProfilerStep#N names, ranges_name their ranges
  SELECT r.run_id, CAST(substr(n.value, 14) AS INTEGER) AS step, r.start_ns AS hs, r.end_ns AS he
  FROM strings n CROSS JOIN ranges r ON r.name_id = n.id
  WHERE n.value GLOB 'ProfilerStep#*' AND r.kind IN (2, 3) AND r.end_ns IS NOT NULL
    AND r.run_id IN (SELECT run_id FROM todo)
),
host_steps AS (
  SELECT run_id, step, hs, he FROM pstep
  UNION ALL
  SELECT r.run_id, 0, min(r.start_ns), max(r.end_ns)   -- no ProfilerStep: cpu_op and python ranges
  FROM todo t CROSS JOIN ranges r ON r.run_id = t.run_id LEFT JOIN strings c ON c.id = r.category_id
  WHERE t.run_id NOT IN (SELECT run_id FROM pstep)
    AND r.end_ns IS NOT NULL AND (r.kind = 2 OR (r.kind = 5 AND lower(c.value) = 'python'))
  GROUP BY r.run_id
),
hsteps AS MATERIALIZED (
  SELECT run_id, row_number() OVER (PARTITION BY run_id ORDER BY hs, he) - 1 AS idx, step, hs, he
  FROM host_steps
),
-- the runtime calls (api_kind 0) that lie in a host step, with the step: each step reads its
-- calls through the (run, time) index, so the cost follows the calls, not calls x steps
stepped AS MATERIALIZED (
  SELECT a.process_id, a.correlation_id, s.idx
  FROM hsteps s CROSS JOIN api_calls a ON a.run_id = s.run_id AND a.start_ns >= s.hs
                                      AND a.start_ns <= s.he
  WHERE a.end_ns <= s.he AND a.api_kind = 0
),
-- every device event of the runs with steps, once per host step its launching runtime call (same
-- process and correlation id) lies in; idx NULL when in none
dev AS MATERIALIZED (
  SELECT d.run_id, d.t, d.id, d.start_ns, d.end_ns, c.idx
  FROM (SELECT 'k' AS t, id, run_id, process_id, correlation_id, start_ns, end_ns FROM kernels
         WHERE run_id IN (SELECT run_id FROM hsteps)
        UNION ALL SELECT 'c', id, run_id, process_id, correlation_id, start_ns, end_ns FROM memcpys
         WHERE run_id IN (SELECT run_id FROM hsteps)
        UNION ALL SELECT 's', id, run_id, process_id, correlation_id, start_ns, end_ns FROM memsets
         WHERE run_id IN (SELECT run_id FROM hsteps)) d
  LEFT JOIN stepped c ON c.process_id = d.process_id AND c.correlation_id = d.correlation_id
),
dstep AS MATERIALIZED (  -- each step with its device work: grouped, not joined (a join of steps
                         -- with their events found no index here and scanned steps x events)
  SELECT run_id, idx, max(step) AS step, max(hs) AS hs, max(he) AS he, min(ds) AS ds,
         max(de) AS de, sum(n) AS n
  FROM (SELECT run_id, idx, step, hs, he, NULL AS ds, NULL AS de, 0 AS n FROM hsteps
        UNION ALL
        SELECT run_id, idx, NULL, NULL, NULL, start_ns, end_ns, 1 FROM dev WHERE idx IS NOT NULL)
  GROUP BY run_id, idx
),
rs AS MATERIALIZED (  -- per run: step count, whether any step launched device work, the last one that did
  SELECT run_id, count(*) AS steps, max(n) > 0 AS used, max(CASE WHEN n > 0 THEN idx END) AS l
  FROM dstep GROUP BY run_id
),
first_ AS (SELECT run_id, hs, ds FROM dstep WHERE idx = 0),
unowned AS (  -- end of the last device event launched by no step, ending before the first step's device work
  -- (an event has a row with idx NULL only when no call of it lies in a step)
  SELECT f.run_id, max(d.end_ns) AS e FROM first_ f JOIN dev d
    ON d.run_id = f.run_id AND d.start_ns < f.ds AND d.end_ns < f.ds AND d.idx IS NULL
  GROUP BY f.run_id
),
init AS (  -- prev_end before the first step
  SELECT f.run_id, max(f.hs, coalesce(u.e, f.hs)) AS prev_end
  FROM first_ f LEFT JOIN unowned u USING (run_id)
),
ext AS (
  SELECT d.run_id, d.idx, d.step, d.hs, d.he, i.prev_end,
         max(i.prev_end, max(max(d.he, coalesce(d.de, d.he)))
               OVER (PARTITION BY d.run_id ORDER BY d.idx ROWS UNBOUNDED PRECEDING)) AS e
  FROM dstep d JOIN init i USING (run_id)
),
ext2 AS (
  SELECT run_id, idx, step, hs, he,
         max(hs, coalesce(lag(e) OVER (PARTITION BY run_id ORDER BY idx), prev_end)) AS start_ns,
         e AS end_ns
  FROM ext
),
keep AS (  -- how many steps a run keeps
  SELECT r.run_id, CASE
    WHEN NOT r.used OR r.steps <= 1 THEN r.steps
    WHEN r.l > 0 AND p.n * 0.8 > c.n THEN r.l
    ELSE r.l + 1 END AS k
  FROM rs r LEFT JOIN dstep c ON c.run_id = r.run_id AND c.idx = r.l
  LEFT JOIN dstep p ON p.run_id = r.run_id AND p.idx = r.l - 1
)
SELECT run_id, step_index, step, start_ns, end_ns FROM tb_steps
WHERE run_id IN (SELECT run_id FROM derived_runs WHERE name = 'tb_steps')
UNION ALL
SELECT e.run_id, e.idx AS step_index, e.step,
       CASE WHEN r.used THEN e.start_ns ELSE e.hs END AS start_ns,
       CASE WHEN r.used THEN e.end_ns ELSE e.he END AS end_ns
FROM ext2 e JOIN rs r USING (run_id) JOIN keep k USING (run_id)
WHERE e.idx < k.k;

-- tb_plugin's step time breakdown per step (overall_parser.py; the step-breakdown report reads
-- it): the v_tb_steps steps, each instant charged to the role of the lowest priority covering it:
-- Kernel 0 (kernels whose external id is not a communication op's), Memcpy 1, Memset 2,
-- Communication 3 (kernels of communication ops plus the host ranges named nccl:/gloo:
-- broadcast, reduce, all_reduce, all_gather, reduce_scatter), Runtime 4, DataLoader 5
-- (cpu_op/user_annotation named enumerate(DataLoader)#*.__next__ or enumerate(DataPipe)#*),
-- CPU Exec 6 (every other cpu_op, user_annotation and python range, ProfilerStep excluded),
-- other = the rest of the step, total = the step. One priority_breakdown sweep a run, with the
-- steps as its windows. Finished runs' rows are stored in tb_step_times.
CREATE VIEW v_tb_step_times AS
WITH
todo AS MATERIALIZED (SELECT id AS run_id FROM runs
  WHERE id NOT IN (SELECT run_id FROM derived_runs WHERE name = 'tb_step_times')),
steps AS MATERIALIZED (
  SELECT run_id, step_index, step, start_ns, end_ns FROM v_tb_steps
  WHERE run_id IN (SELECT run_id FROM todo)
),
wins AS MATERIALIZED (  -- per run, its steps as priority_breakdown's windows, in step order
  SELECT run_id, w FROM (
    SELECT run_id, step_index, group_concat(start_ns || ' ' || end_ns, ' ') OVER (PARTITION BY run_id
             ORDER BY step_index ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS w
    FROM steps)
  WHERE step_index = 0
),
hnames AS MATERIALIZED (  -- the host range names with a role of their own
  SELECT id, role AS what FROM v_tb_host_names WHERE role IS NOT NULL
),
comm_ext AS MATERIALIZED (  -- external ids of the communication ops: their kernels are Communication
  SELECT DISTINCT r.run_id, r.external_id FROM hnames h CROSS JOIN ranges r ON r.name_id = h.id
  LEFT JOIN strings c ON c.id = r.category_id
  WHERE h.what = 'comm' AND r.run_id IN (SELECT run_id FROM wins) AND r.end_ns IS NOT NULL
    AND (r.kind IN (2, 3) OR (r.kind = 5 AND lower(c.value) = 'python'))
),
-- per run, one sweep over its events; they are written inside the correlated subquery so each
-- table is read through its run index (the NULL row: a run without events still gets its steps)
bd AS (
  SELECT w.run_id, (
    SELECT priority_breakdown(ev.start_ns, ev.end_ns, ev.role, ev.prio, ev.win) FROM (
      SELECT k.start_ns, k.end_ns,
             CASE WHEN x.external_id IS NOT NULL THEN 'Communication' ELSE 'Kernel' END AS role,
             CASE WHEN x.external_id IS NOT NULL THEN 3 ELSE 0 END AS prio, NULL AS win
      FROM kernels k LEFT JOIN comm_ext x ON x.run_id = k.run_id AND x.external_id = k.external_id
      WHERE k.run_id = w.run_id
      UNION ALL SELECT start_ns, end_ns, 'Memcpy', 1, NULL FROM memcpys WHERE run_id = w.run_id
      UNION ALL SELECT start_ns, end_ns, 'Memset', 2, NULL FROM memsets WHERE run_id = w.run_id
      UNION ALL SELECT start_ns, end_ns, 'Runtime', 4, NULL FROM api_calls WHERE run_id = w.run_id AND api_kind = 0
      UNION ALL  -- tb_plugin's host-side events: Operator, UserAnnotation, Python
      SELECT r.start_ns, r.end_ns,
             CASE WHEN r.kind <> 5 AND h.what = 'dl' THEN 'DataLoader' WHEN h.what = 'comm' THEN 'Communication'
                  ELSE 'CPU Exec' END,
             CASE WHEN r.kind <> 5 AND h.what = 'dl' THEN 5 WHEN h.what = 'comm' THEN 3 ELSE 6 END, NULL
      FROM ranges r LEFT JOIN hnames h ON h.id = r.name_id LEFT JOIN strings c ON c.id = r.category_id
      WHERE r.run_id = w.run_id AND r.end_ns IS NOT NULL
        AND (r.kind IN (2, 3) OR (r.kind = 5 AND lower(c.value) = 'python'))
        AND NOT (r.kind <> 5 AND h.what IS 'step')
      -- the windows on one row only (the others' NULL): a long list is read once, not per event
      UNION ALL SELECT NULL, NULL, NULL, NULL, w.w) ev) AS j
  FROM wins w
)
SELECT run_id, step_index, step, kernel_ns, memcpy_ns, memset_ns, communication_ns, runtime_ns,
       dataloader_ns, cpu_exec_ns, other_ns, total_ns
FROM tb_step_times WHERE run_id IN (SELECT run_id FROM derived_runs WHERE name = 'tb_step_times')
UNION ALL
SELECT s.run_id, s.step_index, s.step,  -- json_each, not json_extract: views may only call innocuous functions
       coalesce(sum(CASE c.key WHEN 'Kernel' THEN c.value END), 0),
       coalesce(sum(CASE c.key WHEN 'Memcpy' THEN c.value END), 0),
       coalesce(sum(CASE c.key WHEN 'Memset' THEN c.value END), 0),
       coalesce(sum(CASE c.key WHEN 'Communication' THEN c.value END), 0),
       coalesce(sum(CASE c.key WHEN 'Runtime' THEN c.value END), 0),
       coalesce(sum(CASE c.key WHEN 'DataLoader' THEN c.value END), 0),
       coalesce(sum(CASE c.key WHEN 'CPU Exec' THEN c.value END), 0),
       sum(CASE c.key WHEN 'other' THEN c.value END), sum(CASE c.key WHEN 'total' THEN c.value END)
FROM bd b, json_each(b.j) p, json_each(p.value) c JOIN steps s ON s.run_id = b.run_id AND s.step_index = p.key
GROUP BY s.run_id, s.step_index;

-- tb_plugin's GPU metrics per run and device (gpu_metrics_parser.py, tensor_cores_parser.py; the
-- gpu-summary report reads it), over the run's steps span (first v_tb_steps start to last end):
--  * gpu_utilization_pct: the union of the device's kernels (not memcpy/memset) clipped to the
--    span, over the span.
--  * sm_efficiency_pct: Kineto's "blocks per SM" of the kernels running at each instant, summed
--    and capped at 1 (interval_weighted_ns), integrated over the span, over the span; NULL
--    without any.
--  * achieved_occupancy_pct: Kineto's "est. achieved occupancy %" (>= 0 only) weighted by each
--    kernel's time inside the span, over that time; NULL without values.
--  * tensor_core_pct: time of kernels whose name matches tb_plugin's Tensor Core allowlist
--    (tensor_core_pattern(): exactly tb_plugin's 18 patterns) over the time of all kernels
--    attributed to an operator (runtime call with external id 0 or the external id of a host
--    range); NULL when the run has no attributed kernel.
-- One row per run with steps and device that ran kernels in it. Finished runs' rows are stored in
-- tb_gpu_metrics.
CREATE VIEW v_tb_gpu_metrics AS
WITH
todo AS MATERIALIZED (SELECT id AS run_id FROM runs
  WHERE id NOT IN (SELECT run_id FROM derived_runs WHERE name = 'tb_gpu_metrics')),
sp AS MATERIALIZED (  -- each run's steps span
  SELECT run_id, min(start_ns) AS s0, max(end_ns) AS s1 FROM v_tb_steps
  WHERE run_id IN (SELECT run_id FROM todo) GROUP BY run_id
),
kern AS MATERIALIZED (  -- kernels with their run's span (device ids are per run)
  SELECT k.run_id, k.device_id, k.process_id, k.correlation_id, k.start_ns, k.end_ns, k.name_id,
         k.blocks_per_sm, k.est_occupancy_pct, sp.s0, sp.s1
  FROM sp CROSS JOIN kernels k ON k.run_id = sp.run_id
),
tc_names AS MATERIALIZED (  -- the kernel names tb_plugin counts as using Tensor Cores
  SELECT id FROM v_tb_tc_names WHERE id IN (SELECT name_id FROM kern)
),
per_device AS (
  SELECT run_id, device_id, s0, s1,
         interval_union_ns(max(start_ns, s0), min(end_ns, s1)) AS busy,
         interval_weighted_ns(start_ns, end_ns, blocks_per_sm, 1.0, s0, s1) AS sm_w,
         total(CASE WHEN est_occupancy_pct >= 0 THEN est_occupancy_pct * overlap_ns(start_ns, end_ns, s0, s1) END) AS occ_w,
         sum(CASE WHEN est_occupancy_pct >= 0 THEN overlap_ns(start_ns, end_ns, s0, s1) END) AS occ_t
  FROM kern GROUP BY device_id
),
tc AS (  -- kernels reachable from tb_plugin's operator trees
  SELECT k.run_id, k.device_id,
         sum(CASE WHEN k.name_id IN (SELECT id FROM tc_names) THEN k.end_ns - k.start_ns ELSE 0 END) AS tc_ns,
         sum(k.end_ns - k.start_ns) AS all_ns
  FROM kern k JOIN api_calls a ON a.process_id = k.process_id AND a.correlation_id = k.correlation_id
                              AND a.api_kind = 0
  WHERE a.external_id = 0
     OR EXISTS (SELECT 1 FROM ranges h LEFT JOIN strings c ON c.id = h.category_id
                WHERE h.external_id = a.external_id AND h.run_id = k.run_id AND h.end_ns IS NOT NULL
                  AND (h.kind IN (2, 3) OR (h.kind = 5 AND lower(c.value) = 'python')))
  GROUP BY k.device_id
)
SELECT run_id, device_id, gpu_utilization_pct, sm_efficiency_pct, achieved_occupancy_pct, tensor_core_pct
FROM tb_gpu_metrics WHERE run_id IN (SELECT run_id FROM derived_runs WHERE name = 'tb_gpu_metrics')
UNION ALL
SELECT u.run_id, u.device_id, round(100.0 * u.busy / (u.s1 - u.s0), 2),
       round(100.0 * u.sm_w / (u.s1 - u.s0), 2),
       CASE WHEN u.occ_t > 0 THEN round(u.occ_w / u.occ_t, 2) END,
       CASE WHEN u.run_id IN (SELECT run_id FROM tc)
            THEN round(100.0 * coalesce(tc.tc_ns, 0) / nullif(tc.all_ns, 0), 2) END
FROM per_device u LEFT JOIN tc ON tc.device_id = u.device_id;


-- The nodes of tb_plugin's operator tree (node.py, op_tree.py at 041e7ce9; notes/kineto_hta.md
-- §1.5) of the runs tb_op_sums does not hold (v_tb_op_sums builds the tree from them): per thread,
-- the host ranges tb_plugin builds nodes for (cpu_op, cat "python", ProfilerStep#N, DataLoader and
-- Optimizer.step* annotations, nccl:/gloo: annotations), with their own times: a runtime call
-- belongs to the first node with its external id, and its device events (kernels, memcpys,
-- memsets with its correlation id) are the node's own device time (kernels only: k_ns; kernels
-- using Tensor Cores, v_tb_tc_names: tc_ns); listed, step, tcl: v_tb_host_names'. lib/derive_ops.c
-- computes the same nodes in C for the runs it derives.
CREATE VIEW v_tb_op_nodes AS
WITH
todo AS MATERIALIZED (SELECT id AS run_id FROM runs
  WHERE id NOT IN (SELECT run_id FROM derived_runs WHERE name = 'tb_op_sums')),
names AS MATERIALIZED (SELECT * FROM v_tb_host_names WHERE id IN (SELECT name_id FROM ranges)),
nodes AS MATERIALIZED (
  SELECT r.run_id, r.id, r.thread_id, r.start_ns, r.end_ns, r.kind, r.name_id, r.external_id,
         nm.listed, nm.step, nm.tcl, min(r.id) OVER (PARTITION BY r.run_id, r.external_id) AS first
  FROM todo t CROSS JOIN ranges r ON r.run_id = t.run_id CROSS JOIN names nm ON nm.id = r.name_id
  LEFT JOIN strings c ON c.id = r.category_id
  WHERE r.end_ns IS NOT NULL
    AND (r.kind = 2 OR (r.kind = 5 AND lower(c.value) = 'python') OR (r.kind = 3 AND nm.annot))
),
tcn AS MATERIALIZED (  -- kernel names using Tensor Cores (tb_plugin's 18 patterns)
  SELECT id FROM v_tb_tc_names WHERE id IN (SELECT name_id FROM kernels)
),
-- per (run, external id): the runtime calls' time and the device time they launched: a node's own
-- when it is the first node with that external id (tb_plugin pops the runtimes once)
rtx AS MATERIALIZED (
  SELECT run_id, external_id, total(rt) AS rt_ns, total(dev) AS dev_ns, total(tc) AS tc_ns, total(k) AS k_ns
  FROM (SELECT a.run_id, a.external_id, a.end_ns - a.start_ns AS rt, 0 AS dev, 0 AS tc, 0 AS k
        FROM todo t CROSS JOIN api_calls a ON a.run_id = t.run_id
        WHERE a.api_kind = 0 AND a.external_id IS NOT NULL
        UNION ALL
        SELECT a.run_id, a.external_id, 0, d.dur, d.tc, d.k
        FROM (SELECT k.process_id, k.correlation_id, k.end_ns - k.start_ns AS dur,
                     CASE WHEN k.name_id IN (SELECT id FROM tcn) THEN k.end_ns - k.start_ns ELSE 0 END AS tc,
                     k.end_ns - k.start_ns AS k
              FROM todo t CROSS JOIN kernels k ON k.run_id = t.run_id
              UNION ALL SELECT m.process_id, m.correlation_id, m.end_ns - m.start_ns, 0, 0
              FROM todo t CROSS JOIN memcpys m ON m.run_id = t.run_id
              UNION ALL SELECT m.process_id, m.correlation_id, m.end_ns - m.start_ns, 0, 0
              FROM todo t CROSS JOIN memsets m ON m.run_id = t.run_id) d
        CROSS JOIN api_calls a ON a.process_id = d.process_id AND a.correlation_id = d.correlation_id
        WHERE a.api_kind = 0 AND a.external_id IS NOT NULL)
  GROUP BY run_id, external_id
)
SELECT n.run_id, n.id, n.thread_id, n.start_ns, n.end_ns, n.kind, n.name_id, n.listed, n.step, n.tcl,
       coalesce(x.rt_ns, 0.0) AS rt_ns, coalesce(x.dev_ns, 0.0) AS dev_ns, coalesce(x.tc_ns, 0.0) AS tc_ns,
       coalesce(x.k_ns, 0.0) AS k_ns
FROM nodes n LEFT JOIN rtx x ON x.run_id = n.run_id AND x.external_id = n.external_id AND n.id = n.first;

-- tb_plugin's operator view per run, operator name and input shapes (node.py, op_tree.py,
-- op_agg.py, tensor_cores_parser.py at 041e7ce9; the op-sum report adds it up per name, or per
-- name and shapes), over the v_tb_op_nodes nodes:
--  * tree: each node under the innermost one enclosing it on its thread (nest_parent: start,
--    then longest first).
--  * remove_dup_nodes: an operator whose only child is an operator of the same name absorbs it
--    (repeatedly): the kept node takes the chain bottom's children and runtime calls, the
--    intermediate nodes' own runtime calls are dropped, as in tb_plugin and the autograd profiler.
--  * host_total = duration; host_self = duration - direct children's durations - own runtime
--    calls; device_self = own device time; device_total = own + the kept nodes it encloses
--    (nest_sum); tc_* the same for kernels using Tensor Cores. Per listed kept operator, summed
--    per name and "Input Dims" (input_shape; '[]' without); the sums are REAL (integer-valued).
--  * tc_eligible: the name is in the allowlist, or an enclosed node's is, or the node's or an
--    enclosed node's kernels used Tensor Cores.
--  * tc_eligible_ops_kernel_pct (per run, on each of its rows): tb_plugin's
--    tc_eligible_ops_kernel_ratio in percent: the kernel time of the "bottom" eligible nodes
--    (eligible by themselves, none enclosed) over that of all listed operators; 0.0 without.
-- Finished runs' rows are stored in tb_op_sums (written by lib/derive_ops.c, which evaluates this
-- definition in C; tests/reports/derived.t checks that both give the same rows).
CREATE VIEW v_tb_op_sums AS
WITH
todo AS MATERIALIZED (SELECT id AS run_id FROM runs
  WHERE id NOT IN (SELECT run_id FROM derived_runs WHERE name = 'tb_op_sums')),
nodes AS MATERIALIZED (SELECT * FROM v_tb_op_nodes),
kids AS MATERIALIZED (  -- per node: its children (nest_parent: the innermost enclosing node), their time
  SELECT parent AS id, count(*) AS n, total(dur) AS dur, min(id) AS only FROM (
    SELECT id, end_ns - start_ns AS dur, nest_parent(start_ns, end_ns, id) OVER (PARTITION BY thread_id
             ORDER BY start_ns, end_ns DESC, id ROWS UNBOUNDED PRECEDING) AS parent
    FROM nodes)
  WHERE parent IS NOT NULL GROUP BY parent
),
-- remove_dup_nodes: an operator that is its same-name operator parent's only child is absorbed
-- (repeatedly): the chain's top keeps the bottom's runtime calls and children
absorbed AS MATERIALIZED (
  SELECT x.id AS d, y.id AS a
  FROM kids k CROSS JOIN nodes y ON y.id = k.id CROSS JOIN nodes x ON x.id = k.only
  WHERE k.n = 1 AND x.kind = 2 AND y.kind = 2 AND x.name_id = y.name_id
),
chain(top, id) AS MATERIALIZED (
  SELECT a, d FROM absorbed WHERE a NOT IN (SELECT d FROM absorbed)
  UNION ALL SELECT c.top, ab.d FROM chain c JOIN absorbed ab ON ab.a = c.id
),
srcs AS MATERIALIZED (  -- chain tops with their bottoms' own times
  SELECT c.top, c.id AS src, b.rt_ns, b.dev_ns, b.tc_ns, b.k_ns
  FROM chain c CROSS JOIN nodes b ON b.id = c.id WHERE c.id NOT IN (SELECT a FROM absorbed)
),
-- every node: kept (not absorbed), whose children count for it (a chain's top: its bottom's), its
-- own time (a top's: its bottom's), and whether it is TC-eligible by itself
eff AS MATERIALIZED (
  SELECT x.id, x.run_id, x.thread_id, x.start_ns, x.end_ns, x.kind, x.name_id, x.listed, x.tcl,
         x.id NOT IN (SELECT d FROM absorbed) AS kept, coalesce(s.src, x.id) AS src,
         coalesce(s.rt_ns, x.rt_ns) AS rt_ns, coalesce(s.dev_ns, x.dev_ns) AS dev_ns,
         coalesce(s.tc_ns, x.tc_ns) AS tc_ns, coalesce(s.k_ns, x.k_ns) AS k_ns,
         x.id NOT IN (SELECT d FROM absorbed)
           AND (x.tcl OR (x.kind = 2 AND NOT x.step AND coalesce(s.tc_ns, x.tc_ns) > 0)) AS se
  FROM nodes x LEFT JOIN srcs s ON s.top = x.id
),
-- what each node encloses (nest_sum): kept nodes' device and TC time, TC-eligible names,
-- self-eligible nodes
sums AS MATERIALIZED (
  SELECT e.id,
         nest_sum(e.start_ns, e.end_ns, e.id, CASE WHEN e.kept THEN e.dev_ns ELSE 0 END) OVER w AS desc_dev,
         nest_sum(e.start_ns, e.end_ns, e.id, CASE WHEN e.kept THEN e.tc_ns ELSE 0 END) OVER w AS desc_tc,
         nest_sum(e.start_ns, e.end_ns, e.id, e.tcl) OVER w AS desc_tcl,
         nest_sum(e.start_ns, e.end_ns, e.id, e.se) OVER w AS desc_se
  FROM eff e
  WINDOW w AS (PARTITION BY e.thread_id ORDER BY e.start_ns DESC, e.end_ns, e.id DESC ROWS UNBOUNDED PRECEDING)
),
stats AS (  -- the listed operators
  SELECT e.run_id, e.name_id, e.end_ns - e.start_ns AS host_total,
         coalesce((SELECT value FROM ranges r, json_each(r.args) WHERE r.id = e.id AND key = 'Input Dims'),
                  (SELECT value FROM ranges r, json_each(r.args) WHERE r.id = e.id AND key = 'Input dims'),
                  '[]') AS shape,
         e.end_ns - e.start_ns - coalesce(k.dur, 0) - e.rt_ns AS host_self,
         e.dev_ns AS dev_self, e.tc_ns AS tc_self, e.k_ns AS k_self,
         e.dev_ns + d.desc_dev AS dev_total, e.tc_ns + d.desc_tc AS tc_total,
         (e.tcl OR d.desc_tcl > 0) AS elig
  FROM eff e CROSS JOIN sums d ON d.id = e.id LEFT JOIN kids k ON k.id = e.src
  WHERE e.kept AND e.kind = 2 AND e.listed
),
tc_ops AS (  -- tb_plugin's tc_eligible_ops_kernel_ratio, in percent, per run: kernel time of the
             -- self-eligible nodes with none below them over that of the listed operators
  SELECT e.run_id, coalesce(round(100.0 * total(CASE WHEN e.se AND d.desc_se = 0 THEN e.k_ns END)
           / nullif(total(CASE WHEN e.kept AND e.kind = 2 AND e.listed THEN e.k_ns END), 0), 2), 0.0) AS pct
  FROM eff e CROSS JOIN sums d ON d.id = e.id GROUP BY e.run_id
)
SELECT run_id, name_id, input_shape, calls, device_self_ns, device_total_ns, host_self_ns, host_total_ns,
       tc_eligible, tc_self_ns, tc_total_ns, tc_eligible_ops_kernel_pct
FROM tb_op_sums WHERE run_id IN (SELECT run_id FROM derived_runs WHERE name = 'tb_op_sums')
UNION ALL
SELECT s.run_id, s.name_id, s.shape, count(*), total(s.dev_self), total(s.dev_total), total(s.host_self),
       sum(s.host_total), max(s.elig OR s.tc_total > 0), total(s.tc_self), total(s.tc_total), t.pct
FROM stats s JOIN tc_ops t USING (run_id)
GROUP BY s.run_id, s.name_id, s.shape;

-- tb_plugin's memory statistics per run, device and operator name (memory_parser.py at 041e7ce9;
-- notes/kineto_hta.md §1.7; the memory-sum report reads it, docs/schema.md): one row per run,
-- device ('CPU', 'GPU<ordinal>'; ordinal for sorting) and operator name having a memory event (its
-- own or a descendant's) on that device: calls, size increase, allocation count and size, self and
-- total, in bytes.
-- Definition:
--  * each [memory] event (memory_events row) belongs to the innermost operator-tree node of its
--    thread whose [start, end) contains its time (latest start, then shortest); the tree is
--    op-sum's (cpu_op ranges, python ranges, ProfilerStep#N, DataLoader, Optimizer.step*, nccl:/gloo:
--    annotations).
--  * self: the node's own events; total: its own and every descendant's (every node containing the
--    event). size increase = Σ bytes (allocations +, frees -); allocation count / size = number /
--    Σ bytes of the allocations only.
--  * calls: the number of calls of the operator in the run (all of them, with or without memory
--    events). Listed names as in op-sum: cpu_op nodes except ProfilerStep#N, DataLoader/DataPipe,
--    Optimizer.*, DataParallel.forward, DistributedDataParallel.forward.
--  * events outside every node count for no operator.
--  * not reproduced: tb_plugin's remove_dup_nodes collapse (op-sum does it): a chain of same-name
--    operators, each the only child of the one above, stays separate calls here, so an event in
--    it is in the total of every call of the chain (tb_plugin: one call).
-- Finished runs' rows are stored in tb_memory_sums (written by lib/derive_memory.c, which evaluates
-- this definition in C; tests/reports/derived.t checks that both give the same rows).
CREATE VIEW v_tb_memory_sums AS
WITH
todo AS MATERIALIZED (SELECT id AS run_id FROM runs
  WHERE id NOT IN (SELECT run_id FROM derived_runs WHERE name = 'tb_memory_sums')),
-- What a name or category is, decided once per string instead of once per range
annotation_nodes AS MATERIALIZED (  -- user_annotation names that are tree nodes
  SELECT id FROM strings WHERE value GLOB 'ProfilerStep#*' OR value GLOB 'Optimizer.step*'
       OR (value GLOB 'enumerate(DataLoader)#*' AND value GLOB '*.__next__')
       OR value GLOB 'enumerate(DataPipe)#*'
       OR value IN ('nccl:broadcast', 'nccl:reduce', 'nccl:all_reduce', 'nccl:all_gather',
         'nccl:reduce_scatter', 'gloo:broadcast', 'gloo:reduce', 'gloo:all_reduce',
         'gloo:all_gather', 'gloo:reduce_scatter')
),
python AS MATERIALIZED (SELECT id FROM strings WHERE lower(value) = 'python'),
unlisted AS MATERIALIZED (  -- cpu_op names op-sum does not list
  SELECT id FROM strings WHERE value GLOB 'ProfilerStep#*' OR value GLOB 'Optimizer.*'
       OR value GLOB 'enumerate(DataLoader)#*' OR value GLOB 'enumerate(DataPipe)#*'
       OR value IN ('DataParallel.forward', 'DistributedDataParallel.forward')
),
tnodes AS MATERIALIZED (
  SELECT r.run_id, r.id, r.thread_id, r.start_ns, r.end_ns, r.kind, r.name_id
  FROM ranges r
  WHERE r.run_id IN (SELECT run_id FROM todo) AND r.end_ns IS NOT NULL AND (r.kind = 2
       OR (r.kind = 5 AND r.category_id IN (SELECT id FROM python))
       OR (r.kind = 3 AND r.name_id IN (SELECT id FROM annotation_nodes)))
),
mem AS (
  SELECT m.run_id, m.id, m.thread_id, m.ts_ns, d.ordinal,
         CASE WHEN m.device_id IS NULL THEN 'CPU' ELSE 'GPU' || d.ordinal END AS device,
         CASE WHEN m.operation = (SELECT id FROM memory_operations WHERE name = 'free')
              THEN -m.bytes ELSE m.bytes END AS delta
  FROM memory_events m LEFT JOIN devices d ON d.id = m.device_id
  WHERE m.run_id IN (SELECT run_id FROM todo)
),
cont AS MATERIALIZED (  -- (event, containing node), innermost first; threads are per run
  SELECT e.run_id, e.id AS ev, e.device, e.ordinal, e.delta, t.id AS node, t.kind, t.name_id,
         row_number() OVER (PARTITION BY e.id ORDER BY t.start_ns DESC, t.end_ns ASC, t.id DESC) AS depth
  FROM tnodes t CROSS JOIN mem e   -- each node's events by the (run_id, ts_ns) index
    ON e.run_id = t.run_id AND e.ts_ns >= t.start_ns AND e.ts_ns < t.end_ns AND e.thread_id = t.thread_id
),
listed AS (
  SELECT * FROM cont WHERE kind = 2 AND name_id NOT IN (SELECT id FROM unlisted)
),
calls AS (SELECT run_id, name_id, count(*) AS n FROM tnodes WHERE kind = 2 GROUP BY run_id, name_id)
SELECT run_id, device, ordinal, name_id, calls, size_increase_bytes, self_size_increase_bytes,
       allocation_count, self_allocation_count, allocation_size_bytes, self_allocation_size_bytes
FROM tb_memory_sums WHERE run_id IN (SELECT run_id FROM derived_runs WHERE name = 'tb_memory_sums')
UNION ALL
SELECT g.run_id, g.device, g.ordinal, g.name_id, c.n, g.size_increase_bytes, g.self_size_increase_bytes,
       g.allocation_count, g.self_allocation_count, g.allocation_size_bytes, g.self_allocation_size_bytes
FROM (  -- grouped first, so the join with calls is per name, not per event
  SELECT l.run_id, l.device, l.ordinal, l.name_id,
         sum(l.delta) AS size_increase_bytes,
         CAST(total(CASE WHEN l.depth = 1 THEN l.delta END) AS INTEGER) AS self_size_increase_bytes,
         count(CASE WHEN l.delta > 0 THEN 1 END) AS allocation_count,
         count(CASE WHEN l.delta > 0 AND l.depth = 1 THEN 1 END) AS self_allocation_count,
         CAST(total(CASE WHEN l.delta > 0 THEN l.delta END) AS INTEGER) AS allocation_size_bytes,
         CAST(total(CASE WHEN l.delta > 0 AND l.depth = 1 THEN l.delta END) AS INTEGER) AS self_allocation_size_bytes
  FROM listed l
  GROUP BY l.run_id, l.device, l.name_id
) g JOIN calls c USING (run_id, name_id);

-- tb_plugin's kernel view per run and kernel name (kernel_parser.py, op_agg.py::aggregate_kernels
-- at 041e7ce9; notes/kineto_hta.md §1.6; the kernel-sum report reads it): every kernel of a run
-- holding a PyTorch profiler trace (cpu_op, user_annotation or python_function ranges), grouped
-- by name: calls, total/mean (rounded)/max/min duration; mean blocks per SM and mean estimated
-- achieved occupancy weighted by duration, a missing value counting 0 (0.0 when every duration is
-- 0), rounded to 2 places; tensor_cores_used by tb_plugin's 18 name patterns. Finished runs' rows
-- are stored in tb_kernel_sums.
CREATE VIEW v_tb_kernel_sums AS
WITH
todo AS MATERIALIZED (SELECT id AS run_id FROM runs r
  WHERE id NOT IN (SELECT run_id FROM derived_runs WHERE name = 'tb_kernel_sums')
    AND EXISTS (SELECT 1 FROM ranges x WHERE x.run_id = r.id AND x.kind IN (2, 3, 5))),
kn AS MATERIALIZED (  -- kernel names: Tensor Cores by tb_plugin's patterns, once a name
  SELECT n.id,
         coalesce(tensor_core_pattern(n.value) IN ('h884', 's884', 'h1688', 's1688', 'hmma', 'i8816', '16816',
           'dgrad_1x1_stride_2x2', 'first_layer_wgrad_kernel', 'conv1x1', 'conv2d_c1_k1', 'direct_group',
           'xmma_implicit_gemm', 'xmma_sparse_conv', 'xmma_warp_specialized_implicit_gemm', 'xmma_gemm',
           'xmma_sparse_gemm', 'c1688'), 0) AS tc
  FROM strings n WHERE n.id IN (SELECT name_id FROM kernels)
)
SELECT run_id, name_id, tensor_cores_used, calls, total_ns, mean_ns, max_ns, min_ns, mean_blocks_per_sm,
       mean_est_achieved_occupancy_pct
FROM tb_kernel_sums WHERE run_id IN (SELECT run_id FROM derived_runs WHERE name = 'tb_kernel_sums')
UNION ALL
SELECT k.run_id, k.name_id, max(n.tc), count(*), sum(k.end_ns - k.start_ns),
       CAST(round(avg(k.end_ns - k.start_ns)) AS INTEGER), max(k.end_ns - k.start_ns), min(k.end_ns - k.start_ns),
       coalesce(round(total(coalesce(k.blocks_per_sm, 0) * (k.end_ns - k.start_ns))
                      / nullif(sum(k.end_ns - k.start_ns), 0), 2), 0.0),
       coalesce(round(total(coalesce(k.est_occupancy_pct, 0) * (k.end_ns - k.start_ns))
                      / nullif(sum(k.end_ns - k.start_ns), 0), 2), 0.0)
FROM todo t CROSS JOIN kernels k ON k.run_id = t.run_id CROSS JOIN kn n ON n.id = k.name_id
GROUP BY k.run_id, k.name_id;
