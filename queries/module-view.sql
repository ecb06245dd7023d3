-- PyTorch module view (tb_plugin): the nn.Module hierarchy with calls, operators, host and device time per module
.load build/profq
-- Columns: run_id, path (the module names from the top module down, '/'-separated), depth (0 for a top
-- module), name (without "nn.Module: "), module_id, occurrences, operators, host_total_ns,
-- host_self_ns, device_total_ns, device_self_ns, avg_ns. One row per run and module of its
-- hierarchy (runs without module ranges have none), by run, then in tree order (parents first,
-- siblings by name, then module id). Parameters: :run (default: every run).
--
-- Definition: tb_plugin 0.4.3 module view (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/
-- module_op.py aggegate_module_view, node.py ModuleNode at 041e7ce9): needs a trace recorded
-- with with_modules / with_stack (python_function events with "Python id", "Python parent id"
-- and, for modules, "Python module id"; PyTorch names them "nn.Module: <class>", and runs without
-- a range of such a name are not read further).
--  * hierarchy: a module's parent is the nearest module among its Python ancestors (through
--    "Python parent id", non-module python_function events skipped); a top module has none.
--    Instances with the same path of (name, module id) are one row.
--  * statistics per (name, module id), over the module's python_function ranges as nodes of
--    tb_plugin's operator tree (the op-sum report's tree nodes plus the module ranges, nested by
--    time on each thread): occurrences = ranges; operators = direct children that are operators
--    (cpu_op, not ProfilerStep#N, DataLoader, Optimizer.*, (Distributed)DataParallel.forward);
--    host_total_ns = their durations; host_self_ns = durations minus the direct children's;
--    device_total_ns = device time (kernels, memcpys, memsets) of the runtime calls of every node
--    below them; device_self_ns = device_total of their direct operator children;
--    avg_ns = device_total_ns / occurrences, or host_total_ns / occurrences without device time.
--  * not reproduced: tb_plugin lists structurally different trees under the same top module
--    apart (here merged by path) and sorts only the top level by name; the backward-op regrouping
--    through fwdbwd flows and remove_dup_nodes are not applied; PyTorch Lightning modules.
WITH
mod_runs AS MATERIALIZED (  -- runs with ranges named like modules (found by name, through the index)
  SELECT DISTINCT r.run_id FROM strings s JOIN ranges r ON r.name_id = s.id
  WHERE s.value GLOB 'nn.Module: *' AND (:run IS NULL OR r.run_id = :run)
),
node_filter(sql) AS (SELECT  -- the runs with modules in one sweep: threads are per run
  'SELECT r.id, r.thread_id, r.start_ns, r.end_ns FROM ranges r JOIN strings n ON n.id = r.name_id
     LEFT JOIN strings c ON c.id = r.category_id
    WHERE r.run_id IN (' || coalesce((SELECT group_concat(run_id) FROM mruns), '') || ')
      AND r.end_ns IS NOT NULL AND (r.kind = 2
       OR (r.kind = 5 AND lower(c.value) = ''python'')
       OR (r.kind = 5 AND lower(c.value) = ''python_function''
           AND json_extract(r.args, ''$."Python module id"'') IS NOT NULL)
       OR (r.kind = 3 AND (n.value GLOB ''ProfilerStep#*'' OR n.value GLOB ''Optimizer.step*''
           OR (n.value GLOB ''enumerate(DataLoader)#*'' AND n.value GLOB ''*.__next__'')
           OR n.value GLOB ''enumerate(DataPipe)#*''
           OR n.value IN (''nccl:broadcast'', ''nccl:reduce'', ''nccl:all_reduce'', ''nccl:all_gather'',
             ''nccl:reduce_scatter'', ''gloo:broadcast'', ''gloo:reduce'', ''gloo:all_reduce'',
             ''gloo:all_gather'', ''gloo:reduce_scatter''))))'),
tnodes AS MATERIALIZED (  -- the tree's nodes (same filter as node_filter)
  SELECT r.run_id, r.id, r.start_ns, r.end_ns, r.external_id, n.value AS name,
         r.kind = 5 AND lower(c.value) = 'python_function' AS is_mod,
         json_extract(r.args, '$."Python module id"') AS module_id,
         r.kind = 2 AND NOT (n.value GLOB 'ProfilerStep#*' OR n.value GLOB 'Optimizer.*'
           OR n.value GLOB 'enumerate(DataLoader)#*' OR n.value GLOB 'enumerate(DataPipe)#*'
           OR n.value IN ('DataParallel.forward', 'DistributedDataParallel.forward')) AS is_op
  FROM ranges r JOIN strings n ON n.id = r.name_id LEFT JOIN strings c ON c.id = r.category_id
  WHERE r.run_id IN (SELECT run_id FROM mod_runs) AND r.end_ns IS NOT NULL AND (r.kind = 2
       OR (r.kind = 5 AND lower(c.value) = 'python')
       OR (r.kind = 5 AND lower(c.value) = 'python_function'
           AND json_extract(r.args, '$."Python module id"') IS NOT NULL)
       OR (r.kind = 3 AND (n.value GLOB 'ProfilerStep#*' OR n.value GLOB 'Optimizer.step*'
           OR (n.value GLOB 'enumerate(DataLoader)#*' AND n.value GLOB '*.__next__')
           OR n.value GLOB 'enumerate(DataPipe)#*'
           OR n.value IN ('nccl:broadcast', 'nccl:reduce', 'nccl:all_reduce', 'nccl:all_gather',
             'nccl:reduce_scatter', 'gloo:broadcast', 'gloo:reduce', 'gloo:all_reduce',
             'gloo:all_gather', 'gloo:reduce_scatter'))))
),
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
mruns AS MATERIALIZED (SELECT DISTINCT run_id FROM tnodes WHERE is_mod),   -- runs with modules
owner AS MATERIALIZED (  -- external id -> node; module nodes take no runtime calls
  SELECT run_id, external_id, min(id) AS id FROM tnodes WHERE external_id IS NOT NULL AND NOT is_mod
  GROUP BY run_id, external_id
),
devc AS MATERIALIZED (
  SELECT process_id, correlation_id, total(dur) AS dev_ns FROM (
    SELECT process_id, correlation_id, end_ns - start_ns AS dur FROM kernels WHERE run_id IN (SELECT run_id FROM mruns)
    UNION ALL
    SELECT process_id, correlation_id, end_ns - start_ns FROM memcpys WHERE run_id IN (SELECT run_id FROM mruns)
    UNION ALL
    SELECT process_id, correlation_id, end_ns - start_ns FROM memsets WHERE run_id IN (SELECT run_id FROM mruns))
  GROUP BY process_id, correlation_id
),
own AS MATERIALIZED (  -- device time of each node's own runtime calls
  SELECT o.id AS node, total(d.dev_ns) AS dev_ns
  FROM api_calls a JOIN owner o ON o.run_id = a.run_id AND o.external_id = a.external_id
  JOIN devc d ON d.process_id = a.process_id AND d.correlation_id = a.correlation_id
  WHERE a.run_id IN (SELECT run_id FROM mruns) AND a.api_kind = 0
  GROUP BY o.id
),
desc_dev AS MATERIALIZED (  -- device time of every node below each node
  SELECT p.a AS id, total(o.dev_ns) AS ns FROM pairs p JOIN own o ON o.node = p.d GROUP BY p.a
),
dev_total AS MATERIALIZED (  -- own + every descendant's device time, per node
  SELECT id, total(ns) AS ns FROM (
    SELECT id, 0 AS ns FROM tnodes UNION ALL SELECT node, dev_ns FROM own UNION ALL SELECT id, ns FROM desc_dev)
  GROUP BY id
),
kids AS MATERIALIZED (  -- per node: its direct children's durations, operators, operators' device time
  SELECT id, total(dur) AS dur, sum(is_op) AS ops, total(CASE WHEN is_op THEN ns END) AS dev FROM (
    SELECT p.a AS id, x.end_ns - x.start_ns AS dur, dt.ns,
           x.kind = 2 AND NOT (n.value GLOB 'ProfilerStep#*' OR n.value GLOB 'Optimizer.*'
             OR n.value GLOB 'enumerate(DataLoader)#*' OR n.value GLOB 'enumerate(DataPipe)#*'
             OR n.value IN ('DataParallel.forward', 'DistributedDataParallel.forward')) AS is_op
    FROM parent p JOIN ranges x ON x.id = p.d JOIN strings n ON n.id = x.name_id
    JOIN dev_total dt ON dt.id = p.d)
  GROUP BY id
),
mstat AS (  -- per module range (modules launch nothing themselves: device time is their descendants')
  SELECT max(run_id) AS run_id, max(name) AS name, max(module_id) AS module_id, max(host) AS host, max(host) - total(kdur) AS host_self,
         total(dev) AS dev, total(kdev) AS dev_self, total(kops) AS ops
  FROM (SELECT id, 1 AS m, run_id, name, module_id, end_ns - start_ns AS host, 0 AS dev, 0 AS kdur,
               0 AS kops, 0 AS kdev
        FROM tnodes WHERE is_mod
        UNION ALL SELECT id, 0, NULL, NULL, NULL, NULL, ns, 0, 0, 0 FROM desc_dev
        UNION ALL SELECT id, 0, NULL, NULL, NULL, NULL, 0, dur, ops, dev FROM kids)
  GROUP BY id HAVING max(m) = 1
),
magg AS (
  SELECT run_id, name, module_id, count(*) AS occurrences, CAST(sum(ops) AS INTEGER) AS operators,
         sum(host) AS host_total_ns, CAST(sum(host_self) AS INTEGER) AS host_self_ns,
         CAST(sum(dev) AS INTEGER) AS device_total_ns, CAST(sum(dev_self) AS INTEGER) AS device_self_ns
  FROM mstat GROUP BY run_id, name, module_id
),
pyev AS MATERIALIZED (  -- python_function events by run and Python id (the last one, as tb_plugin's dict)
  SELECT run_id, pid, ppid, name, module_id FROM (
    SELECT r.run_id, json_extract(r.args, '$."Python id"') AS pid, json_extract(r.args, '$."Python parent id"') AS ppid,
           n.value AS name, json_extract(r.args, '$."Python module id"') AS module_id,
           row_number() OVER (PARTITION BY r.run_id, json_extract(r.args, '$."Python id"') ORDER BY r.id DESC) AS rn
    FROM ranges r JOIN strings n ON n.id = r.name_id JOIN strings c ON c.id = r.category_id
    WHERE r.run_id IN (SELECT run_id FROM mruns) AND r.kind = 5 AND lower(c.value) = 'python_function'
      AND json_extract(r.args, '$."Python id"') IS NOT NULL)
  WHERE rn = 1
),
up(run_id, mod, cur) AS (  -- from each module up through non-module Python ancestors
  SELECT run_id, pid, ppid FROM pyev WHERE module_id IS NOT NULL
  UNION
  SELECT u.run_id, u.mod, e.ppid FROM up u JOIN pyev e ON e.run_id = u.run_id AND e.pid = u.cur
  WHERE e.module_id IS NULL
),
modparent AS MATERIALIZED (  -- module Python id -> its parent module's Python id (NULL for a top module)
  SELECT u.run_id, u.mod AS pid, max(CASE WHEN e.module_id IS NOT NULL THEN u.cur END) AS parent
  FROM up u LEFT JOIN pyev e ON e.run_id = u.run_id AND e.pid = u.cur GROUP BY u.run_id, u.mod
),
tree(run_id, pid, key, path, depth, name, module_id) AS (
  SELECT m.run_id, m.pid, e.name || char(2) || printf('%020d', e.module_id), replace(e.name, 'nn.Module: ', ''), 0,
         e.name, e.module_id
  FROM modparent m JOIN pyev e ON e.run_id = m.run_id AND e.pid = m.pid WHERE m.parent IS NULL
  UNION ALL
  SELECT m.run_id, m.pid, t.key || char(1) || e.name || char(2) || printf('%020d', e.module_id),
         t.path || '/' || replace(e.name, 'nn.Module: ', ''), t.depth + 1, e.name, e.module_id
  FROM tree t JOIN modparent m ON m.run_id = t.run_id AND m.parent = t.pid
  JOIN pyev e ON e.run_id = m.run_id AND e.pid = m.pid
  WHERE t.depth < 1000
),
rows_ AS (SELECT DISTINCT run_id, key, path, depth, name, module_id FROM tree)
SELECT r.run_id, r.path, r.depth, replace(r.name, 'nn.Module: ', '') AS name, r.module_id,
       coalesce(a.occurrences, 0) AS occurrences, coalesce(a.operators, 0) AS operators,
       coalesce(a.host_total_ns, 0) AS host_total_ns, coalesce(a.host_self_ns, 0) AS host_self_ns,
       coalesce(a.device_total_ns, 0) AS device_total_ns, coalesce(a.device_self_ns, 0) AS device_self_ns,
       CAST(round(CASE WHEN a.device_total_ns > 0 THEN 1.0 * a.device_total_ns / a.occurrences
                       ELSE 1.0 * a.host_total_ns / a.occurrences END) AS INTEGER) AS avg_ns
FROM rows_ r LEFT JOIN magg a ON a.run_id = r.run_id AND a.name = r.name AND a.module_id = r.module_id
WHERE r.run_id IN (SELECT run_id FROM mruns)
ORDER BY r.run_id, r.key
LIMIT coalesce(:limit, -1);
