-- SQLite reference for queries/clickhouse/rank-steps.sql, on a merged profq file.
WITH s AS (
  SELECT CAST(substr(n.value, 14) AS INTEGER) AS step, ru.rank, r.end_ns - r.start_ns AS step_ns
  FROM ranges r JOIN strings n ON n.id = r.name_id JOIN runs ru ON ru.id = r.run_id
  WHERE r.kind = 2 AND n.value GLOB 'ProfilerStep#*' AND r.end_ns IS NOT NULL
),
m AS (SELECT step, median(step_ns) AS med FROM s GROUP BY step),
w AS (SELECT step, rank, row_number() OVER (PARTITION BY step ORDER BY step_ns DESC, rank) AS o FROM s)
SELECT s.step, s.rank, s.step_ns, m.med AS median_ns, s.step_ns - m.med AS excess_ns,
       w.o = 1 AS straggler
FROM s JOIN m USING (step) JOIN w USING (step, rank) ORDER BY s.step, s.rank;
