-- Top kernels across ranks: total time per kernel name and its spread over the ranks (ClickHouse)
-- Columns: name, ranks (ranks that ran it), calls, total_ns (all ranks), min_rank_ns,
-- median_rank_ns, max_rank_ns (of the per-rank totals, over the ranks that ran it; the median of
-- an even count is the mean of the middle two). Rows by total_ns descending, then name.
-- Reads only pushed runs that completed (push_id in runs). Same numbers as the SQLite query in
-- tests/clickhouse/ref/kernels-across-ranks.sql on the merged file.
SELECT name, length(t) AS ranks, calls, total_ns,
       t[1] AS min_rank_ns,
       if(length(t) % 2 = 1, toFloat64(t[intDiv(length(t) + 1, 2)]),
          (t[intDiv(length(t), 2)] + t[intDiv(length(t), 2) + 1]) / 2) AS median_rank_ns,
       t[length(t)] AS max_rank_ns
FROM (
  SELECT name, sum(n) AS calls, sum(rank_ns) AS total_ns, arraySort(groupArray(rank_ns)) AS t
  FROM (
    SELECT name, run_key, count() AS n, sum(end_ns - start_ns) AS rank_ns
    FROM kernels WHERE push_id GLOBAL IN (SELECT push_id FROM runs)
    GROUP BY name, run_key
  )
  GROUP BY name
)
ORDER BY total_ns DESC, name;
