"""gpu-util-timeline computed independently: the union of each device's GPU operations, clipped
to equal chunks, from the raw tables. usage: gpu_util_expect.py DB CHUNKS
Prints run_id,device,chunk,start_ns,end_ns,busy_ns,util_pct lines like the report's csv."""
import sqlite3
import sys

db, n = sys.argv[1], int(sys.argv[2])
conn = sqlite3.connect(db)
ops = {}
for table in ("kernels", "memcpys", "memsets"):
    for run, dev, s, e in conn.execute(
            "SELECT t.run_id, d.ordinal, t.start_ns, t.end_ns FROM %s t "
            "LEFT JOIN devices d ON d.id = t.device_id WHERE t.end_ns > t.start_ns" % table):
        ops.setdefault((run, dev), []).append((s, e))
for (run, dev) in sorted(ops, key=lambda k: (k[0], -1 if k[1] is None else k[1])):
    merged = []
    for s, e in sorted(ops[(run, dev)]):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    s0, s1 = merged[0][0], merged[-1][1]
    for i in range(n):
        cs, ce = s0 + (s1 - s0) * i // n, s0 + (s1 - s0) * (i + 1) // n
        if ce <= cs:
            continue
        busy = sum(min(e, ce) - max(s, cs) for s, e in merged if s < ce and e > cs)
        print("%s,%s,%d,%d,%d,%d,%s" % (run, "" if dev is None else dev, i, cs, ce, busy,
                                        repr(round(100.0 * busy / (ce - cs), 2))))
