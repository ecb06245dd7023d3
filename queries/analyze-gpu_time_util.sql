-- analyze rule gpu_time_util: periods of low GPU time utilization (nsys analyze gpu_time_util)
-- option chunks=<n> (default 30): split each device's span into this many equal chunks (1 to 1000)
-- option threshold=<pct> (default 50): report chunks below this utilization in percent
-- advice: The GPU was busy less than the threshold in these periods; find the CPU-side work or synchronization that starves it and overlap or remove it.
-- severity: info
.load build/profq
--
-- Columns: start_ns, end_ns, duration_ns, util_pct, chunks, pid, device, run_id.
-- Per (run, process, device), the span from the first GPU operation's start to the last one's end
-- is cut into :chunks equal chunks (default 30); a chunk's utilization is the operations' time
-- inside it (clipped to the chunk, overlaps counted twice, so it can exceed 100: time, not resource
-- utilization) / chunk length * 100. Chunks below :threshold percent (default 50) are listed, runs
-- of consecutive low chunks merged into one row with the length-weighted mean utilization, as
-- nsys. Sorted by duration, longest first. Runs: every run separately unless --run ID (:run).
-- Plain SQL.
WITH ops AS (
  SELECT run_id, process_id, device_id, start_ns, end_ns FROM kernels
  WHERE :run IS NULL OR run_id = :run
  UNION ALL SELECT run_id, process_id, device_id, start_ns, end_ns FROM memcpys
  WHERE :run IS NULL OR run_id = :run
  UNION ALL SELECT run_id, process_id, device_id, start_ns, end_ns FROM memsets
  WHERE :run IS NULL OR run_id = :run
), span AS (
  SELECT run_id, process_id, device_id, min(start_ns) AS s0, max(end_ns) AS s1
  FROM ops GROUP BY run_id, process_id, device_id
), n AS (
  SELECT max(1, min(1000, coalesce(:chunks, 30))) AS n
), idx(i) AS (
  SELECT 0 UNION ALL SELECT i + 1 FROM idx, n WHERE i + 1 < n.n
), chunk AS (
  SELECT sp.run_id, sp.process_id, sp.device_id, idx.i,
         sp.s0 + (sp.s1 - sp.s0) * idx.i / n.n AS cs,
         sp.s0 + (sp.s1 - sp.s0) * (idx.i + 1) / n.n AS ce
  FROM span sp, idx, n WHERE sp.s1 > sp.s0
), reach AS (  -- each operation's first and last chunk: chunk i starts at s0 + floor(D*i/n), D = s1 - s0,
               -- so the chunk holding time t is min(n - 1, (n*(t - s0 + 1) - 1) / D); the last
               -- chunk is the one holding the operation's last ns (end - 1)
  SELECT o.run_id, o.process_id, o.device_id, o.start_ns, o.end_ns, sp.s0, sp.s1 - sp.s0 AS d, n.n,
         min(n.n - 1, (n.n * (o.start_ns - sp.s0 + 1) - 1) / (sp.s1 - sp.s0)) AS i0,
         min(n.n - 1, (n.n * (o.end_ns - sp.s0) - 1) / (sp.s1 - sp.s0)) AS i1
  FROM ops o JOIN span sp ON sp.run_id = o.run_id AND sp.process_id IS o.process_id
                         AND sp.device_id IS o.device_id, n
  WHERE sp.s1 > sp.s0 AND o.end_ns > o.start_ns
), piece AS (  -- an operation's time inside each chunk it reaches (most reach one)
  SELECT run_id, process_id, device_id, i0 AS i,
         min(end_ns, s0 + d * (i0 + 1) / n) - start_ns AS ns
  FROM reach WHERE i0 = i1
  UNION ALL
  SELECT r.run_id, r.process_id, r.device_id, idx.i,
         min(r.end_ns, r.s0 + r.d * (idx.i + 1) / r.n) - max(r.start_ns, r.s0 + r.d * idx.i / r.n)
  FROM reach r JOIN idx ON idx.i BETWEEN r.i0 AND r.i1 WHERE r.i0 < r.i1
), busy AS (
  SELECT c.run_id, c.process_id, c.device_id, c.i, c.cs, c.ce, coalesce(b.ns, 0) AS busy_ns
  FROM chunk c LEFT JOIN (SELECT run_id, process_id, device_id, i, sum(ns) AS ns FROM piece
                          GROUP BY run_id, process_id, device_id, i) b
    ON b.run_id = c.run_id AND b.process_id IS c.process_id AND b.device_id IS c.device_id AND b.i = c.i
), low AS (
  SELECT *, 100.0 * busy_ns / (ce - cs) AS util,
         i - row_number() OVER (PARTITION BY run_id, process_id, device_id ORDER BY i) AS island
  FROM busy WHERE ce > cs AND 100.0 * busy_ns / (ce - cs) < coalesce(:threshold, 50)
)
SELECT min(cs) AS start_ns, max(ce) AS end_ns, max(ce) - min(cs) AS duration_ns,
       round(100.0 * sum(busy_ns) / sum(ce - cs), 2) AS util_pct, count(*) AS chunks,
       p.pid, d.ordinal AS device, low.run_id
FROM low
LEFT JOIN processes p ON p.id = low.process_id
LEFT JOIN devices d ON d.id = low.device_id
GROUP BY low.run_id, low.process_id, low.device_id, island
ORDER BY duration_ns DESC, start_ns
LIMIT coalesce(:limit, -1);
