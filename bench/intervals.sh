#!/bin/sh
# bench/intervals.sh - benchmarks of the interval family (ext/intervals.c, priority.c, interval_join.c).
# Run after `make`:  sh bench/intervals.sh [N_UNION [N_PRIO [N_POINTS N_RANGES]]]
# Defaults: 10 M intervals for interval_union_ns (and the pure-SQL gaps-and-islands baseline on the
# same table, in the same run), 1 M intervals in 4 categories for priority_breakdown, 2 M points ×
# 16 M nested NVTX-like ranges for interval_join. The data are generated with generate_series and
# SQLite's random() into a scratch database under $TMPDIR (deleted at exit). Not part of `make test`.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
EXT=$TOP/${PROFQ_BUILD:-build}/profq
N_UNION=${1:-10000000}
N_PRIO=${2:-1000000}
N_POINTS=${3:-2000000}
N_RANGES=${4:-16000000}
[ -f "$EXT.so" ] || { echo "bench: $EXT.so is not built (run make)" >&2; exit 1; }
DIR=$(mktemp -d "${TMPDIR:-/tmp}/profq-bench.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
DB=$DIR/bench.db

sq() { sqlite3 -batch -bail -init /dev/null "$DB" "$@"; }
# timed LABEL SQL: runs SQL (after loading the extension), prints its result and the wall time.
timed() {
	out=$(printf '.load %s\n.timer on\n%s\n' "$EXT" "$2" | sq 2>&1)
	t=$(printf '%s\n' "$out" | sed -n 's/^Run Time: real \([0-9.]*\).*/\1/p' | tail -1)
	c=$(printf '%s\n' "$out" | sed -n 's/^Run Time: real [0-9.]* user \([0-9.]*\) sys \([0-9.]*\).*/\1 \2/p' |
		tail -1 | awk '{printf "%.3f", $1 + $2}')
	res=$(printf '%s\n' "$out" | grep -v '^Run Time' | tr '\n' ' ')
	printf '%-56s %8s s wall %8s s cpu   result: %s\n' "$1" "$t" "$c" "$res"
	eval "T_$3=$t C_$3=$c"
}

echo "# profq interval benchmarks: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cpu, $(lscpu | sed -n 's/^Model name: *//p')"
echo "# sqlite3 $(sqlite3 --version | cut -d' ' -f1), extension $EXT.so"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (wall times include waiting for other processes; cpu = user + sys)"

# ---- data ----
gen_start=$(date +%s)
sq >/dev/null <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
-- GPU-like: 10 s of timeline, lengths 1..2000 ns, random order.
CREATE TABLE iv(s INTEGER, e INTEGER);
-- (MATERIALIZED: a flattened subquery would call random() again for each use of s.)
INSERT INTO iv WITH x AS MATERIALIZED (SELECT abs(random() % 10000000000) AS s, abs(random() % 2000) AS l
  FROM generate_series(1, $N_UNION)) SELECT s, s + 1 + l FROM x;
-- 4 categories with priorities 0..3, 1 s of timeline.
CREATE TABLE pb(s INTEGER, e INTEGER, c TEXT, p INTEGER);
INSERT INTO pb WITH x AS MATERIALIZED (
  SELECT abs(random() % 1000000000) AS s, abs(random() % 5000) AS l, value % 4 AS p,
         CASE value % 4 WHEN 0 THEN 'Kernel' WHEN 1 THEN 'Memcpy' WHEN 2 THEN 'Runtime' ELSE 'CPU Exec' END AS c
  FROM generate_series(1, $N_PRIO)) SELECT s, s + 1 + l, c, p FROM x;
-- NVTX-like ranges: 8 threads; per thread, blocks of 1000 ns each holding 4 properly nested ranges
-- [b+50k+j, b+1000-50k-j) (k = depth 0..3, j = jitter 0..19). Blocks are emitted in a scrambled
-- order (a bijection of the block number), so the input is not sorted.
CREATE TABLE rng(id INTEGER PRIMARY KEY, tid INTEGER, s INTEGER, e INTEGER);
INSERT INTO rng WITH x AS MATERIALIZED (
  SELECT value, value % 8 AS tid, (value / 8) % 4 AS k, abs(random() % 20) AS j,
         (((value / 32) * 2654435761) % ($N_RANGES / 32)) * 1000 AS b
  FROM generate_series(0, $N_RANGES - 1)) SELECT value, tid, b + 50 * k + j, b + 1000 - 50 * k - j FROM x;
-- Points (e.g. kernel launches), uniformly over the same timeline and threads.
CREATE TABLE pts(id INTEGER PRIMARY KEY, tid INTEGER, t INTEGER);
INSERT INTO pts SELECT value, abs(random() % 8), abs(random() % ($N_RANGES / 32 * 1000))
  FROM generate_series(1, $N_POINTS);
SQL
echo "data generated in $(( $(date +%s) - gen_start )) s: iv $N_UNION rows, pb $N_PRIO rows, rng $N_RANGES rows, pts $N_POINTS rows"
echo

# Warm the page cache so the first measurement is not charged for reading the file.
cat "$DB" >/dev/null

# ---- 1. union ----
timed "interval_union_ns over $N_UNION intervals" "SELECT interval_union_ns(s, e) FROM iv;" u
timed "baseline: table scan only (count(*), sum(e-s))" "SELECT count(*), sum(e - s) FROM iv;" scan
# Gaps and islands in plain SQL: a row starts an island when its start is after the running max of
# the previous ends (MAX OVER ... 1 PRECEDING; LAG alone would be wrong for nested intervals).
timed "pure SQL gaps-and-islands (window MAX/SUM OVER)" "
SELECT sum(ie - is0) FROM (
  SELECT min(s) AS is0, max(e) AS ie FROM (
    SELECT s, e, sum(brk) OVER (ORDER BY s, e ROWS UNBOUNDED PRECEDING) AS isl FROM (
      SELECT s, e, CASE WHEN s <= max(e) OVER (ORDER BY s, e ROWS BETWEEN UNBOUNDED PRECEDING
                                                AND 1 PRECEDING) THEN 0 ELSE 1 END AS brk
      FROM iv WHERE e > s))
  GROUP BY isl);" sql
echo "speed-up of interval_union_ns over pure SQL: $(echo "$T_sql $T_u $C_sql $C_u" |
	awk '{printf "%.1fx wall, %.1fx cpu", $1 / $2, $3 / $4}')"
timed "interval_union_ns window, ROWS 100 PRECEDING, 1 M rows" \
	"SELECT sum(u) FROM (SELECT interval_union_ns(s, e) OVER (ORDER BY rowid ROWS 100 PRECEDING) AS u FROM iv WHERE rowid <= 1000000);" w
echo

# ---- 2. priority_breakdown ----
timed "priority_breakdown over $N_PRIO intervals, 4 categories" \
	"SELECT priority_breakdown(s, e, c, p) FROM pb;" p
timed "priority_breakdown, 1000 windows (GROUP BY s / 1e6)" \
	"SELECT count(*), sum(json_extract(j, '\$.total')) FROM (SELECT priority_breakdown(s, e, c, p, (s / 1000000) * 1000000, (s / 1000000 + 1) * 1000000) AS j FROM pb GROUP BY s / 1000000);" pg
echo

# ---- 3. interval_join ----
timed "interval_join contains: $N_POINTS points x $N_RANGES ranges" \
	"SELECT count(*), sum(overlap_ns) FROM interval_join('SELECT id, tid, t, t FROM pts', 'SELECT id, tid, s, e FROM rng', 'contains');" j
timed "interval_join overlaps: same inputs" \
	"SELECT count(*) FROM interval_join('SELECT id, tid, t, t FROM pts', 'SELECT id, tid, s, e FROM rng');" jo
timed "baseline: scanning both inputs (count(*) of each)" \
	"SELECT (SELECT count(*) FROM pts), (SELECT count(*) FROM rng);" js
