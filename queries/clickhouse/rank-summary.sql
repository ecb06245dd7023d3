-- Per rank and step: step time, computation, communication, overlap, idle; the slowest rank of each step marked as straggler (ClickHouse)
-- Columns: rank, step, step_ns, computation_ns, communication_ns, overlap_ns, idle_ns,
-- median_step_ns, excess_ns, straggler: the local rank-summary report (queries/rank-summary.sql)
-- without its run_id column, by the same definitions:
--  * a step is a ProfilerStep#N range (kind cpu_op or user_annotation) that ended; step is N.
--  * GPU work (kernels, memcpys, memsets) is cut to the step's span; computation_ns and
--    communication_ns are the unions of HTA's COMPUTATION and COMMUNICATION kernels (the name
--    patterns of comm-overlap), overlap_ns the time both run at once, idle_ns = step_ns - the
--    union of all GPU work.
--  * median_step_ns: of the step over the ranks that have it (mean of the middle two for an even
--    count); excess_ns = step_ns - median_step_ns; straggler = 1 on the slowest rank of the step
--    when two or more ranks have it and it is slower than the median (the lowest rank on a tie).
-- Every completed push (push_id in runs) is a rank; rank is -1 where the run had none (the local
-- report: NULL). Rows by step, then rank (then run key, where the local report orders by run id).
-- ClickHouse 18.16 has no window functions and no range joins: steps are matched to GPU work
-- through each run's step arrays, unions come from a sorted sweep (+1 at starts, -1 at ends).
SELECT rank, step, step_ns, computation_ns, communication_ns, overlap_ns, idle_ns,
       round(med, 1) AS median_step_ns, round(step_ns - med, 1) AS excess_ns,
       toUInt8(ranks > 1 AND step_ns > med AND run_key = slow) AS straggler
FROM (
  SELECT run_key, rank, step, step_ns, ifNull(comp, 0) AS computation_ns,
         ifNull(comm, 0) AS communication_ns, ifNull(comp + comm - either, 0) AS overlap_ns,
         step_ns - ifNull(busy, 0) AS idle_ns
  FROM (
    SELECT run_key, rank, step, se - ss AS step_ns
    FROM (
      SELECT run_key, rank, toInt64(extract(name, '^ProfilerStep#([0-9]+)')) AS step,
             start_ns AS ss, assumeNotNull(end_ns) AS se
      FROM ranges
      WHERE kind IN (2, 3) AND match(name, '^ProfilerStep#[0-9]') AND end_ns IS NOT NULL
        AND push_id GLOBAL IN (SELECT push_id FROM runs)
    )
  )
  ANY LEFT JOIN (
    SELECT run_key, step,
           sumIf(len, class = 'ALL') AS busy, sumIf(len, class = 'COMP') AS comp,
           sumIf(len, class = 'COMM') AS comm, sumIf(len, class = 'EITHER') AS either
    FROM (
      SELECT run_key, step, class,
             arraySort(arrayConcat(groupArray((s, toInt64(1))), groupArray((e, toInt64(-1))))) AS ev,
             arrayMap(x -> x.1, ev) AS t, arrayCumSum(arrayMap(x -> x.2, ev)) AS c,
             arraySum(arrayMap((d, n) -> if(n > 0, d, 0), arrayPopFront(arrayDifference(t)), arrayPopBack(c))) AS len
      FROM (
        SELECT run_key, st[i] AS step, greatest(start_ns, sa[i]) AS s, least(end_ns, sb[i]) AS e, type
        FROM (  -- ARRAY JOIN comes before JOIN in a query: join first, one level down
        SELECT run_key, start_ns, end_ns, type, st, sa, sb
        FROM (
          SELECT run_key, start_ns, end_ns,
                 multiIf(startsWith(name, 'nccl') OR startsWith(name, 'hip') OR startsWith(name, 'hccl')
                           OR position(name, 'ncclKernel') > 0, 'COMM',
                         startsWith(name, 'Memcpy') OR startsWith(name, 'hipMemcpy')
                           OR startsWith(name, 'Memset') OR startsWith(name, 'hipMemset')
                           OR startsWith(name, 'dma'), 'MEM',
                         NOT (position(name, 'Memcpy') > 0 OR position(name, 'Memset') > 0
                           OR position(name, 'dma') > 0 OR position(name, 'Sync') > 0
                           OR startsWith(name, 'Stream Wait Event') OR match(name, '^cuda.*LaunchKernel')
                           OR startsWith(name, 'runFunction') OR startsWith(name, 'job_exe')
                           OR startsWith(name, 'packet') OR startsWith(name, 'pe_exe')
                           OR startsWith(name, 'cpum_exe_subgraph')
                           OR startsWith(name, 'collective_subgraph_execution')), 'COMP',
                         'OTHER') AS type
          FROM kernels WHERE push_id GLOBAL IN (SELECT push_id FROM runs)
          UNION ALL
          SELECT run_key, start_ns, end_ns, 'MEM' FROM memcpys WHERE push_id GLOBAL IN (SELECT push_id FROM runs)
          UNION ALL
          SELECT run_key, start_ns, end_ns, 'MEM' FROM memsets WHERE push_id GLOBAL IN (SELECT push_id FROM runs)
        )
        ALL INNER JOIN (
          SELECT run_key, groupArray(step) AS st, groupArray(start_ns) AS sa, groupArray(assumeNotNull(end_ns)) AS sb
          FROM (
            SELECT run_key, toInt64(extract(name, '^ProfilerStep#([0-9]+)')) AS step, start_ns, end_ns
            FROM ranges
            WHERE kind IN (2, 3) AND match(name, '^ProfilerStep#[0-9]') AND end_ns IS NOT NULL
              AND push_id GLOBAL IN (SELECT push_id FROM runs)
          )
          GROUP BY run_key
        ) USING run_key
        )
        ARRAY JOIN arrayFilter(j -> sa[j] < end_ns AND sb[j] > start_ns, arrayEnumerate(st)) AS i
      )
      ARRAY JOIN multiIf(type = 'COMP', ['ALL', 'COMP', 'EITHER'], type = 'COMM', ['ALL', 'COMM', 'EITHER'],
                         ['ALL']) AS class
      WHERE e >= s
      GROUP BY run_key, step, class
    )
    GROUP BY run_key, step
  ) USING (run_key, step)
)
ANY LEFT JOIN (
  SELECT step, arraySort(groupArray(step_ns)) AS v, length(v) AS ranks,
         if(ranks % 2 = 1, toFloat64(v[intDiv(ranks + 1, 2)]),
            (v[greatest(1, intDiv(ranks, 2))] + v[intDiv(ranks, 2) + 1]) / 2) AS med,
         arraySort(x -> (-x.2, x.1, x.3), groupArray((rank, step_ns, run_key)))[1].3 AS slow
  FROM (
    SELECT run_key, rank, toInt64(extract(name, '^ProfilerStep#([0-9]+)')) AS step,
           assumeNotNull(end_ns) - start_ns AS step_ns
    FROM ranges
    WHERE kind IN (2, 3) AND match(name, '^ProfilerStep#[0-9]') AND end_ns IS NOT NULL
      AND push_id GLOBAL IN (SELECT push_id FROM runs)
  )
  GROUP BY step
) USING step
ORDER BY step, rank, run_key;
