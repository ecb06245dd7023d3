/* clickhouse_tables.c - the ClickHouse tables profq pushes into, and how each is read from
 * SQLite. */
#include "clickhouse_tables.h"

#include <stddef.h>

const char pq_ch_runs_columns[] =
	"job String, push_id String, run_key String, rank Int64, run_id Int64, source String, "
	"source_path String, hostname String, start_ns Nullable(Int64), end_ns Nullable(Int64), "
	"event_rows UInt64, pushed_at DateTime DEFAULT now()";
const char pq_ch_runs_names[] =
	"job, push_id, run_key, rank, run_id, source, source_path, hostname, start_ns, end_ns, "
	"event_rows";

const pq_ch_table pq_ch_tables[] = {
	{ "kernels",
	  "start_ns Int64, end_ns Int64, device Nullable(Int64), stream Nullable(Int64), "
	  "correlation_id Nullable(Int64), external_id Nullable(Int64), name String, "
	  "demangled_name Nullable(String), short_name Nullable(String), grid_x Nullable(Int64), "
	  "grid_y Nullable(Int64), grid_z Nullable(Int64), block_x Nullable(Int64), "
	  "block_y Nullable(Int64), block_z Nullable(Int64), registers_per_thread Nullable(Int64), "
	  "static_shared_bytes Nullable(Int64), dynamic_shared_bytes Nullable(Int64)",
	  "start_ns, end_ns, device, stream, correlation_id, external_id, name, demangled_name, "
	  "short_name, grid_x, grid_y, grid_z, block_x, block_y, block_z, registers_per_thread, "
	  "static_shared_bytes, dynamic_shared_bytes",
	  "start_ns",
	  "SELECT k.start_ns, k.end_ns, d.ordinal, s.stream, k.correlation_id, k.external_id, n.value, "
	  "dn.value, sn.value, k.grid_x, k.grid_y, k.grid_z, k.block_x, k.block_y, k.block_z, "
	  "k.registers_per_thread, k.static_shared_bytes, k.dynamic_shared_bytes "
	  "FROM kernels k JOIN strings n ON n.id = k.name_id "
	  "LEFT JOIN strings dn ON dn.id = k.demangled_name_id "
	  "LEFT JOIN strings sn ON sn.id = k.short_name_id "
	  "LEFT JOIN devices d ON d.id = k.device_id LEFT JOIN streams s ON s.id = k.stream_id "
	  "WHERE k.run_id = ?1 ORDER BY k.start_ns" },
	{ "memcpys",
	  "start_ns Int64, end_ns Int64, device Nullable(Int64), stream Nullable(Int64), "
	  "correlation_id Nullable(Int64), external_id Nullable(Int64), bytes Nullable(Int64), "
	  "copy_kind Int64, src_kind Nullable(Int64), dst_kind Nullable(Int64)",
	  "start_ns, end_ns, device, stream, correlation_id, external_id, bytes, copy_kind, "
	  "src_kind, dst_kind",
	  "start_ns",
	  "SELECT m.start_ns, m.end_ns, d.ordinal, s.stream, m.correlation_id, m.external_id, m.bytes, "
	  "m.copy_kind, m.src_kind, m.dst_kind FROM memcpys m LEFT JOIN devices d ON d.id = m.device_id "
	  "LEFT JOIN streams s ON s.id = m.stream_id WHERE m.run_id = ?1 ORDER BY m.start_ns" },
	{ "memsets",
	  "start_ns Int64, end_ns Int64, device Nullable(Int64), stream Nullable(Int64), "
	  "correlation_id Nullable(Int64), external_id Nullable(Int64), bytes Nullable(Int64), "
	  "memory_kind Nullable(Int64)",
	  "start_ns, end_ns, device, stream, correlation_id, external_id, bytes, memory_kind",
	  "start_ns",
	  "SELECT m.start_ns, m.end_ns, d.ordinal, s.stream, m.correlation_id, m.external_id, m.bytes, "
	  "m.memory_kind FROM memsets m LEFT JOIN devices d ON d.id = m.device_id "
	  "LEFT JOIN streams s ON s.id = m.stream_id WHERE m.run_id = ?1 ORDER BY m.start_ns" },
	{ "api_calls",
	  "start_ns Int64, end_ns Int64, pid Nullable(Int64), tid Nullable(Int64), api_kind Int64, "
	  "name String, correlation_id Nullable(Int64), external_id Nullable(Int64), "
	  "return_value Nullable(Int64)",
	  "start_ns, end_ns, pid, tid, api_kind, name, correlation_id, external_id, return_value",
	  "start_ns",
	  "SELECT a.start_ns, a.end_ns, p.pid, t.tid, a.api_kind, n.value, a.correlation_id, "
	  "a.external_id, a.return_value FROM api_calls a JOIN strings n ON n.id = a.name_id "
	  "LEFT JOIN processes p ON p.id = a.process_id LEFT JOIN threads t ON t.id = a.thread_id "
	  "WHERE a.run_id = ?1 ORDER BY a.start_ns" },
	{ "ranges",
	  "start_ns Int64, end_ns Nullable(Int64), pid Nullable(Int64), tid Nullable(Int64), "
	  "kind Int64, name String, category Nullable(String), depth Nullable(Int64), "
	  "correlation_id Nullable(Int64), external_id Nullable(Int64)",
	  "start_ns, end_ns, pid, tid, kind, name, category, depth, correlation_id, external_id",
	  "start_ns",
	  "SELECT r.start_ns, r.end_ns, p.pid, t.tid, r.kind, n.value, c.value, r.depth, "
	  "r.correlation_id, r.external_id FROM ranges r JOIN strings n ON n.id = r.name_id "
	  "LEFT JOIN strings c ON c.id = r.category_id LEFT JOIN processes p ON p.id = r.process_id "
	  "LEFT JOIN threads t ON t.id = r.thread_id WHERE r.run_id = ?1 ORDER BY r.start_ns" },
	{ "memory_events",
	  "ts_ns Int64, device Nullable(Int64), operation Int64, address Nullable(Int64), "
	  "bytes Int64, memory_kind Nullable(Int64), total_allocated Nullable(Int64), "
	  "total_reserved Nullable(Int64)",
	  "ts_ns, device, operation, address, bytes, memory_kind, total_allocated, total_reserved",
	  "ts_ns",
	  "SELECT m.ts_ns, d.ordinal, m.operation, m.address, m.bytes, m.memory_kind, "
	  "m.total_allocated, m.total_reserved FROM memory_events m "
	  "LEFT JOIN devices d ON d.id = m.device_id WHERE m.run_id = ?1 ORDER BY m.ts_ns" },
	{ "counters",
	  "ts_ns Int64, device Nullable(Int64), name String, value Float64",
	  "ts_ns, device, name, value",
	  "ts_ns",
	  "SELECT c.ts_ns, d.ordinal, n.value, c.value FROM counters c "
	  "JOIN strings n ON n.id = c.name_id LEFT JOIN devices d ON d.id = c.device_id "
	  "WHERE c.run_id = ?1 ORDER BY c.ts_ns" },
	{ NULL, NULL, NULL, NULL, NULL },
};
