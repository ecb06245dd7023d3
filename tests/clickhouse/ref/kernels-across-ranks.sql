-- SQLite reference for queries/clickhouse/kernels-across-ranks.sql, on a merged profq file.
WITH per AS (
  SELECT n.value AS name, k.run_id, count(*) AS n, sum(k.end_ns - k.start_ns) AS rank_ns
  FROM kernels k JOIN strings n ON n.id = k.name_id GROUP BY n.value, k.run_id
)
SELECT name, count(*) AS ranks, sum(n) AS calls, sum(rank_ns) AS total_ns, min(rank_ns) AS min_rank_ns,
       median(rank_ns) AS median_rank_ns, max(rank_ns) AS max_rank_ns
FROM per GROUP BY name ORDER BY total_ns DESC, name;
