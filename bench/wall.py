#!/usr/bin/env python3
"""Wall time of a command, N runs: prints "min med max" in seconds (bench/peers.sh).

    wall.py N COMMAND [ARG...]

Each run's stdout goes to /dev/null; a run that fails stops it (exit 1, its stderr shown).
"""
import subprocess
import sys
import time


def main():
    n, cmd = int(sys.argv[1]), sys.argv[2:]
    times = []
    for _ in range(n):
        t = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - t)
        if p.returncode != 0:
            sys.stderr.write(p.stderr.decode(errors="replace"))
            sys.exit("wall.py: %s failed (exit %d)" % (" ".join(cmd), p.returncode))
    times.sort()
    print("%.4f %.4f %.4f" % (times[0], times[len(times) // 2], times[-1]))


if __name__ == "__main__":
    main()
