-- PyTorch distributed view (tb_plugin): communication operators per worker with latency and data transfer time
.load build/profq
-- Columns: run_id, rank (each run holding a PyTorch profiler trace is one worker; an nsys export
-- in the same file is not), name, calls, total_bytes,
-- avg_bytes, total_latency_ns, avg_latency_ns, transfer_ns, avg_transfer_ns. Rows by run, then in
-- the order of each operator's first call. Parameters: :run (only that worker's rows; the
-- computation always uses every worker).
--
-- Definition: tb_plugin 0.4.3 distributed view, "Communication Operations Stats" (pytorch/kineto
-- tb_plugin/torch_tb_profiler/profiler/event_parser.py, communication.py, loader.py
-- _process_distributed_profiles, run_generator.py DistributedRunGenerator at 041e7ce9;
-- notes/kineto_hta.md §1.8):
--  * communication nodes: the cpu_op, user_annotation and python ranges named nccl:/gloo:
--    broadcast, reduce, all_reduce, all_gather or reduce_scatter; a node's "kernel ranges" are its
--    own host range plus (NCCL only) the kernels with its external id, sorted by start, longest first.
--  * workers are matched by order: node i of every run (nodes sorted by start, longest first),
--    its kernel range j; min_dur = the shortest of range j over the runs; each run's "real
--    transfer" range is [end - min_dur, end).
--  * per run and name: calls; total_bytes = per call the sum over inputs of the product of the
--    "Input Dims" times the element size of its "Input type" (float, int 4, long int 8,
--    c10::Half, c10::BFloat16 2, unsigned char 1, any other 0); total_latency_ns = the union of the
--    calls' kernel ranges; transfer_ns = the union of their real transfer ranges; the averages are
--    the totals over calls, rounded half to even as Python's round().
--  * as tb_plugin, no rows at all unless every run has communication nodes of a single library,
--    the same number of them, and the same number of kernel ranges for each node.
WITH
run_sel AS (  -- the workers: runs with cpu_op, user_annotation or python_function ranges
  SELECT id AS run_id, rank FROM runs r
  WHERE EXISTS (SELECT 1 FROM ranges x WHERE x.run_id = r.id AND x.kind IN (2, 3, 5))
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
dimv AS (  -- per node and input: the element size and the dims array
  SELECT c.run_id, c.i, d.key AS input, d.value AS shape,
         CASE json_extract(c.types, '$[' || d.key || ']')
           WHEN 'long int' THEN 8 WHEN 'float' THEN 4 WHEN 'int' THEN 4 WHEN 'c10::Half' THEN 2
           WHEN 'c10::BFloat16' THEN 2 WHEN 'unsigned char' THEN 1 ELSE 0 END AS elem
  FROM cnode c, json_each(c.dims) d
  WHERE json_valid(c.dims) AND json_type(c.dims) = 'array'
),
prod(run_id, i, input, shape, elem, k, p) AS (  -- product of the dims, one dim at a time
  SELECT run_id, i, input, shape, elem, 0, 1 FROM dimv
  UNION ALL
  SELECT run_id, i, input, shape, elem, k + 1, p * json_extract(shape, '$[' || k || ']')
  FROM prod WHERE k < json_array_length(shape)
),
nbytes AS (
  SELECT run_id, i, sum(p * elem) AS bytes FROM prod
  WHERE k = json_array_length(shape) GROUP BY run_id, i
),
per_name AS (
  SELECT c.run_id, c.name, min(c.i) AS first, count(*) AS calls, coalesce(sum(b.bytes), 0) AS bytes
  FROM cnode c LEFT JOIN nbytes b USING (run_id, i) GROUP BY c.run_id, c.name
),
lat AS (
  SELECT c.run_id, c.name, interval_union_ns(k.start_ns, k.end_ns) AS ns
  FROM cnode c JOIN krange k USING (run_id, i) GROUP BY c.run_id, c.name
),
xfer AS (
  SELECT c.run_id, c.name, interval_union_ns(x.start_ns, x.end_ns) AS ns
  FROM cnode c JOIN real x USING (run_id, i) GROUP BY c.run_id, c.name
),
t AS (
  SELECT p.run_id, s.rank, p.name, p.first, p.calls, p.bytes, l.ns AS lat_ns, x.ns AS xfer_ns
  FROM per_name p JOIN run_sel s USING (run_id) JOIN lat l USING (run_id, name) JOIN xfer x USING (run_id, name)
  WHERE (SELECT ok FROM valid) AND (:run IS NULL OR p.run_id = :run)
)
SELECT run_id, rank, name, calls, bytes AS total_bytes,
       bytes / calls + (2 * (bytes % calls) > calls OR (2 * (bytes % calls) = calls AND (bytes / calls) % 2 = 1)) AS avg_bytes,
       lat_ns AS total_latency_ns,
       lat_ns / calls + (2 * (lat_ns % calls) > calls OR (2 * (lat_ns % calls) = calls AND (lat_ns / calls) % 2 = 1)) AS avg_latency_ns,
       xfer_ns AS transfer_ns,
       xfer_ns / calls + (2 * (xfer_ns % calls) > calls OR (2 * (xfer_ns % calls) = calls AND (xfer_ns / calls) % 2 = 1)) AS avg_transfer_ns
FROM t
ORDER BY run_id, first
LIMIT coalesce(:limit, -1);
