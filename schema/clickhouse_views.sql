-- ClickHouse views that `profq push` creates with its tables (docs/scale-out.md, Views): what
-- several reports of queries/clickhouse/ read, defined once. Each statement is sent on its own
-- (statements end with ';' at the end of a line). Only rows of completed pushes (push_id in runs)
-- are in them, so a report reading a view never sees a half-pushed run. ClickHouse 18.16.

-- GPU work that takes time: kernels with HTA's kernel class by name (COMM nccl*, hip*, hccl*,
-- *ncclKernel*; MEM Memcpy*, hipMemcpy*, Memset*, hipMemset*, dma*; COMP any other kernel not on
-- HTA's non-compute list; else OTHER: the local temporal-breakdown report lists them), memcpys
-- and memsets (MEM). device is the CUDA ordinal, -1 when unknown.
CREATE VIEW IF NOT EXISTS v_gpu_work AS
SELECT run_key, rank, ifNull(device, -1) AS device, start_ns, end_ns,
       multiIf(startsWith(name, 'nccl') OR startsWith(name, 'hip') OR startsWith(name, 'hccl')
                 OR position(name, 'ncclKernel') > 0, 'COMM',
               startsWith(name, 'Memcpy') OR startsWith(name, 'hipMemcpy')
                 OR startsWith(name, 'Memset') OR startsWith(name, 'hipMemset')
                 OR startsWith(name, 'dma'), 'MEM',
               NOT (position(name, 'Memcpy') > 0 OR position(name, 'Memset') > 0
                 OR position(name, 'dma') > 0 OR position(name, 'Sync') > 0
                 OR startsWith(name, 'Stream Wait Event') OR match(name, '^cuda.*LaunchKernel')
                 OR startsWith(name, 'runFunction') OR startsWith(name, 'job_exe')
                 OR startsWith(name, 'packet') OR startsWith(name, 'pe_exe')
                 OR startsWith(name, 'cpum_exe_subgraph')
                 OR startsWith(name, 'collective_subgraph_execution')), 'COMP',
               'OTHER') AS type
FROM kernels WHERE end_ns > start_ns AND push_id GLOBAL IN (SELECT push_id FROM runs)
UNION ALL
SELECT run_key, rank, ifNull(device, -1), start_ns, end_ns, 'MEM' FROM memcpys
WHERE end_ns > start_ns AND push_id GLOBAL IN (SELECT push_id FROM runs)
UNION ALL
SELECT run_key, rank, ifNull(device, -1), start_ns, end_ns, 'MEM' FROM memsets
WHERE end_ns > start_ns AND push_id GLOBAL IN (SELECT push_id FROM runs);

-- Training steps: the ProfilerStep#N ranges (kind cpu_op or user_annotation) that ended; step is N.
CREATE VIEW IF NOT EXISTS v_profiler_steps AS
SELECT run_key, rank, toInt64(extract(name, '^ProfilerStep#([0-9]+)')) AS step, start_ns,
       assumeNotNull(end_ns) AS end_ns
FROM ranges
WHERE kind IN (2, 3) AND match(name, '^ProfilerStep#[0-9]') AND end_ns IS NOT NULL
  AND push_id GLOBAL IN (SELECT push_id FROM runs);
