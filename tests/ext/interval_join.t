#!/bin/sh
# interval_join (ext/interval_join.c): hand-worked nested NVTX ranges, point rules, partitions,
# error texts, and seeded random sets whose full pair sets are compared with iv_ref.py.
. "${0%/*}/../lib.sh"

q() { printf '.load %s\n%s\n' "$EXT" "$1" | sqlite :memory: 2>&1; }
qerr() { q "$1" | sed -n 's/^[A-Za-z]* error near line [0-9]*: //p'; }
ref_suite() {
	py "$TOP/tests/ext/iv_ref.py" "$1" "$EXT" >"$TMP/ref.out" 2>"$TMP/ref.err"
	ok $? "iv_ref.py $1 ran$(head -c 300 "$TMP/ref.err" | tr '\n' ' ')"
	n=0
	tab=$(printf '\t')
	while IFS="$tab" read -r name got exp; do
		is "$got" "$exp" "$name"
		n=$((n + 1))
	done <"$TMP/ref.out"
	[ "$n" -ge "$2" ]
	ok $? "iv_ref.py $1 made at least $2 checks (made $n)"
}

# Thread 1: NVTX ranges 10 "step" [0,100) ⊃ 11 "fwd" [0,40) ⊃ 12 "mm" [10,20); 13 "bwd" [40,100).
# Thread 2: 20 [0,50). Kernels/points on thread 1: 1 @0, 2 @20 (the end of mm: not in it),
# 3 @40 (end of fwd, start of bwd), 4 @100 (end of step: in nothing), 5 [15,45).
cat >"$TMP/t.sql" <<'SQL'
CREATE TABLE nvtx(id INTEGER PRIMARY KEY, tid, start_ns, end_ns);
INSERT INTO nvtx VALUES (10,1,0,100),(11,1,0,40),(12,1,10,20),(13,1,40,100),(20,2,0,50);
CREATE TABLE pts(id INTEGER PRIMARY KEY, tid, start_ns, end_ns);
INSERT INTO pts VALUES (1,1,0,0),(2,1,20,20),(3,1,40,40),(4,1,100,100),(5,1,15,45),(6,3,1,1);
SQL
L="'SELECT id, tid, start_ns, end_ns FROM pts'"
R="'SELECT id, tid, start_ns, end_ns FROM nvtx'"
is "$(q ".read $TMP/t.sql
SELECT group_concat(left_id || '>' || right_id, ' ') FROM
 (SELECT * FROM interval_join($L, $R, 'contains') ORDER BY left_id, right_id);")" \
	"1>10 1>11 2>10 2>11 3>10 3>13 5>10" "contains: points in nested ranges, half-open ends"
is "$(q ".read $TMP/t.sql
SELECT group_concat(left_id || '>' || right_id || ':' || overlap_start || '-' || overlap_end || '=' || overlap_ns, ' ')
 FROM (SELECT * FROM interval_join($L, $R) ORDER BY left_id, right_id);")" \
	"1>10:0-0=0 1>11:0-0=0 2>10:20-20=0 2>11:20-20=0 3>10:40-40=0 3>13:40-40=0 5>10:15-45=30 5>11:15-40=25 5>12:15-20=5 5>13:40-45=5" \
	"overlaps (default mode): clipped overlap per pair"
is "$(q ".read $TMP/t.sql
SELECT count(*), sum(overlap_ns) FROM interval_join($L, $R, 'overlaps') WHERE part = 1;")" "10|65" \
	"part column, WHERE on an output column"
is "$(q ".read $TMP/t.sql
SELECT n.id, count(j.left_id) FROM nvtx n LEFT JOIN interval_join($L, $R, 'contains') j ON j.right_id = n.id
 GROUP BY n.id ORDER BY n.id;" | tr '\n' ' ')" "10|4 11|2 12|0 13|1 20|0 " "joined with a table"
is "$(q "SELECT count(*) FROM interval_join('SELECT 1, 5, 5', 'SELECT 2, 5, 5');")" 1 "point contains equal point"
is "$(q "SELECT count(*) FROM interval_join('SELECT 1, 5, 6', 'SELECT 2, 5, 5', 'contains');")" 0 \
	"a point does not contain an interval"
is "$(q "SELECT count(*) FROM interval_join('SELECT 1, NULL, 0, 10', 'SELECT 2, NULL, 5, 7');")" 1 \
	"NULL partitions pair with each other (IS semantics)"
is "$(q "SELECT count(*) FROM interval_join('SELECT 1, 2, 0, 10', 'SELECT 2, 2.0, 5, 7 UNION ALL SELECT 3, ''2'', 5, 7');")" 1 \
	"partition 2 = 2.0, but not '2'"
is "$(q "SELECT count(*) FROM interval_join('SELECT 1, 10, 0 UNION ALL SELECT 2, NULL, 5', 'SELECT 3, 0, 100');")" 0 \
	"rows with end < start or NULL bounds are ignored"
is "$(q "SELECT count(*) FROM interval_join('SELECT 1, 1, 2 WHERE 0', 'SELECT 3, 0, 100');")" 0 "empty input"
is "$(q "SELECT count(*) FROM interval_join('SELECT 1, ''5'', 6.4', 'SELECT 3, 0, 6');")" 1 \
	"integer text and REAL bounds accepted (REAL rounded)"

# ---- errors ----
is "$(qerr "SELECT * FROM interval_join('SELECT 1, 2, 3');")" \
	"interval_join: needs two arguments, the left and the right query (and optionally a mode)" "one argument"
is "$(qerr "SELECT * FROM interval_join('SELECT 1, 2, 3', 'SELECT 1, 2, 3', 'inside');")" \
	"interval_join: argument 3 (mode) must be 'overlaps', 'contains', 'nests' or 'parent'" "bad mode"
is "$(qerr "SELECT * FROM interval_join(42, 'SELECT 1, 2, 3');")" \
	"interval_join: argument 1 (left query) must be text" "non-text query"
is "$(qerr "SELECT * FROM interval_join('SELECT 1, 2', 'SELECT 1, 2, 3');")" \
	"interval_join: the left query must return 4 columns (id, part, start_ns, end_ns) or 3 (id, start_ns, end_ns), it returns 2" \
	"column count"
is "$(qerr "SELECT * FROM interval_join('SELECT 1, 2, 3', 'SELECT 1, 0, 2, 3');")" \
	"interval_join: the left query returns 3 columns and the right query 4: both must have a part column or neither" \
	"mixed column counts"
is "$(qerr "SELECT * FROM interval_join('SELECT 1, 2, 3', 'SELEC 1');")" \
	'interval_join: right query: near "SELEC": syntax error' "syntax error in a query"
is "$(qerr "SELECT * FROM interval_join('SELECT 1, 2, 3', 'SELECT 1, 2, 3; SELECT 4');")" \
	"interval_join: argument 2 (right query) must be exactly one SELECT statement" "two statements"
is "$(q "CREATE TABLE t(x); SELECT * FROM interval_join('DELETE FROM t RETURNING 1, 2, 3', 'SELECT 1, 2, 3');" | sed -n 's/^[A-Za-z]* error near line [0-9]*: //p')" \
	"interval_join: argument 1 (left query) must be a read-only SELECT" "writing statement refused"
is "$(qerr "SELECT * FROM interval_join('SELECT ''a'', 2, 3', 'SELECT 1, 2, 3');")" \
	"interval_join: left query row 1: column 1 (id) must be an integer" "text id"
is "$(qerr "SELECT * FROM interval_join('SELECT 1, 2, 3 UNION ALL SELECT 2, x''00'', 3', 'SELECT 1, 2, 3');")" \
	"interval_join: left query row 2: column 2 (start_ns) must be an integer number of ns, got a blob" "blob start"
is "$(qerr "SELECT * FROM interval_join('SELECT 1, 2, 3', 'SELECT 1, 0, 1e300');")" \
	"interval_join: right query row 1: column 3 (end_ns) must be an integer number of ns, got a REAL outside the 64-bit integer range" \
	"huge end"
is "$(qerr "SELECT * FROM interval_join('SELECT 1, -9223372036854775808, 9223372036854775807', 'SELECT 1, 2, 3');")" \
	"interval_join: left query row 1: interval length overflows a 64-bit integer" "overflowing length"
is "$(qerr "SELECT * FROM interval_join('SELECT 1, 2, 3', 'SELECT * FROM nosuch');")" \
	"interval_join: right query: no such table: nosuch" "missing table"

is "$(q "PRAGMA hard_heap_limit = 20000000;
SELECT count(*) FROM interval_join('SELECT value, value, value + 5 FROM generate_series(1, 1000000)', 'SELECT value, value, value + 3 FROM generate_series(1, 1000000)');" |
	sed -n 's/^[A-Za-z]* error near line [0-9]*: //p')" "out of memory (7)" "out of memory is reported"
# Left [v, v+5), right [w, w+3), v, w in 1..100000: they overlap iff v-2 <= w <= v+4 (d = w-v),
# with overlap 1,2,3,3,3,2,1 ns for d = -2..4 (15 per v). Missing at the edges: v=1: d=-2,-1;
# v=2: d=-2; v=99997: d=4; v=99998: d=3,4; v=99999: d=2..4; v=100000: d=1..4 → 13 pairs,
# 3+1+1+3+6+9 = 23 ns. So 700000-13 = 699987 pairs and 1500000-23 = 1499977 ns.
is "$(q "SELECT count(*), sum(overlap_ns) FROM interval_join('SELECT value, value, value + 5 FROM generate_series(1, 100000)', 'SELECT value, value, value + 3 FROM generate_series(1, 100000)');")" \
	"699987|1499977" "100k x 100k sliding intervals, hand-counted"

ref_suite join 30

done_testing
