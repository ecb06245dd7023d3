-- HTA communication/computation overlap per run: communication kernel time hidden under computation
-- option mode=hta|exact (default hta): hta reproduces HTA's numbers (whole µs, HTA's step cut); exact uses ns times and every kernel
-- option include-last-step=0|1 (default 0): 1 keeps the last ProfilerStep (HTA's include_last_profiler_step)
.load build/profq
-- Columns: run_id, rank, comm_ns (union of communication kernels), overlap_ns (part of it during
-- computation kernels), overlap_pct (NULL without communication kernels; 2 places, half to
-- even as HTA's numpy round). A row per run; --run
-- keeps one run (a run is a rank: runs.rank, 0 when unknown).
-- Follows HTA (facebookresearch/HolisticTraceAnalysis at f4d0062c:
-- hta/analyzers/communication_analysis.py get_comm_comp_overlap; notes/kineto_hta.md §3.2):
-- |union(COMPUTATION) ∩ union(COMMUNICATION)| / |union(COMMUNICATION)|, kernel classes by HTA's
-- name patterns (see temporal-breakdown), not tb_plugin's op names. mode=hta (default): on the
-- events HTA keeps, in its whole µs (Kineto runs), merged as HTA merges (temporal-breakdown's
-- header says how; a merged interval of one sub-µs kernel can count -1 µs); overlap swept as HTA
-- does, where the running count of communication (1) and computation (2) intervals is 3.
-- mode=exact: every kernel, ns times.
-- tb_plugin's per-step overlap (communication ops by name) is the dist-summary report.
-- Checked against HTA's own output on generated traces (tests/reports/hta_match.t).
-- Stored: with the default options, a finished run's numbers are read from hta_comm_overlap (written
-- at import from this file: docs/schema.md, Derived tables); other options compute every run.
WITH
asked AS MATERIALIZED (SELECT id AS run_id, coalesce(rank, 0) AS rank FROM runs WHERE :run IS NULL OR id = :run),
stored AS MATERIALIZED (  -- runs whose row hta_comm_overlap holds: the default options only
  SELECT run_id FROM derived_runs
  WHERE name = 'hta_comm_overlap' AND run_id IN (SELECT run_id FROM asked)
    AND coalesce(:mode, 'hta') = 'hta' AND coalesce(:include_last_step, 0) = 0
),
sel AS MATERIALIZED (  -- the runs computed from their events
  SELECT id AS run_id, coalesce(rank, 0) AS rank, coalesce(time_offset_ns, 0) AS off,
         source = 'chrome-json' AND coalesce(:mode, 'hta') = 'hta' AS us  -- HTA's µs: Kineto files only
  FROM runs WHERE (:run IS NULL OR id = :run) AND id NOT IN (SELECT run_id FROM stored)
),
opt AS (SELECT coalesce(:mode, 'hta') = 'hta' AS hta, coalesce(:include_last_step, 0) AS keep_last),
k AS (
  SELECT k.run_id, k.id, k.process_id, k.correlation_id, k.start_ns, k.end_ns,
         CASE WHEN n.value GLOB 'nccl*' OR n.value GLOB 'hip*' OR n.value GLOB 'hccl*'
                   OR n.value GLOB '*ncclKernel*' THEN 'COMM'
              WHEN n.value GLOB 'Memcpy*' OR n.value GLOB 'hipMemcpy*' OR n.value GLOB 'Memset*'
                   OR n.value GLOB 'hipMemset*' OR n.value GLOB 'dma*' THEN 'MEM'
              WHEN NOT (n.value GLOB '*Memcpy*' OR n.value GLOB '*Memset*' OR n.value GLOB '*dma*'
                   OR n.value GLOB '*Sync*' OR n.value GLOB 'Stream Wait Event*' OR n.value GLOB 'cuda*LaunchKernel*'
                   OR n.value GLOB 'runFunction*' OR n.value GLOB 'job_exe*' OR n.value GLOB 'packet*'
                   OR n.value GLOB 'pe_exe*' OR n.value GLOB 'cpum_exe_subgraph*'
                   OR n.value GLOB 'collective_subgraph_execution*') THEN 'COMP'
              ELSE 'OTHER' END AS type
  FROM kernels k JOIN strings n ON n.id = k.name_id WHERE k.run_id IN (SELECT run_id FROM sel)
),
-- HTA's clock (hta_start_ns, hta_end_ns: the trace's ts rounded up, ts + dur rounded down, whole
-- µs since the run's offset) or ns (exact)
k_m AS MATERIALIZED (
  SELECT k.run_id, k.id, k.process_id, k.correlation_id, k.type,
         CASE WHEN s.us THEN hta_start_ns(k.start_ns, s.off) ELSE k.start_ns END AS ts,
         CASE WHEN s.us THEN hta_end_ns(k.start_ns, k.end_ns, s.off) ELSE k.end_ns END AS e
  FROM k JOIN sel s USING (run_id) WHERE k.type IN ('COMM', 'COMP')
),
steps AS (  -- every event named ProfilerStep#N, gpu_user_annotation projections included
  SELECT r.run_id, n.value AS name,
         CASE WHEN s.us THEN hta_start_ns(r.start_ns, s.off) ELSE r.start_ns END AS ts,
         CASE WHEN s.us THEN hta_end_ns(r.start_ns, coalesce(r.end_ns, r.start_ns), s.off) ELSE r.end_ns END AS e
  FROM ranges r JOIN sel s ON s.run_id = +r.run_id  -- by the name index: a few rows
  JOIN strings n ON n.id = r.name_id
  WHERE r.name_id IN (SELECT id FROM strings WHERE value GLOB 'ProfilerStep#[0-9]*')
    AND n.value GLOB 'ProfilerStep#[0-9]*' AND (SELECT hta FROM opt)
),
cut AS MATERIALIZED (  -- per run: the bound on launch times (hta), NULL when everything is kept
  SELECT s.run_id,
         (SELECT CASE WHEN count(DISTINCT st.name) >= 2 THEN CASE WHEN o.keep_last = 0 THEN max(st.ts) ELSE max(st.e) END END
            FROM steps st WHERE st.run_id = s.run_id) AS bound
  FROM sel s, opt o
),
kept AS (
  SELECT g.* FROM k_m g JOIN cut c USING (run_id) JOIN sel s USING (run_id), opt o
  -- kept when the earliest host call with its correlation id (HTA's µs) starts before the bound
  -- (or at it, keeping the last step): when any such call does, probed through the call index
  WHERE c.bound IS NULL OR EXISTS (
          SELECT 1 FROM api_calls a
          WHERE a.process_id IS g.process_id AND a.correlation_id = g.correlation_id AND a.run_id = g.run_id
            AND CASE WHEN s.us THEN hta_start_ns(a.start_ns, s.off) ELSE a.start_ns END
                  < c.bound + (o.keep_last = 1))
),
-- HTA's merge_kernel_intervals per class: in start order, a new group when ts > the largest end so far
flag AS (
  SELECT run_id, type, ts, e,
         ts > coalesce(max(e) OVER (PARTITION BY run_id, type ORDER BY ts, id
                                    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), ts) AS brk,
         id
  FROM kept
),
grp AS (
  SELECT run_id, type, ts, e,
         sum(brk) OVER (PARTITION BY run_id, type ORDER BY ts, id ROWS UNBOUNDED PRECEDING) AS g
  FROM flag
),
merged AS MATERIALIZED (SELECT run_id, type, min(ts) AS ts, max(e) AS e FROM grp GROUP BY run_id, type, g),
-- HTA's sweep: +1/-1 at communication starts/ends, +2/-2 at computation ones; overlap where the
-- running sum is 3, from each time point to the next
pts AS MATERIALIZED (
  SELECT run_id, t, sum(d) AS d FROM (
    SELECT run_id, ts AS t, CASE type WHEN 'COMM' THEN 1 ELSE 2 END AS d FROM merged
    UNION ALL SELECT run_id, e, CASE type WHEN 'COMM' THEN -1 ELSE -2 END FROM merged)
  GROUP BY run_id, t
),
run_pts AS MATERIALIZED (
  SELECT run_id, t, sum(d) OVER (PARTITION BY run_id ORDER BY t ROWS UNBOUNDED PRECEDING) AS running,
         lead(t) OVER (PARTITION BY run_id ORDER BY t) AS next_t
  FROM pts
),
u AS MATERIALIZED (
  SELECT s.run_id,
         (SELECT sum(e - ts) FROM merged m WHERE m.run_id = s.run_id AND m.type = 'COMM') AS comm,
         coalesce((SELECT sum(next_t - t) FROM run_pts p WHERE p.run_id = s.run_id AND p.running = 3), 0) AS ov
  FROM sel s
),
core AS (  -- per run: stored, or computed (v_hta_comm_overlap is this)
  SELECT run_id, comm_ns, overlap_ns FROM hta_comm_overlap WHERE run_id IN (SELECT run_id FROM stored)
  UNION ALL
  SELECT run_id, comm, ov FROM u
),
r AS (  -- HTA: round(100 * (overlap / comm), 2), numpy's round half to even: rint(y) / 100
  SELECT run_id, comm_ns, overlap_ns, y, CAST(y AS INTEGER) - (y < CAST(y AS INTEGER)) AS fy
  FROM (SELECT c.*, 100.0 * (100.0 * (1.0 * overlap_ns / nullif(comm_ns, 0))) AS y FROM core c)
)
SELECT s.run_id, s.rank, coalesce(r.comm_ns, 0) AS comm_ns, coalesce(r.overlap_ns, 0) AS overlap_ns,
       (r.fy + (r.y - r.fy > 0.5 OR (r.y - r.fy = 0.5 AND r.fy % 2 <> 0))) / 100.0 AS overlap_pct
FROM asked s JOIN r USING (run_id)
ORDER BY s.run_id
LIMIT coalesce(:limit, -1);
