#!/usr/bin/env python3
"""roundtrip.py ORIGINAL.db REIMPORTED.db [RUN] - compares two profq databases the way the export
promises: every kernel, memcpy, memset, API call and range of ORIGINAL (run RUN, default all) is
in REIMPORTED with the same times to the ns and the same name (a kernel's demangled name when it
has one), as multisets. Reads both files with Python's sqlite3 alone. Prints one line per table
('kernels 8772 = 8772') and exits 1 on any difference."""
import collections
import sqlite3
import sys

QUERIES = {
    'kernels': "SELECT k.start_ns, k.end_ns, coalesce(d.value, n.value) FROM kernels k"
               " JOIN strings n ON n.id = k.name_id LEFT JOIN strings d ON d.id = k.demangled_name_id",
    'memcpys': "SELECT start_ns, end_ns, bytes FROM memcpys",
    'memsets': "SELECT start_ns, end_ns, bytes FROM memsets",
    'api_calls': "SELECT a.start_ns, a.end_ns, n.value FROM api_calls a JOIN strings n ON n.id = a.name_id",
    'ranges': "SELECT r.start_ns, r.end_ns, n.value FROM ranges r JOIN strings n ON n.id = r.name_id",
}


def rows(path, table, run):
    db = sqlite3.connect(f'file:{path}?mode=ro', uri=True)
    sql = QUERIES[table]
    alias = sql.split(' FROM ')[1].split()[1] if ' JOIN ' in sql else None
    where = f" WHERE {alias + '.' if alias else ''}run_id = {int(run)}" if run else ''
    got = collections.Counter(db.execute(sql + where).fetchall())
    db.close()
    return got


def main():
    a, b = sys.argv[1], sys.argv[2]
    run = sys.argv[3] if len(sys.argv) > 3 else None
    failed = 0
    for t in QUERIES:
        ra, rb = rows(a, t, run), rows(b, t, None)
        same = ra == rb
        print(f"{t} {sum(ra.values())} {'=' if same else '!='} {sum(rb.values())}")
        if not same:
            failed = 1
            for k in list((ra - rb).keys())[:3]:
                print(f'  only in {a}: {k}')
            for k in list((rb - ra).keys())[:3]:
                print(f'  only in {b}: {k}')
    return failed


if __name__ == '__main__':
    sys.exit(main())
