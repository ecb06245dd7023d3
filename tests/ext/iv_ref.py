# iv_ref.py - independent brute-force references for the interval family tests.
#
# Usage: python3 iv_ref.py <suite> <extension path without .so>
# Prints one check per line: "name<TAB>got<TAB>expected"; the .t file turns each into a TAP `is`.
# The references share no code or algorithm with ext/: they work on "doubled unit steps": an
# interval [s, e) is the set of instants {2s, 2s+1, ..., 2e-1}, a point p is {2p}. With integer
# times that is exactly the half-open semantics (a point p is in [s, e) iff s <= p < e), and
# lengths are (number of elements) / 2.
import json
import random
import sqlite3
import sys

suite, ext = sys.argv[1], sys.argv[2]
con = sqlite3.connect(":memory:")
con.enable_load_extension(True)
con.load_extension(ext)


def out(name, got, exp):
    print("%s\t%s\t%s" % (name, got, exp))


def err(sql, params=()):
    try:
        con.execute(sql, params).fetchall()
    except sqlite3.Error as e:
        return str(e)
    return "no error"


def units(s, e):
    """The doubled-unit instant set of [s, e) (or of the point s when s == e)."""
    if e == s:
        return {2 * s}
    return set(range(2 * s, 2 * e))


def rand_intervals(rng, n, lo, hi, maxlen, nulls=False):
    rows = []
    for _ in range(n):
        s = rng.randint(lo, hi)
        e = s + rng.randint(-3, maxlen)  # some empty (e <= s) ones
        if nulls and rng.random() < 0.05:
            s = None
        rows.append((s, e))
    return rows


def union_ref(rows):
    inst = set()
    for s, e in rows:
        if s is None or e is None or e <= s:
            continue
        inst |= units(s, e)
    return len(inst) // 2


def suite_union():
    rng = random.Random(20240604)
    # overlap_ns against unit steps
    bad = 0
    for _ in range(2000):
        a = sorted(rng.randint(-20, 20) for _ in range(2))
        b = sorted(rng.randint(-20, 20) for _ in range(2))
        if rng.random() < 0.2:
            a.reverse()  # empty / reversed intervals
        exp = len((units(*a) if a[1] > a[0] else set()) & (units(*b) if b[1] > b[0] else set())) // 2
        got = con.execute("SELECT overlap_ns(?,?,?,?)", (a[0], a[1], b[0], b[1])).fetchone()[0]
        if got != exp:
            bad += 1
            if bad < 3:
                out("overlap_ns(%s,%s)" % (a, b), got, exp)
    out("overlap_ns: 2000 random pairs vs unit steps, mismatches", bad, 0)
    # aggregate union against unit steps, several seeded sets, also grouped
    con.execute("CREATE TABLE iv(g, id INTEGER PRIMARY KEY, s, e)")
    for trial in range(5):
        rows = rand_intervals(rng, rng.choice([1, 10, 300]), -500, 500, rng.choice([5, 60, 400]), True)
        con.execute("DELETE FROM iv")
        con.executemany("INSERT INTO iv(g, s, e) VALUES (?,?,?)",
                        [(i % 3, s, e) for i, (s, e) in enumerate(rows)])
        got = con.execute("SELECT interval_union_ns(s, e) FROM iv").fetchone()[0]
        out("union trial %d (%d rows)" % (trial, len(rows)), got, union_ref(rows))
        got = con.execute("SELECT group_concat(u) FROM (SELECT interval_union_ns(s, e) u FROM iv "
                          "GROUP BY g ORDER BY g)").fetchone()[0]
        exp = ",".join(str(union_ref([r for i, r in enumerate(rows) if i % 3 == g]))
                       for g in range(3) if any(i % 3 == g for i in range(len(rows))))
        out("union trial %d GROUP BY" % trial, got, exp)
    # larger random set, unsorted input, checked against unit steps
    rows = rand_intervals(rng, 5000, 0, 200000, 100)
    con.execute("DELETE FROM iv")
    con.executemany("INSERT INTO iv(g, s, e) VALUES (0,?,?)", rows)
    out("union 5000 random rows", con.execute("SELECT interval_union_ns(s, e) FROM iv").fetchone()[0],
        union_ref(rows))
    # wide range (negative, near ±2^61): checked with an elementary-segment brute force
    def union_segments(rows):
        rows = [(s, e) for s, e in rows if e > s]
        cuts = sorted({x for r in rows for x in r})
        return sum(b - a for a, b in zip(cuts, cuts[1:]) if any(s <= a and b <= e for s, e in rows))
    rows = []
    for _ in range(300):
        s = rng.randint(-2 ** 61, 2 ** 61)
        rows.append((s, s + rng.choice([rng.randint(-5, 5), rng.randint(0, 2 ** 50), 2 ** 58])))
    con.execute("DELETE FROM iv")
    con.executemany("INSERT INTO iv(g, s, e) VALUES (0,?,?)", rows)
    out("union 300 rows over ±2^61", con.execute("SELECT interval_union_ns(s, e) FROM iv").fetchone()[0],
        union_segments(rows))
    # window forms against a brute force per frame
    rows = rand_intervals(rng, 200, 0, 400, 40, True)
    con.execute("DELETE FROM iv")
    con.executemany("INSERT INTO iv(g, s, e) VALUES (?,?,?)", [(i % 2, s, e) for i, (s, e) in enumerate(rows)])
    ids = [r[0] for r in con.execute("SELECT id FROM iv ORDER BY id")]
    frames = {
        "ROWS BETWEEN 3 PRECEDING AND CURRENT ROW": lambda i, n: (i - 3, i),
        "ROWS BETWEEN 5 PRECEDING AND 2 FOLLOWING": lambda i, n: (i - 5, i + 2),
        "ROWS BETWEEN 1 FOLLOWING AND 4 FOLLOWING": lambda i, n: (i + 1, i + 4),
        "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW": lambda i, n: (0, i),
        "ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING": lambda i, n: (i, n - 1),
        "ROWS BETWEEN 4 PRECEDING AND 4 FOLLOWING EXCLUDE CURRENT ROW": None,
    }
    for frame, fr in frames.items():
        got = [r[0] for r in con.execute(
            "SELECT interval_union_ns(s, e) OVER (ORDER BY id %s) FROM iv ORDER BY id" % frame)]
        exp = []
        n = len(rows)
        for i in range(n):
            if fr is None:
                sel = [rows[j] for j in range(max(0, i - 4), min(n, i + 5)) if j != i]
            else:
                a, b = fr(i, n)
                sel = [rows[j] for j in range(max(0, a), min(n - 1, b) + 1)]
            exp.append(union_ref(sel))
        bad = sum(1 for x, y in zip(got, exp) if x != y)
        out("window %s: mismatching rows" % frame, bad, 0)
    got = [r[0] for r in con.execute(
        "SELECT interval_union_ns(s, e) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN 2 PRECEDING "
        "AND 1 FOLLOWING) FROM iv ORDER BY g, id")]
    exp = []
    for g in range(2):
        part = [rows[i] for i in range(len(rows)) if i % 2 == g]
        for i in range(len(part)):
            exp.append(union_ref(part[max(0, i - 2):i + 2]))
    out("window PARTITION BY: mismatching rows", sum(1 for x, y in zip(got, exp) if x != y), 0)
    # RANGE frame over start (rows leave in start order, not insertion order)
    got = [r[0] for r in con.execute(
        "SELECT interval_union_ns(s, e) OVER (ORDER BY s RANGE BETWEEN 50 PRECEDING AND 10 FOLLOWING)"
        " FROM iv WHERE s IS NOT NULL ORDER BY s, id")]
    srows = sorted([r for r in rows if r[0] is not None], key=lambda r: r[0])
    exp = [union_ref([r for r in srows if x[0] - 50 <= r[0] <= x[0] + 10]) for x in srows]
    out("window RANGE frame: mismatching rows", sum(1 for x, y in zip(got, exp) if x != y), 0)
    # GROUPS frame: ~40 rows enter and leave at once (the bulk add/remove paths)
    con.execute("DELETE FROM iv")
    rows = rand_intervals(rng, 400, 0, 400, 30)
    con.executemany("INSERT INTO iv(g, s, e) VALUES (0,?,?)", rows)
    got = [r[0] for r in con.execute(
        "SELECT interval_union_ns(s, e) OVER (ORDER BY s / 40 GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW)"
        " FROM iv ORDER BY s / 40, id")]
    srows = sorted(rows, key=lambda r: r[0] // 40)
    exp = [union_ref([r for r in srows if x[0] // 40 - 1 <= r[0] // 40 <= x[0] // 40]) for x in srows]
    out("window GROUPS frame: mismatching rows", sum(1 for x, y in zip(got, exp) if x != y), 0)


def pb_ref(rows, window=None):
    """rows: (start, end, category, priority). Returns the expected dict, keys in output order."""
    live = [r for r in rows if None not in r]
    if window is None:
        ne = [r for r in live if r[1] > r[0]]
        if not live:
            return None
        window = (min(r[0] for r in ne), max(r[1] for r in ne)) if ne else (0, 0)
    ws, we = window
    best = {}
    for s, e, c, p in live:
        best[c] = min(best.get(c, p), p)
    charged = {c: 0 for c in best}
    other = 0
    for t in range(2 * ws, 2 * we):  # doubled unit steps: each is half a ns
        cover = [(p, c) for s, e, c, p in live if e > s and 2 * s <= t < 2 * e]
        if cover:
            charged[min(cover)[1]] += 1
        else:
            other += 1
    res = {}
    for c in sorted(best, key=lambda c: (best[c], c.encode())):
        res[c] = charged[c] // 2
    res["other"] = other // 2
    res["total"] = max(0, we - ws)
    return res


def suite_priority():
    rng = random.Random(7)
    cats = ["Kernel", "Memcpy", "Memset", "Runtime", "CPU Exec", "a\"quote", "b\\s"]
    con.execute("CREATE TABLE ev(step, s, e, c, p)")
    for trial in range(12):
        n = rng.choice([1, 5, 40, 150])
        rows = []
        for _ in range(n):
            s = rng.randint(0, 300)
            c = rng.choice(cats[:rng.randint(1, len(cats))])
            p = cats.index(c) if rng.random() < 0.8 else rng.randint(0, 9)
            rows.append((s, s + rng.randint(-2, 60), c, p))
        window = None if trial % 2 == 0 else (rng.randint(-20, 100), rng.randint(100, 400))
        con.execute("DELETE FROM ev")
        con.executemany("INSERT INTO ev VALUES (0,?,?,?,?)", rows)
        if window is None:
            got = con.execute("SELECT priority_breakdown(s, e, c, p) FROM ev").fetchone()[0]
        else:
            got = con.execute("SELECT priority_breakdown(s, e, c, p, ?, ?) FROM ev", window).fetchone()[0]
        exp = pb_ref(rows, window)
        out("priority trial %d (%d rows, window %s)" % (trial, n, window),
            json.dumps(json.loads(got, object_pairs_hook=list)), json.dumps(list(exp.items())))
    # GROUP BY step with per-step windows, compared step by step
    con.execute("DELETE FROM ev")
    steps = {1: (0, 100), 2: (100, 250), 3: (250, 260)}
    allrows = []
    for st, (a, b) in steps.items():
        for _ in range(30):
            s = rng.randint(a - 10, b)
            allrows.append((st, s, s + rng.randint(0, 30), rng.choice(cats[:4]), rng.randint(0, 3)))
    con.executemany("INSERT INTO ev VALUES (?,?,?,?,?)", allrows)
    got = con.execute("SELECT group_concat(j, ';') FROM (SELECT priority_breakdown(ev.s, ev.e, c, p, "
                      "w.a, w.b) j FROM ev JOIN (SELECT 1 st, 0 a, 100 b UNION ALL SELECT 2, 100, 250 "
                      "UNION ALL SELECT 3, 250, 260) w ON w.st = ev.step GROUP BY step ORDER BY step)"
                      ).fetchone()[0]
    exp = ";".join(json.dumps(pb_ref([r[1:] for r in allrows if r[0] == st], steps[st]),
                              separators=(",", ":")) for st in steps)
    out("priority GROUP BY step", got, exp)


def pairs_ref(L, R, mode):
    res = set()
    for lid, lp, ls, le in L:
        if ls is None or le is None or le < ls:
            continue
        lu = units(ls, le)
        for rid, rp, rs, re_ in R:
            if rs is None or re_ is None or re_ < rs:
                continue
            if not (lp == rp or (lp is None and rp is None)):
                continue
            ru = units(rs, re_)
            if mode == "contains":
                if lu <= ru:
                    res.add((lid, rid, ls, le, le - ls))
            elif lu & ru:
                os_, oe = max(ls, rs), min(le, re_)
                res.add((lid, rid, os_, oe, oe - os_))
    return res


def nested_ranges(rng, n, parts, t0, t1):
    """NVTX-like push/pop ranges: properly nested within each partition, with some overlap across."""
    rows = []
    for p in parts:
        stack, t = [], t0
        while len(rows) < n * (parts.index(p) + 1) // len(parts) and t < t1:
            if stack and rng.random() < 0.45:
                s = stack.pop()
                rows.append((p, s, t))
            else:
                stack.append(t)
            t += rng.randint(0, 5)
        while stack:
            rows.append((p, stack.pop(), t))
            t += 1
    return rows


def suite_join():
    rng = random.Random(99)
    con.execute("CREATE TABLE a(id INTEGER PRIMARY KEY, part, s, e)")
    con.execute("CREATE TABLE b(id INTEGER PRIMARY KEY, part, s, e)")
    parts = [1, 2, "x", None, 3.0]
    for trial in range(8):
        L, R = [], []
        for side, n in ((L, rng.choice([0, 1, 30, 150])), (R, rng.choice([1, 30, 150]))):
            for _ in range(n):
                s = rng.randint(0, 80)
                kind = rng.random()
                e = s if kind < 0.3 else s + rng.randint(1, 30) if kind < 0.95 else s - 1
                side.append((len(side) + 1 + (1000 if side is R else 0), rng.choice(parts), s, e))
        con.execute("DELETE FROM a")
        con.execute("DELETE FROM b")
        con.executemany("INSERT INTO a VALUES (?,?,?,?)", L)
        con.executemany("INSERT INTO b VALUES (?,?,?,?)", R)
        # the reference treats 3.0 and 3 as one partition, like SQL `IS`
        Ln = [(i, 3 if p == 3.0 else p, s, e) for i, p, s, e in L]
        Rn = [(i, 3 if p == 3.0 else p, s, e) for i, p, s, e in R]
        for mode in ("overlaps", "contains"):
            got = set(con.execute(
                "SELECT left_id, right_id, overlap_start, overlap_end, overlap_ns FROM interval_join("
                "'SELECT id, part, s, e FROM a', 'SELECT id, part, s, e FROM b', ?)", (mode,)))
            exp = pairs_ref(Ln, Rn, mode)
            out("join %s trial %d (%dx%d): pairs equal" % (mode, trial, len(L), len(R)),
                "same" if got == exp else "missing %s extra %s" % (sorted(exp - got)[:3], sorted(got - exp)[:3]),
                "same")
            n = con.execute("SELECT count(*) FROM interval_join('SELECT id, part, s, e FROM a', "
                            "'SELECT id, part, s, e FROM b', ?)", (mode,)).fetchone()[0]
            out("join %s trial %d: no duplicate pairs" % (mode, trial), n, len(exp))
    # nested NVTX-like ranges (right) against points and intervals (left), 3 partitions
    R = [(2000 + i, p, s, e) for i, (p, s, e) in enumerate(nested_ranges(rng, 600, [1, 2, 3], 0, 2000))]
    L = []
    for i in range(400):
        s = rng.randint(0, 2000)
        L.append((i + 1, rng.choice([1, 2, 3]), s, s if i % 2 else s + rng.randint(1, 20)))
    con.execute("DELETE FROM a")
    con.execute("DELETE FROM b")
    con.executemany("INSERT INTO a VALUES (?,?,?,?)", L)
    con.executemany("INSERT INTO b VALUES (?,?,?,?)", R)
    for mode in ("overlaps", "contains"):
        got = set(con.execute(
            "SELECT left_id, right_id, overlap_start, overlap_end, overlap_ns FROM interval_join("
            "'SELECT id, part, s, e FROM a', 'SELECT id, part, s, e FROM b', '%s')" % mode))
        exp = pairs_ref(L, R, mode)
        out("join %s nested NVTX ranges (%dx%d, %d pairs)" % (mode, len(L), len(R), len(exp)),
            "same" if got == exp else "missing %d extra %d" % (len(exp - got), len(got - exp)), "same")
    # the part column returns the first-seen partition value; 3-column form
    got = con.execute("SELECT count(*), count(DISTINCT part) FROM interval_join("
                      "'SELECT id, s, e FROM a', 'SELECT id, s, e FROM b')").fetchone()
    exp = len(pairs_ref([(i, 0, s, e) for i, p, s, e in L], [(i, 0, s, e) for i, p, s, e in R], "overlaps"))
    out("join 3-column form (no partition)", got[0], exp)
    out("join 3-column form: part is NULL", got[1], 0)


{"union": suite_union, "priority": suite_priority, "join": suite_join}[suite]()
