-- PyTorch distributed view (tb_plugin): computation/communication overlap and synchronizing time per worker and step
.load build/profq
-- Columns: run_id, rank (each run holding a PyTorch profiler trace is one worker; an nsys export
-- in the same file is not), step (the ProfilerStep number, 0
-- without ProfilerSteps, or 'all'), computation_ns, overlap_ns, communication_ns, other_ns (the
-- "Computation/Communication Overview" bar: computation and communication without their overlap),
-- transfer_ns, synchronizing_ns (the "Synchronizing/Communication Overview"; NULL for a step that
-- holds no communication node). Rows by run, then step, then 'all'. Parameters: :run (only that
-- worker's rows; the computation always uses every worker).
--
-- Definition: tb_plugin 0.4.3 distributed view (pytorch/kineto tb_plugin/torch_tb_profiler/
-- profiler/overall_parser.py OverallParser.aggregate, communication.py, loader.py
-- _process_distributed_profiles, run_generator.py DistributedRunGenerator at 041e7ce9;
-- notes/kineto_hta.md §1.8):
--  * steps: per run, the steps of the step-breakdown report: the v_tb_steps view (host
--    ProfilerSteps extended to their device work, tail trimmed).
--  * roles, per run as in step-breakdown: Kernel = kernels whose external id is not a
--    communication op's; Communication = the other kernels plus the host ranges of the
--    communication ops (nccl:/gloo: broadcast, reduce, all_reduce, all_gather, reduce_scatter);
--    CPU Exec = the other cpu_op, user_annotation and python ranges (not ProfilerStep, DataLoader).
--    Computation is Kernel, or CPU Exec when the run has no Kernel range at all.
--  * per step: comp = |step ∩ ∪ computation|, comm = |step ∩ ∪ communication|, overlap =
--    |step ∩ ∪ computation ∩ ∪ communication|, other = step length + overlap - comp - comm;
--    computation_ns = comp - overlap, communication_ns = comm - overlap.
--  * transfer_ns / synchronizing_ns: communication nodes and their real transfer ranges as in the
--    dist-comm-ops report; a node belongs to the step containing its host range; per step
--    latency = |∪ its nodes' kernel ranges| (not clipped to the step), transfer_ns = |∪ their real
--    ranges|, synchronizing_ns = latency - transfer_ns.
--  * 'all': the mean over the steps (for transfer/synchronizing: over the steps holding nodes),
--    truncated to the ns (tb_plugin truncates its µs).
--  * as tb_plugin, no rows at all unless every run has communication nodes of a single library,
--    the same number of them, and the same number of kernel ranges for each node.
--  * deviation: a node inside no step is left out (tb_plugin lists such nodes under a step None).
WITH
run_sel AS (  -- the workers: runs with cpu_op, user_annotation or python_function ranges
  SELECT id AS run_id, rank FROM runs r
  WHERE EXISTS (SELECT 1 FROM ranges x WHERE x.run_id = r.id AND x.kind IN (2, 3, 5))
),
host AS MATERIALIZED (  -- tb_plugin's host-side events: Operator, UserAnnotation, Python
  SELECT r.run_id, r.id, r.kind, r.start_ns, r.end_ns, r.external_id, n.value AS name,
         CASE WHEN r.kind = 5 THEN 'python' ELSE 'op' END AS role_kind
  FROM ranges r JOIN strings n ON n.id = r.name_id
  LEFT JOIN strings c ON c.id = r.category_id
  WHERE (SELECT ok FROM valid)  -- constant: no ranges read when the file has no distributed view
    AND r.end_ns IS NOT NULL AND (r.kind IN (2, 3) OR (r.kind = 5 AND lower(c.value) = 'python'))
),
steps AS MATERIALIZED (  -- the v_tb_steps view's steps of the workers
  SELECT run_id, step, step_index AS idx, start_ns, end_ns FROM v_tb_steps
  WHERE run_id IN (SELECT run_id FROM run_sel)
),
comm_ext AS (SELECT DISTINCT run_id, external_id FROM host WHERE external_id IS NOT NULL AND name IN (
  'nccl:broadcast', 'nccl:reduce', 'nccl:all_reduce', 'nccl:all_gather', 'nccl:reduce_scatter',
  'gloo:broadcast', 'gloo:reduce', 'gloo:all_reduce', 'gloo:all_gather', 'gloo:reduce_scatter')),
role AS MATERIALIZED (  -- 'K' Kernel, 'C' Communication, 'P' CPU Exec
  SELECT d.run_id, d.start_ns, d.end_ns,
         CASE WHEN EXISTS (SELECT 1 FROM comm_ext x WHERE x.run_id = d.run_id AND x.external_id = d.external_id)
              THEN 'C' ELSE 'K' END AS r
  FROM kernels d WHERE (SELECT ok FROM valid) AND d.run_id IN (SELECT run_id FROM run_sel)
  UNION ALL
  SELECT run_id, start_ns, end_ns,
         CASE WHEN name IN ('nccl:broadcast', 'nccl:reduce', 'nccl:all_reduce', 'nccl:all_gather',
                'nccl:reduce_scatter', 'gloo:broadcast', 'gloo:reduce', 'gloo:all_reduce',
                'gloo:all_gather', 'gloo:reduce_scatter') THEN 'C' ELSE 'P' END
  FROM host
  WHERE NOT (role_kind = 'op' AND (name GLOB 'ProfilerStep#*'
             OR (name GLOB 'enumerate(DataLoader)#*' AND name GLOB '*.__next__')
             OR name GLOB 'enumerate(DataPipe)#*'))
),
comp_role AS (  -- the computation role of each run: Kernel, or CPU Exec without kernels
  SELECT s.run_id, CASE WHEN EXISTS (SELECT 1 FROM role x WHERE x.run_id = s.run_id AND x.r = 'K')
                        THEN 'K' ELSE 'P' END AS r
  FROM run_sel s
),
ov AS (
  SELECT s.run_id, s.idx, s.step, s.end_ns - s.start_ns AS total,
         coalesce(interval_union_ns(CASE WHEN x.r = c.r THEN max(x.start_ns, s.start_ns) END,
                                    min(x.end_ns, s.end_ns)), 0) AS comp,
         coalesce(interval_union_ns(CASE WHEN x.r = 'C' THEN max(x.start_ns, s.start_ns) END,
                                    min(x.end_ns, s.end_ns)), 0) AS comm,
         coalesce(interval_union_ns(CASE WHEN x.r IN (c.r, 'C') THEN max(x.start_ns, s.start_ns) END,
                                    min(x.end_ns, s.end_ns)), 0) AS both_
  FROM steps s JOIN comp_role c USING (run_id)
  LEFT JOIN role x ON x.run_id = s.run_id AND x.end_ns > s.start_ns AND x.start_ns < s.end_ns
  WHERE (SELECT ok FROM valid)  -- constant: nothing is swept when the file has no distributed view
  GROUP BY s.run_id, s.idx
),
cnode AS MATERIALIZED (  -- communication nodes, numbered per run in tb_plugin's order
  SELECT r.run_id, r.id, r.start_ns, r.end_ns, r.external_id, n.value AS name,
         json_extract(r.args, '$."Input Dims"') AS dims, json_extract(r.args, '$."Input type"') AS types,
         row_number() OVER (PARTITION BY r.run_id ORDER BY r.start_ns, r.end_ns DESC, r.id) - 1 AS i,
         max(n.value GLOB 'nccl:*') OVER (PARTITION BY r.run_id) AS nccl,
         max(n.value GLOB 'gloo:*') OVER (PARTITION BY r.run_id) AS gloo
  FROM ranges r JOIN strings n ON n.id = r.name_id LEFT JOIN strings c ON c.id = r.category_id
  WHERE r.run_id IN (SELECT run_id FROM run_sel)
    AND r.end_ns IS NOT NULL AND (r.kind IN (2, 3) OR (r.kind = 5 AND lower(c.value) = 'python'))
    AND n.value IN ('nccl:broadcast', 'nccl:reduce', 'nccl:all_reduce', 'nccl:all_gather',
      'nccl:reduce_scatter', 'gloo:broadcast', 'gloo:reduce', 'gloo:all_reduce', 'gloo:all_gather',
      'gloo:reduce_scatter')
),
krange AS MATERIALIZED (  -- each node's kernel ranges, numbered j
  SELECT run_id, i, start_ns, end_ns,
         row_number() OVER (PARTITION BY run_id, i ORDER BY start_ns, end_ns DESC, k) - 1 AS j
  FROM (SELECT run_id, i, start_ns, end_ns, 0 AS k FROM cnode
        UNION ALL
        SELECT c.run_id, c.i, k.start_ns, k.end_ns, k.id FROM cnode c
        JOIN kernels k ON k.run_id = c.run_id AND k.external_id = c.external_id
        WHERE c.nccl)
),
valid AS (  -- tb_plugin's conditions for a distributed view
  SELECT (SELECT count(*) FROM run_sel) > 0
     AND NOT EXISTS (SELECT 1 FROM run_sel s WHERE NOT EXISTS (
           SELECT 1 FROM cnode c WHERE c.run_id = s.run_id AND NOT (c.nccl AND c.gloo)))
     AND (SELECT count(DISTINCT n) FROM (SELECT count(*) AS n FROM cnode GROUP BY run_id)) = 1
     AND NOT EXISTS (SELECT 1 FROM (SELECT run_id, i, count(*) AS n FROM krange GROUP BY run_id, i)
                     GROUP BY i HAVING count(DISTINCT n) > 1 OR count(*) <> (SELECT count(*) FROM run_sel))
     AS ok
),
mind AS (SELECT i, j, min(end_ns - start_ns) AS d FROM krange GROUP BY i, j),
real AS (SELECT k.run_id, k.i, k.end_ns - m.d AS start_ns, k.end_ns FROM krange k JOIN mind m USING (i, j)),
node_step AS (  -- the step containing each node's host range
  SELECT c.run_id, c.i, s.idx FROM cnode c
  JOIN steps s ON s.run_id = c.run_id AND c.start_ns >= s.start_ns AND c.end_ns <= s.end_ns
),
wait AS (
  SELECT n.run_id, n.idx,
         (SELECT interval_union_ns(k.start_ns, k.end_ns) FROM krange k JOIN node_step m USING (run_id, i)
           WHERE m.run_id = n.run_id AND m.idx = n.idx) AS lat,
         (SELECT interval_union_ns(x.start_ns, x.end_ns) FROM real x JOIN node_step m USING (run_id, i)
           WHERE m.run_id = n.run_id AND m.idx = n.idx) AS xfer
  FROM (SELECT DISTINCT run_id, idx FROM node_step) n
),
per_step AS MATERIALIZED (  -- read twice below
  SELECT o.run_id, o.idx, o.step, o.comp - (o.comp + o.comm - o.both_) AS computation_ns,
         o.comp + o.comm - o.both_ AS overlap_ns, o.comm - (o.comp + o.comm - o.both_) AS communication_ns,
         o.total - o.both_ AS other_ns, w.xfer AS transfer_ns, w.lat - w.xfer AS synchronizing_ns
  FROM ov o LEFT JOIN wait w USING (run_id, idx)
  WHERE (SELECT ok FROM valid) AND (:run IS NULL OR o.run_id = :run)
)
SELECT p.run_id, s.rank, p.step, computation_ns, overlap_ns, communication_ns, other_ns,
       transfer_ns, synchronizing_ns
FROM (
  SELECT 0 AS grp, run_id, idx, CAST(step AS TEXT) AS step, computation_ns, overlap_ns, communication_ns,
         other_ns, transfer_ns, synchronizing_ns FROM per_step
  UNION ALL
  SELECT 1, run_id, NULL, 'all', sum(computation_ns) / count(*), sum(overlap_ns) / count(*),
         sum(communication_ns) / count(*), sum(other_ns) / count(*),
         sum(transfer_ns) / count(transfer_ns), sum(synchronizing_ns) / count(synchronizing_ns)
  FROM per_step GROUP BY run_id
) p JOIN run_sel s USING (run_id)
ORDER BY p.run_id, grp, idx
LIMIT coalesce(:limit, -1);
