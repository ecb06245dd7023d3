#!/bin/sh
# overlap_ns and interval_union_ns (ext/intervals.c): hand-worked cases, error texts, and seeded
# random sets against the brute force in iv_ref.py (aggregate, GROUP BY and window frames).
. "${0%/*}/../lib.sh"

q() { printf '.load %s\n%s\n' "$EXT" "$1" | sqlite :memory: 2>&1; }
# The error message of a failing statement, without the shell's "... error near line N: " prefix.
qerr() { q "$1" | sed -n 's/^[A-Za-z]* error near line [0-9]*: //p'; }
# Runs a suite of iv_ref.py: each output line "name<TAB>got<TAB>expected" becomes one `is`.
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

# ---- overlap_ns ----
is "$(q 'SELECT overlap_ns(0, 10, 5, 20);')" 5 "overlap_ns partial overlap"
is "$(q 'SELECT overlap_ns(5, 20, 0, 10);')" 5 "overlap_ns is symmetric"
is "$(q 'SELECT overlap_ns(0, 10, 10, 20);')" 0 "overlap_ns: touching intervals do not overlap"
is "$(q 'SELECT overlap_ns(0, 100, 20, 30);')" 10 "overlap_ns: nested"
is "$(q 'SELECT overlap_ns(10, 0, 0, 10);')" 0 "overlap_ns: end < start is empty"
is "$(q 'SELECT overlap_ns(-30, -10, -20, 5);')" 10 "overlap_ns: negative times"
is "$(q 'SELECT quote(overlap_ns(NULL, 1, 0, 1)), quote(overlap_ns(0, 1, 0, NULL));')" "NULL|NULL" \
	"overlap_ns: NULL argument gives NULL"
is "$(q "SELECT overlap_ns('0', ' 10 ', 5.0, 20);")" 5 "overlap_ns: integer text and integral REAL accepted"
is "$(q 'SELECT overlap_ns(0.4, 10.5, 0, 100);')" 11 "overlap_ns: REAL rounded to nearest (0.4->0, 10.5->11)"
is "$(q 'SELECT overlap_ns(-9223372036854775808, 9223372036854775807, 0, 9223372036854775807);')" \
	9223372036854775807 "overlap_ns: extreme bounds"
is "$(qerr "SELECT overlap_ns('abc', 1, 0, 1);")" \
	"overlap_ns: argument 1 (a_start) must be an integer number of ns, got text that is not an integer" \
	"overlap_ns: text error"
is "$(qerr "SELECT overlap_ns(0, 1, x'00', 1);")" \
	"overlap_ns: argument 3 (b_start) must be an integer number of ns, got a blob" "overlap_ns: blob error"
is "$(qerr 'SELECT overlap_ns(0, 9e999, 0, 1);')" \
	"overlap_ns: argument 2 (a_end) must be an integer number of ns, got a REAL outside the 64-bit integer range" \
	"overlap_ns: infinity error"
is "$(qerr 'SELECT overlap_ns(0, 1, 0, 1e19);')" \
	"overlap_ns: argument 4 (b_end) must be an integer number of ns, got a REAL outside the 64-bit integer range" \
	"overlap_ns: huge REAL error"
is "$(qerr "SELECT overlap_ns(0, 1, 0, '99999999999999999999');")" \
	"overlap_ns: argument 4 (b_end) must be an integer number of ns, got text that is not an integer" \
	"overlap_ns: text beyond 64 bits"
is "$(qerr 'SELECT overlap_ns(-9223372036854775808, 9223372036854775807, -9223372036854775808, 9223372036854775807);')" \
	"overlap_ns: interval length overflows a 64-bit integer" "overlap_ns: overflowing length is an error"
is "$(qerr 'SELECT overlap_ns(1, 2, 3);')" "wrong number of arguments to function overlap_ns()" \
	"overlap_ns: arity"

# ---- interval_union_ns, hand-worked ----
# [0,10) ∪ [10,20) touch and merge = 20; [30,35) = 5; [5,2) empty; NULL ignored: 25.
is "$(q 'WITH t(s,e) AS (VALUES (0,10),(10,20),(30,35),(5,2),(NULL,4),(7,NULL)) SELECT interval_union_ns(s, e) FROM t;')" \
	25 "union: touching merge, empty and NULL rows ignored (CTE)"
is "$(q 'WITH t(s,e) AS (VALUES (0,100),(10,20),(50,150),(-50,-40)) SELECT interval_union_ns(e, s), interval_union_ns(s, e) FROM t;')" \
	"0|160" "union: nested and overlapping (0..150 + 10), reversed args are all empty"
is "$(q 'SELECT interval_union_ns(1, 2) WHERE 0;')" 0 "union of no rows is 0"
is "$(qerr 'WITH t(s,e) AS (VALUES (-9223372036854775808, 0),(1, 9223372036854775807)) SELECT interval_union_ns(s,e) FROM t;')" \
	"interval_union_ns: total length overflows a 64-bit integer" \
	"union: overflowing total is an error"
is "$(qerr "WITH t(s,e) AS (VALUES (0, 10),('x', 20)) SELECT interval_union_ns(s, e) FROM t;")" \
	"interval_union_ns: argument 1 (start) must be an integer number of ns, got text that is not an integer" \
	"union: text error"
is "$(qerr "WITH t(s,e) AS (VALUES (0, 10),(1, x'01')) SELECT interval_union_ns(s, e) OVER (ORDER BY s ROWS 1 PRECEDING) FROM t;")" \
	"interval_union_ns: argument 2 (end) must be an integer number of ns, got a blob" \
	"union window: blob error"
is "$(q 'WITH t(i,s,e) AS (VALUES (1,0,10),(2,5,15),(3,20,30),(4,25,26),(5,40,50)) SELECT group_concat(u) FROM (SELECT interval_union_ns(s,e) OVER (ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) u FROM t);')" \
	"10,15,20,10,11" "union window: 2-row frame, hand-worked (0..15, 5..15+20..30, 20..30, 25..26+40..50)"

# Out of memory is an error, not a crash (PRAGMA hard_heap_limit caps SQLite's allocator, which the
# extension uses for everything).
oom() { q "PRAGMA hard_heap_limit = 20000000;
$1" | sed -n 's/^[A-Za-z]* error near line [0-9]*: //p'; }
is "$(oom 'SELECT interval_union_ns(value, value + 10) FROM generate_series(1, 2000000);')" \
	"out of memory (7)" "union: out of memory is reported"
is "$(oom 'SELECT max(u) FROM (SELECT interval_union_ns(value, value + 10) OVER (ORDER BY value DESC ROWS BETWEEN CURRENT ROW AND 900000 FOLLOWING) u FROM generate_series(1, 1000000));')" \
	"out of memory (7)" "union window: out of memory is reported"

ref_suite union 15

done_testing
