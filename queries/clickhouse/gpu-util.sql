-- GPU utilization per rank over time: kernel busy time per time bucket (ClickHouse)
-- option bucket-ms=<ms> (default 100): bucket width in milliseconds
-- Columns: rank, bucket_start_ns (start of the bucket on the trace clock, a multiple of the
-- width), busy_ns (length of the union of the rank's kernels inside the bucket: concurrent
-- kernels count once), util_pct (busy_ns / width * 100, 2 decimals). Buckets without kernels are
-- left out. Rows by rank, then bucket. Reads only completed pushes (push_id in runs).
SELECT rank, b * w AS bucket_start_ns,
       arraySum(arrayMap((d, n) -> if(n > 0, d, 0), arrayPopFront(arrayDifference(t)), arrayPopBack(c))) AS busy_ns,
       round(100 * busy_ns / w, 2) AS util_pct
FROM (
  SELECT rank, b, any(w) AS w,
         arraySort(arrayConcat(groupArray((s, toInt64(1))), groupArray((e, toInt64(-1))))) AS ev,
         arrayMap(x -> x.1, ev) AS t, arrayCumSum(arrayMap(x -> x.2, ev)) AS c
  FROM (
    SELECT rank, w, b, greatest(start_ns, b * w) AS s, least(end_ns, (b + 1) * w) AS e
    FROM (
      SELECT rank, start_ns, end_ns, toInt64({bucket_ms} * 1000000) AS w,
             intDiv(start_ns, w) AS b0,
             arrayJoin(arrayMap(x -> b0 + toInt64(x), range(toUInt64(intDiv(end_ns - 1, w) - b0 + 1)))) AS b
      FROM kernels
      WHERE end_ns > start_ns AND push_id GLOBAL IN (SELECT push_id FROM runs)
    )
  )
  GROUP BY rank, b
)
ORDER BY rank, bucket_start_ns;
