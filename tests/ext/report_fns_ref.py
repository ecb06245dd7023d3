#!/usr/bin/python3
"""Brute-force references for the report helpers of issue 15 (tests/ext/report_fns.t).

    report_fns_ref.py SUITE EXTENSION

Prints one line per check, "name<TAB>got<TAB>expected": got from the extension, expected from a
direct (quadratic) Python computation of the documented definition, on seeded random data with
ties, points and partial overlaps. Suites: nest (nest_parent, nest_sum, interval_join 'nests' and
'parent'), merge (interval_merge_ns, interval_merge_end), weighted (interval_weighted_ns), windows
(priority_breakdown with many windows against one window at a time), hta (hta_start_ns,
hta_end_ns against the SQL expressions they replace).
"""
import random
import sqlite3
import sys


def connect(ext):
    con = sqlite3.connect(":memory:")
    con.enable_load_extension(True)
    con.load_extension(ext)
    return con


def rows(seed, n, parts=2, span=60, maxlen=25):
    rnd = random.Random(seed)
    out = []
    for i in range(1, n + 1):
        s = rnd.randrange(span)
        e = s + (0 if rnd.random() < 0.1 else rnd.randrange(1, maxlen))
        out.append((i, rnd.randrange(parts), s, e))
    for _ in range(n // 8):  # identical intervals: the id decides
        i, p, s, e = rnd.choice(out)
        out.append((len(out) + 1, p, s, e))
    return out


def encloses(y, x):
    """interval_join's 'nests': y = (id, part, start, end) encloses x."""
    yi, yp, ys, ye = y
    xi, xp, xs, xe = x
    if yp != xp or yi == xi:
        return False
    if xs < xe:
        contains = ys <= xs and xe <= ye
    else:
        contains = ys <= xs and (xs < ye or (ys == ye == xs))
    return contains and (ys < xs or ye > xe or yi < xi)


def suite_nest(con, out):
    for seed in range(6):
        data = rows(seed, 40 + 20 * seed)
        con.execute("DROP TABLE IF EXISTS t")
        con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, part, s, e, w)")
        con.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?)", [(i, p, s, e, i % 7 + 0.5) for i, p, s, e in data])
        exp_parent, exp_sum, exp_pairs = {}, {}, set()
        for y in data:
            exp_sum[y[0]] = sum(x[0] % 7 + 0.5 for x in data if encloses(y, x))
        for x in data:
            enc = [y for y in data if encloses(y, x)]
            exp_pairs.update((x[0], y[0]) for y in enc)
            if enc:
                exp_parent[x[0]] = max(enc, key=lambda y: (y[2], -y[3], y[0]))[0]
        got = dict(con.execute(
            "SELECT id, nest_parent(s, e, id) OVER (PARTITION BY part ORDER BY s, e DESC, id "
            "ROWS UNBOUNDED PRECEDING) FROM t"))
        out("nest_parent seed %d" % seed, {k: v for k, v in got.items() if v is not None}, exp_parent)
        got = dict(con.execute(
            "SELECT id, nest_sum(s, e, id, w) OVER (PARTITION BY part ORDER BY s DESC, e, id DESC "
            "ROWS UNBOUNDED PRECEDING) FROM t"))
        out("nest_sum seed %d" % seed, got, exp_sum)
        q = "SELECT left_id, right_id FROM interval_join('SELECT id, part, s, e FROM t', " \
            "'SELECT id, part, s, e FROM t', '%s')"
        out("interval_join nests seed %d" % seed, set(con.execute(q % "nests")), exp_pairs)
        out("interval_join parent seed %d" % seed, dict(con.execute(q % "parent")), exp_parent)


def hta_merge(rows_):
    """HTA's merge_kernel_intervals: (start, end, k1, k2) in (start, k1, k2, input) order."""
    order = sorted(range(len(rows_)), key=lambda i: (rows_[i][0], rows_[i][2], rows_[i][3], i))
    total, reach, gs, gm = 0, None, None, None
    for i in order:
        s, e = rows_[i][0], rows_[i][1]
        if reach is not None and s <= reach:
            gm = max(gm, e)
            reach = max(reach, e)
            continue
        if gs is not None:
            total += gm - gs
        gs, gm = s, e
        reach = e if reach is None else max(reach, e)
    if gs is not None:
        total += gm - gs
    return total, gm


def suite_merge(con, out):
    for seed in range(8):
        rnd = random.Random(seed)
        data = []
        for i in range(30 + 10 * seed):
            s = rnd.randrange(0, 200, 10)
            e = s + rnd.choice([-10, 0, 10, 20, 40, 90])  # negative lengths, as HTA's -1 µs
            data.append((s, e, rnd.randrange(3), i))
        con.execute("DROP TABLE IF EXISTS m")
        con.execute("CREATE TABLE m (s, e, k1, k2)")
        con.executemany("INSERT INTO m VALUES (?, ?, ?, ?)", data)
        got = con.execute("SELECT interval_merge_ns(s, e, k1, k2), interval_merge_end(s, e, k1, k2) FROM m").fetchone()
        out("interval_merge seed %d" % seed, tuple(got), hta_merge(data))


def suite_weighted(con, out):
    for seed in range(8):
        rnd = random.Random(seed)
        data = [(s, s + rnd.randrange(1, 30), rnd.choice([0.25, 0.5, 0.125, 1.5, 0.0, -1.0]))
                for s in (rnd.randrange(100) for _ in range(25 + 5 * seed))]
        ws, we = 10, 90
        con.execute("DROP TABLE IF EXISTS w")
        con.execute("CREATE TABLE w (s, e, v)")
        con.executemany("INSERT INTO w VALUES (?, ?, ?)", data)
        exp = 0.0
        for t in range(ws, we):
            level = sum(v for s, e, v in data if v > 0 and s <= t < e)
            exp += min(level, 1.0) if level > 0 else 0.0
        got = con.execute("SELECT interval_weighted_ns(s, e, v, 1.0, ?, ?) FROM w", (ws, we)).fetchone()[0]
        out("interval_weighted_ns seed %d" % seed, round(got, 9), round(exp, 9))


def suite_windows(con, out):
    for seed in range(8):
        rnd = random.Random(seed)
        ev = [(s, s + rnd.randrange(1, 40), rnd.choice("ABCD"), rnd.randrange(4))
              for s in (rnd.randrange(300) for _ in range(40))]
        wins = []
        for _ in range(rnd.randrange(1, 7)):
            a = rnd.randrange(-20, 320)
            wins.append((a, a + rnd.randrange(-5, 120)))
        con.execute("DROP TABLE IF EXISTS p")
        con.execute("CREATE TABLE p (s, e, c, pr)")
        con.executemany("INSERT INTO p VALUES (?, ?, ?, ?)", ev)
        text = " ".join("%d %d" % w for w in wins)
        got = con.execute("SELECT value FROM json_each((SELECT priority_breakdown(s, e, c, pr, ?) FROM p))",
                          (text,)).fetchall()
        exp = [con.execute("SELECT priority_breakdown(s, e, c, pr, ?, ?) FROM p", w).fetchone() for w in wins]
        out("priority_breakdown windows seed %d" % seed, [g[0] for g in got], [x[0] for x in exp])


def suite_hta(con, out):
    expr_s = "1000 * (CAST(td AS INTEGER) + (td > CAST(td AS INTEGER)))"
    expr_e = "1000 * (CAST(xe AS INTEGER) - (xe < CAST(xe AS INTEGER)))"
    rnd = random.Random(1)
    cases = [(0, 999, 0), (1, 1, 0), (1000, 1999, 0), (-1500, -200, 0), (123456789, 123457111, 789)]
    for _ in range(300):
        base = rnd.choice([0, 1_700_000_000_123_456_789, 1_623_142_623_460_016_000])
        s = base + rnd.randrange(-10**7, 10**10)
        cases.append((s, s + rnd.randrange(0, 5000), rnd.choice([0, base, base - 789])))
    bad = 0
    for s, e, off in cases:
        got = con.execute("SELECT hta_start_ns(?1, ?3), hta_end_ns(?1, ?2, ?3)", (s, e, off)).fetchone()
        exp = con.execute("SELECT %s, %s FROM (SELECT (?1 - ?3) / 1000 + ((?1 - ?3) %% 1000) / 1000.0 AS td, "
                          "(?1 - ?3) / 1000 + ((?1 - ?3) %% 1000) / 1000.0 + (?2 - ?1) / 1000.0 AS xe)"
                          % (expr_s, expr_e), (s, e, off)).fetchone()
        bad += got != exp
    out("hta_start_ns/hta_end_ns equal the SQL expressions on %d cases" % len(cases), bad, 0)


def main():
    suite, con = sys.argv[1], connect(sys.argv[2])

    def out(name, got, exp):
        print("%s\t%s\t%s" % (name, "same" if got == exp else repr(got)[:300],
                               "same" if got == exp else repr(exp)[:300]))
    {"nest": suite_nest, "merge": suite_merge, "weighted": suite_weighted, "windows": suite_windows,
     "hta": suite_hta}[suite](con, out)


if __name__ == "__main__":
    main()
