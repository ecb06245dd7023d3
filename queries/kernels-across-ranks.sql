-- Kernels summed over ranks, with each name's total per rank as min / median / max over the ranks
-- option by=demangled|name (default demangled): the name kernels are grouped by: demangled (else as recorded), or name as recorded (mangled)
.load build/profq
-- Columns: ranks, instances, total_ns, min_rank_ns, med_rank_ns, max_rank_ns, max_rank,
-- max_run_id, name.
-- Every run of the file is a rank (`profq merge` puts a job's ranks in one file). Per kernel name:
-- ranks = the runs that ran it, instances and total_ns = summed over all runs; min_rank_ns,
-- med_rank_ns, max_rank_ns = the minimum, median (the extension's median(), linear
-- interpolation) and maximum over every run of that run's total for the name, a run without the
-- kernel counting 0; max_rank / max_run_id = the run with the largest total (runs.rank; the
-- lowest rank, then run id, on a tie). A wide min-max spread points at load imbalance or a slow
-- rank. Sorted by total_ns descending, then name. --run ID keeps one run (then min = median = max).
WITH
sel AS (SELECT id AS run_id, rank FROM runs WHERE :run IS NULL OR id = :run),
per AS (
  SELECT k.run_id,
         CASE WHEN coalesce(:by, 'demangled') = 'name' THEN k.name_id
              ELSE coalesce(k.demangled_name_id, k.name_id) END AS nid,
         count(*) AS n, sum(k.end_ns - k.start_ns) AS t
  FROM kernels k WHERE k.run_id IN (SELECT run_id FROM sel)
  GROUP BY 1, 2
),
grid AS (  -- every run x every name, 0 where the run did not run it
  SELECT s.run_id, s.rank, x.nid, coalesce(p.n, 0) AS n, coalesce(p.t, 0) AS t,
         row_number() OVER (PARTITION BY x.nid ORDER BY coalesce(p.t, 0) DESC,
                            s.rank IS NULL, s.rank, s.run_id) AS pos
  FROM sel s CROSS JOIN (SELECT DISTINCT nid FROM per) x
  LEFT JOIN per p ON p.run_id = s.run_id AND p.nid = x.nid
)
SELECT count(CASE WHEN g.n > 0 THEN 1 END) AS ranks, sum(g.n) AS instances, sum(g.t) AS total_ns,
       min(g.t) AS min_rank_ns, round(median(g.t), 1) AS med_rank_ns, max(g.t) AS max_rank_ns,
       max(CASE WHEN g.pos = 1 THEN g.rank END) AS max_rank,
       max(CASE WHEN g.pos = 1 THEN g.run_id END) AS max_run_id,
       s.value AS name
FROM grid g JOIN strings s ON s.id = g.nid
GROUP BY g.nid
ORDER BY total_ns DESC, name
LIMIT coalesce(:limit, -1);
