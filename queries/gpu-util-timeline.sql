-- GPU utilization over time: per run and device, the share of each time chunk some GPU operation was running
-- option chunks=<n> (default 100): split each device's span into this many equal chunks (1 to 1000)
--
-- Columns: run_id, device (CUDA ordinal), chunk (0-based), start_ns, end_ns, busy_ns, util_pct.
-- Per (run, device), the span from the first GPU operation's start (kernel, memcpy, memset) to the
-- last one's end is cut into :chunks equal chunks. busy_ns is the time inside the chunk covered by
-- at least one operation (the union of the operations of every stream and process on the device,
-- so concurrent kernels count once and util_pct never exceeds 100); util_pct = busy_ns / chunk
-- length * 100, rounded to 2 places. Ordered by run, device, chunk. Runs: every run separately
-- unless --run ID (:run). Plain SQL (no extension), for the HTML report and notebooks.
WITH ops AS (
  SELECT run_id, device_id, start_ns, end_ns FROM kernels
  WHERE (:run IS NULL OR run_id = :run) AND end_ns > start_ns
  UNION ALL SELECT run_id, device_id, start_ns, end_ns FROM memcpys
  WHERE (:run IS NULL OR run_id = :run) AND end_ns > start_ns
  UNION ALL SELECT run_id, device_id, start_ns, end_ns FROM memsets
  WHERE (:run IS NULL OR run_id = :run) AND end_ns > start_ns
), reach AS (  -- the latest end among the operations that start before this one
  SELECT *, max(end_ns) OVER (PARTITION BY run_id, device_id ORDER BY start_ns, end_ns
                              ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_end
  FROM ops
), island AS (
  SELECT *, sum(CASE WHEN prev_end IS NULL OR start_ns > prev_end THEN 1 ELSE 0 END)
              OVER (PARTITION BY run_id, device_id ORDER BY start_ns, end_ns
                    ROWS UNBOUNDED PRECEDING) AS k
  FROM reach
), busy AS (  -- disjoint busy intervals per device
  SELECT run_id, device_id, min(start_ns) AS bs, max(end_ns) AS be
  FROM island GROUP BY run_id, device_id, k
), span AS (
  SELECT run_id, device_id, min(bs) AS s0, max(be) AS s1 FROM busy GROUP BY run_id, device_id
), n AS (
  SELECT max(1, min(1000, coalesce(:chunks, 100))) AS n
), idx(i) AS (  -- chunk boundaries 0 .. n
  SELECT 0 UNION ALL SELECT i + 1 FROM idx, n WHERE i + 1 <= n.n
), bounds AS (
  SELECT sp.run_id, sp.device_id, idx.i AS j, sp.s0 + (sp.s1 - sp.s0) * idx.i / n.n AS t
  FROM span sp, idx, n WHERE sp.s1 > sp.s0
), ev AS (  -- busy intervals (kind 0) and chunk boundaries (kind 1), in one time order per device
  SELECT run_id, device_id, bs AS t, 0 AS kind, NULL AS j, be - bs AS len, be FROM busy
  UNION ALL SELECT run_id, device_id, t, 1, j, 0, NULL FROM bounds
), before AS (  -- busy time before each boundary t: the busy intervals starting by t, less the
                -- part after t of the one holding t (they are disjoint, so it is the last one)
  SELECT run_id, device_id, kind, j, t,
         coalesce(sum(len) OVER w, 0) - max(0, coalesce(max(be) OVER w, t) - t) AS f
  FROM ev
  WINDOW w AS (PARTITION BY run_id, device_id ORDER BY t, kind, j ROWS UNBOUNDED PRECEDING)
), covered AS (  -- a chunk's busy time: the difference between its two boundaries'
  SELECT run_id, device_id, i, cs, ce, busy_ns FROM (
    SELECT run_id, device_id, j AS i, t AS cs, lead(t) OVER p AS ce, lead(f) OVER p - f AS busy_ns
    FROM before WHERE kind = 1
    WINDOW p AS (PARTITION BY run_id, device_id ORDER BY j)
  ) WHERE ce IS NOT NULL
)
SELECT cv.run_id, d.ordinal AS device, cv.i AS chunk, cv.cs AS start_ns, cv.ce AS end_ns,
       cv.busy_ns, round(100.0 * cv.busy_ns / (cv.ce - cv.cs), 2) AS util_pct
FROM covered cv
LEFT JOIN devices d ON d.id = cv.device_id
WHERE cv.ce > cv.cs
ORDER BY cv.run_id, d.ordinal, cv.i
LIMIT coalesce(:limit, -1);
