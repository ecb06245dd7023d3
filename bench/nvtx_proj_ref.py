#!/usr/bin/env python3
"""The naive reference for nvtx-gpu-proj-sum (bench/nvtx_proj.sh; not part of profq).

    nvtx_proj_ref.py PROFILE.db

Reads the profq file with Python's sqlite3 and projects the NVTX ranges onto their GPU work the
plain way: per thread, ranges sorted by start and nested with a stack; per operation, bisect to the
last range starting at or before its API call and walk up its parents (push/pop ranges nest, so
every range holding the call is one of them). Prints
the integer columns of nvtx-gpu-proj-sum (csv, same order) for bench/nvtx_proj.sh to compare.
"""
import bisect
import collections
import sqlite3
import statistics
import sys

db = sqlite3.connect(sys.argv[1])
last = dict(db.execute("SELECT run_id, max(ts) FROM (SELECT run_id, max(coalesce(end_ns, start_ns)) "
                       "ts FROM ranges WHERE kind IN (0, 1) GROUP BY run_id UNION ALL SELECT run_id, "
                       "max(ts_ns) FROM marks WHERE kind = 0 GROUP BY run_id) GROUP BY run_id"))
names = dict(db.execute("SELECT r.id, coalesce(ds.value, '') || ':' || n.value FROM ranges r "
                        "JOIN strings n ON n.id = r.name_id LEFT JOIN nvtx_domains nd "
                        "ON nd.id = r.domain_id LEFT JOIN strings ds ON ds.id = nd.name_id "
                        "WHERE r.kind IN (0, 1)"))
by_thread = collections.defaultdict(list)
for rid, tid, s, e, run, kind in db.execute(
        "SELECT id, thread_id, start_ns, end_ns, run_id, kind FROM ranges WHERE kind IN (0, 1) "
        "AND thread_id IS NOT NULL AND (end_thread_id IS NULL OR end_thread_id = thread_id)"):
    by_thread[tid].append((s, -(last[run] if e is None else e), rid, kind))
ops = collections.defaultdict(list)
for row in db.execute("SELECT a.thread_id, a.start_ns, a.end_ns, g.start_ns, g.end_ns, "
                      "g.correlation_id FROM (SELECT run_id, process_id, correlation_id, start_ns, "
                      "end_ns FROM kernels UNION ALL SELECT run_id, process_id, correlation_id, "
                      "start_ns, end_ns FROM memcpys UNION ALL SELECT run_id, process_id, "
                      "correlation_id, start_ns, end_ns FROM memsets) g JOIN api_calls a ON "
                      "a.run_id = g.run_id AND a.process_id = g.process_id AND a.correlation_id = "
                      "g.correlation_id WHERE a.thread_id IS NOT NULL"):
    ops[row[0]].append(row[1:])
groups = collections.defaultdict(list)
for tid, ranges in by_thread.items():
    ranges.sort()
    starts = [r[0] for r in ranges]
    level, nchild, parent, stack = [0] * len(ranges), [0] * len(ranges), [-1] * len(ranges), []
    for i, (s, ne, _, _) in enumerate(ranges):
        while stack and -ranges[stack[-1]][1] < -ne:
            stack.pop()
        level[i] = len(stack)
        if stack:
            nchild[stack[-1]] += 1
            parent[i] = stack[-1]
        stack.append(i)
    got = {}
    for a_s, a_e, g_s, g_e, corr in ops.get(tid, ()):
        i = bisect.bisect_right(starts, a_s) - 1
        while i >= 0:
            if -ranges[i][1] >= a_e:
                lo, hi, corrs = got.get(i, (g_s, g_e, set()))
                corrs.add(corr)
                got[i] = (min(lo, g_s), max(hi, g_e), corrs)
            i = parent[i]
    for i, (lo, hi, corrs) in got.items():
        s, ne, rid, kind = ranges[i]
        style = "PushPop" if kind == 0 else "StartEnd"
        groups[(names[rid], style)].append((hi - lo, -ne - s, len(corrs), level[i], nchild[i]))
print("total_proj_ns,total_range_ns,range_instances,proj_med_ns,proj_min_ns,proj_max_ns,"
      "total_gpu_ops,style,range")
rows = []
for (name, style), v in groups.items():
    d = [x[0] for x in v]
    rows.append((sum(d), sum(x[1] for x in v), len(v), statistics.median(d), min(d), max(d),
                 sum(x[2] for x in v), style, name))
rows.sort(key=lambda r: (-r[0], -r[2], r[8], r[7]))
for r in rows:
    med = int(r[3]) if r[3] == int(r[3]) else r[3]
    print(",".join(str(x) for x in (r[0], r[1], r[2], med) + r[4:]))
