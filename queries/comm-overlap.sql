-- HTA communication/computation overlap per rank: communication kernel time hidden under computation
.load build/profq
-- Columns: rank, comm_ns (union of communication kernels), overlap_ns (part of it during
-- computation kernels), overlap_pct (NULL without communication kernels). Parameters: :run.
-- Follows HTA (hta/analyzers/communication_analysis.py get_comm_comp_overlap at f4d0062c;
-- notes/kineto_hta.md §3.2): |union(COMPUTATION) ∩ union(COMMUNICATION)| / |union(COMMUNICATION)|,
-- kernel classes by HTA's name patterns (see temporal-breakdown), not tb_plugin's op names.
-- HTA's step selection is not applied. tb_plugin's per-step overlap (communication ops by name)
-- is the dist-summary report.
WITH
sel AS (SELECT id AS run_id, coalesce(rank, 0) AS rank FROM runs WHERE :run IS NULL OR id = :run),
k AS (
  SELECT k.run_id, k.start_ns, k.end_ns,
         CASE WHEN n.value GLOB 'nccl*' OR n.value GLOB 'hip*' OR n.value GLOB 'hccl*'
                   OR n.value GLOB '*ncclKernel*' THEN 'COMM'
              WHEN n.value GLOB 'Memcpy*' OR n.value GLOB 'hipMemcpy*' OR n.value GLOB 'Memset*'
                   OR n.value GLOB 'hipMemset*' OR n.value GLOB 'dma*' THEN 'MEM'
              WHEN NOT (n.value GLOB '*Memcpy*' OR n.value GLOB '*Memset*' OR n.value GLOB '*dma*'
                   OR n.value GLOB '*Sync*' OR n.value GLOB 'Stream Wait Event*' OR n.value GLOB 'cuda*LaunchKernel*'
                   OR n.value GLOB 'runFunction*' OR n.value GLOB 'job_exe*' OR n.value GLOB 'packet*'
                   OR n.value GLOB 'pe_exe*' OR n.value GLOB 'cpum_exe_subgraph*'
                   OR n.value GLOB 'collective_subgraph_execution*') THEN 'COMP'
              ELSE 'OTHER' END AS type
  FROM kernels k JOIN strings n ON n.id = k.name_id WHERE k.run_id IN (SELECT run_id FROM sel)
),
u AS (  -- |COMM ∪ COMP| = |COMM| + |COMP| - |COMM ∩ COMP|
  SELECT run_id,
         interval_union_ns(CASE WHEN type = 'COMM' THEN start_ns END, end_ns) AS comm,
         interval_union_ns(CASE WHEN type = 'COMP' THEN start_ns END, end_ns) AS comp,
         interval_union_ns(CASE WHEN type IN ('COMM', 'COMP') THEN start_ns END, end_ns) AS both_
  FROM k GROUP BY run_id
)
SELECT s.rank, coalesce(u.comm, 0) AS comm_ns, coalesce(u.comm + u.comp - u.both_, 0) AS overlap_ns,
       round(100.0 * (u.comm + u.comp - u.both_) / nullif(u.comm, 0), 2) AS overlap_pct
FROM sel s LEFT JOIN u USING (run_id)
ORDER BY s.rank
LIMIT coalesce(:limit, -1);
