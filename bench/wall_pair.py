#!/usr/bin/env python3
"""Wall time of two commands run in turn, N runs each (bench/peers.sh: a peer and profq, so that
both see the same state of the machine): prints "min med max" of the first, then of the second.

    wall_pair.py N SEP COMMAND_A [ARG...] SEP COMMAND_B [ARG...]

SEP is any word the commands do not contain (peers.sh uses "::"). Each run's stdout goes to
/dev/null; a run that fails stops it (exit 1, its stderr shown).
"""
import subprocess
import sys
import time


def run(cmd):
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - t
    if p.returncode != 0:
        sys.stderr.write(p.stderr.decode(errors="replace"))
        sys.exit("wall_pair.py: %s failed (exit %d)" % (" ".join(cmd), p.returncode))
    return elapsed


def main():
    n, sep, rest = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    if rest.count(sep) != 1:
        sys.exit("usage: wall_pair.py N SEP COMMAND_A... SEP COMMAND_B...")
    a, b = rest[:rest.index(sep)], rest[rest.index(sep) + 1:]
    if not a or not b:
        sys.exit("usage: wall_pair.py N SEP COMMAND_A... SEP COMMAND_B...")
    times = ([], [])
    for _ in range(n):
        times[0].append(run(a))
        times[1].append(run(b))
    out = []
    for t in times:
        t.sort()
        out.append("%.4f %.4f %.4f" % (t[0], t[len(t) // 2], t[-1]))
    print(" ".join(out))


if __name__ == "__main__":
    main()
