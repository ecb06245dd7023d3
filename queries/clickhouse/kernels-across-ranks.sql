-- Kernels summed over ranks, with each name's total per rank as min / median / max over the ranks (ClickHouse)
-- option by=demangled|name (default demangled): the name kernels are grouped by: demangled (else as recorded), or name as recorded (mangled)
-- Columns: ranks, instances, total_ns, min_rank_ns, med_rank_ns, max_rank_ns, max_rank, name: the
-- local kernels-across-ranks report (queries/kernels-across-ranks.sql) without its max_run_id
-- column, by the same definitions. Every completed push (push_id in runs) is a rank. Per kernel
-- name: ranks = the runs that ran it, instances and total_ns summed over all runs; min_rank_ns,
-- med_rank_ns, max_rank_ns = the minimum, median (mean of the middle two for an even count, 1
-- decimal) and maximum over every run of that run's total for the name, a run without the kernel
-- counting 0; max_rank = the rank with the largest total (the lowest rank on a tie; -1 for a run
-- without a rank, where the local report sorts those last). Rows by total_ns descending, then name.
-- ClickHouse 18.16 has no window functions: the per-run totals of a name are a sorted array,
-- padded with the zeros of the runs that did not run it. Both branches of if() are evaluated, so
-- array indexes are kept >= 1.
SELECT length(t) AS ranks, instances, total_ns,
       if(length(t) < nruns, toInt64(0), t[1]) AS min_rank_ns,
       round(if(nruns % 2 = 1, toFloat64(all_t[intDiv(nruns + 1, 2)]),
                (all_t[greatest(1, intDiv(nruns, 2))] + all_t[intDiv(nruns, 2) + 1]) / 2), 1) AS med_rank_ns,
       t[length(t)] AS max_rank_ns, max_rank, name
FROM (
  SELECT name, sum(n) AS instances, sum(rank_ns) AS total_ns, arraySort(groupArray(rank_ns)) AS t,
         (SELECT count() FROM runs) AS nruns,
         arrayConcat(arrayResize([toInt64(0)], nruns - length(t)), t) AS all_t,
         arraySort(x -> (-x.2, x.1), groupArray((rank, rank_ns)))[1].1 AS max_rank
  FROM (
    SELECT if({by} = 'name', name, ifNull(demangled_name, name)) AS name, run_key, any(rank) AS rank,
           count() AS n, sum(end_ns - start_ns) AS rank_ns
    FROM kernels WHERE push_id GLOBAL IN (SELECT push_id FROM runs)
    GROUP BY name, run_key
  )
  GROUP BY name
)
ORDER BY total_ns DESC, name;
