-- PyTorch operator view (tb_plugin): calls, device and host self/total time, Tensor Core use per operator
-- option by=name|name+input-shape (default name): one row per operator name, or per name and input shapes (tb_plugin's group by input shape)
.load build/profq
-- Columns: run_id, name, input_shape (the "Input Dims" JSON; NULL unless :by = 'name+input-shape'), calls,
-- device_self_ns, device_total_ns, host_self_ns, host_total_ns, tc_eligible (1/0),
-- tc_self_pct, tc_total_pct, tc_eligible_ops_kernel_pct (one value for the run, on every row of
-- it). Per run that holds PyTorch operators (an nsys export has none), sorted by device_self_ns
-- (host_self_ns when the run has no device time).
-- Parameters: :by = 'name' (default) or 'name+input-shape'; :run (default: every run).
--
-- Definition: tb_plugin 0.4.3 operator view (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/
-- node.py, op_tree.py, op_agg.py at 041e7ce9; notes/kineto_hta.md §1.5), in the v_tb_op_sums view
-- (schema/views.sql, docs/schema.md; stored for finished runs in tb_op_sums): its sums per
-- operator name and input shapes, added up per name here unless :by = 'name+input-shape'.
-- tc_self_pct / tc_total_pct = Tensor Core kernel time / device self (total) time. Not reproduced:
-- the module-view regrouping of backward ops.
WITH
agg AS (
  SELECT o.run_id, n.value AS name, CASE WHEN :by = 'name+input-shape' THEN o.input_shape END AS input_shape,
         sum(o.calls) AS calls, CAST(sum(o.device_self_ns) AS INTEGER) AS device_self_ns,
         CAST(sum(o.device_total_ns) AS INTEGER) AS device_total_ns,
         CAST(sum(o.host_self_ns) AS INTEGER) AS host_self_ns, sum(o.host_total_ns) AS host_total_ns,
         max(o.tc_eligible) AS tc_eligible,
         round(100.0 * sum(o.tc_self_ns) / nullif(sum(o.device_self_ns), 0), 2) AS tc_self_pct,
         round(100.0 * sum(o.tc_total_ns) / nullif(sum(o.device_total_ns), 0), 2) AS tc_total_pct,
         max(o.tc_eligible_ops_kernel_pct) AS tc_eligible_ops_kernel_pct
  FROM v_tb_op_sums o JOIN strings n ON n.id = o.name_id
  WHERE :run IS NULL OR o.run_id = :run
  GROUP BY o.run_id, n.value, CASE WHEN :by = 'name+input-shape' THEN o.input_shape END
),
has_dev AS (SELECT run_id, sum(device_self_ns) > 0 AS d FROM agg GROUP BY run_id)
SELECT run_id, name, input_shape, calls, device_self_ns, device_total_ns, host_self_ns, host_total_ns,
       tc_eligible, coalesce(tc_self_pct, 0.0) AS tc_self_pct, coalesce(tc_total_pct, 0.0) AS tc_total_pct,
       tc_eligible_ops_kernel_pct
FROM agg JOIN has_dev h USING (run_id)
WHERE coalesce(:by, 'name') IN ('name', 'name+input-shape')
ORDER BY run_id, CASE WHEN h.d THEN device_self_ns ELSE host_self_ns END DESC, name
LIMIT coalesce(:limit, -1);
