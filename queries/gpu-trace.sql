-- Every GPU kernel, memcpy and memset in start order (nsys stats cuda_gpu_trace)
.load build/profq
--
-- Columns: start_ns, duration_ns, correlation_id, grid_x, grid_y, grid_z, block_x, block_y,
-- block_z, registers_per_thread, static_shared_bytes, dynamic_shared_bytes, bytes,
-- throughput_bytes_per_s, src_kind, dst_kind, device, device_name, context, stream, name, run_id.
-- One row per operation. Kernels have launch geometry, memory operations bytes and throughput
-- (bytes * 1e9 / duration_ns, as nsys; NULL for a zero duration) and, for memcpys, the source and
-- destination memory kinds. device is the CUDA ordinal; name is the demangled kernel name or the
-- '[CUDA memcpy <kind>]' / '[CUDA memset]' operation. Sorted by start_ns.
-- Runs: all runs (run_id column) unless --run ID (:run). Parameters: :run, :limit.
-- Plain SQL (no extension function needed); the .load line is harmless.
WITH ops AS (
  SELECT k.run_id, k.start_ns, k.end_ns, k.correlation_id, k.grid_x, k.grid_y, k.grid_z,
         k.block_x, k.block_y, k.block_z, k.registers_per_thread, k.static_shared_bytes,
         k.dynamic_shared_bytes, NULL AS bytes, NULL AS src_kind, NULL AS dst_kind, k.device_id,
         k.stream_id, coalesce(dn.value, n.value) AS name
  FROM kernels k JOIN strings n ON n.id = k.name_id
  LEFT JOIN strings dn ON dn.id = k.demangled_name_id
  WHERE :run IS NULL OR k.run_id = :run
  UNION ALL
  SELECT m.run_id, m.start_ns, m.end_ns, m.correlation_id, NULL, NULL, NULL, NULL, NULL, NULL,
         NULL, NULL, NULL, m.bytes, sk.label, dk.label, m.device_id, m.stream_id,
         '[CUDA memcpy ' || ck.label || ']'
  FROM memcpys m JOIN copy_kinds ck ON ck.id = m.copy_kind
  LEFT JOIN memory_kinds sk ON sk.id = m.src_kind
  LEFT JOIN memory_kinds dk ON dk.id = m.dst_kind
  WHERE :run IS NULL OR m.run_id = :run
  UNION ALL
  SELECT m.run_id, m.start_ns, m.end_ns, m.correlation_id, NULL, NULL, NULL, NULL, NULL, NULL,
         NULL, NULL, NULL, m.bytes, NULL, NULL, m.device_id, m.stream_id, '[CUDA memset]'
  FROM memsets m WHERE :run IS NULL OR m.run_id = :run
)
SELECT o.start_ns, o.end_ns - o.start_ns AS duration_ns, o.correlation_id, o.grid_x, o.grid_y,
       o.grid_z, o.block_x, o.block_y, o.block_z, o.registers_per_thread, o.static_shared_bytes,
       o.dynamic_shared_bytes, o.bytes,
       CASE WHEN o.end_ns > o.start_ns THEN CAST(round(o.bytes * 1e9 / (o.end_ns - o.start_ns)) AS INTEGER) END
         AS throughput_bytes_per_s,
       o.src_kind, o.dst_kind, d.ordinal AS device, d.name AS device_name, s.context, s.stream,
       o.name, o.run_id
FROM ops o
LEFT JOIN devices d ON d.id = o.device_id
LEFT JOIN streams s ON s.id = o.stream_id
ORDER BY o.start_ns, o.run_id
LIMIT coalesce(:limit, -1);
