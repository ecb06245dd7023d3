-- HTA idle time breakdown per stream: GPU idle gaps waiting on the host, on kernels, or other
-- option consecutive-kernel-delay-us=<us> (default 30): a gap shorter than this after a kernel is kernel wait (HTA's consecutive_kernel_delay)
-- option include-last-step=0|1 (default 0): 1 keeps the last ProfilerStep (HTA's include_last_profiler_step)
.load build/profq
-- Columns: rank, device (ordinal), stream, host_wait_ns, kernel_wait_ns, other_ns, idle_ns (their
-- sum), host_wait_ratio, kernel_wait_ratio, other_ratio (shares of idle_ns, rounded to 4 places;
-- HTA rounds its output to 2; NULL when the stream never idles). Parameters: :run (default every
-- run; a run is a rank, runs.rank or 0 when unknown); :consecutive_kernel_delay_us (default 30);
-- :include_last_step = 1 keeps the last ProfilerStep (HTA's include_last_profiler_step).
--
-- Follows Holistic Trace Analysis, not tb_plugin (facebookresearch/HolisticTraceAnalysis
-- hta/analyzers/breakdown_analysis.py get_idle_time_breakdown at f4d0062c; notes/kineto_hta.md §3.2):
--  * per stream, the GPU events (kernels, memcpys, memsets) in start order (ties by row id);
--    gap = start - the previous event's end on the same stream (not the latest end so far).
--  * deviation: only positive gaps are idle time; HTA also sums a negative gap (an event starting
--    before the previous one ended) into its category, usually kernel_wait.
--  * host_wait: the event's launching runtime call (api_calls, same process and correlation id)
--    started after the previous event ended; else kernel_wait: gap < consecutive_kernel_delay;
--    else other. An event without a runtime call is never host_wait (as HTA, whose comparison with
--    a missing runtime is false).
--  * HTA's threshold is documented as 30 ns but compared with the trace's µs values, so it acts as
--    30 µs; :consecutive_kernel_delay_us keeps that behaviour (30 µs by default).
--  * step selection (HTA's default, as temporal-breakdown): with two or more ProfilerStep#N ranges,
--    only GPU events launched by a runtime call starting before the last ProfilerStep's start are
--    kept; :include_last_step = 1 keeps everything. On the ResNet50 sample this gives HTA's own
--    numbers (notes/kineto_hta.md §5.2: stream 7 host_wait 318934 µs, kernel_wait 8529 µs).
WITH
sel AS (SELECT id AS run_id, coalesce(rank, 0) AS rank FROM runs WHERE :run IS NULL OR id = :run),
g AS (
  SELECT run_id, id, stream_id, process_id, correlation_id, start_ns, end_ns FROM kernels
   WHERE run_id IN (SELECT run_id FROM sel)
  UNION ALL SELECT run_id, id, stream_id, process_id, correlation_id, start_ns, end_ns FROM memcpys
   WHERE run_id IN (SELECT run_id FROM sel)
  UNION ALL SELECT run_id, id, stream_id, process_id, correlation_id, start_ns, end_ns FROM memsets
   WHERE run_id IN (SELECT run_id FROM sel)
),
rt AS (  -- the launching runtime call's start (the first one when several share a correlation id)
  SELECT run_id, process_id, correlation_id, min(start_ns) AS rt_start FROM api_calls
  WHERE run_id IN (SELECT run_id FROM sel) AND api_kind = 0 AND correlation_id IS NOT NULL
  GROUP BY run_id, process_id, correlation_id
),
cut AS MATERIALIZED (  -- per run: the last ProfilerStep's start when there are two or more, else NULL
  SELECT s.run_id,
         (SELECT CASE WHEN count(*) >= 2 AND coalesce(:include_last_step, 0) = 0 THEN max(r.start_ns) END
            FROM ranges r JOIN strings n ON n.id = r.name_id
           WHERE r.run_id = s.run_id AND n.value GLOB 'ProfilerStep#*' AND r.kind IN (2, 3)) AS last_start
  FROM sel s
),
seq AS (
  SELECT g.run_id, g.stream_id, g.start_ns, r.rt_start,
         lag(g.end_ns) OVER (PARTITION BY g.run_id, g.stream_id ORDER BY g.start_ns, g.id) AS prev_end
  FROM g LEFT JOIN rt r ON r.run_id = g.run_id AND r.process_id = g.process_id
                       AND r.correlation_id = g.correlation_id
  JOIN cut c ON c.run_id = g.run_id
  WHERE c.last_start IS NULL OR r.rt_start < c.last_start
),
gaps AS (
  SELECT run_id, stream_id, start_ns - prev_end AS gap,
         CASE WHEN rt_start > prev_end THEN 'host'
              WHEN start_ns - prev_end < 1000 * coalesce(:consecutive_kernel_delay_us, 30) THEN 'kernel'
              ELSE 'other' END AS cat
  FROM seq WHERE prev_end IS NOT NULL
),
agg AS (
  SELECT s.run_id, s.stream_id,
         coalesce(sum(CASE WHEN g.gap > 0 AND g.cat = 'host' THEN g.gap END), 0) AS host_wait_ns,
         coalesce(sum(CASE WHEN g.gap > 0 AND g.cat = 'kernel' THEN g.gap END), 0) AS kernel_wait_ns,
         coalesce(sum(CASE WHEN g.gap > 0 AND g.cat = 'other' THEN g.gap END), 0) AS other_ns
  FROM (SELECT DISTINCT run_id, stream_id FROM seq) s
  LEFT JOIN gaps g ON g.run_id = s.run_id AND g.stream_id IS s.stream_id
  GROUP BY s.run_id, s.stream_id
)
SELECT sel.rank, d.ordinal AS device, st.stream, a.host_wait_ns, a.kernel_wait_ns, a.other_ns,
       a.host_wait_ns + a.kernel_wait_ns + a.other_ns AS idle_ns,
       round(1.0 * a.host_wait_ns / nullif(a.host_wait_ns + a.kernel_wait_ns + a.other_ns, 0), 4) AS host_wait_ratio,
       round(1.0 * a.kernel_wait_ns / nullif(a.host_wait_ns + a.kernel_wait_ns + a.other_ns, 0), 4) AS kernel_wait_ratio,
       round(1.0 * a.other_ns / nullif(a.host_wait_ns + a.kernel_wait_ns + a.other_ns, 0), 4) AS other_ratio
FROM agg a JOIN sel USING (run_id)
LEFT JOIN streams st ON st.id = a.stream_id LEFT JOIN devices d ON d.id = st.device_id
ORDER BY sel.rank, d.ordinal, st.stream
LIMIT coalesce(:limit, -1);
