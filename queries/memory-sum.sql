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
-- Definition: tb_plugin 0.4.3 memory view (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/
-- memory_parser.py at 041e7ce9; notes/kineto_hta.md §1.7):
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
WITH
sel AS (SELECT id AS run_id FROM runs WHERE :run IS NULL OR id = :run),
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
  WHERE r.run_id IN (SELECT run_id FROM sel) AND r.end_ns IS NOT NULL AND (r.kind = 2
       OR (r.kind = 5 AND r.category_id IN (SELECT id FROM python))
       OR (r.kind = 3 AND r.name_id IN (SELECT id FROM annotation_nodes)))
),
mem AS (
  SELECT m.run_id, m.id, m.thread_id, m.ts_ns, d.ordinal,
         CASE WHEN m.device_id IS NULL THEN 'CPU' ELSE 'GPU' || d.ordinal END AS device,
         CASE WHEN m.operation = (SELECT id FROM memory_operations WHERE name = 'free')
              THEN -m.bytes ELSE m.bytes END AS delta
  FROM memory_events m LEFT JOIN devices d ON d.id = m.device_id
  WHERE m.run_id IN (SELECT run_id FROM sel)
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
SELECT g.run_id, g.device, n.value AS name, c.n AS calls, g.size_increase_bytes, g.self_size_increase_bytes,
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
) g JOIN calls c USING (run_id, name_id) JOIN strings n ON n.id = g.name_id
ORDER BY g.run_id, g.ordinal IS NOT NULL, g.ordinal, g.device, g.size_increase_bytes DESC, n.value
LIMIT coalesce(:limit, -1);
