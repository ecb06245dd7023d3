-- Kernel launches summed per thread, device, API and kernel: API, queue, kernel and total time (nsys stats cuda_kern_exec_sum)
.load build/profq
--
-- Columns: pid, tid, device, count, q_count, then avg/med/min/max/stddev (ns) of the total
-- (t_*), API (a_*), queue (q_*) and kernel (k_*) times, api_name, kernel_name, run_id.
-- Per launch as in kern-exec-trace: API = the launching call's duration; queue = kernel start -
-- API end when >= 0, else NULL (q_count counts the launches with a queue time, and the q_* columns
-- are over those only); kernel = kernel duration; total = max(API end, kernel end) - API start.
-- Grouped by (run, pid, tid, device, api_name, kernel_name); kernels without their API row are left
-- out. avg/stddev (sample, 0 for one launch) rounded to 0.1 ns, medians exact. Sorted by the sum
-- of total times, descending.
-- Runs: all runs unless --run ID (:run), each its own rows (run_id column): pid, tid and device
-- are the run's own numbers, which another run can repeat. Parameters: :run, :limit.
-- Needs the profq extension (median, stddev): see top-kernels.sql for how it is loaded.
WITH api AS MATERIALIZED (  -- the API names shown: a "_v<digits>" suffix dropped, once a name
  SELECT an.id, CASE WHEN rtrim(an.value, '0123456789') <> an.value
                      AND rtrim(an.value, '0123456789') LIKE '%\_v' ESCAPE '\'
                     THEN substr(an.value, 1, length(rtrim(an.value, '0123456789')) - 2)
                     ELSE an.value END AS api_name
  FROM strings an WHERE an.id IN (SELECT name_id FROM api_calls)
),
x AS (  -- kernel names by id (strings are unique): grouped as integers, not as long texts
  SELECT k.run_id, t.pid, t.tid, d.ordinal AS device, p.api_name,
         coalesce(k.demangled_name_id, k.name_id) AS kernel_name_id,
         a.end_ns - a.start_ns AS a,
         CASE WHEN k.start_ns >= a.end_ns THEN k.start_ns - a.end_ns END AS q,
         k.end_ns - k.start_ns AS k,
         max(a.end_ns, k.end_ns) - a.start_ns AS t
  FROM kernels k
  JOIN api_calls a ON a.process_id = k.process_id AND a.correlation_id = k.correlation_id
                  AND a.run_id = k.run_id
  JOIN api p ON p.id = a.name_id
  LEFT JOIN v_threads t ON t.thread_id = a.thread_id
  LEFT JOIN devices d ON d.id = k.device_id
  WHERE :run IS NULL OR k.run_id = :run
)
SELECT pid, tid, device, count(*) AS count, count(q) AS q_count,
       round(avg(t), 1) AS t_avg_ns, median(t) AS t_med_ns, min(t) AS t_min_ns, max(t) AS t_max_ns,
       round(coalesce(stddev(t), 0), 1) AS t_stddev_ns,
       round(avg(a), 1) AS a_avg_ns, median(a) AS a_med_ns, min(a) AS a_min_ns, max(a) AS a_max_ns,
       round(coalesce(stddev(a), 0), 1) AS a_stddev_ns,
       round(avg(q), 1) AS q_avg_ns, median(q) AS q_med_ns, min(q) AS q_min_ns, max(q) AS q_max_ns,
       round(CASE WHEN count(q) > 0 THEN coalesce(stddev(q), 0) END, 1) AS q_stddev_ns,
       round(avg(k), 1) AS k_avg_ns, median(k) AS k_med_ns, min(k) AS k_min_ns, max(k) AS k_max_ns,
       round(coalesce(stddev(k), 0), 1) AS k_stddev_ns,
       api_name, (SELECT value FROM strings WHERE id = kernel_name_id) AS kernel_name, run_id
FROM x
GROUP BY run_id, pid, tid, device, api_name, kernel_name_id
ORDER BY sum(t) DESC, count(*) DESC, kernel_name, run_id
LIMIT coalesce(:limit, -1);
