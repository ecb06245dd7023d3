#!/bin/sh
# gen_reports.sh OUT.db [KERNELS] [API_PER_THREAD] [THREADS]
# Writes a synthetic profq database shaped like the large export of nsys-ai issue #300 (defaults:
# 5 threads x 1,412,000 API calls = 7.06 M, 2.19 M kernels, ~15.9 M NVTX push/pop ranges) with SQL
# recursive CTEs into the profq schema. Per thread, API call k runs [k*1000, k*1000+500); every
# call is wrapped by two nested ranges, every 5 calls by one more, every 20 and every 100 by one
# more each (properly nested, 5 levels). Kernels are launched by every third call (round-robin
# over the threads) and run 2000 ns after it, 100 kernel names.
# KERNELS larger than API/3 (e.g. 10000000 with API_PER_THREAD 0) gives a kernels-only database
# (for top-kernels): kernels are then unattached.
set -eu
out=$1
nk=${2:-2190000}
per=${3:-1412000}
nt=${4:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
rm -f "$out"
# the page size profq gives a new file (lib/db.c), so the reports read what an import writes
{ echo "PRAGMA page_size = 16384;"; cat "$top/schema/schema.sql" "$top/schema/views.sql"; } |
	sqlite3 "$out"
sqlite3 "$out" <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA cache_size = -1000000;
DROP INDEX ranges_run_time; DROP INDEX ranges_thread_time; DROP INDEX ranges_name;
DROP INDEX kernels_run_time; DROP INDEX kernels_device_time; DROP INDEX kernels_correlation;
DROP INDEX kernels_name;
DROP INDEX api_calls_run_time; DROP INDEX api_calls_thread_time; DROP INDEX api_calls_correlation;
BEGIN;
INSERT INTO runs(id, source, created_utc, profq_version, start_ns, end_ns)
VALUES (1, 'synthetic', '2024-01-01T00:00:00Z', 'bench', 0, $per * 1000 + 10000);
INSERT INTO processes(id, run_id, pid) VALUES (1, 1, 1000);
WITH RECURSIVE t(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM t WHERE i < $nt)
INSERT INTO threads(id, run_id, process_id, tid) SELECT i, 1, 1, 1000 + i FROM t;
INSERT INTO devices(id, run_id, ordinal, name) VALUES (1, 1, 0, 'Synthetic GPU');
INSERT INTO streams(id, run_id, process_id, device_id, stream) VALUES (1, 1, 1, 1, 7);
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99)
INSERT INTO strings(id, value) SELECT 100 + i, 'synthetic_kernel_' || i || '(float*, int)' FROM n;
INSERT INTO strings(id, value) VALUES (1, 'cudaLaunchKernel_v7000'), (10, 'call'), (11, 'op'),
  (12, 'layer5'), (13, 'block20'), (14, 'step100');
-- API calls: thread th (1..nt), index k; correlation id = k * nt + th.
WITH RECURSIVE k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k + 1 < $per),
th(th) AS (SELECT 1 UNION ALL SELECT th + 1 FROM th WHERE th < $nt)
INSERT INTO api_calls(run_id, process_id, thread_id, start_ns, end_ns, api_kind, name_id, correlation_id)
SELECT 1, 1, th, k * 1000, k * 1000 + 500, 0, 1, k * $nt + th FROM k, th;
-- Kernels: kernel j is launched by correlation id 3 * j + 1.
WITH RECURSIVE j(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM j WHERE j + 1 < $nk)
INSERT INTO kernels(run_id, process_id, device_id, stream_id, start_ns, end_ns, correlation_id, name_id)
SELECT 1, 1, 1, 1, ((3 * j) / $nt) * 1000 + 2000, ((3 * j) / $nt) * 1000 + 2000 + 300 + (j * 7919) % 1000,
       3 * j + 1, 100 + (j * 31) % 100 FROM j;
-- NVTX push/pop ranges, nested.
WITH RECURSIVE k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k + 1 < $per),
th(th) AS (SELECT 1 UNION ALL SELECT th + 1 FROM th WHERE th < $nt)
INSERT INTO ranges(run_id, process_id, thread_id, start_ns, end_ns, kind, name_id, depth)
SELECT 1, 1, th, s, e, 0, nm, d FROM (
  SELECT th, k * 1000 - 100 AS s, k * 1000 + 600 AS e, 10 AS nm, 3 AS d FROM k, th
  UNION ALL SELECT th, k * 1000 - 50, k * 1000 + 550, 11, 4 FROM k, th
  UNION ALL SELECT th, k * 1000 - 200, (k + 4) * 1000 + 700, 12, 2 FROM k, th WHERE k % 5 = 0
  UNION ALL SELECT th, k * 1000 - 300, (k + 19) * 1000 + 800, 13, 1 FROM k, th WHERE k % 20 = 0
  UNION ALL SELECT th, k * 1000 - 400, (k + 99) * 1000 + 900, 14, 0 FROM k, th WHERE k % 100 = 0)
WHERE $per > 0;
COMMIT;
CREATE INDEX ranges_run_time       ON ranges (run_id, start_ns);
CREATE INDEX ranges_thread_time    ON ranges (thread_id, start_ns);
CREATE INDEX ranges_name           ON ranges (name_id);
CREATE INDEX kernels_run_time      ON kernels (run_id, start_ns);
CREATE INDEX kernels_device_time   ON kernels (device_id, start_ns);
CREATE INDEX kernels_correlation   ON kernels (process_id, correlation_id);
CREATE INDEX kernels_name          ON kernels (coalesce(demangled_name_id, name_id),
                                               run_id, start_ns, end_ns - start_ns, end_ns,
                                               demangled_name_id, name_id);
CREATE INDEX api_calls_run_time    ON api_calls (run_id, start_ns);
CREATE INDEX api_calls_thread_time ON api_calls (thread_id, start_ns);
CREATE INDEX api_calls_correlation ON api_calls (process_id, correlation_id);
ANALYZE;
SQL
sqlite3 "$out" "UPDATE runs SET status = 'complete'; SELECT 'kernels', count(*) FROM kernels;
  SELECT 'api_calls', count(*) FROM api_calls; SELECT 'ranges', count(*) FROM ranges;
  SELECT 'threads', count(*) FROM threads;"
