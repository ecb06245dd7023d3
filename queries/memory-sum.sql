-- PyTorch memory statistics per operator (tb_plugin memory view): allocations and size increase, self and total
.load build/profq
-- Columns: run_id, device ('CPU' or 'GPU<ordinal>'), name, calls, size_increase_bytes,
-- self_size_increase_bytes, allocation_count, self_allocation_count, allocation_size_bytes,
-- self_allocation_size_bytes — tb_plugin's memory statistics table (Operator, Calls, Size
-- Increase, Self Size Increase, Allocation Count, Self Allocation Count, Allocation Size, Self
-- Allocation Size), in bytes instead of KB. One row per run, device and operator name having a
-- memory event (its own or a descendant's) on that device; sorted by run, device, then
-- size_increase_bytes descending, then name. Parameters: :run (default: every run).
--
-- Definition: v_tb_memory_sums (schema/views.sql, docs/schema.md): tb_plugin 0.4.3 memory view
-- (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/memory_parser.py at 041e7ce9;
-- notes/kineto_hta.md §1.7); finished runs' rows are stored in tb_memory_sums when imported.
SELECT v.run_id, v.device, n.value AS name, v.calls, v.size_increase_bytes, v.self_size_increase_bytes,
       v.allocation_count, v.self_allocation_count, v.allocation_size_bytes, v.self_allocation_size_bytes
FROM v_tb_memory_sums v JOIN strings n ON n.id = v.name_id
WHERE :run IS NULL OR v.run_id = :run
ORDER BY v.run_id, v.ordinal IS NOT NULL, v.ordinal, v.device, v.size_increase_bytes DESC, n.value
LIMIT coalesce(:limit, -1);
