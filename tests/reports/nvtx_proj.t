#!/bin/sh
# nvtx-gpu-proj-trace / -sum (and the nvtx_gpu_proj function) on a hand-built database, worked out
# by hand from nsys's definition (notes/nsys.md §2.4): nested ranges, ranges on other threads,
# ranges with no GPU work, a range ended on another thread, API calls straddling a range's end,
# closed-interval containment, two operations of one launch, a kernel whose API row is missing.
. "${0%/*}/../lib.sh"
cd "$TMP"
cat "$TOP/schema/schema.sql" "$TOP/schema/views.sql" | sqlite p.db || exit 1
sqlite p.db <<'SQL' || exit 1
INSERT INTO runs(id, source, created_utc, profq_version) VALUES (1, 'test', '2024', 'test');
INSERT INTO processes(id, run_id, pid) VALUES (1, 1, 100);
INSERT INTO threads(id, run_id, process_id, tid) VALUES (1, 1, 1, 100), (2, 1, 1, 101);
INSERT INTO strings(id, value) VALUES (1, 'outer'), (2, 'inner'), (3, 'other'), (4, 'idle'),
  (5, 'k'), (6, 'cudaLaunchKernel'), (7, 'handoff'), (8, 'cudaMemsetAsync');
-- ranges: id, thread, end thread, start, end, kind (0 push/pop, 1 start/end)
INSERT INTO ranges(id, run_id, process_id, thread_id, end_thread_id, start_ns, end_ns, kind, name_id)
VALUES (10, 1, 1, 1, NULL,    0, 1000, 0, 1),   -- outer
       (11, 1, 1, 1, NULL,  100,  200, 0, 2),   -- inner, child of outer
       (12, 1, 1, 1, NULL,  300,  400, 0, 2),   -- inner again
       (13, 1, 1, 1, NULL,  500,  600, 0, 4),   -- idle: no API call inside
       (14, 1, 1, 2, NULL,    0, 1000, 0, 3),   -- other thread
       (15, 1, 1, 1, 2,       0, 1000, 1, 7);   -- start/end ended on thread 2: not projected
INSERT INTO api_calls(id, run_id, process_id, thread_id, start_ns, end_ns, api_kind, name_id, correlation_id)
VALUES (1, 1, 1, 1, 110, 120, 0, 6, 1),   -- in inner#11 and outer
       (2, 1, 1, 1, 310, 320, 0, 6, 2),   -- in inner#12 and outer; launches two kernels
       (3, 1, 1, 1, 350, 360, 0, 8, 3),   -- memset, in inner#12 and outer
       (4, 1, 1, 1, 190, 210, 0, 6, 4),   -- straddles inner#11's end: outer only
       (5, 1, 1, 1, 990, 1000, 0, 6, 5),  -- ends exactly at outer's end: contained
       (7, 1, 1, 2, 20, 30, 0, 6, 7),     -- thread 2: other only
       (8, 1, 1, 1, 1001, 1010, 0, 6, 8); -- after every range
INSERT INTO kernels(run_id, process_id, start_ns, end_ns, correlation_id, name_id) VALUES
  (1, 1, 2000, 2100, 1, 5), (1, 1, 2200, 2500, 2, 5), (1, 1, 2300, 2400, 2, 5),
  (1, 1, 2050, 2080, 4, 5), (1, 1, 3000, 3100, 5, 5), (1, 1, 2700, 2800, 7, 5),
  (1, 1, 5000, 9000, 99, 5),   -- no API row: not projected
  (1, 1, 4000, 4100, 8, 5);
INSERT INTO memsets(run_id, process_id, start_ns, end_ns, correlation_id, bytes)
VALUES (1, 1, 2600, 2650, 3, 64);
SQL

is "$("$PROFQ" nvtx-gpu-proj-trace p.db --format csv)" \
"name,proj_start_ns,proj_duration_ns,orig_start_ns,orig_duration_ns,style,pid,tid,num_gpu_ops,level,num_child,range_id,parent_id,run_id
:outer,2000,1100,0,1000,PushPop,100,100,5,0,3,10,,1
:inner,2000,100,100,100,PushPop,100,100,1,1,0,11,10,1
:inner,2200,450,300,100,PushPop,100,100,2,1,0,12,10,1
:other,2700,100,0,1000,PushPop,100,101,1,0,0,14,,1" "trace: hand-worked projection"

is "$("$PROFQ" nvtx-gpu-proj-sum p.db --format csv)" \
"time_pct,total_proj_ns,total_range_ns,range_instances,proj_avg_ns,proj_med_ns,proj_min_ns,proj_max_ns,proj_stddev_ns,total_gpu_ops,avg_gpu_ops,avg_range_level,avg_num_child,style,range
62.9,1100,1000,1,1100.0,1100,1100,1100,0.0,5,5.0,0.0,3.0,PushPop,:outer
31.4,550,200,2,275.0,275,100,450,247.5,3,1.5,1.0,0.0,PushPop,:inner
5.7,100,1000,1,100.0,100,100,100,0.0,1,1.0,0.0,0.0,PushPop,:other" "sum: hand-worked totals"

is "$("$PROFQ" nvtx-kern-sum p.db --format csv | cut -d, -f1-7,13)" \
"pid,tid,range,style,nvtx_inst,kern_inst,total_ns,kernel_name
100,100,:outer,PushPop,1,5,630,k
100,100,:inner,PushPop,2,3,500,k
100,101,:other,PushPop,1,1,100,k" "nvtx-kern-sum: kernels (not the memset) in every enclosing range"

is "$("$PROFQ" nvtx-gpu-proj-trace p.db --run 1 --format csv | wc -l)" 5 "--run 1 is the whole database"
"$PROFQ" nvtx-gpu-proj-trace p.db --run 2 --format csv >out 2>err
is "$?:$(cat out):$(cat err)" "1::profq: nvtx-gpu-proj-trace: no run 2 in p.db (runs: 1)" \
	"--run 2 (no such run): exit 1, says which runs there are"
# The same file through sqlite3 with the .load line, from the repository root.
is "$(cd "$TOP" && sqlite -csv -header "$TMP/p.db" <queries/nvtx-gpu-proj-sum.sql | tr -d '\r')" \
	"$("$PROFQ" nvtx-gpu-proj-sum p.db --format csv)" "sqlite3 < queries/nvtx-gpu-proj-sum.sql"
# The function on its own; a bad run argument is an error.
is "$("$PROFQ" sql p.db --format csv "SELECT count(*) FROM nvtx_gpu_proj(NULL)")" \
	"$(printf 'count(*)\n4')" "nvtx_gpu_proj(NULL): every run"
"$PROFQ" sql p.db "SELECT * FROM nvtx_gpu_proj('x')" >/dev/null 2>err
like "$(cat err)" "nvtx_gpu_proj: the run must be an integer" "nvtx_gpu_proj('x') is an error"
# Domains and ranges never closed (second database): a domain of one name in two processes is one
# group; no domain and an unnamed domain are both ":step"; an open start/end range ends at the run's
# last NVTX timestamp, here a mark (5000) after every range, in orig_duration_ns and
# total_range_ns alike.
cat "$TOP/schema/schema.sql" "$TOP/schema/views.sql" | sqlite d.db || exit 1
sqlite d.db <<'SQL' || exit 1
INSERT INTO runs(id, source, created_utc, profq_version) VALUES (1, 'test', '2024', 'test');
INSERT INTO processes(id, run_id, pid) VALUES (1, 1, 100), (2, 1, 200);
INSERT INTO threads(id, run_id, process_id, tid) VALUES (1, 1, 1, 100), (2, 1, 2, 200);
INSERT INTO strings(id, value) VALUES (1, 'dom'), (2, ''), (3, 'step'), (4, 'cudaLaunchKernel'),
  (5, 'k'), (6, 'mark');
INSERT INTO nvtx_domains(id, run_id, process_id, name_id) VALUES (1, 1, 1, 1), (2, 1, 2, 1), (3, 1, 1, 2);
INSERT INTO ranges(id, run_id, process_id, thread_id, domain_id, start_ns, end_ns, kind, name_id)
VALUES (20, 1, 1, 1, 1,       0,  100, 0, 3),   -- dom:step, pid 100
       (21, 1, 2, 2, 2,       0,  300, 0, 3),   -- dom:step, pid 200
       (22, 1, 1, 1, NULL,  200, NULL, 1, 3),   -- :step, never closed: ends at 5000
       (23, 1, 1, 1, 3,     400,  500, 1, 3);   -- :step (unnamed domain), inside 22
INSERT INTO marks(run_id, process_id, thread_id, ts_ns, kind, name_id) VALUES (1, 1, 1, 5000, 0, 6);
INSERT INTO api_calls(run_id, process_id, thread_id, start_ns, end_ns, api_kind, name_id, correlation_id)
VALUES (1, 1, 1, 10, 20, 0, 4, 1), (1, 2, 2, 10, 20, 0, 4, 2), (1, 1, 1, 250, 260, 0, 4, 3),
       (1, 1, 1, 410, 420, 0, 4, 4);
INSERT INTO kernels(run_id, process_id, start_ns, end_ns, correlation_id, name_id) VALUES
  (1, 1, 1000, 1100, 1, 5), (1, 2, 1000, 1300, 2, 5), (1, 1, 2000, 2050, 3, 5),
  (1, 1, 3000, 3200, 4, 5);
SQL
# :step = 22 (proj 2000..3200, range 200..5000) and 23 (3000..3200, 400..500): sd of 1200 and 200
# is 707.1; dom:step = 20 (100) and 21 (300): sd 141.4; shares 1400 and 400 of 1800.
is "$("$PROFQ" nvtx-gpu-proj-sum d.db --format csv)" \
"time_pct,total_proj_ns,total_range_ns,range_instances,proj_avg_ns,proj_med_ns,proj_min_ns,proj_max_ns,proj_stddev_ns,total_gpu_ops,avg_gpu_ops,avg_range_level,avg_num_child,style,range
77.8,1400,4900,2,700.0,700,200,1200,707.1,3,1.5,0.5,0.5,StartEnd,:step
22.2,400,400,2,200.0,200,100,300,141.4,2,1.0,0.0,0.0,PushPop,dom:step" \
	"sum: one group per domain name; no domain and an unnamed one alike; open range to the last mark"
is "$("$PROFQ" nvtx-gpu-proj-trace d.db --format csv | cut -d, -f1-6,12,13)" \
"name,proj_start_ns,proj_duration_ns,orig_start_ns,orig_duration_ns,style,range_id,parent_id
dom:step,1000,100,0,100,PushPop,20,
dom:step,1000,300,0,300,PushPop,21,
:step,2000,1200,200,4800,StartEnd,22,
:step,3000,200,400,100,StartEnd,23,22" "trace: the open range's duration runs to the last mark"
is "$("$PROFQ" sql d.db --format csv "SELECT range_id, range_end_ns FROM nvtx_gpu_proj ORDER BY 1")" \
"range_id,range_end_ns
20,100
21,300
22,5000
23,500" "nvtx_gpu_proj: range_end_ns closes the open range"
done_testing
