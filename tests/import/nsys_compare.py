"""nsys_compare.py RUN_A RUN_B DB - prints every table's rows of two runs with ids replaced by
what they stand for (string values, the referenced row's position in its run), one line per
row, for the identical-imports test. Exit 0 when both runs print the same, 1 otherwise."""
import sqlite3
import sys

FK = {  # column -> referenced table (rows compared by their position in their run)
    "process_id": "processes", "thread_id": "threads", "end_thread_id": "threads",
    "device_id": "devices", "src_device_id": "devices", "dst_device_id": "devices",
    "stream_id": "streams", "domain_id": "nvtx_domains", "parent_id": "ranges",
}
SKIP = {"id", "run_id"}


def dump(db, run):
    out = []
    tables = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    pos = {}
    for t in tables:
        cols = [r[1] for r in db.execute(f"PRAGMA table_info({t})")]
        if "run_id" in cols and "id" in cols:
            ids = [r[0] for r in db.execute(f"SELECT id FROM {t} WHERE run_id = ? ORDER BY id", (run,))]
            pos[t] = {i: n for n, i in enumerate(ids)}
    strings = dict(db.execute("SELECT id, value FROM strings"))
    for t in tables:
        cols = [r[1] for r in db.execute(f"PRAGMA table_info({t})")]
        if "run_id" not in cols:
            continue
        order = "id" if "id" in cols else ", ".join(str(i + 1) for i in range(len(cols)))
        for row in db.execute(f"SELECT * FROM {t} WHERE run_id = ? ORDER BY {order}", (run,)):
            vals = []
            for c, v in zip(cols, row):
                if c in SKIP:
                    continue
                if c in FK and v is not None:
                    v = ("#", FK[c], pos[FK[c]][v])
                elif c.endswith("name_id") or c == "category_id":
                    v = ("s", strings.get(v)) if v is not None else None
                vals.append((c, v))
            out.append(f"{t} {vals!r}")
    run_row = db.execute("SELECT * FROM runs WHERE id = ?", (run,)).fetchone()
    cols = [r[1] for r in db.execute("PRAGMA table_info(runs)")]
    out.append("runs " + repr([(c, v) for c, v in zip(cols, run_row) if c not in ("id", "created_utc")]))
    return out


db = sqlite3.connect(sys.argv[3])
a, b = dump(db, int(sys.argv[1])), dump(db, int(sys.argv[2]))
if a != b:
    for x, y in zip(a, b):
        if x != y:
            print("# first difference:\n#  " + x[:300] + "\n#  " + y[:300])
            break
    print(f"# {len(a)} vs {len(b)} rows")
    sys.exit(1)
print(len(a))
