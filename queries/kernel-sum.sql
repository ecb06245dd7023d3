-- PyTorch kernel view (tb_plugin): per kernel name (or kernel + op + launch config) calls, times, blocks/SM, occupancy
-- option by=kernel|kernel+op (default kernel): one row per kernel name, or per kernel name and launching operator
.load build/profq
-- Columns: run_id, name, op, grid, block, registers_per_thread, shared_memory_bytes (these five only with
-- :by = 'kernel+op', else NULL), tensor_cores_used (1/0), calls, total_ns, mean_ns, max_ns, min_ns,
-- mean_blocks_per_sm, mean_est_achieved_occupancy_pct, op_tc_eligible (1/0; only with
-- :by = 'kernel+op', else NULL). Per run that holds a PyTorch profiler trace (cpu_op,
-- user_annotation or python_function ranges; not an nsys export), sorted by total_ns.
-- Parameters: :by = 'kernel' (default) or 'kernel+op'; :run (default: every run).
--
-- Definition: tb_plugin 0.4.3 kernel view (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/
-- kernel_parser.py, op_agg.py::aggregate_kernels at 041e7ce9; notes/kineto_hta.md §1.6):
--  * by kernel: every kernel, grouped by name; mean_blocks_per_sm and
--    mean_est_achieved_occupancy_pct are weighted by kernel duration, a missing value counting 0
--    (0 when all durations are 0); tensor_cores_used: tb_plugin's 18 name patterns. The
--    v_tb_kernel_sums view (schema/views.sql, docs/schema.md; stored for finished runs in
--    tb_kernel_sums); by kernel+op below.
--  * by kernel+op: kernels whose runtime call is known, keyed by (name, the operator owning the
--    runtime call's external id or 'N/A', grid, block, registers, shared memory); grid and block
--    print as tb_plugin does, '[x, y, z]'. A launch field the trace lacks is NULL (tb_plugin's
--    None), its own group: not merged with a kernel that has the value 0.
--  * op_tc_eligible: the op's name is in tb_plugin's TC_OP_Allowlist (node.py sets the kernel's
--    op_tc_eligible before any promotion from children or Tensor Core kernels); 0 for 'N/A'.
WITH
sel AS (  -- the runs holding a PyTorch profiler trace
  SELECT id AS run_id FROM runs r WHERE (:run IS NULL OR id = :run)
    AND EXISTS (SELECT 1 FROM ranges x WHERE x.run_id = r.id AND x.kind IN (2, 3, 5))
),
kn AS MATERIALIZED (  -- kernel names: Tensor Cores by tb_plugin's patterns, once a name
  SELECT n.id,
         coalesce(tensor_core_pattern(n.value) IN ('h884', 's884', 'h1688', 's1688', 'hmma', 'i8816', '16816',
           'dgrad_1x1_stride_2x2', 'first_layer_wgrad_kernel', 'conv1x1', 'conv2d_c1_k1', 'direct_group',
           'xmma_implicit_gemm', 'xmma_sparse_conv', 'xmma_warp_specialized_implicit_gemm', 'xmma_gemm',
           'xmma_sparse_gemm', 'c1688'), 0) AS tc
  FROM strings n WHERE n.id IN (SELECT name_id FROM kernels)
),
k AS (  -- CROSS JOIN: kernels drive the loop, names are looked up
  SELECT k.run_id, k.process_id, k.correlation_id, k.grid_x, k.grid_y, k.grid_z, k.block_x, k.block_y,
         k.block_z, k.registers_per_thread, k.static_shared_bytes, k.dynamic_shared_bytes,
         k.blocks_per_sm, k.est_occupancy_pct, k.name_id, n.tc, k.end_ns - k.start_ns AS dur
  FROM sel s CROSS JOIN kernels k ON k.run_id = s.run_id CROSS JOIN kn n ON n.id = k.name_id
),
owner AS MATERIALIZED (
  SELECT r.run_id, r.external_id, min(r.id) AS id FROM ranges r
  WHERE r.run_id IN (SELECT run_id FROM sel) AND r.external_id IS NOT NULL AND r.kind IN (2, 3, 5)
  GROUP BY r.run_id, r.external_id
),
kop AS (  -- kernel+op rows: kernels whose runtime call is in the trace
  SELECT k.*, coalesce(opn.value, 'N/A') AS op,
         '[' || k.grid_x || ', ' || k.grid_y || ', ' || k.grid_z || ']' AS grid,
         '[' || k.block_x || ', ' || k.block_y || ', ' || k.block_z || ']' AS block,
         k.registers_per_thread AS regs,
         CASE WHEN k.static_shared_bytes IS NOT NULL OR k.dynamic_shared_bytes IS NOT NULL
              THEN coalesce(k.static_shared_bytes, 0) + coalesce(k.dynamic_shared_bytes, 0) END AS smem
  FROM k JOIN api_calls a ON a.process_id = k.process_id AND a.correlation_id = k.correlation_id
                         AND a.api_kind = 0
  LEFT JOIN owner o ON o.run_id = k.run_id AND o.external_id = a.external_id
  LEFT JOIN ranges opr ON opr.id = o.id LEFT JOIN strings opn ON opn.id = opr.name_id
),
-- one branch per :by, each a whole query: the constant WHERE skips the other before it reads
grouped AS (
  SELECT run_id, name_id, NULL AS op, NULL AS grid, NULL AS block, NULL AS regs, NULL AS smem,
         tensor_cores_used, calls, total_ns, mean_ns, max_ns, min_ns, mean_blocks_per_sm,
         mean_est_achieved_occupancy_pct
  FROM v_tb_kernel_sums WHERE coalesce(:by, 'kernel') = 'kernel' AND run_id IN (SELECT run_id FROM sel)
  UNION ALL
  SELECT run_id, name_id, op, grid, block, regs, smem, max(tc), count(*), sum(dur),
         CAST(round(avg(dur)) AS INTEGER), max(dur), min(dur),
         coalesce(round(total(coalesce(blocks_per_sm, 0) * dur) / nullif(sum(dur), 0), 2), 0.0),
         coalesce(round(total(coalesce(est_occupancy_pct, 0) * dur) / nullif(sum(dur), 0), 2), 0.0)
  FROM kop WHERE :by = 'kernel+op'
  GROUP BY run_id, name_id, op, grid, block, regs, smem
)
SELECT g.run_id, n.value AS name, g.op, g.grid, g.block, g.regs AS registers_per_thread,
       g.smem AS shared_memory_bytes, g.tensor_cores_used, g.calls, g.total_ns, g.mean_ns, g.max_ns, g.min_ns,
       g.mean_blocks_per_sm, g.mean_est_achieved_occupancy_pct,
       CASE WHEN g.op IS NOT NULL THEN g.op IN ('aten::_convolution', 'aten::conv1d', 'aten::conv2d',
         'aten::conv3d', 'aten::conv_tbc', 'aten::conv_transpose1d', 'aten::conv_transpose2d',
         'aten::conv_transpose3d', 'aten::convolution', 'aten::cudnn_convolution',
         'aten::cudnn_convolution_transpose', 'aten::prelu', 'aten::addmm', 'aten::addmv', 'aten::addr',
         'aten::matmul', 'aten::mm', 'aten::mv', 'aten::linear', 'aten::addbmm', 'aten::baddbmm',
         'aten::bmm', 'aten::chain_matmul', 'aten::linalg_multi_dot', 'aten::_thnn_fused_lstm_cell',
         'aten::_thnn_fused_gru_cell', 'aten::lstm_cell', 'aten::gru_cell', 'aten::rnn_tanh_cell',
         'aten::rnn_relu_cell', 'CudnnConvolutionBackward', 'BmmBackward0',
         'aten::cudnn_convolution_transpose_backward', 'CudnnConvolutionTransposeBackward', 'MmBackward',
         'aten::cudnn_convolution_backward_weight', 'aten::addmm_', 'AddmvBackward', 'MvBackward',
         'aten::cudnn_convolution_transpose_backward_weight',
         'aten::cudnn_convolution_transpose_backward_input', 'AddmmBackward',
         'aten::cudnn_convolution_backward_input', 'AddbmmBackward', 'aten::cudnn_convolution_backward')
       END AS op_tc_eligible
FROM grouped g JOIN strings n ON n.id = g.name_id
ORDER BY g.run_id, g.total_ns DESC, name
LIMIT coalesce(:limit, -1);
