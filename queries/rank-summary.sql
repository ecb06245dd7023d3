-- Per rank and step: step time, computation, communication, overlap, idle; the slowest rank of each step marked as straggler
.load build/profq
-- Columns: run_id, rank, step, step_ns, computation_ns, communication_ns, overlap_ns, idle_ns,
-- median_step_ns, excess_ns, straggler.
-- One row per run (a rank; `profq merge` puts the ranks of a job in one file) and ProfilerStep#N
-- range (kind cpu_op or user_annotation), for runs that have such steps; step is N, and steps
-- of different ranks with the same N are the same step (as HTA lines up iterations).
--  * step_ns: the step range's duration (its CPU span, [start, end)).
--  * GPU work (kernels, memcpys, memsets) is cut to the step's span. computation_ns = |union of
--    COMPUTATION kernels|, communication_ns = |union of COMMUNICATION kernels|, overlap_ns = the
--    time both run at once, idle_ns = step_ns - |union of all GPU work|. Kernel classes are
--    HTA's name patterns (the temporal-breakdown report lists them): COMMUNICATION nccl*, hip*,
--    hccl*, *ncclKernel*; COMPUTATION any kernel not matching HTA's non-compute list; memcpys,
--    memsets and other kernels are busy time of neither class.
--  * median_step_ns: the median of the step's step_ns over the ranks that have the step (the
--    extension's median(): the mean of the middle two for an even count); excess_ns = step_ns -
--    median_step_ns (1 decimal place); straggler = 1 on the slowest rank of the step when two or
--    more ranks have it and it is slower than the median (the lowest rank on a tie), else 0.
-- rank is runs.rank (NULL when unknown). --run ID keeps that run's rows; medians and stragglers are
-- always over every run of the file.
WITH
steps AS MATERIALIZED (
  SELECT r.run_id, ru.rank, r.start_ns, r.end_ns,
         CAST(substr(n.value, 14) AS INTEGER) AS step
  FROM ranges r JOIN strings n ON n.id = r.name_id JOIN runs ru ON ru.id = r.run_id
  WHERE n.value GLOB 'ProfilerStep#[0-9]*' AND r.kind IN (2, 3) AND r.end_ns IS NOT NULL
),
maxdur AS MATERIALIZED (  -- per run, the longest GPU operation: bounds the index range scan below
  SELECT run_id, max(d) AS d FROM (
    SELECT run_id, max(end_ns - start_ns) AS d FROM kernels GROUP BY run_id
    UNION ALL SELECT run_id, max(end_ns - start_ns) FROM memcpys GROUP BY run_id
    UNION ALL SELECT run_id, max(end_ns - start_ns) FROM memsets GROUP BY run_id)
  GROUP BY run_id
),
ktype AS MATERIALIZED (  -- HTA's kernel class per name: the GLOBs once a name, not once a kernel
  SELECT n.id,
         CASE
           WHEN n.value GLOB 'nccl*' OR n.value GLOB 'hip*' OR n.value GLOB 'hccl*' OR n.value GLOB '*ncclKernel*'
             THEN 'COMM'
           WHEN n.value GLOB 'Memcpy*' OR n.value GLOB 'hipMemcpy*' OR n.value GLOB 'Memset*'
                OR n.value GLOB 'hipMemset*' OR n.value GLOB 'dma*' THEN 'MEM'
           WHEN NOT (n.value GLOB '*Memcpy*' OR n.value GLOB '*Memset*' OR n.value GLOB '*dma*'
                OR n.value GLOB '*Sync*' OR n.value GLOB 'Stream Wait Event*' OR n.value GLOB 'cuda*LaunchKernel*'
                OR n.value GLOB 'runFunction*' OR n.value GLOB 'job_exe*' OR n.value GLOB 'packet*'
                OR n.value GLOB 'pe_exe*' OR n.value GLOB 'cpum_exe_subgraph*'
                OR n.value GLOB 'collective_subgraph_execution*') THEN 'COMP'
           ELSE 'OTHER' END AS type
  FROM strings n WHERE n.id IN (SELECT name_id FROM kernels)
),
gpu AS (  -- name_id NULL: a memcpy or memset (class MEM)
  SELECT run_id, start_ns, end_ns, name_id FROM kernels
  UNION ALL SELECT run_id, start_ns, end_ns, NULL FROM memcpys
  UNION ALL SELECT run_id, start_ns, end_ns, NULL FROM memsets
),
cut AS (  -- GPU work within each step, cut to the step's span (by the time index), then classed
  SELECT c.run_id, c.step, c.s_ns, c.e_ns, CASE WHEN c.name_id IS NULL THEN 'MEM' ELSE t.type END AS type
  FROM (SELECT s.run_id, s.step, max(g.start_ns, s.start_ns) AS s_ns, min(g.end_ns, s.end_ns) AS e_ns,
               g.name_id
        FROM steps s JOIN maxdur m ON m.run_id = s.run_id
        JOIN gpu g ON g.run_id = s.run_id AND g.start_ns < s.end_ns AND g.end_ns > s.start_ns
         AND g.start_ns >= s.start_ns - m.d) c
  LEFT JOIN ktype t ON t.id = c.name_id
  WHERE c.name_id IS NULL OR t.id IS NOT NULL  -- a kernel without its name is left out, as by a join
),
per AS (
  SELECT run_id, step,
         interval_union_ns(s_ns, e_ns) AS busy,
         interval_union_ns(CASE WHEN type = 'COMP' THEN s_ns END, e_ns) AS comp,
         interval_union_ns(CASE WHEN type = 'COMM' THEN s_ns END, e_ns) AS comm,
         interval_union_ns(CASE WHEN type IN ('COMP', 'COMM') THEN s_ns END, e_ns) AS either
  FROM cut GROUP BY run_id, step
),
rows_ AS (
  SELECT s.run_id, s.rank, s.step, s.end_ns - s.start_ns AS step_ns,
         coalesce(p.comp, 0) AS computation_ns, coalesce(p.comm, 0) AS communication_ns,
         coalesce(p.comp + p.comm - p.either, 0) AS overlap_ns,
         s.end_ns - s.start_ns - coalesce(p.busy, 0) AS idle_ns
  FROM steps s LEFT JOIN per p ON p.run_id = s.run_id AND p.step = s.step
),
med AS (SELECT step, median(step_ns) AS m, count(*) AS ranks FROM rows_ GROUP BY step),
ranked AS (
  SELECT r.*, m.m, m.ranks,
         row_number() OVER (PARTITION BY r.step ORDER BY r.step_ns DESC, r.rank, r.run_id) AS pos
  FROM rows_ r JOIN med m USING (step)
)
SELECT run_id, rank, step, step_ns, computation_ns, communication_ns, overlap_ns, idle_ns,
       round(m, 1) AS median_step_ns, round(step_ns - m, 1) AS excess_ns,
       CASE WHEN pos = 1 AND ranks > 1 AND step_ns > m THEN 1 ELSE 0 END AS straggler
FROM ranked
WHERE :run IS NULL OR run_id = :run
ORDER BY step, rank, run_id
LIMIT coalesce(:limit, -1);
