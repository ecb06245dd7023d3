#!/usr/bin/env python3
"""same_rows.py GOT.csv WANT.csv - exit 0 when both CSV files have the same header and rows:
text cells equal, numeric cells equal within 1e-9 relative (the medians are reals on both sides).
Prints the first difference and the row counts otherwise."""
import csv
import math
import sys


def num(v):
    try:
        return float(v)
    except ValueError:
        return None


def main():
    got = list(csv.reader(open(sys.argv[1])))
    want = list(csv.reader(open(sys.argv[2])))
    if len(got) != len(want):
        print(f"# rows: got {len(got)}, want {len(want)}")
    for i, (g, w) in enumerate(zip(got, want)):
        same = len(g) == len(w)
        for a, b in zip(g, w):
            x, y = num(a), num(b)
            if x is not None and y is not None:
                same = same and math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)
            else:
                same = same and a == b
        if not same:
            print(f"# line {i + 1}:\n#   got  {g}\n#   want {w}")
            return 1
    return 0 if len(got) == len(want) and len(got) > 1 else 1


sys.exit(main())
