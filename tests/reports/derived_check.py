#!/usr/bin/python3
"""Stored derived rows against their views' definitions (tests/reports/derived.t).

    derived_check.py DB EXTENSION

For every derived table T of DB: its rows, and the rows v_T computes from the events once the
run is no longer listed in derived_runs (in a transaction rolled back after), compared as Python
values (REALs exactly). Prints "T<TAB>same" or "T<TAB>differs: ...", and "listed<TAB>N" with the
number of (run, table) pairs derived_runs lists.
"""
import sqlite3
import sys

TABLES = ["tb_steps", "tb_step_times", "tb_gpu_metrics", "tb_kernel_sums", "tb_op_sums", "tb_memory_sums",
          "hta_temporal_breakdown", "hta_idle_breakdown", "hta_comm_overlap"]


def main():
    con = sqlite3.connect(sys.argv[1], isolation_level=None)
    con.enable_load_extension(True)
    con.load_extension(sys.argv[2])
    print("listed\t%d" % con.execute("SELECT count(*) FROM derived_runs").fetchone()[0])
    for t in TABLES:
        stored = sorted(con.execute("SELECT * FROM %s" % t).fetchall(), key=repr)
        con.execute("BEGIN")
        con.execute("DELETE FROM derived_runs WHERE name = ?", (t,))
        computed = sorted(con.execute("SELECT * FROM v_%s" % t).fetchall(), key=repr)
        con.execute("ROLLBACK")
        if stored == computed:
            print("%s\tsame (%d rows)" % (t, len(stored)))
        else:
            diff = [(a, b) for a, b in zip(stored, computed) if a != b][:2]
            print("%s\tdiffers: %d stored, %d computed, %r" % (t, len(stored), len(computed), diff))


if __name__ == "__main__":
    main()
