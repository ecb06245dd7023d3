#!/usr/bin/env python3
"""Wall time of each phase of one `profq import --progress` (bench/rows_ceiling.sh).

    import_phases.py PROFQ DB TRACE

Prints "rows S index S finish S total S writer S": rows from the start until the index build
begins (reading and writing the rows; for a Chrome trace the parsing runs beside the writing),
index until the commit phase begins, finish the rest (the derived tables and the commit), and
writer the CPU time (user + system) of profq's main thread, the one that writes the rows, when the
index build begins. The phases are read from the progress lines profq writes to stderr; a failed
import exits 1 with its stderr.
"""
import os
import subprocess
import sys
import time


def thread_cpu(pid):
    """CPU seconds of the process's main thread so far (/proc, clock ticks)."""
    with open("/proc/%d/task/%d/stat" % (pid, pid)) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    profq, db, trace = sys.argv[1:4]
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.remove(db + suffix)
        except FileNotFoundError:
            pass
    t0 = time.perf_counter()
    p = subprocess.Popen([profq, "import", "--progress", "-o", db, trace],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    marks, line, err, writer = {}, b"", b"", 0.0
    while True:
        c = p.stderr.read(1)
        if not c:
            break
        err += c
        if c not in b"\r\n":
            line += c
            continue
        text = line.decode(errors="replace")
        line = b""
        for key, phase in ((": building indexes", "index"), (": committing", "finish")):
            if key in text and phase not in marks:
                marks[phase] = time.perf_counter() - t0
                if phase == "index":
                    writer = thread_cpu(p.pid)
    if p.wait() != 0:
        sys.stderr.write(err.decode(errors="replace")[-2000:])
        sys.exit("import_phases.py: profq import failed (exit %d)" % p.returncode)
    total = time.perf_counter() - t0
    index = marks.get("index", total)
    finish = marks.get("finish", total)
    print("rows %.4f index %.4f finish %.4f total %.4f writer %.4f" %
          (index, finish - index, total - finish, total, writer))


if __name__ == "__main__":
    main()
