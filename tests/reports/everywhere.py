"""Helpers for everywhere.t (run with /usr/bin/python3).

  everywhere.py run PROFQ_PY_DIR DB PLAN OUTDIR SUFFIX
      imports profq.py from PROFQ_PY_DIR, and for each PLAN line "ID REPORT [NAME=VALUE]..."
      writes OUTDIR/ID.SUFFIX: the report's rows through profq.run_report, as CSV with every
      value in SQLite's own text form (CAST(? AS TEXT): reals as "%!.15g", the form profq and
      the sqlite3 shell print), NULL as an empty field.
  everywhere.py compare OUTDIR REF SUFFIX...
      for each OUTDIR/ID.REF prints "ID<TAB>SUFFIX<TAB>ok|differs<TAB>detail" per SUFFIX,
      comparing canonical forms: the CSV parsed (RFC 4180: quoting and line ends do not
      matter), and a header with no rows counted as no output (the sqlite3 shell prints no
      header for an empty result).
"""
import csv
import io
import os
import sys


def run(py_dir, db, plan, outdir, suffix):
    sys.path.insert(0, py_dir)
    import profq
    conn = profq.connect(db)
    with open(plan) as f:
        for line in f:
            fields = line.split()
            ident, report, opts = fields[0], fields[1], fields[2:]
            params = dict(o.split("=", 1) for o in opts)
            try:
                columns, rows = profq.run_report(conn, report, **params)
            except Exception as e:  # recorded, compared as a difference
                columns, rows = ["error"], [(str(e),)]
            with open(os.path.join(outdir, "%s.%s" % (ident, suffix)), "w", newline="") as out:
                w = csv.writer(out, lineterminator="\n")
                w.writerow(columns)
                for row in rows:
                    w.writerow([text(conn, v) for v in row])


def text(conn, value):
    if value is None:
        return ""
    if isinstance(value, float):
        return conn.execute("SELECT CAST(? AS TEXT)", (value,)).fetchone()[0]
    return str(value)


def canonical(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(io.StringIO(f.read())))
    except FileNotFoundError:
        return None
    return rows if len(rows) > 1 else []


def compare(outdir, ref, suffixes):
    for name in sorted(os.listdir(outdir)):
        if not name.endswith("." + ref):
            continue
        ident = name[:-len(ref) - 1]
        want = canonical(os.path.join(outdir, name))
        for suffix in suffixes:
            got = canonical(os.path.join(outdir, "%s.%s" % (ident, suffix)))
            if got == want:
                print("%s\t%s\tok\t%d rows" % (ident, suffix, max(len(want) - 1, 0)))
                continue
            detail = "missing" if got is None else "rows %d vs %d" % (len(got), len(want))
            for i, (a, b) in enumerate(zip(got or [], want)):
                if a != b:
                    detail += "; first difference, row %d: %s vs %s" % (i, a, b)
                    break
            print("%s\t%s\tdiffers\t%s" % (ident, suffix, detail[:600]))


if __name__ == "__main__":
    if sys.argv[1] == "run":
        run(*sys.argv[2:7])
    else:
        compare(sys.argv[2], sys.argv[3], sys.argv[4:])
