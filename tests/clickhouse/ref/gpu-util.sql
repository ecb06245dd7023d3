-- SQLite reference for queries/clickhouse/gpu-util.sql (100 ms buckets), on a merged profq file.
WITH RECURSIVE
k AS (SELECT ru.rank, k.start_ns, k.end_ns FROM kernels k JOIN runs ru ON ru.id = k.run_id
      WHERE k.end_ns > k.start_ns),
b (rank, start_ns, end_ns, b, last) AS (
  SELECT rank, start_ns, end_ns, start_ns / 100000000, (end_ns - 1) / 100000000 FROM k
  UNION ALL
  SELECT rank, start_ns, end_ns, b + 1, last FROM b WHERE b < last
)
SELECT rank, b * 100000000 AS bucket_start_ns,
       interval_union_ns(max(start_ns, b * 100000000), min(end_ns, (b + 1) * 100000000)) AS busy_ns,
       round(100.0 * interval_union_ns(max(start_ns, b * 100000000), min(end_ns, (b + 1) * 100000000))
             / 100000000, 2) AS util_pct
FROM b GROUP BY rank, b ORDER BY rank, b;
