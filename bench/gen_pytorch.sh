#!/bin/sh
# gen_pytorch.sh OUT.db KERNELS [PER_STEP]
# Writes a synthetic PyTorch-profiler-shaped run into the profq schema with SQL (what the Chrome
# importer writes for a Kineto trace, without the stored derivations, so the reports compute
# from the events): one CPU thread, one GPU stream; per kernel j (a 10 us slot) an aten operator
# [1, 6) us, its cudaLaunchKernel [2, 3) us (correlation and external id j + 1) and the kernel
# from 5 us for 3-7 us; every PER_STEP (default 1000) kernels a ProfilerStep#N range with a
# DataLoader range at its start. 100 kernel names. For bench/growth.sh.
set -eu
out=$1
nk=$2
per=${3:-1000}
top=$(cd "$(dirname "$0")/.." && pwd)
rm -f "$out"
cat "$top/schema/schema.sql" "$top/schema/views.sql" | sqlite3 "$out"
sqlite3 "$out" >/dev/null <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA cache_size = -1000000;
BEGIN;
INSERT INTO runs(id, source, created_utc, profq_version, start_ns, end_ns, status)
VALUES (1, 'synthetic', '2024-01-01T00:00:00Z', 'bench', 0, $nk * 10000 + 20000, 'complete');
INSERT INTO processes(id, run_id, pid) VALUES (1, 1, 1000);
INSERT INTO threads(id, run_id, process_id, tid) VALUES (1, 1, 1, 1000);
INSERT INTO devices(id, run_id, ordinal, name) VALUES (1, 1, 0, 'Synthetic GPU');
INSERT INTO streams(id, run_id, process_id, device_id, stream) VALUES (1, 1, 1, 1, 7);
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99)
INSERT INTO strings(id, value) SELECT 100 + i, 'synthetic_kernel_' || i FROM n;
INSERT INTO strings(id, value) VALUES (1, 'cudaLaunchKernel'), (2, 'Operator'),
  (3, 'aten::conv2d'), (4, 'aten::add_'),
  (5, 'enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__');
WITH RECURSIVE s(s) AS (SELECT 0 UNION ALL SELECT s + 1 FROM s WHERE (s + 1) * $per < $nk)
INSERT INTO strings(id, value) SELECT 1000 + s, 'ProfilerStep#' || s FROM s;
WITH RECURSIVE s(s) AS (SELECT 0 UNION ALL SELECT s + 1 FROM s WHERE (s + 1) * $per < $nk)
INSERT INTO ranges(run_id, process_id, thread_id, start_ns, end_ns, kind, name_id, category_id)
SELECT 1, 1, 1, s * $per * 10000, (s + 1) * $per * 10000 - 50, 2, 1000 + s, 2 FROM s
UNION ALL
SELECT 1, 1, 1, s * $per * 10000 + 100, s * $per * 10000 + 900, 2, 5, 2 FROM s;
WITH RECURSIVE j(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM j WHERE j + 1 < $nk)
INSERT INTO ranges(run_id, process_id, thread_id, start_ns, end_ns, kind, name_id, category_id,
                   external_id)
SELECT 1, 1, 1, j * 10000 + 1000, j * 10000 + 6000, 2, 3 + j % 2, 2, j + 1 FROM j;
WITH RECURSIVE j(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM j WHERE j + 1 < $nk)
INSERT INTO api_calls(run_id, process_id, thread_id, start_ns, end_ns, api_kind, name_id,
                      correlation_id, external_id)
SELECT 1, 1, 1, j * 10000 + 2000, j * 10000 + 3000, 0, 1, j + 1, j + 1 FROM j;
WITH RECURSIVE j(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM j WHERE j + 1 < $nk)
INSERT INTO kernels(run_id, process_id, device_id, stream_id, start_ns, end_ns, correlation_id,
                    external_id, name_id)
SELECT 1, 1, 1, 1, j * 10000 + 5000, j * 10000 + 8000 + (j * 7919) % 4000, j + 1, j + 1,
       100 + (j * 31) % 100 FROM j;
COMMIT;
ANALYZE;
SQL
sqlite3 "$out" "SELECT 'kernels', count(*) FROM kernels; SELECT 'api_calls', count(*) FROM api_calls;
  SELECT 'ranges', count(*) FROM ranges;"
