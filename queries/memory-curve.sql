-- PyTorch memory curve (tb_plugin): allocated and reserved bytes per device over time
.load build/profq
-- option plot=line|step (default line): line (one point per memory event) or step (tb_plugin's step-plot patching: before each point but a device's first, the previous point's values at this point's time)
-- Columns: run_id, ts_ns (the event's time, the database's clock), device ('CPU' for host memory,
-- else 'GPU<ordinal>'), allocated_bytes, reserved_bytes; one row per memory event (runs without
-- memory events, such as nsys exports, have none), ordered by run, device, then time.
-- Parameters: :run (default: every run), :plot ('line' or 'step').
--
-- Definition: tb_plugin 0.4.3 RunProfile.get_memory_curve (pytorch/kineto tb_plugin/
-- torch_tb_profiler/run.py, profiler/memory_parser.py at 041e7ce9; notes/kineto_hta.md §1.7):
--  * one point per [memory] event (memory_events row) and device; allocated_bytes = the event's
--    "Total Allocated" and reserved_bytes = its "Total Reserved" (memory_events.total_allocated,
--    total_reserved: the caching allocator's counters after the event).
--  * deviation: tb_plugin keeps only events with Addr, Total Allocated and Total Reserved, so
--    older traces (PyTorch 1.9, e.g. the ResNet50 samples) give an empty curve. Here an event
--    without Total Allocated gets the running sum over the device of its bytes (allocations +,
--    frees -, in time order, ties by row id) instead; reserved_bytes is then NULL.
--  * :plot = 'step' is tb_plugin's patch_for_step_plot: before every point of a device but the
--    first, a point at its time with the previous point's values, so a line plot draws steps
--    (2n - 1 rows for n events).
--  * not reproduced: tb_plugin's times relative to the profiler start and its LTTB down-sampling
--    (≤ 10240 points); the peak is max(allocated_bytes) per device.
WITH
sel AS (SELECT id AS run_id FROM runs WHERE :run IS NULL OR id = :run),
ev AS (
  SELECT m.run_id, m.id, m.ts_ns, d.ordinal,
         CASE WHEN m.device_id IS NULL THEN 'CPU' ELSE 'GPU' || d.ordinal END AS device,
         m.total_allocated, m.total_reserved,
         sum(CASE WHEN m.operation = (SELECT id FROM memory_operations WHERE name = 'free')
                  THEN -m.bytes ELSE m.bytes END)
           OVER (PARTITION BY m.run_id, m.device_id ORDER BY m.ts_ns, m.id ROWS UNBOUNDED PRECEDING) AS running
  FROM memory_events m LEFT JOIN devices d ON d.id = m.device_id
  WHERE m.run_id IN (SELECT run_id FROM sel)
),
pt AS MATERIALIZED (
  SELECT run_id, id, ts_ns, ordinal, device, coalesce(total_allocated, running) AS allocated_bytes,
         total_reserved AS reserved_bytes
  FROM ev
),
prev AS (  -- step plot: each point but a device's first, with the previous point's values
  SELECT run_id, id, ts_ns, ordinal, device, pa, pr FROM (
    SELECT p.*, lag(allocated_bytes) OVER w AS pa, lag(reserved_bytes) OVER w AS pr,
           row_number() OVER w AS seq
    FROM pt p WINDOW w AS (PARTITION BY run_id, device ORDER BY ts_ns, id))
  WHERE seq > 1
),
curve AS (  -- sub 0: the step plot's point, just before the event's own (sub 1)
  SELECT run_id, ts_ns, ordinal, device, allocated_bytes, reserved_bytes, id, 1 AS sub FROM pt
  UNION ALL
  SELECT run_id, ts_ns, ordinal, device, pa, pr, id, 0 FROM prev
  WHERE coalesce(:plot, 'line') = 'step'
)
SELECT run_id, ts_ns, device, allocated_bytes, reserved_bytes
FROM curve
ORDER BY run_id, ordinal IS NOT NULL, ordinal, device, ts_ns, id, sub
LIMIT coalesce(:limit, -1);
