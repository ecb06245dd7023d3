-- GPU utilization over time: per rank and device, the share of each time chunk some GPU operation was running (ClickHouse)
-- option chunks=<n> (default 100): split each device's span into this many equal chunks (1 to 1000)
-- Columns: rank, device, chunk, start_ns, end_ns, busy_ns, util_pct: the local gpu-util-timeline
-- report (queries/gpu-util-timeline.sql) with rank in place of its run_id column, by the same
-- definitions. Per rank (a completed push: push_id in runs) and device (CUDA ordinal), the span
-- from the first GPU operation's start (kernel, memcpy, memset: the view v_gpu_work) to the last
-- one's end is cut into --chunks equal chunks (boundaries start + span * i / chunks, in integers); busy_ns is the time
-- inside the chunk covered by at least one operation (concurrent operations count once); util_pct
-- = busy_ns / chunk length * 100, rounded to 2 places as SQLite's round() does (half up, after its
-- relative nudge of 3e-16, so both sides print the same digits). Empty chunks (a span shorter
-- than --chunks ns) are left out. Rows by rank, device (NULL first), chunk; rank is -1 where the
-- run had none.
-- ClickHouse 18.16 has no range joins: each operation is sent to the chunks it touches (found by
-- integer division), and unions come from a sorted sweep: each start is 2t+1 and each end 2t in
-- one sorted array, +1/-1 summed along it.
SELECT rank, if(dev = -1, NULL, dev) AS device, i AS chunk, cs AS start_ns, ce AS end_ns,
       ifNull(busy, 0) AS busy_ns,
       floor(100 * busy_ns / (ce - cs) * 100 * (1 + 3e-16) + 0.5) / 100 AS util_pct
FROM (
  SELECT run_key, rank, dev, i, s0 + intDiv((s1 - s0) * i, n) AS cs, s0 + intDiv((s1 - s0) * (i + 1), n) AS ce
  FROM (
    SELECT run_key, any(rank) AS rank, device AS dev, min(start_ns) AS s0, max(end_ns) AS s1,
           toInt64(greatest(1, least(1000, {chunks}))) AS n
    FROM v_gpu_work
    GROUP BY run_key, dev
  )
  ARRAY JOIN arrayMap(x -> toInt64(x), range(toUInt64(n))) AS i
)
ANY LEFT JOIN (
  SELECT run_key, dev, i,
         arraySort(arrayConcat(groupArray(s * 2 + 1), groupArray(e * 2))) AS ev,
         arrayMap(x -> bitShiftRight(x, 1), ev) AS t,
         arrayCumSum(arrayMap(x -> bitAnd(x, 1) * 2 - 1, ev)) AS c,
         arraySum(arrayMap((d, k) -> if(k > 0, d, 0), arrayPopFront(arrayDifference(t)), arrayPopBack(c))) AS busy
  FROM (
    SELECT run_key, dev, i, greatest(start_ns, s0 + intDiv((s1 - s0) * i, n)) AS s,
           least(end_ns, s0 + intDiv((s1 - s0) * (i + 1), n)) AS e
    FROM (  -- ARRAY JOIN comes before JOIN in a query: join first, one level down
      SELECT run_key, dev, start_ns, end_ns, s0, s1, n,
             -- the chunk holding time x: the largest i with span * i / n <= x - s0
             least(n - 1, intDiv(n * (start_ns - s0 + 1) - 1, s1 - s0)) AS i0,
             least(n - 1, intDiv(n * (end_ns - s0) - 1, s1 - s0)) AS i1
      FROM (SELECT run_key, device AS dev, start_ns, end_ns FROM v_gpu_work)
      ALL INNER JOIN (
        SELECT run_key, device AS dev, min(start_ns) AS s0, max(end_ns) AS s1,
               toInt64(greatest(1, least(1000, {chunks}))) AS n
        FROM v_gpu_work
        GROUP BY run_key, dev
      ) USING (run_key, dev)
    )
    ARRAY JOIN arrayMap(x -> i0 + toInt64(x), range(toUInt64(i1 - i0 + 1))) AS i
  )
  WHERE e > s
  GROUP BY run_key, dev, i
) USING (run_key, dev, i)
WHERE ce > cs
ORDER BY rank, dev, chunk, run_key;
