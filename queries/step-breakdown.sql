-- PyTorch step time breakdown per ProfilerStep, as TensorBoard's profiler plugin (tb_plugin) computes it
.load build/profq
-- Columns: run_id, step, kernel_ns, memcpy_ns, memset_ns, communication_ns, runtime_ns,
-- dataloader_ns, cpu_exec_ns, other_ns, total_ns; per run that has steps (PyTorch profiler traces;
-- an nsys export has none), one row per step, then a row with step = 'average' (the mean over the
-- run's steps, rounded to the ns). Parameters: :run (default: every run).
--
-- Definition: tb_plugin 0.4.3 (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/event_parser.py
-- StepParser and overall_parser.py at 041e7ce9; /work/shared/notes/kineto_hta.md §1.2-1.3):
--  * steps: the v_tb_steps view (schema/views.sql, docs/schema.md): the ProfilerStep#N ranges
--    (or one step 0 over the host ranges) extended to the device work their runtime calls
--    launched, trailing steps without device work dropped. A file written before that view has
--    it only on profq's own connections: sqlite3 says "no such table: v_tb_steps".
--  * roles by priority (lowest wins): Kernel 0 (kernels whose external id is not a communication
--    op's), Memcpy 1, Memset 2, Communication 3 (kernels of communication ops plus the host ranges
--    named nccl:/gloo: broadcast, reduce, all_reduce, all_gather, reduce_scatter), Runtime 4,
--    DataLoader 5 (cpu_op/user_annotation named enumerate(DataLoader)#*.__next__ or
--    enumerate(DataPipe)#*), CPU Exec 6 (every other cpu_op, user_annotation and python range,
--    ProfilerStep and python_function excluded), Other = the rest of the step. Computed with the
--    extension's priority_breakdown over each step's window, so the parts add up to total_ns.
--  * deviation: gpu_user_annotation ranges (GPU-side projections) are not counted as CPU ranges
--    (tb_plugin maps them to user_annotation); the published samples have none.
WITH
sel AS (SELECT id AS run_id FROM runs WHERE :run IS NULL OR id = :run),
steps AS MATERIALIZED (
  SELECT run_id, step_index AS idx, step, start_ns, end_ns FROM v_tb_steps
  WHERE run_id IN (SELECT run_id FROM sel)
),
host AS MATERIALIZED (  -- tb_plugin's host-side events: Operator, UserAnnotation, Python
  SELECT r.run_id, r.id, r.kind, r.start_ns, r.end_ns, r.external_id, n.value AS name,
         CASE WHEN r.kind = 5 THEN 'python' ELSE 'op' END AS role_kind
  FROM ranges r JOIN strings n ON n.id = r.name_id
  LEFT JOIN strings c ON c.id = r.category_id
  WHERE r.run_id IN (SELECT run_id FROM steps) AND r.end_ns IS NOT NULL
    AND (r.kind IN (2, 3) OR (r.kind = 5 AND lower(c.value) = 'python'))
),
comm_ops AS (
  SELECT run_id, external_id, name FROM host WHERE name IN ('nccl:broadcast', 'nccl:reduce', 'nccl:all_reduce',
    'nccl:all_gather', 'nccl:reduce_scatter', 'gloo:broadcast', 'gloo:reduce', 'gloo:all_reduce',
    'gloo:all_gather', 'gloo:reduce_scatter')
),
ev(run_id, start_ns, end_ns, role, prio) AS MATERIALIZED (
  SELECT k.run_id, k.start_ns, k.end_ns,
         CASE WHEN x.external_id IS NOT NULL THEN 'Communication' ELSE 'Kernel' END,
         CASE WHEN x.external_id IS NOT NULL THEN 3 ELSE 0 END
  FROM kernels k LEFT JOIN (SELECT DISTINCT run_id, external_id FROM comm_ops) x
    ON x.run_id = k.run_id AND x.external_id = k.external_id
  WHERE k.run_id IN (SELECT run_id FROM steps)
  UNION ALL SELECT run_id, start_ns, end_ns, 'Memcpy', 1 FROM memcpys WHERE run_id IN (SELECT run_id FROM steps)
  UNION ALL SELECT run_id, start_ns, end_ns, 'Memset', 2 FROM memsets WHERE run_id IN (SELECT run_id FROM steps)
  UNION ALL SELECT run_id, start_ns, end_ns, 'Runtime', 4 FROM api_calls
   WHERE run_id IN (SELECT run_id FROM steps) AND api_kind = 0
  UNION ALL
  SELECT run_id, start_ns, end_ns,
         CASE WHEN role_kind = 'op' AND ((name GLOB 'enumerate(DataLoader)#*' AND name GLOB '*.__next__')
                                         OR name GLOB 'enumerate(DataPipe)#*') THEN 'DataLoader'
              WHEN name IN ('nccl:broadcast', 'nccl:reduce', 'nccl:all_reduce', 'nccl:all_gather',
                'nccl:reduce_scatter', 'gloo:broadcast', 'gloo:reduce', 'gloo:all_reduce',
                'gloo:all_gather', 'gloo:reduce_scatter') THEN 'Communication'
              ELSE 'CPU Exec' END,
         CASE WHEN role_kind = 'op' AND ((name GLOB 'enumerate(DataLoader)#*' AND name GLOB '*.__next__')
                                         OR name GLOB 'enumerate(DataPipe)#*') THEN 5
              WHEN name IN ('nccl:broadcast', 'nccl:reduce', 'nccl:all_reduce', 'nccl:all_gather',
                'nccl:reduce_scatter', 'gloo:broadcast', 'gloo:reduce', 'gloo:all_reduce',
                'gloo:all_gather', 'gloo:reduce_scatter') THEN 3
              ELSE 6 END
  FROM host WHERE NOT (role_kind = 'op' AND name GLOB 'ProfilerStep#*')
),
bd AS (
  SELECT s.run_id, s.idx, s.step,
         priority_breakdown(ev.start_ns, ev.end_ns, ev.role, ev.prio, s.start_ns, s.end_ns) AS j
  FROM steps s LEFT JOIN ev ON ev.run_id = s.run_id AND ev.end_ns > s.start_ns AND ev.start_ns < s.end_ns
  GROUP BY s.run_id, s.idx
),
per_step AS (
  SELECT run_id, idx, step,
         coalesce(json_extract(j, '$.Kernel'), 0) AS kernel_ns,
         coalesce(json_extract(j, '$.Memcpy'), 0) AS memcpy_ns,
         coalesce(json_extract(j, '$.Memset'), 0) AS memset_ns,
         coalesce(json_extract(j, '$.Communication'), 0) AS communication_ns,
         coalesce(json_extract(j, '$.Runtime'), 0) AS runtime_ns,
         coalesce(json_extract(j, '$.DataLoader'), 0) AS dataloader_ns,
         coalesce(json_extract(j, '$."CPU Exec"'), 0) AS cpu_exec_ns,
         json_extract(j, '$.other') AS other_ns,
         json_extract(j, '$.total') AS total_ns
  FROM bd
)
SELECT run_id, step, kernel_ns, memcpy_ns, memset_ns, communication_ns, runtime_ns, dataloader_ns,
       cpu_exec_ns, other_ns, total_ns
FROM (
  SELECT run_id, 0 AS grp, idx, step, kernel_ns, memcpy_ns, memset_ns, communication_ns, runtime_ns,
         dataloader_ns, cpu_exec_ns, other_ns, total_ns FROM per_step
  UNION ALL
  SELECT run_id, 1, NULL, 'average', CAST(round(avg(kernel_ns)) AS INTEGER), CAST(round(avg(memcpy_ns)) AS INTEGER),
         CAST(round(avg(memset_ns)) AS INTEGER), CAST(round(avg(communication_ns)) AS INTEGER),
         CAST(round(avg(runtime_ns)) AS INTEGER), CAST(round(avg(dataloader_ns)) AS INTEGER),
         CAST(round(avg(cpu_exec_ns)) AS INTEGER), CAST(round(avg(other_ns)) AS INTEGER),
         CAST(round(avg(total_ns)) AS INTEGER)
  FROM per_step GROUP BY run_id
)
ORDER BY run_id, grp, idx
LIMIT coalesce(:limit, -1);
