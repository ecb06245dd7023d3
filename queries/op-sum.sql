-- PyTorch operator view (tb_plugin): calls, device and host self/total time, Tensor Core use per operator
-- option by=name|name+input-shape (default name): one row per operator name, or per name and input shapes (tb_plugin's group by input shape)
.load build/profq
-- Columns: name, input_shape (the "Input Dims" JSON; NULL unless :by = 'name+input-shape'), calls,
-- device_self_ns, device_total_ns, host_self_ns, host_total_ns, tc_eligible (1/0),
-- tc_self_pct, tc_total_pct, tc_eligible_ops_kernel_pct (one value for the run, on every row).
-- Sorted by device_self_ns (host_self_ns when there is no device time).
-- Parameters: :by = 'name' (default) or 'name+input-shape'; :run (default: the lowest run id).
--
-- Definition: tb_plugin 0.4.3 operator view (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/
-- node.py, op_tree.py, op_agg.py at 041e7ce9; notes/kineto_hta.md §1.5):
--  * tree: per thread, the host ranges tb_plugin builds nodes for (cpu_op, cat "python",
--    ProfilerStep#N, DataLoader and Optimizer.step* annotations, nccl:/gloo: annotations) nested by
--    time containment (sorted by start, then longest first); found with the extension's
--    interval_join(..., 'contains').
--  * a runtime call belongs to the node with its external id; its device events (kernels,
--    memcpys, memsets with its correlation id) are the node's own device time.
--  * host_total = duration; host_self = duration - direct children's durations - own runtime calls;
--    device_self = own device time; device_total = own + all descendants' device time.
--  * listed: cpu_op nodes except ProfilerStep#N, DataLoader/DataPipe, Optimizer.*,
--    DataParallel.forward, DistributedDataParallel.forward.
--  * tc_eligible: the name is in tb_plugin's TC_OP_Allowlist, or a descendant's is, or the node's
--    or a descendant's kernels used Tensor Cores (tb_plugin's 18 name patterns);
--    tc_self_pct / tc_total_pct = Tensor Core kernel time / device self (total) time.
--  * tc_eligible_ops_kernel_pct: tb_plugin's tc_eligible_ops_kernel_ratio (tensor_cores_parser.py),
--    in percent: the kernel time (kernels only, launched by a node's own runtime calls) of the
--    "bottom" eligible nodes (eligible, and no eligible node below them) over that of all listed
--    operators; 0.0 when they launched no kernels. A node is eligible by itself when its name is in
--    the allowlist or its own kernels used Tensor Cores (cpu_op nodes but ProfilerStep#N).
--  * remove_dup_nodes: an operator whose only child is an operator of the same name absorbs it
--    (repeatedly): the kept node takes the chain bottom's children and runtime calls, the
--    intermediate nodes' own runtime calls are dropped, as in tb_plugin and the autograd profiler.
--  * not reproduced: the module-view regrouping of backward ops.
WITH
sel AS (SELECT coalesce(:run, (SELECT min(id) FROM runs)) AS run_id),
node_filter(sql) AS (SELECT
  'SELECT r.id, r.thread_id, r.start_ns, r.end_ns FROM ranges r JOIN strings n ON n.id = r.name_id
     LEFT JOIN strings c ON c.id = r.category_id
    WHERE r.run_id = ' || (SELECT run_id FROM sel) || ' AND r.end_ns IS NOT NULL AND (r.kind = 2
       OR (r.kind = 5 AND lower(c.value) = ''python'')
       OR (r.kind = 3 AND (n.value GLOB ''ProfilerStep#*'' OR n.value GLOB ''Optimizer.step*''
           OR (n.value GLOB ''enumerate(DataLoader)#*'' AND n.value GLOB ''*.__next__'')
           OR n.value GLOB ''enumerate(DataPipe)#*''
           OR n.value IN (''nccl:broadcast'', ''nccl:reduce'', ''nccl:all_reduce'', ''nccl:all_gather'',
             ''nccl:reduce_scatter'', ''gloo:broadcast'', ''gloo:reduce'', ''gloo:all_reduce'',
             ''gloo:all_gather'', ''gloo:reduce_scatter''))))'),
pairs AS MATERIALIZED (  -- (descendant, ancestor) pairs on one thread
  SELECT j.left_id AS d, j.right_id AS a
  FROM interval_join((SELECT sql FROM node_filter), (SELECT sql FROM node_filter), 'contains') j
  JOIN ranges x ON x.id = j.left_id JOIN ranges y ON y.id = j.right_id
  WHERE j.left_id <> j.right_id
    AND (y.start_ns < x.start_ns OR y.end_ns > x.end_ns OR y.id < x.id)
),
parent AS MATERIALIZED (
  SELECT d, a FROM (
    SELECT p.d, p.a, row_number() OVER (PARTITION BY p.d ORDER BY y.start_ns DESC, y.end_ns ASC, y.id DESC) AS rn
    FROM pairs p JOIN ranges y ON y.id = p.a)
  WHERE rn = 1
),
tnodes AS MATERIALIZED (  -- the tree's nodes (same filter as node_filter)
  SELECT r.id, r.thread_id, r.start_ns, r.end_ns, r.kind, r.external_id, n.value AS name,
         coalesce(json_extract(r.args, '$."Input Dims"'), json_extract(r.args, '$."Input dims"'), '[]') AS shape
  FROM ranges r JOIN strings n ON n.id = r.name_id LEFT JOIN strings c ON c.id = r.category_id
  WHERE r.run_id = (SELECT run_id FROM sel) AND r.end_ns IS NOT NULL AND (r.kind = 2
       OR (r.kind = 5 AND lower(c.value) = 'python')
       OR (r.kind = 3 AND (n.value GLOB 'ProfilerStep#*' OR n.value GLOB 'Optimizer.step*'
           OR (n.value GLOB 'enumerate(DataLoader)#*' AND n.value GLOB '*.__next__')
           OR n.value GLOB 'enumerate(DataPipe)#*'
           OR n.value IN ('nccl:broadcast', 'nccl:reduce', 'nccl:all_reduce', 'nccl:all_gather',
             'nccl:reduce_scatter', 'gloo:broadcast', 'gloo:reduce', 'gloo:all_reduce',
             'gloo:all_gather', 'gloo:reduce_scatter'))))
),
owner AS MATERIALIZED (  -- external id -> node (the first one, as tb_plugin pops the runtimes once)
  SELECT external_id, min(id) AS id FROM tnodes WHERE external_id IS NOT NULL GROUP BY external_id
),
dev AS (
  SELECT process_id, correlation_id, end_ns - start_ns AS dur, 1 AS is_k,
         tensor_core_pattern(n.value) IN ('h884', 's884', 'h1688', 's1688', 'hmma', 'i8816', '16816',
           'dgrad_1x1_stride_2x2', 'first_layer_wgrad_kernel', 'conv1x1', 'conv2d_c1_k1', 'direct_group',
           'xmma_implicit_gemm', 'xmma_sparse_conv', 'xmma_warp_specialized_implicit_gemm', 'xmma_gemm',
           'xmma_sparse_gemm', 'c1688') AS tc
  FROM kernels k JOIN strings n ON n.id = k.name_id WHERE k.run_id = (SELECT run_id FROM sel)
  UNION ALL
  SELECT process_id, correlation_id, end_ns - start_ns, 0, 0 FROM memcpys WHERE run_id = (SELECT run_id FROM sel)
  UNION ALL
  SELECT process_id, correlation_id, end_ns - start_ns, 0, 0 FROM memsets WHERE run_id = (SELECT run_id FROM sel)
),
devc AS MATERIALIZED (
  SELECT process_id, correlation_id, total(dur) AS dev_ns, total(CASE WHEN tc THEN dur END) AS tc_ns,
         total(CASE WHEN is_k THEN dur END) AS k_ns
  FROM dev GROUP BY process_id, correlation_id
),
rt AS MATERIALIZED (  -- runtime calls with the device time they launched
  SELECT o.id AS node, a.end_ns - a.start_ns AS rt_dur, d.dev_ns, d.tc_ns, d.k_ns
  FROM api_calls a JOIN owner o ON o.external_id = a.external_id
  LEFT JOIN devc d ON d.process_id = a.process_id AND d.correlation_id = a.correlation_id
  WHERE a.run_id = (SELECT run_id FROM sel) AND a.api_kind = 0
),
own AS MATERIALIZED (  -- every node, with its own runtime calls' time and their device time
  SELECT node, total(rt_dur) AS rt_ns, total(dev_ns) AS dev_ns, total(tc_ns) AS tc_ns, total(k_ns) AS k_ns
  FROM (SELECT node, rt_dur, dev_ns, tc_ns, k_ns FROM rt UNION ALL SELECT id, 0, 0, 0, 0 FROM tnodes)
  GROUP BY node
),
tc_list(name) AS (VALUES ('aten::_convolution'), ('aten::conv1d'), ('aten::conv2d'), ('aten::conv3d'),
  ('aten::conv_tbc'), ('aten::conv_transpose1d'), ('aten::conv_transpose2d'), ('aten::conv_transpose3d'),
  ('aten::convolution'), ('aten::cudnn_convolution'), ('aten::cudnn_convolution_transpose'), ('aten::prelu'),
  ('aten::addmm'), ('aten::addmv'), ('aten::addr'), ('aten::matmul'), ('aten::mm'), ('aten::mv'),
  ('aten::linear'), ('aten::addbmm'), ('aten::baddbmm'), ('aten::bmm'), ('aten::chain_matmul'),
  ('aten::linalg_multi_dot'), ('aten::_thnn_fused_lstm_cell'), ('aten::_thnn_fused_gru_cell'),
  ('aten::lstm_cell'), ('aten::gru_cell'), ('aten::rnn_tanh_cell'), ('aten::rnn_relu_cell'),
  ('CudnnConvolutionBackward'), ('BmmBackward0'), ('aten::cudnn_convolution_transpose_backward'),
  ('CudnnConvolutionTransposeBackward'), ('MmBackward'), ('aten::cudnn_convolution_backward_weight'),
  ('aten::addmm_'), ('AddmvBackward'), ('MvBackward'), ('aten::cudnn_convolution_transpose_backward_weight'),
  ('aten::cudnn_convolution_transpose_backward_input'), ('AddmmBackward'),
  ('aten::cudnn_convolution_backward_input'), ('AddbmmBackward'), ('aten::cudnn_convolution_backward')),
absorbed AS MATERIALIZED (  -- remove_dup_nodes: an operator that is its same-name operator parent's only child
  SELECT c.d, c.a FROM (SELECT a, min(d) AS d FROM parent GROUP BY a HAVING count(*) = 1) c
  JOIN ranges x ON x.id = c.d JOIN ranges y ON y.id = c.a
  WHERE x.kind = 2 AND y.kind = 2 AND x.name_id = y.name_id
),
chain(top, id) AS MATERIALIZED (
  SELECT a, d FROM absorbed WHERE a NOT IN (SELECT d FROM absorbed)
  UNION ALL SELECT c.top, ab.d FROM chain c JOIN absorbed ab ON ab.a = c.id
),
eff AS MATERIALIZED (  -- node -> the node whose runtimes and children it keeps (the chain's bottom)
  SELECT id AS node, id AS src FROM tnodes WHERE id NOT IN (SELECT top FROM chain)
  UNION ALL SELECT top, id FROM chain WHERE id NOT IN (SELECT a FROM absorbed)
),
eown AS MATERIALIZED (  -- kept nodes only, with their effective own time
  SELECT e.node, o.rt_ns, o.dev_ns, o.tc_ns, o.k_ns, e.src FROM eff e JOIN own o ON o.node = e.src
  WHERE e.node NOT IN (SELECT d FROM absorbed)
),
desc_dev AS MATERIALIZED (
  SELECT p.a AS id, total(o.dev_ns) AS dev_ns, total(o.tc_ns) AS tc_ns
  FROM pairs p JOIN eown o ON o.node = p.d GROUP BY p.a
),
desc_elig AS MATERIALIZED (
  SELECT DISTINCT p.a AS id FROM pairs p JOIN tnodes x ON x.id = p.d WHERE x.name IN (SELECT name FROM tc_list)
),
child_dur AS MATERIALIZED (SELECT p.a AS id, total(x.end_ns - x.start_ns) AS ns FROM parent p JOIN ranges x ON x.id = p.d GROUP BY p.a),
stats AS (
  SELECT r.id, n.value AS name,
         coalesce(json_extract(r.args, '$."Input Dims"'), json_extract(r.args, '$."Input dims"'), '[]') AS shape,
         r.end_ns - r.start_ns AS host_total,
         r.end_ns - r.start_ns - coalesce(cd.ns, 0) - o.rt_ns AS host_self,
         o.dev_ns AS dev_self, o.tc_ns AS tc_self, o.k_ns AS k_self,
         o.dev_ns + coalesce(dd.dev_ns, 0) AS dev_total,
         o.tc_ns + coalesce(dd.tc_ns, 0) AS tc_total,
         (n.value IN (SELECT name FROM tc_list) OR de.id IS NOT NULL) AS elig
  FROM eown o JOIN ranges r ON r.id = o.node JOIN strings n ON n.id = r.name_id
  LEFT JOIN child_dur cd ON cd.id = o.src
  LEFT JOIN desc_dev dd ON dd.id = o.node LEFT JOIN desc_elig de ON de.id = o.node
  WHERE r.kind = 2 AND NOT (n.value GLOB 'ProfilerStep#*' OR n.value GLOB 'Optimizer.*'
        OR n.value GLOB 'enumerate(DataLoader)#*' OR n.value GLOB 'enumerate(DataPipe)#*'
        OR n.value IN ('DataParallel.forward', 'DistributedDataParallel.forward'))
),
self_elig AS MATERIALIZED (  -- kept nodes eligible by themselves
  SELECT e.node, e.k_ns FROM eown e JOIN tnodes t ON t.id = e.node
  WHERE t.name IN (SELECT name FROM tc_list)
     OR (t.kind = 2 AND t.name NOT GLOB 'ProfilerStep#*' AND e.tc_ns > 0)
),
tc_ops AS (  -- tb_plugin's tc_eligible_ops_kernel_ratio, in percent
  SELECT coalesce(round(100.0 * (SELECT total(s.k_ns) FROM self_elig s
                                 WHERE NOT EXISTS (SELECT 1 FROM pairs p JOIN self_elig b ON b.node = p.d
                                                   WHERE p.a = s.node))
                        / nullif((SELECT total(k_self) FROM stats), 0), 2), 0.0) AS pct
),
agg AS (
  SELECT name, CASE WHEN :by = 'name+input-shape' THEN shape END AS input_shape, count(*) AS calls,
         CAST(sum(dev_self) AS INTEGER) AS device_self_ns, CAST(sum(dev_total) AS INTEGER) AS device_total_ns,
         CAST(sum(host_self) AS INTEGER) AS host_self_ns, sum(host_total) AS host_total_ns,
         max(elig OR tc_total > 0) AS tc_eligible,
         round(100.0 * sum(tc_self) / nullif(sum(dev_self), 0), 2) AS tc_self_pct,
         round(100.0 * sum(tc_total) / nullif(sum(dev_total), 0), 2) AS tc_total_pct
  FROM stats
  GROUP BY name, CASE WHEN :by = 'name+input-shape' THEN shape END
)
SELECT name, input_shape, calls, device_self_ns, device_total_ns, host_self_ns, host_total_ns,
       tc_eligible, coalesce(tc_self_pct, 0.0) AS tc_self_pct, coalesce(tc_total_pct, 0.0) AS tc_total_pct,
       (SELECT pct FROM tc_ops) AS tc_eligible_ops_kernel_pct
FROM agg
WHERE coalesce(:by, 'name') IN ('name', 'name+input-shape')
ORDER BY CASE WHEN (SELECT sum(device_self_ns) FROM agg) > 0 THEN device_self_ns ELSE host_self_ns END DESC, name
LIMIT coalesce(:limit, -1);
