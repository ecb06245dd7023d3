#!/bin/sh
# Statistics family (ext/stats.c) against Python's statistics module: median, quantiles
# (method='inclusive'), stdev and variance on seeded random data, per group and per window frame;
# integer exactness, special values and error texts. Requirement numbers refer to ext/stats.c.
. "${0%/*}/../lib.sh"

# The Python part prints one line per check: "<name>\tok" or "<name>\t<what differed>".
py - "$EXT" >"$TMP/out" 2>"$TMP/err" <<'PY'
import math, random, sqlite3, statistics, sys
from fractions import Fraction

con = sqlite3.connect(":memory:")
con.enable_load_extension(True)
con.load_extension(sys.argv[1])

def report(name, problems):
    print("%s\t%s" % (name, "ok" if not problems else "; ".join(problems[:3])))

def close(got, want, rel=1e-12):
    if want is None or got is None:
        return got is None and want is None
    if isinstance(want, float) and math.isinf(want):
        return got == want
    return abs(got - want) <= rel * max(abs(want), 1.0)

# Reference percentile p of xs: Python's inclusive quantiles (Hyndman & Fan 7).
CUTS = {0: None, 10: (10, 1), 25: (4, 1), 37.5: (8, 3), 50: (2, 1), 75: (4, 3), 90: (10, 9), 99.9: (1000, 999),
        99: (100, 99), 100: None}
def ref_pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return None
    if len(xs) == 1 or p == 0:
        return xs[0] if p != 100 else xs[-1]
    if p == 100:
        return xs[-1]
    n, i = CUTS[p]
    return statistics.quantiles(xs, n=n, method="inclusive")[i - 1]

# The exact value of the same definition, to check which results must be exact INTEGERs.
def exact_pct(xs, p):
    xs = sorted(xs)
    h = Fraction(len(xs) - 1) * Fraction(str(p)) / 100   # p as written: 99.9 is 999/10
    k = math.floor(h)
    if k >= len(xs) - 1:
        return Fraction(xs[-1])
    return xs[k] + (xs[k + 1] - xs[k]) * (h - k)

def ref_sd(xs):
    return statistics.stdev(xs) if len(xs) >= 2 else None

def ref_var(xs):
    return statistics.variance(xs) if len(xs) >= 2 else None

def load(rows):
    con.execute("DROP TABLE IF EXISTS t")
    con.execute("CREATE TABLE t(g INTEGER, i INTEGER, x)")
    con.executemany("INSERT INTO t VALUES (?,?,?)", rows)

def groups_check(name, rows, exact_ints):
    load(rows)
    by = {}
    for g, _, x in rows:
        by.setdefault(g, [])
        if x is not None:
            by[g].append(x)
    cols = ", ".join(["median(x)", "lower_quartile(x)", "upper_quartile(x)", "stddev(x)",
                      "variance(x)", "stdev(x)"] +
                     ["percentile(x, %r)" % p for p in CUTS])
    problems = []
    for r in con.execute("SELECT g, %s FROM t GROUP BY g ORDER BY g" % cols):
        g, med, lq, uq, sd, var, sd2 = r[:7]
        pcts = r[7:]
        xs = by[g]
        want = [(("median", med), statistics.median(xs) if xs else None),
                (("lower_quartile", lq), ref_pct(xs, 25)),
                (("upper_quartile", uq), ref_pct(xs, 75)),
                (("stddev", sd), ref_sd(xs)), (("stdev", sd2), ref_sd(xs)),
                (("variance", var), ref_var(xs))]
        for p, got in zip(CUTS, pcts):
            want.append((("percentile %r" % p, got), ref_pct(xs, p)))
        for (what, got), ref in want:
            if not close(got, ref):
                problems.append("group %d %s: got %r, want %r (n=%d)" % (g, what, got, ref, len(xs)))
        if exact_ints and xs:
            for p, got in zip(CUTS, pcts):
                e = exact_pct(xs, p)
                if (e.denominator == 1) != isinstance(got, int) or (isinstance(got, int) and got != e):
                    problems.append("group %d percentile %r: got %r (%s), exact %s" %
                                    (g, p, got, type(got).__name__, e))
        if len(xs) >= 1 and med != pcts[list(CUTS).index(50)]:
            problems.append("group %d: median %r != percentile(x, 50)" % (g, med))
    report(name, problems)

rng = random.Random(20240611)
def make(kind, ngroups, maxn):
    rows, i = [], 0
    for g in range(ngroups):
        n = rng.randint(1, maxn) if g else 1      # group 0 has exactly one row
        for _ in range(n):
            i += 1
            if kind == "int":
                x = rng.randint(-30, 30)               # many duplicates, negatives
            elif kind == "real":
                x = rng.choice([rng.uniform(-1e3, 1e3), rng.gauss(0, 1e-3), float(rng.randint(-5, 5))])
            elif kind == "mixed":
                x = rng.randint(-100, 100) if rng.random() < 0.5 else rng.uniform(-100, 100)
            elif kind == "null":
                x = None if rng.random() < 0.3 else rng.randint(0, 10 ** 6)
            elif kind == "ts":                         # ns timestamps: beyond 2^53
                x = 1_700_000_000_000_000_000 + rng.randint(0, 10 ** 6)
            rows.append((g, i, x))
    return rows

groups_check("groups: integers with duplicates and negatives (Req 4, 6)", make("int", 40, 30), True)
groups_check("groups: reals", make("real", 40, 30), False)
groups_check("groups: mixed INTEGER and REAL", make("mixed", 40, 30), False)
groups_check("groups: NULLs ignored (Req 1)", make("null", 30, 20), True)
groups_check("groups: nanosecond timestamps stay exact (Req 6)", make("ts", 20, 12), True)

# Empty input and all-NULL input: NULL (Req 2).
r = con.execute("SELECT median(x), percentile(x, 50), lower_quartile(x), upper_quartile(x), "
                "stddev(x), variance(x) FROM t WHERE 0").fetchone()
report("no rows: every function returns NULL (Req 2)", [] if r == (None,) * 6 else [repr(r)])
r = con.execute("SELECT median(x), percentile(x, 10), stddev(x) FROM (SELECT NULL AS x UNION ALL SELECT NULL)").fetchone()
report("only NULLs: NULL (Req 1, 2)", [] if r == (None,) * 3 else [repr(r)])
r = con.execute("SELECT median(x), typeof(median(x)), stddev(x), variance(x), percentile(x, 99) FROM (SELECT 7 AS x)").fetchone()
report("single row: the value; stddev and variance NULL (Req 7)",
       [] if r == (7, "integer", None, None, 7) else [repr(r)])

# Window frames against Python per frame.
def frame_check(name, rows, frame, lo_fn, hi_fn):
    load(rows)
    q = ("SELECT i, median(x) OVER w, percentile(x, 90) OVER w, lower_quartile(x) OVER w, "
         "upper_quartile(x) OVER w, stddev(x) OVER w, variance(x) OVER w FROM t "
         "WINDOW w AS (PARTITION BY g ORDER BY i %s) ORDER BY i" % frame)
    part = {}
    for g, i, x in rows:
        part.setdefault(g, []).append((i, x))
    pos = {}
    for g, lst in part.items():
        for k, (i, x) in enumerate(lst):
            pos[i] = (g, k)
    problems = []
    for i, med, p90, lq, uq, sd, var in con.execute(q):
        g, k = pos[i]
        lst = part[g]
        xs = [x for _, x in lst[max(0, lo_fn(k)):min(len(lst), hi_fn(k) + 1)] if x is not None]
        refs = [ref_pct(xs, 50), ref_pct(xs, 90), ref_pct(xs, 25), ref_pct(xs, 75), ref_sd(xs), ref_var(xs)]
        for what, got, ref in zip(("median", "p90", "q1", "q3", "stddev", "variance"),
                                  (med, p90, lq, uq, sd, var), refs):
            if not close(got, ref, 1e-9):
                problems.append("row %d %s: got %r, want %r, frame %r" % (i, what, got, ref, xs))
    report(name, problems)

w_rows = make("int", 6, 40) + [(99, 10 ** 6 + j, rng.choice([None, 1, 2, 2, 3.5, -1])) for j in range(60)]
frame_check("window ROWS BETWEEN 3 PRECEDING AND CURRENT ROW (xInverse)", w_rows,
            "ROWS BETWEEN 3 PRECEDING AND CURRENT ROW", lambda k: k - 3, lambda k: k)
frame_check("window ROWS BETWEEN 2 PRECEDING AND 5 FOLLOWING", make("mixed", 5, 50),
            "ROWS BETWEEN 2 PRECEDING AND 5 FOLLOWING", lambda k: k - 2, lambda k: k + 5)
frame_check("window ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", make("real", 4, 60),
            "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", lambda k: 0, lambda k: k)
frame_check("window ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING", make("null", 4, 60),
            "ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING", lambda k: k, lambda k: 10 ** 9)

# Longer partitions: the tail is kept as a second sorted run and merged past sqrt(n), values
# leave from either run (HOW IT WORKS in ext/stats.c).
long_rows = [(0, i, rng.choice([rng.randint(-500, 500), rng.uniform(-500, 500)]) if i > 700 else rng.randint(-500, 500))
             for i in range(1500)]
frame_check("window over 1500 rows, frame growing (RANGE UNBOUNDED PRECEDING)", long_rows,
            "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", lambda k: 0, lambda k: k)
frame_check("window over 1500 rows, sliding 200-row frame", long_rows,
            "ROWS BETWEEN 150 PRECEDING AND 49 FOLLOWING", lambda k: k - 150, lambda k: k + 49)

# Integer exactness at the edges of 64 bits (Req 6).
IMAX, IMIN = 2 ** 63 - 1, -2 ** 63
def one(sql, *args):
    return con.execute(sql, args).fetchone()
cases = [((IMAX, IMAX - 2), IMAX - 1), ((IMIN, IMAX - 1), -1), ((IMIN, IMIN + 2), IMIN + 1),
         ((1_700_000_000_000_000_001, 1_700_000_000_000_000_003), 1_700_000_000_000_000_002),
         ((1, 2), 1.5), ((IMIN, IMAX), -0.5), ((-3, -2), -2.5)]
problems = []
for (a, b), want in cases:
    got = one("SELECT median(x) FROM (SELECT ? AS x UNION ALL SELECT ?)", a, b)[0]
    if got != want or type(got) is not type(want):
        problems.append("median(%d, %d) = %r, want %r" % (a, b, got, want))
report("median of integers: exact INTEGER or .5 REAL, no overflow (Req 6)", problems)

# Special values (Req 1, 8, 7): NaN is NULL in SQLite, infinities sort to the ends.
inf = float("inf")
problems = []
def expect(name, sql, want, *args):
    got = one(sql, *args)
    if got != want:
        problems.append("%s: got %r, want %r" % (name, got, want))
two = "SELECT %s FROM (SELECT ? AS x UNION ALL SELECT ? UNION ALL SELECT ?)"
expect("NaN ignored", two % "median(x), stddev(x)", (2, math.sqrt(2)), float("nan"), 1, 3)
expect("+Inf", two % "median(x), percentile(x, 100), stddev(x)", (2.0, inf, None), 1, 2, inf)
expect("-Inf", two % "percentile(x, 0), percentile(x, 25), median(x)", (-inf, -inf, 1.0), -inf, 1, 2)
expect("-Inf and +Inf", two % "median(x), percentile(x, 0), percentile(x, 100)", (1.0, -inf, inf), -inf, 1, inf)
expect("halfway between -Inf and +Inf", "SELECT median(x) FROM (SELECT ? AS x UNION ALL SELECT ?)", (None,), -inf, inf)
expect("huge reals", two % "median(x), percentile(x, 75)", (0.0, 8.5e307), -1.7e308, 0.0, 1.7e308)
got = one(two % "stddev(x)", -1.7e308, 0.0, 1.7e308)[0]
if not close(got, statistics.stdev([-1.7e308, 0.0, 1.7e308])):
    problems.append("stddev of huge reals: got %r" % got)
got = one(two % "stddev(x)", 1e-320, 2e-320, 3e-320)[0]
if not close(got, statistics.stdev([1e-320, 2e-320, 3e-320]), 1e-3):
    problems.append("stddev of subnormals: got %r" % got)
got = one(two % "stddev(x)", 1e9 + 1, 1e9 + 2, 1e9 + 3)[0]
if not close(got, 1.0):
    problems.append("stddev with a large mean: got %r, want 1.0" % got)
got = one(two % "stddev(x)", IMAX, IMAX - 1, IMAX - 2)[0]
if not close(got, 1.0):
    problems.append("stddev of INT64_MAX-0..2: got %r, want 1.0" % got)
expect("DISTINCT", "SELECT median(DISTINCT x) FROM (SELECT 1 AS x UNION ALL SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT 5)", (3,))
expect("p as INTEGER and REAL", two % "percentile(x, 50), percentile(x, 50.0), percentile(x, 12.5)", (2, 2, 1.25), 3, 1, 2)
report("special values: NaN, infinities, huge, tiny, DISTINCT (Req 1, 7, 8)", problems)

# Error texts, exactly (Req 3, 5).
def err(sql, *args):
    try:
        con.execute(sql, args).fetchall()
        return None
    except sqlite3.Error as e:
        return str(e)
load([(1, 1, 1), (1, 2, "7"), (1, 3, b"\x01")])
errs = [
    ("SELECT median(x) FROM t", "median(): x must be a number, got text"),
    ("SELECT stdev(x) FROM t WHERE i <> 2", "stdev(): x must be a number, got blob"),
    ("SELECT upper_quartile(x) OVER (ORDER BY i) FROM t", "upper_quartile(): x must be a number, got text"),
    ("SELECT percentile(x, 101) FROM t WHERE i = 1", "percentile(): p must be a number between 0 and 100"),
    ("SELECT percentile(x, -0.5) FROM t WHERE i = 1", "percentile(): p must be a number between 0 and 100"),
    ("SELECT percentile(x, '50') FROM t WHERE i = 1", "percentile(): p must be a number between 0 and 100"),
    ("SELECT percentile(x, NULL) FROM t WHERE i = 1", "percentile(): p must be a number between 0 and 100"),
    ("SELECT percentile(x, i * 10) FROM t WHERE i <> 2", "percentile(): p must be the same for every row of a group"),
    ("SELECT percentile(x) FROM t", "wrong number of arguments to function percentile()"),
]
for sql, want in errs:
    got = err(sql)
    print("error text: %s\t%s" % (sql, "ok" if got == want else "got %r, want %r" % (got, want)))

# Larger input, checked against sorted() directly: aggregate plus a sliding window.
n = 200_000
xs = [rng.randint(0, 10 ** 9) for _ in range(n)]
load([(0, i, x) for i, x in enumerate(xs)])
s = sorted(xs)
got = one("SELECT median(x), percentile(x, 99) FROM t")
want = (s[n // 2 - 1] + s[n // 2]) / 2
if want == int(want):
    want = int(want)
report("200000 rows: median and p99", [] if got == (want, ref_pct(xs, 99)) else [repr(got)])
got = one("SELECT sum(m) FROM (SELECT median(x) OVER (ORDER BY i ROWS BETWEEN 99 PRECEDING AND CURRENT ROW) AS m FROM t)")[0]
ref = sum(statistics.median(xs[max(0, k - 99):k + 1]) for k in range(n))
report("200000 rows: sliding median over 100 rows", [] if close(got, ref) else ["%r vs %r" % (got, ref)])
PY
status=$?
is "$status" 0 "the Python comparison ran"
[ -s "$TMP/err" ] && sed 's/^/# /' "$TMP/err"
while IFS="$(printf '\t')" read -r name result; do
	is "$result" ok "$name"
done <"$TMP/out"
n=$(wc -l <"$TMP/out")
[ "$n" -ge 20 ]
ok $? "all checks reported ($n)"

# The CLI links the same code in: one check through it.
sqlite "$TMP/p.db" <"$TOP/schema/schema.sql" && sqlite "$TMP/p.db" <"$TOP/schema/views.sql"
out=$("$PROFQ" sql "$TMP/p.db" "select median(x), stddev(x) from (select 1 as x union all select 2 union all select 4)" 2>&1)
like "$out" "2.*1\.527525" "profq sql sees median() and stddev()"

# Out of memory (Requirement 9): a clear error, no crash (the asan build also checks leaks).
big="with recursive c(i) as (select 1 union all select i+1 from c where i<1000000)"
out=$(sqlite -cmd ".load $EXT" -cmd "pragma hard_heap_limit=3000000" :memory: "$big select median(i) from c" 2>&1)
like "$out" "out of memory" "aggregate: out of memory is an SQL error"
out=$(sqlite -cmd ".load $EXT" -cmd "pragma hard_heap_limit=3000000" :memory: \
	"$big select count(m) from (select percentile(i, 90) over (order by -i rows between unbounded preceding and current row) m from c)" 2>&1)
like "$out" "out of memory" "window: out of memory is an SQL error"

done_testing
