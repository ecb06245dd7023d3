-- One row per run: where it came from, when, how long, its GPUs and how many events of each kind it holds
--
-- Columns: run_id, source, source_path, hostname, status, start_utc (the run's start, when its clock
-- is the Unix epoch), duration_s (end - start, 6 decimals), devices (one "GPU<ordinal> <name>
-- (<memory> GiB)" per device, '; '-separated), processes, kernels, memcpys, memsets, api_calls,
-- ranges, marks, memory_events, counters. Runs: every run unless --run ID (:run). Plain SQL.
SELECT r.id AS run_id, r.source, r.source_path, r.hostname, r.status,
       CASE WHEN r.time_base = 'unix' AND r.start_ns IS NOT NULL
            THEN strftime('%Y-%m-%d %H:%M:%f', r.start_ns / 1e9, 'unixepoch') END AS start_utc,
       round((r.end_ns - r.start_ns) / 1e9, 6) AS duration_s,
       (SELECT group_concat(label, '; ') FROM (
          SELECT 'GPU' || d.ordinal || coalesce(' ' || d.name, '') ||
                 CASE WHEN d.global_memory_bytes > 0
                      THEN printf(' (%.1f GiB)', d.global_memory_bytes / 1073741824.0) ELSE '' END AS label
          FROM devices d WHERE d.run_id = r.id ORDER BY d.ordinal)) AS devices,
       (SELECT count(*) FROM processes x WHERE x.run_id = r.id) AS processes,
       (SELECT count(*) FROM kernels x WHERE x.run_id = r.id) AS kernels,
       (SELECT count(*) FROM memcpys x WHERE x.run_id = r.id) AS memcpys,
       (SELECT count(*) FROM memsets x WHERE x.run_id = r.id) AS memsets,
       (SELECT count(*) FROM api_calls x WHERE x.run_id = r.id) AS api_calls,
       (SELECT count(*) FROM ranges x WHERE x.run_id = r.id) AS ranges,
       (SELECT count(*) FROM marks x WHERE x.run_id = r.id) AS marks,
       (SELECT count(*) FROM memory_events x WHERE x.run_id = r.id) AS memory_events,
       (SELECT count(*) FROM counters x WHERE x.run_id = r.id) AS counters
FROM runs r
WHERE :run IS NULL OR r.id = :run
ORDER BY r.id
LIMIT coalesce(:limit, -1);
