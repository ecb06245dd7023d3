"""Prints every row of one run of a profq database with run-independent values, so two runs
can be compared: ids of the run's own rows (dimensions, ranges.parent_id) become their rank within
the run; strings stay as their ids' text. Usage: run_dump.py DB RUN_ID"""
import sqlite3
import sys

db, run = sqlite3.connect(sys.argv[1]), int(sys.argv[2])
DIMS = {"processes": ["process_id"], "threads": ["thread_id", "end_thread_id"],
        "devices": ["device_id", "src_device_id", "dst_device_id"], "streams": ["stream_id"],
        "nvtx_domains": ["domain_id"], "ranges": ["parent_id"]}
rel = {}
for table, cols in DIMS.items():
    ids = [r[0] for r in db.execute(f"SELECT id FROM {table} WHERE run_id = ? ORDER BY id", (run,))]
    for c in cols:
        rel[c] = {**rel.get(c, {}), **{i: n for n, i in enumerate(ids)}}
strings = dict(db.execute("SELECT id, value FROM strings"))
tables = [r[0] for r in db.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%run_id%' ORDER BY name")]
for t in ["runs"] + tables:
    cols = [r[1] for r in db.execute(f"PRAGMA table_info({t})")]
    key = "id" if t == "runs" else "run_id"
    order = "rowid" if "id" not in cols else "id"
    if t == "run_metadata":
        order = "key"
    if t == "derived_runs":
        order = "name"  # listed as each table is written, in an order the two CPUs decide
    for row in db.execute(f"SELECT * FROM {t} WHERE {key} = ? ORDER BY {order}", (run,)):
        if t == "run_metadata" and row[1] in ("source_sha256", "source_bytes"):
            continue  # which bytes were read (plain or gzip), like the path: not what they hold
        out = []
        for c, v in zip(cols, row):
            if c in ("id", "run_id", "created_utc"):
                continue
            if c in rel and v is not None:
                v = ("rel", rel[c].get(v))
            elif c.endswith("name_id") or c == "category_id":
                v = strings.get(v)
            out.append((c, v))
        print(t, out)
