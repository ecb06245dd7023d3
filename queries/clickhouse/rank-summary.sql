-- Per rank and step: step time, computation, communication, overlap, idle; the slowest rank of each step marked as straggler (ClickHouse)
-- Columns: rank, step, step_ns, computation_ns, communication_ns, overlap_ns, idle_ns,
-- median_step_ns, excess_ns, straggler: the local rank-summary report (queries/rank-summary.sql)
-- without its run_id column, by the same definitions:
--  * a step is a ProfilerStep#N range (kind cpu_op or user_annotation) that ended; step is N
--    (the view v_profiler_steps).
--  * GPU work (kernels, memcpys, memsets: the view v_gpu_work) is cut to the step's span;
--    computation_ns and communication_ns are the unions of HTA's COMPUTATION and COMMUNICATION
--    kernels, overlap_ns the time both run at once, idle_ns = step_ns - the union of all GPU work.
--  * median_step_ns: of the step over the ranks that have it (mean of the middle two for an even
--    count); excess_ns = step_ns - median_step_ns; straggler = 1 on the slowest rank of the step
--    when two or more ranks have it and it is slower than the median (the lowest rank on a tie).
-- Every completed push (push_id in runs) is a rank; rank is -1 where the run had none (the local
-- report: NULL). Rows by step, then rank (then run key, where the local report orders by run id).
-- ClickHouse 18.16 has no window functions, no range joins, and runs ARRAY JOIN before JOIN in a
-- query (hence the extra levels). GPU work meets its steps by an equi-join on time buckets: per
-- run, buckets as wide as its longest step, so a step touches at most two; each (operation,
-- step) pair is kept once, in the bucket where their intersection starts. Unions come from a
-- sorted sweep: each start is 2t+1 and each end 2t in one sorted array, +1/-1 summed along it.
SELECT rank, step, step_ns, computation_ns, communication_ns, overlap_ns, idle_ns,
       round(med, 1) AS median_step_ns, round(step_ns - med, 1) AS excess_ns,
       toUInt8(ranks > 1 AND step_ns > med AND run_key = slow) AS straggler
FROM (
  SELECT run_key, rank, step, step_ns, comp AS computation_ns, comm AS communication_ns,
         comp + comm - either AS overlap_ns, step_ns - busy AS idle_ns
  FROM (SELECT run_key, rank, step, end_ns - start_ns AS step_ns FROM v_profiler_steps)
  ANY LEFT JOIN (  -- no GPU work in a step: 0 (join_use_nulls is off)
    SELECT run_key, step,
           sumIf(len, class = 0) AS busy, sumIf(len, class = 1) AS comp,
           sumIf(len, class = 2) AS comm, sumIf(len, class = 3) AS either
    FROM (
      SELECT run_key, step, class,
             arraySort(arrayConcat(groupArray(s * 2 + 1), groupArray(e * 2))) AS ev,
             arrayMap(x -> bitShiftRight(x, 1), ev) AS t,
             arrayCumSum(arrayMap(x -> bitAnd(x, 1) * 2 - 1, ev)) AS c,
             arraySum(arrayMap((d, n) -> if(n > 0, d, 0), arrayPopFront(arrayDifference(t)), arrayPopBack(c))) AS len
      FROM (
        SELECT run_key, step, greatest(start_ns, ss) AS s, least(end_ns, se) AS e, type
        FROM (
          SELECT run_key, start_ns, end_ns, type, w, bk
          FROM (
            SELECT run_key, start_ns, end_ns, type, w
            FROM v_gpu_work
            ALL INNER JOIN (  -- the run's bucket width: its longest step
              SELECT run_key, greatest(toInt64(1), max(end_ns - start_ns)) AS w
              FROM v_profiler_steps GROUP BY run_key
            ) USING run_key
          )
          ARRAY JOIN arrayMap(x -> intDiv(start_ns, w) + toInt64(x),
                              range(toUInt64(intDiv(end_ns - 1, w) - intDiv(start_ns, w) + 1))) AS bk
        )
        ALL INNER JOIN (
          SELECT run_key, st.1 AS step, st.2 AS ss, st.3 AS se, bk
          FROM (
            SELECT run_key, st, w
            FROM (
              SELECT run_key, groupArray((step, start_ns, end_ns)) AS sts,
                     greatest(toInt64(1), max(end_ns - start_ns)) AS w
              FROM v_profiler_steps GROUP BY run_key
            )
            ARRAY JOIN sts AS st
          )
          ARRAY JOIN arrayMap(x -> intDiv(st.2, w) + toInt64(x),
                              range(toUInt64(greatest(intDiv(st.3 - 1, w) - intDiv(st.2, w) + 1, 0)))) AS bk
        ) USING (run_key, bk)
        WHERE ss < end_ns AND se > start_ns AND intDiv(greatest(start_ns, ss), w) = bk
      )
      -- classes: 0 all GPU work, 1 computation, 2 communication, 3 either of the two
      ARRAY JOIN multiIf(type = 'COMP', [0, 1, 3], type = 'COMM', [0, 2, 3], [0]) AS class
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
  FROM (SELECT run_key, rank, step, end_ns - start_ns AS step_ns FROM v_profiler_steps)
  GROUP BY step
) USING step
ORDER BY step, rank, run_key;
