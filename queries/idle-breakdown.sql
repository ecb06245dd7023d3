-- HTA idle time breakdown per stream: GPU idle gaps waiting on the host, on kernels, or other
-- option mode=hta|exact (default hta): hta reproduces HTA's numbers (whole µs, negative gaps summed); exact uses ns times and positive gaps only
-- option consecutive-kernel-delay-us=<us> (default 30): a gap shorter than this after a kernel is kernel wait (HTA's consecutive_kernel_delay)
-- option include-last-step=0|1 (default 0): 1 keeps the last ProfilerStep (HTA's include_last_profiler_step)
.load build/profq
-- Columns: run_id, rank, device (ordinal), stream, host_wait_ns, kernel_wait_ns, other_ns, idle_ns
-- (their sum), host_wait_ratio, kernel_wait_ratio, other_ratio (shares of idle_ns, rounded to 4
-- places; HTA rounds its output to 2; NULL when the stream never idles). A row per run and
-- stream; --run keeps one run (a run is a rank: runs.rank, 0 when unknown).
--
-- Follows Holistic Trace Analysis, not tb_plugin (facebookresearch/HolisticTraceAnalysis at
-- f4d0062c: hta/analyzers/breakdown_analysis.py get_idle_time_breakdown,
-- _analyze_idle_time_for_stream; times, steps and kept events as temporal-breakdown, whose header
-- says more; notes/kineto_hta.md §3.2). mode=hta (default):
--  * per stream, the kept kernels, memcpys and memsets (not synchronizations: HTA selects the
--    kernel, gpu_memcpy and gpu_memset categories) in start order (ties: by the exact start), times
--    in HTA's whole µs for Kineto runs (start rounded up, start + dur rounded down);
--    gap = start - the previous event's end on the same stream (not the latest end so far).
--  * host_wait: the event's launching host call (same process and correlation id) started after
--    the previous event ended; else kernel_wait: gap < consecutive_kernel_delay; else other. An
--    event without a host call is never host_wait (as HTA, whose comparison with a missing
--    runtime is false).
--  * every gap is summed into its category, negative ones too (an event starting before the
--    previous one ended, which HTA's µs rounding makes of sub-µs events), so a category can be
--    negative.
--  * HTA's threshold is documented as 30 ns but compared with the trace's µs values, so it acts as
--    30 µs; consecutive-kernel-delay-us keeps that behaviour (30 µs by default).
--  * steps as temporal-breakdown: with two or more ProfilerStep#N names, only events whose
--    correlation id matches a host event starting before the last ProfilerStep's start (any
--    event so named, gpu_user_annotation projections included) are kept. On the ResNet50 sample
--    this gives HTA's own numbers (notes/kineto_hta.md §5.2: stream 7 host_wait 318934 µs,
--    kernel_wait 8529 µs).
-- mode=exact: ns times; only positive gaps are idle time; the last step is the last CPU
-- ProfilerStep and an event is kept when its launching runtime call started before it;
-- include-last-step=1 keeps everything.
-- Checked against HTA's own output on generated traces (tests/reports/hta_traces.py,
-- tests/reports/hta_match.t; the features are listed in temporal-breakdown's header).
-- Stored: with the default options, a finished run's numbers are read from hta_idle_breakdown (written
-- at import from this file: docs/schema.md, Derived tables); other options compute every run.
WITH
asked AS MATERIALIZED (SELECT id AS run_id, coalesce(rank, 0) AS rank FROM runs WHERE :run IS NULL OR id = :run),
stored AS MATERIALIZED (  -- runs whose rows hta_idle_breakdown holds: the default options only
  SELECT run_id FROM derived_runs
  WHERE name = 'hta_idle_breakdown' AND run_id IN (SELECT run_id FROM asked)
    AND coalesce(:mode, 'hta') = 'hta' AND coalesce(:include_last_step, 0) = 0
    AND coalesce(:consecutive_kernel_delay_us, 30) = 30
),
sel AS MATERIALIZED (  -- the runs computed from their events
  SELECT id AS run_id, coalesce(rank, 0) AS rank, coalesce(time_offset_ns, 0) AS off,
         source = 'chrome-json' AND coalesce(:mode, 'hta') = 'hta' AS us  -- HTA's µs: Kineto files only
  FROM runs WHERE (:run IS NULL OR id = :run) AND id NOT IN (SELECT run_id FROM stored)
),
opt AS (SELECT coalesce(:mode, 'hta') = 'hta' AS hta, coalesce(:include_last_step, 0) AS keep_last,
               coalesce(:consecutive_kernel_delay_us, 30) AS delay_us),
steps AS (  -- ProfilerStep#N events: any kind (hta) or CPU ones only (exact); names first (ranges_name)
  SELECT r.run_id, n.value AS name,
         CASE WHEN s.us THEN hta_start_ns(r.start_ns, s.off) ELSE r.start_ns END AS ts,
         CASE WHEN s.us THEN hta_end_ns(r.start_ns, coalesce(r.end_ns, r.start_ns), s.off) ELSE r.end_ns END AS e
  FROM strings n CROSS JOIN ranges r ON r.name_id = n.id JOIN sel s ON s.run_id = r.run_id, opt o
  WHERE n.value GLOB 'ProfilerStep#[0-9]*' AND (o.hta OR r.kind IN (2, 3))
),
cut AS MATERIALIZED (  -- per run: the bound on launch times, NULL when everything is kept
  SELECT s.run_id, s.us, s.off, o.hta, o.keep_last,
         (SELECT CASE WHEN (o.hta AND count(DISTINCT st.name) >= 2) OR (NOT o.hta AND count(*) >= 2)
                      THEN CASE WHEN o.keep_last = 0 THEN max(st.ts) WHEN o.hta THEN max(st.e) END END
            FROM steps st WHERE st.run_id = s.run_id) AS bound
  FROM sel s, opt o
),
-- GPU events on a stream with their run's clock and cut; CROSS JOIN keeps the event tables in
-- the inner loop, and the union stays a co-routine (no join above it)
gpu AS (
  SELECT k.run_id, k.id, k.stream_id, k.process_id, k.correlation_id, k.start_ns, k.end_ns, 0 AS src,
         c.us, c.off, c.bound, c.hta, c.keep_last
  FROM cut c CROSS JOIN kernels k ON k.run_id = c.run_id WHERE k.stream_id IS NOT NULL
  UNION ALL
  SELECT m.run_id, m.id, m.stream_id, m.process_id, m.correlation_id, m.start_ns, m.end_ns, 1,
         c.us, c.off, c.bound, c.hta, c.keep_last
  FROM cut c CROSS JOIN memcpys m ON m.run_id = c.run_id WHERE m.stream_id IS NOT NULL
  UNION ALL
  SELECT m.run_id, m.id, m.stream_id, m.process_id, m.correlation_id, m.start_ns, m.end_ns, 2,
         c.us, c.off, c.bound, c.hta, c.keep_last
  FROM cut c CROSS JOIN memsets m ON m.run_id = c.run_id WHERE m.stream_id IS NOT NULL
),
-- the launching host call's start (hta: any API call with the correlation id, exact: the
-- runtime's; the first one), rounded like everything else: the rounding keeps order, so the
-- rounded first start is the first rounded start
gpu_h AS (
  SELECT g.*, (SELECT min(h.start_ns) FROM api_calls h WHERE h.process_id IS g.process_id
                 AND h.correlation_id = g.correlation_id AND +h.run_id = g.run_id
                 AND (g.hta OR h.api_kind = 0)) AS rt_ns
  FROM gpu g LIMIT -1  -- a co-routine: the subquery runs once a row, not once per use of rt_ns
),
-- HTA's clock (hta_start_ns, hta_end_ns: ts rounded up, ts + dur rounded down) or ns (exact)
gpu_m AS (
  SELECT run_id, id, src, stream_id, start_ns, bound, keep_last,
         CASE WHEN us THEN hta_start_ns(start_ns, off) ELSE start_ns END AS ts,
         CASE WHEN us THEN hta_end_ns(start_ns, end_ns, off) ELSE end_ns END AS e,
         CASE WHEN us THEN hta_start_ns(rt_ns, off) ELSE rt_ns END AS rt_ts
  FROM gpu_h
),
seq AS (
  SELECT run_id, stream_id, ts, rt_ts,
         lag(e) OVER (PARTITION BY run_id, stream_id ORDER BY ts, start_ns, src, id) AS prev_e
  FROM gpu_m
  WHERE bound IS NULL OR (keep_last = 0 AND rt_ts < bound) OR (keep_last = 1 AND rt_ts <= bound)
),
agg AS (
  SELECT s.run_id, s.stream_id,
         coalesce(sum(CASE WHEN s.rt_ts > s.prev_e THEN s.ts - s.prev_e END), 0) AS host_wait_ns,
         coalesce(sum(CASE WHEN s.rt_ts > s.prev_e THEN NULL
                           WHEN s.ts - s.prev_e < 1000 * o.delay_us THEN s.ts - s.prev_e END), 0) AS kernel_wait_ns,
         coalesce(sum(CASE WHEN s.rt_ts > s.prev_e OR s.ts - s.prev_e < 1000 * o.delay_us THEN NULL
                           ELSE s.ts - s.prev_e END), 0) AS other_ns
  FROM seq s, opt o
  WHERE s.prev_e IS NULL OR o.hta OR s.ts > s.prev_e
  GROUP BY s.run_id, s.stream_id
),
core AS (  -- per run and stream: stored, or computed (v_hta_idle_breakdown is this)
  SELECT run_id, stream_id, host_wait_ns, kernel_wait_ns, other_ns FROM hta_idle_breakdown
  WHERE run_id IN (SELECT run_id FROM stored)
  UNION ALL
  SELECT run_id, stream_id, host_wait_ns, kernel_wait_ns, other_ns FROM agg
)
SELECT a.run_id, sel.rank, d.ordinal AS device, st.stream, a.host_wait_ns, a.kernel_wait_ns, a.other_ns,
       a.host_wait_ns + a.kernel_wait_ns + a.other_ns AS idle_ns,
       round(1.0 * a.host_wait_ns / nullif(a.host_wait_ns + a.kernel_wait_ns + a.other_ns, 0), 4) AS host_wait_ratio,
       round(1.0 * a.kernel_wait_ns / nullif(a.host_wait_ns + a.kernel_wait_ns + a.other_ns, 0), 4) AS kernel_wait_ratio,
       round(1.0 * a.other_ns / nullif(a.host_wait_ns + a.kernel_wait_ns + a.other_ns, 0), 4) AS other_ratio
FROM core a JOIN asked sel USING (run_id)
LEFT JOIN streams st ON st.id = a.stream_id LEFT JOIN devices d ON d.id = st.device_id
ORDER BY a.run_id, d.ordinal, st.stream
LIMIT coalesce(:limit, -1);
