-- PyTorch memory curve (tb_plugin): allocated and reserved bytes per device over time
.load build/profq
-- option plot=line|step (default line): line (one point per memory event) or step (tb_plugin's step-plot patching: before each point but a device's first, the previous point's values at this point's time)
-- Columns: ts_ns (the event's time, the database's clock), device ('CPU' for host memory, else
-- 'GPU<ordinal>'), allocated_bytes, reserved_bytes; one row per memory event, ordered by device,
-- then time. Parameters: :run (default: the lowest run id), :plot ('line' or 'step').
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
sel AS (SELECT coalesce(:run, (SELECT min(id) FROM runs)) AS run_id),
ev AS (
  SELECT m.id, m.ts_ns, d.ordinal,
         CASE WHEN m.device_id IS NULL THEN 'CPU' ELSE 'GPU' || d.ordinal END AS device,
         m.total_allocated, m.total_reserved,
         sum(CASE WHEN m.operation = (SELECT id FROM memory_operations WHERE name = 'free')
                  THEN -m.bytes ELSE m.bytes END)
           OVER (PARTITION BY m.device_id ORDER BY m.ts_ns, m.id ROWS UNBOUNDED PRECEDING) AS running
  FROM memory_events m LEFT JOIN devices d ON d.id = m.device_id
  WHERE m.run_id = (SELECT run_id FROM sel)
),
pt AS (
  SELECT id, ts_ns, ordinal, device, coalesce(total_allocated, running) AS allocated_bytes,
         total_reserved AS reserved_bytes,
         row_number() OVER (PARTITION BY device ORDER BY ts_ns, id) AS seq
  FROM ev
),
curve AS (
  SELECT ts_ns, ordinal, device, allocated_bytes, reserved_bytes, 2 * seq AS ord FROM pt
  UNION ALL
  SELECT b.ts_ns, b.ordinal, b.device, a.allocated_bytes, a.reserved_bytes, 2 * b.seq - 1
  FROM pt b JOIN pt a ON a.device = b.device AND a.seq = b.seq - 1
  WHERE coalesce(:plot, 'line') = 'step'
)
SELECT ts_ns, device, allocated_bytes, reserved_bytes
FROM curve
ORDER BY ordinal IS NOT NULL, ordinal, device, ord
LIMIT coalesce(:limit, -1);
