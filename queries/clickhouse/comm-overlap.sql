-- Communication/computation overlap per rank: communication kernel time hidden under computation (ClickHouse)
-- Columns: rank, comm_ns (union of communication kernels), overlap_ns (part of it during
-- computation kernels), overlap_pct (NULL without communication kernels). The local comm-overlap
-- report's plain definition (queries/comm-overlap.sql --mode exact: every kernel, ns times;
-- not HTA's whole-µs step cut) in ClickHouse SQL: the same kernel classes by name pattern
-- (the view v_gpu_work), |COMM ∩ COMP| = |COMM| + |COMP| - |COMM ∪ COMP|, unions by a sorted sweep
-- (each start 2t+1, each end 2t in one sorted array, +1/-1 summed along it).
-- overlap_pct: 2 places, half to even as the local report (HTA's numpy round; ClickHouse's
-- round() goes half away from zero). Every pushed run that completed is a rank (push_id in runs).
-- Rows by rank (then run key, where the local report orders by run id).
SELECT rank, comm_ns, overlap_ns,
       if(comm_ns = 0, NULL, (fy + (y - fy > 0.5 OR (y - fy = 0.5 AND fy % 2 != 0))) / 100) AS overlap_pct
FROM (
  SELECT run_key, rank, comm AS comm_ns, comm + comp - both_ AS overlap_ns,
         100 * (100 * (overlap_ns / comm)) AS y, floor(y) AS fy
  FROM (
    SELECT run_key, rank FROM runs
  )
  ANY LEFT JOIN (  -- a run without kernels: 0 (join_use_nulls is off)
    SELECT run_key,
           sumIf(len, type = 'COMM') AS comm, sumIf(len, type = 'COMP') AS comp, sumIf(len, type = 'BOTH') AS both_
    FROM (
      SELECT run_key, type,
             arraySort(arrayConcat(groupArray(start_ns * 2 + 1), groupArray(end_ns * 2))) AS ev,
             arrayMap(x -> bitShiftRight(x, 1), ev) AS t,
             arrayCumSum(arrayMap(x -> bitAnd(x, 1) * 2 - 1, ev)) AS c,
             arraySum(arrayMap((d, n) -> if(n > 0, d, 0), arrayPopFront(arrayDifference(t)), arrayPopBack(c))) AS len
      FROM (
        SELECT run_key, start_ns, end_ns, type AS type0 FROM v_gpu_work WHERE type IN ('COMM', 'COMP')
      )
      ARRAY JOIN if(type0 IN ('COMM', 'COMP'), [type0, 'BOTH'], [type0]) AS type
      GROUP BY run_key, type
    )
    GROUP BY run_key
  ) USING run_key
)
ORDER BY rank, run_key;
