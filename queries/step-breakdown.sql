-- PyTorch step time breakdown per ProfilerStep, as TensorBoard's profiler plugin (tb_plugin) computes it
.load build/profq
-- Columns: step, kernel_ns, memcpy_ns, memset_ns, communication_ns, runtime_ns, dataloader_ns,
-- cpu_exec_ns, other_ns, total_ns; one row per step, then a row with step = 'average' (the mean
-- over the steps, rounded to the ns). Parameters: :run (default: the lowest run id).
--
-- Definition: tb_plugin 0.4.3 (pytorch/kineto tb_plugin/torch_tb_profiler/profiler/event_parser.py
-- StepParser and overall_parser.py at 041e7ce9; /work/shared/notes/kineto_hta.md §1.2-1.3):
--  * host steps: the ProfilerStep#N cpu_op / user_annotation ranges (N = step). Without any, one
--    step "0" spanning the cpu_op and python (cat "python") ranges.
--  * a runtime call (api_calls, CUDA runtime API) belongs to a step when it lies inside the host
--    step; the kernels, memcpys and memsets it launched (same correlation id) are the step's device
--    events. When some step launched device work, steps are extended: prev_end starts at the first
--    host step's start, raised to the end of any device event launched by no step that ends before
--    the first step's first device start; start = max(prev_end, host start),
--    end = max(host end, last device end, start); prev_end = end. Steps after the last one that
--    launched device work are dropped, and that one too if it launched < 0.8x the device events
--    of the step before it.
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
sel AS (SELECT coalesce(:run, (SELECT min(id) FROM runs)) AS run_id),
host AS (  -- tb_plugin's host-side events: Operator, UserAnnotation, Python
  SELECT r.id, r.kind, r.start_ns, r.end_ns, r.external_id, n.value AS name,
         CASE WHEN r.kind = 5 THEN 'python' ELSE 'op' END AS role_kind
  FROM ranges r JOIN strings n ON n.id = r.name_id
  LEFT JOIN strings c ON c.id = r.category_id
  WHERE r.run_id = (SELECT run_id FROM sel) AND r.end_ns IS NOT NULL
    AND (r.kind IN (2, 3) OR (r.kind = 5 AND lower(c.value) = 'python'))
),
host_steps AS (
  SELECT CAST(substr(name, 14) AS INTEGER) AS step, start_ns AS hs, end_ns AS he
  FROM host WHERE role_kind = 'op' AND name GLOB 'ProfilerStep#*'
  UNION ALL
  SELECT 0, min(start_ns), max(end_ns) FROM host   -- no ProfilerStep: cpu_op and python ranges
  WHERE NOT EXISTS (SELECT 1 FROM host WHERE role_kind = 'op' AND name GLOB 'ProfilerStep#*')
        AND (role_kind = 'python' OR kind = 2) HAVING count(*) > 0
),
hsteps AS (SELECT row_number() OVER (ORDER BY hs, he) - 1 AS idx, step, hs, he FROM host_steps),
rt AS (
  SELECT a.id, a.process_id, a.correlation_id, a.start_ns, a.end_ns FROM api_calls a
  WHERE a.run_id = (SELECT run_id FROM sel) AND a.api_kind = 0
),
dev AS (
  SELECT 'k' AS t, id, process_id, correlation_id, start_ns, end_ns, external_id FROM kernels
   WHERE run_id = (SELECT run_id FROM sel)
  UNION ALL
  SELECT 'c', id, process_id, correlation_id, start_ns, end_ns, external_id FROM memcpys
   WHERE run_id = (SELECT run_id FROM sel)
  UNION ALL
  SELECT 's', id, process_id, correlation_id, start_ns, end_ns, external_id FROM memsets
   WHERE run_id = (SELECT run_id FROM sel)
),
rt_step AS (  -- runtime calls lying inside a host step
  SELECT s.idx, rt.process_id, rt.correlation_id
  FROM hsteps s JOIN rt ON rt.start_ns >= s.hs AND rt.end_ns <= s.he
),
dev_step AS (  -- device events launched from inside a step
  SELECT r.idx, d.t, d.id, d.start_ns, d.end_ns
  FROM rt_step r JOIN dev d ON d.process_id = r.process_id AND d.correlation_id = r.correlation_id
),
dstep AS (
  SELECT s.idx, min(d.start_ns) AS ds, max(d.end_ns) AS de, count(d.id) AS n
  FROM hsteps s LEFT JOIN dev_step d ON d.idx = s.idx GROUP BY s.idx
),
gpu AS (SELECT EXISTS (SELECT 1 FROM dev_step) AS used),
init AS (  -- prev_end before the first step
  SELECT max((SELECT hs FROM hsteps WHERE idx = 0),
             coalesce((SELECT max(d.end_ns) FROM dev d
                        WHERE d.end_ns < (SELECT ds FROM dstep WHERE idx = 0)
                          AND NOT EXISTS (SELECT 1 FROM dev_step x WHERE x.t = d.t AND x.id = d.id)),
                      (SELECT hs FROM hsteps WHERE idx = 0))) AS prev_end
),
ext AS (
  SELECT s.idx, s.step, s.hs, d.n,
         max((SELECT prev_end FROM init),
             max(max(s.he, coalesce(d.de, s.he))) OVER (ORDER BY s.idx ROWS UNBOUNDED PRECEDING)) AS e
  FROM hsteps s JOIN dstep d USING (idx)
),
ext2 AS (
  SELECT idx, step, n,
         max(hs, coalesce(lag(e) OVER (ORDER BY idx), (SELECT prev_end FROM init))) AS start_ns,
         e AS end_ns
  FROM ext
),
last_dev AS (SELECT max(idx) AS l FROM dstep WHERE n > 0),
keep AS (
  SELECT CASE
    WHEN NOT (SELECT used FROM gpu) OR (SELECT count(*) FROM hsteps) <= 1 THEN (SELECT count(*) FROM hsteps)
    WHEN (SELECT l FROM last_dev) > 0
         AND (SELECT n FROM dstep WHERE idx = (SELECT l FROM last_dev) - 1) * 0.8
             > (SELECT n FROM dstep WHERE idx = (SELECT l FROM last_dev))
      THEN (SELECT l FROM last_dev)
    ELSE (SELECT l FROM last_dev) + 1 END AS k
),
steps AS (
  SELECT e.step, e.idx,
         CASE WHEN (SELECT used FROM gpu) THEN e.start_ns ELSE s.hs END AS start_ns,
         CASE WHEN (SELECT used FROM gpu) THEN e.end_ns ELSE s.he END AS end_ns
  FROM ext2 e JOIN hsteps s USING (idx)
  WHERE e.idx < (SELECT k FROM keep)
),
comm_ops AS (
  SELECT * FROM host WHERE name IN ('nccl:broadcast', 'nccl:reduce', 'nccl:all_reduce',
    'nccl:all_gather', 'nccl:reduce_scatter', 'gloo:broadcast', 'gloo:reduce', 'gloo:all_reduce',
    'gloo:all_gather', 'gloo:reduce_scatter')
),
ev(start_ns, end_ns, role, prio) AS (
  SELECT start_ns, end_ns,
         CASE WHEN external_id IN (SELECT external_id FROM comm_ops) THEN 'Communication' ELSE 'Kernel' END,
         CASE WHEN external_id IN (SELECT external_id FROM comm_ops) THEN 3 ELSE 0 END
  FROM dev WHERE t = 'k'
  UNION ALL SELECT start_ns, end_ns, 'Memcpy', 1 FROM dev WHERE t = 'c'
  UNION ALL SELECT start_ns, end_ns, 'Memset', 2 FROM dev WHERE t = 's'
  UNION ALL SELECT start_ns, end_ns, 'Runtime', 4 FROM rt
  UNION ALL
  SELECT start_ns, end_ns,
         CASE WHEN role_kind = 'op' AND ((name GLOB 'enumerate(DataLoader)#*' AND name GLOB '*.__next__')
                                         OR name GLOB 'enumerate(DataPipe)#*') THEN 'DataLoader'
              WHEN name IN (SELECT name FROM comm_ops) THEN 'Communication'
              ELSE 'CPU Exec' END,
         CASE WHEN role_kind = 'op' AND ((name GLOB 'enumerate(DataLoader)#*' AND name GLOB '*.__next__')
                                         OR name GLOB 'enumerate(DataPipe)#*') THEN 5
              WHEN name IN (SELECT name FROM comm_ops) THEN 3
              ELSE 6 END
  FROM host WHERE NOT (role_kind = 'op' AND name GLOB 'ProfilerStep#*')
),
bd AS (
  SELECT s.idx, s.step,
         priority_breakdown(ev.start_ns, ev.end_ns, ev.role, ev.prio, s.start_ns, s.end_ns) AS j
  FROM steps s LEFT JOIN ev ON ev.end_ns > s.start_ns AND ev.start_ns < s.end_ns
  GROUP BY s.idx
),
per_step AS (
  SELECT idx, step,
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
SELECT step, kernel_ns, memcpy_ns, memset_ns, communication_ns, runtime_ns, dataloader_ns,
       cpu_exec_ns, other_ns, total_ns
FROM (
  SELECT 0 AS grp, idx, step, kernel_ns, memcpy_ns, memset_ns, communication_ns, runtime_ns,
         dataloader_ns, cpu_exec_ns, other_ns, total_ns FROM per_step
  UNION ALL
  SELECT 1, NULL, 'average', CAST(round(avg(kernel_ns)) AS INTEGER), CAST(round(avg(memcpy_ns)) AS INTEGER),
         CAST(round(avg(memset_ns)) AS INTEGER), CAST(round(avg(communication_ns)) AS INTEGER),
         CAST(round(avg(runtime_ns)) AS INTEGER), CAST(round(avg(dataloader_ns)) AS INTEGER),
         CAST(round(avg(cpu_exec_ns)) AS INTEGER), CAST(round(avg(other_ns)) AS INTEGER),
         CAST(round(avg(total_ns)) AS INTEGER)
  FROM per_step HAVING count(*) > 0
)
ORDER BY grp, idx
LIMIT coalesce(:limit, -1);
