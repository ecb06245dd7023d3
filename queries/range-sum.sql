-- Ranges (NVTX, framework operators and annotations) per name: count, mean, total, share of wall time (Lightning SimpleProfiler)
.load build/profq
-- option kind=all|annotations (default all): which ranges: all CPU-side ranges (NVTX, operators, annotations, other trace events) or annotations (NVTX and user annotations only)
--
-- Columns: name, kind, count, mean_ns, total_ns, wall_pct.
-- The PyTorch Lightning SimpleProfiler table (Action, Mean duration, Num calls, Total time,
-- Percentage): one row per (range name, range kind); wall_pct = 100 * total_ns / wall time, the
-- wall time being the sum over the selected runs of (runs.end_ns - runs.start_ns), or of the span
-- of the run's ranges when the run has no bounds. Nested ranges are not subtracted, so the
-- percentages can add up to more than 100. NVTX ranges are named by their message (no domain
-- prefix); ranges never closed, Python function ranges, GPU annotations and profiler overhead are
-- left out. mean_ns rounded to 0.1 ns, wall_pct to 0.01. Sorted by total_ns descending.
-- Runs: all runs together unless --run ID (:run); no run_id column: rows are keyed by range name
-- and kind, which mean the same in every run (wall_pct is over the selected runs' wall time).
-- Parameters: :run, :limit, :kind.
-- Plain SQL (no extension function needed); the .load line is harmless.
WITH sel AS (
  SELECT r.run_id, r.name_id, r.kind, r.start_ns, r.end_ns
  FROM ranges r
  WHERE r.end_ns IS NOT NULL AND (:run IS NULL OR r.run_id = :run)
    AND r.kind IN (0, 1, 3, 2, 6, 7)
    AND (coalesce(:kind, 'all') = 'all' OR r.kind IN (0, 1, 3))
), wall AS (
  SELECT sum(w) AS ns FROM (
    SELECT coalesce(ru.end_ns - ru.start_ns, max(s.end_ns) - min(s.start_ns)) AS w
    FROM sel s JOIN runs ru ON ru.id = s.run_id GROUP BY s.run_id)
)
SELECT n.value AS name, rk.name AS kind, g.count, g.mean_ns, g.total_ns,
       round(100.0 * g.total_ns / (SELECT ns FROM wall), 2) AS wall_pct
FROM (  -- grouped first: a name looked up once a group, not once a range
  SELECT s.name_id, s.kind, count(*) AS count, round(avg(s.end_ns - s.start_ns), 1) AS mean_ns,
         sum(s.end_ns - s.start_ns) AS total_ns
  FROM sel s GROUP BY s.name_id, s.kind
) g
JOIN strings n ON n.id = g.name_id
JOIN range_kinds rk ON rk.id = g.kind
ORDER BY g.total_ns DESC, g.count DESC, name
LIMIT coalesce(:limit, -1);
