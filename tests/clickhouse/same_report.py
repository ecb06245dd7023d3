#!/usr/bin/env python3
"""same_report.py FORMAT LOCAL CH PROFILE.db - exit 0 when a ClickHouse report's output (CH) is the
local report's output (LOCAL, on the merged file PROFILE.db) after the normalizations
docs/scale-out.md lists, and nothing else:
  - run_id and max_run_id (row ids of one SQLite file, which ClickHouse does not have) are dropped,
    except in a report without a rank column, where run_id becomes the run's rank (runs.rank);
FORMAT is csv or json. Cells are compared as printed (csv: the text of each cell; json: each value
with its JSON type), header and row order included. Prints the first difference otherwise."""
import csv
import json
import sqlite3
import sys

DROPPED = ("run_id", "max_run_id")


def run_ranks(db, fmt):
    """run id as printed -> the run's rank as printed."""
    con = sqlite3.connect(db)
    rows = con.execute("SELECT id, rank FROM runs").fetchall()
    con.close()
    if fmt == "json":
        return {json.dumps(i): json.dumps(r) for i, r in rows}
    return {str(i): "" if r is None else str(r) for i, r in rows}


def normalize(header, rows, ranks):
    """Header and rows of the local report as ClickHouse prints them."""
    keep, out = [], []
    for i, name in enumerate(header):
        if name == "run_id" and "rank" not in header:
            keep.append(i)
            out.append("rank")
        elif name not in DROPPED:
            keep.append(i)
            out.append(name)
    renamed = "rank" in out and "rank" not in header
    rows = [[ranks[r[i]] if renamed and header[i] == "run_id" else r[i] for i in keep]
            for r in rows]
    return out, rows


def read_csv(path):
    table = list(csv.reader(open(path, newline="")))
    return table[0], table[1:]


def read_json(path):
    rows = json.load(open(path))
    header = list(rows[0].keys()) if rows else []
    return header, [[json.dumps(v) for v in r.values()] for r in rows]


def main():
    fmt, local, ch, db = sys.argv[1:5]
    read = read_csv if fmt == "csv" else read_json
    ranks = run_ranks(db, fmt)
    want = normalize(*read(local), ranks)
    got = read(ch)
    if got[0] != want[0]:
        print(f"# header:\n#   got  {got[0]}\n#   want {want[0]}")
        return 1
    if len(got[1]) != len(want[1]):
        print(f"# rows: got {len(got[1])}, want {len(want[1])}")
    for i, (g, w) in enumerate(zip(got[1], want[1])):
        if g != w:
            print(f"# row {i + 1}:\n#   got  {g}\n#   want {w}")
            return 1
    return 0 if len(got[1]) == len(want[1]) and got[1] else 1


sys.exit(main())
