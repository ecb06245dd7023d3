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
WITH
sel AS (
  SELECT id AS run_id, coalesce(rank, 0) AS rank, coalesce(time_offset_ns, 0) AS off,
         source = 'chrome-json' AND coalesce(:mode, 'hta') = 'hta' AS us  -- HTA's µs: Kineto files only
  FROM runs WHERE :run IS NULL OR id = :run
),
opt AS (SELECT coalesce(:mode, 'hta') = 'hta' AS hta, coalesce(:include_last_step, 0) AS keep_last,
               coalesce(:consecutive_kernel_delay_us, 30) AS delay_us),
gpu AS (
  SELECT run_id, id, stream_id, process_id, correlation_id, start_ns, end_ns, 0 AS src FROM kernels
   WHERE run_id IN (SELECT run_id FROM sel)
  UNION ALL SELECT run_id, id, stream_id, process_id, correlation_id, start_ns, end_ns, 1 FROM memcpys
   WHERE run_id IN (SELECT run_id FROM sel)
  UNION ALL SELECT run_id, id, stream_id, process_id, correlation_id, start_ns, end_ns, 2 FROM memsets
   WHERE run_id IN (SELECT run_id FROM sel)
),
-- HTA's clock: td = the trace's ts as a double (µs since the run's offset), xe = td + dur.
gpu_m AS MATERIALIZED (  -- ts/e: whole µs (hta, ceil and floor) or ns (exact)
  SELECT run_id, id, src, stream_id, process_id, correlation_id, start_ns,
         CASE WHEN us THEN 1000 * (CAST(td AS INTEGER) + (td > CAST(td AS INTEGER))) ELSE start_ns END AS ts,
         CASE WHEN us THEN 1000 * (CAST(xe AS INTEGER) - (xe < CAST(xe AS INTEGER))) ELSE end_ns END AS e
  FROM (SELECT g.*, s.us, (g.start_ns - s.off) / 1000 + ((g.start_ns - s.off) % 1000) / 1000.0 AS td,
               (g.start_ns - s.off) / 1000 + ((g.start_ns - s.off) % 1000) / 1000.0
                 + (g.end_ns - g.start_ns) / 1000.0 AS xe
        FROM gpu g JOIN sel s USING (run_id)), opt o
),
host AS MATERIALIZED (  -- host calls by correlation id: hta any API call, exact the runtime's
  SELECT a.run_id, a.process_id, a.correlation_id,
         min(CASE WHEN a.us THEN 1000 * (CAST(a.td AS INTEGER) + (a.td > CAST(a.td AS INTEGER))) ELSE a.start_ns END) AS ts
  FROM (SELECT c.*, s.us, (c.start_ns - s.off) / 1000 + ((c.start_ns - s.off) % 1000) / 1000.0 AS td
        FROM api_calls c JOIN sel s USING (run_id) WHERE c.correlation_id IS NOT NULL) a, opt o
  WHERE o.hta OR a.api_kind = 0
  GROUP BY a.run_id, a.process_id, a.correlation_id
),
steps AS (  -- ProfilerStep#N events: any kind (hta) or CPU ones only (exact)
  SELECT r.run_id, n.value AS name,
         CASE WHEN us THEN 1000 * (CAST(td AS INTEGER) + (td > CAST(td AS INTEGER))) ELSE r.start_ns END AS ts,
         CASE WHEN us THEN 1000 * (CAST(xe AS INTEGER) - (xe < CAST(xe AS INTEGER))) ELSE r.end_ns END AS e
  FROM (SELECT r.*, s.us, (r.start_ns - s.off) / 1000 + ((r.start_ns - s.off) % 1000) / 1000.0 AS td,
               (r.start_ns - s.off) / 1000 + ((r.start_ns - s.off) % 1000) / 1000.0
                 + (coalesce(r.end_ns, r.start_ns) - r.start_ns) / 1000.0 AS xe
        FROM ranges r JOIN sel s USING (run_id)) r
  JOIN strings n ON n.id = r.name_id, opt o
  WHERE n.value GLOB 'ProfilerStep#[0-9]*' AND (o.hta OR r.kind IN (2, 3))
),
cut AS MATERIALIZED (  -- per run: the bound on launch times, NULL when everything is kept
  SELECT s.run_id,
         (SELECT CASE WHEN (o.hta AND count(DISTINCT st.name) >= 2) OR (NOT o.hta AND count(*) >= 2)
                      THEN CASE WHEN o.keep_last = 0 THEN max(st.ts) WHEN o.hta THEN max(st.e) END END
            FROM steps st WHERE st.run_id = s.run_id) AS bound
  FROM sel s, opt o
),
seq AS (
  SELECT g.run_id, g.stream_id, g.ts, h.ts AS rt_ts,
         lag(g.e) OVER (PARTITION BY g.run_id, g.stream_id ORDER BY g.ts, g.start_ns, g.src, g.id) AS prev_e
  FROM gpu_m g JOIN cut c USING (run_id), opt o
  LEFT JOIN host h ON h.run_id = g.run_id AND h.process_id IS g.process_id AND h.correlation_id = g.correlation_id
  WHERE g.stream_id IS NOT NULL
    AND (c.bound IS NULL OR (o.keep_last = 0 AND h.ts < c.bound) OR (o.keep_last = 1 AND h.ts <= c.bound))
),
gaps AS (
  SELECT run_id, stream_id, ts - prev_e AS gap,
         CASE WHEN rt_ts > prev_e THEN 'host'
              WHEN ts - prev_e < 1000 * o.delay_us THEN 'kernel'
              ELSE 'other' END AS cat
  FROM seq, opt o WHERE prev_e IS NOT NULL AND (o.hta OR ts > prev_e)
),
agg AS (
  SELECT s.run_id, s.stream_id,
         coalesce(sum(CASE WHEN g.cat = 'host' THEN g.gap END), 0) AS host_wait_ns,
         coalesce(sum(CASE WHEN g.cat = 'kernel' THEN g.gap END), 0) AS kernel_wait_ns,
         coalesce(sum(CASE WHEN g.cat = 'other' THEN g.gap END), 0) AS other_ns
  FROM (SELECT DISTINCT run_id, stream_id FROM seq) s
  LEFT JOIN gaps g ON g.run_id = s.run_id AND g.stream_id = s.stream_id
  GROUP BY s.run_id, s.stream_id
)
SELECT a.run_id, sel.rank, d.ordinal AS device, st.stream, a.host_wait_ns, a.kernel_wait_ns, a.other_ns,
       a.host_wait_ns + a.kernel_wait_ns + a.other_ns AS idle_ns,
       round(1.0 * a.host_wait_ns / nullif(a.host_wait_ns + a.kernel_wait_ns + a.other_ns, 0), 4) AS host_wait_ratio,
       round(1.0 * a.kernel_wait_ns / nullif(a.host_wait_ns + a.kernel_wait_ns + a.other_ns, 0), 4) AS kernel_wait_ratio,
       round(1.0 * a.other_ns / nullif(a.host_wait_ns + a.kernel_wait_ns + a.other_ns, 0), 4) AS other_ratio
FROM agg a JOIN sel USING (run_id)
LEFT JOIN streams st ON st.id = a.stream_id LEFT JOIN devices d ON d.id = st.device_id
ORDER BY a.run_id, d.ordinal, st.stream
LIMIT coalesce(:limit, -1);
