-- Step time per rank with the straggler of each step marked (ClickHouse)
-- Columns: step (the N of ProfilerStep#N), rank, step_ns (the host ProfilerStep range), median_ns
-- (of the step over the ranks; mean of the middle two for an even count), excess_ns (step_ns -
-- median_ns), straggler (1 for the slowest rank of the step, the lowest rank on a tie).
-- Rows by step, then rank. Reads only completed pushes (push_id in runs).
SELECT step, r.1 AS rank, r.2 AS step_ns, med AS median_ns, r.2 - med AS excess_ns,
       toUInt8(r.1 = slow) AS straggler
FROM (
  SELECT step, groupArray((rank, step_ns)) AS a, arraySort(groupArray(step_ns)) AS s,
         if(length(s) % 2 = 1, toFloat64(s[intDiv(length(s) + 1, 2)]),
            (s[intDiv(length(s), 2)] + s[intDiv(length(s), 2) + 1]) / 2) AS med,
         arraySort(x -> (-x.2, x.1), a)[1].1 AS slow
  FROM (
    SELECT toInt64(substring(name, 14)) AS step, rank, end_ns - start_ns AS step_ns
    FROM ranges
    WHERE kind = 2 AND startsWith(name, 'ProfilerStep#') AND end_ns IS NOT NULL
      AND push_id GLOBAL IN (SELECT push_id FROM runs)
  )
  GROUP BY step
)
ARRAY JOIN a AS r
ORDER BY step, rank;
