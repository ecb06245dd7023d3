#!/bin/sh
# The functions the reports of issue 15 use (interval_merge_ns/_end, interval_weighted_ns,
# hta_start_ns/hta_end_ns, nest_parent/nest_sum, interval_join 'nests' and 'parent',
# priority_breakdown over many windows): hand-worked cases, error texts, and seeded random sets
# against the brute force in report_fns_ref.py.
. "${0%/*}/../lib.sh"

q() { printf '.load %s\n%s\n' "$EXT" "$1" | sqlite :memory: 2>&1; }
qerr() { q "$1" | sed -n 's/^[A-Za-z]* error near line [0-9]*: //p'; }
ref_suite() {
	py "$TOP/tests/ext/report_fns_ref.py" "$1" "$EXT" >"$TMP/ref.out" 2>"$TMP/ref.err"
	ok $? "report_fns_ref.py $1 ran$(head -c 300 "$TMP/ref.err" | tr '\n' ' ')"
	tab=$(printf '\t')
	while IFS="$tab" read -r name got exp; do
		is "$got" "$exp" "$name"
	done <"$TMP/ref.out"
}

# ---- interval_merge_ns / interval_merge_end: HTA's merge_kernel_intervals ----
T="WITH t(s, e, k) AS (VALUES (0, 10, 1), (10, 20, 2), (30, 29, 3), (30, 35, 4), (50, 49, 5))"
is "$(q "$T SELECT interval_merge_ns(s, e, k), interval_merge_end(s, e, k) FROM t;")" "23|49" \
	"interval_merge: touching rows merge, a lone end < start row counts its negative length"
is "$(q "$T SELECT interval_merge_ns(s, e, -k) FROM t;")" 24 \
	"interval_merge: on equal starts the key orders (the negative row joins the later group)"
is "$(q "SELECT interval_merge_ns(s, e), quote(interval_merge_end(s, e)) FROM (SELECT 1 AS s, 2 AS e WHERE 0);")" \
	"0|NULL" "interval_merge: no rows: 0 and NULL"
is "$(q "WITH v(s, e) AS (VALUES (1, NULL), (NULL, 5), (3, 4)) SELECT interval_merge_ns(s, e) FROM v;")" 1 \
	"interval_merge: rows with a NULL time are ignored"
ref_suite merge

# ---- interval_weighted_ns: tb_plugin's SM efficiency ----
W="WITH t(s, e, v) AS (VALUES (0, 10, 0.5), (5, 15, 0.75), (20, 30, 2.0), (0, 40, 0.0))"
is "$(q "$W SELECT interval_weighted_ns(s, e, v, 1.0, 0, 40) FROM t;")" 21.25 \
	"interval_weighted_ns: summed weights, capped at 1, zero weights ignored"
is "$(q "$W SELECT interval_weighted_ns(s, e, v) FROM t;")" 32.5 "interval_weighted_ns: no cap, no window"
is "$(q "$W SELECT quote(interval_weighted_ns(s, e, v, 1.0, 100, 200)) FROM t;")" NULL \
	"interval_weighted_ns: nothing inside the window gives NULL"
ref_suite weighted

# ---- hta_start_ns / hta_end_ns ----
is "$(q "SELECT hta_start_ns(1500, 0), hta_end_ns(1500, 2400, 0), hta_start_ns(2000, 0), hta_end_ns(1100, 1900, 0);")" \
	"2000|2000|2000|1000" "hta_*: start rounded up, start + dur rounded down (a sub-µs event: -1 µs)"
is "$(q "SELECT quote(hta_start_ns(NULL, 0)), quote(hta_end_ns(1, 2, NULL));")" "NULL|NULL" "hta_*: NULL gives NULL"
ref_suite hta

# ---- nest_parent / nest_sum, interval_join 'nests' and 'parent' ----
N="WITH t(id, s, e) AS (VALUES (1, 0, 100), (2, 10, 50), (3, 20, 30), (4, 40, 120), (5, 45, 48), (6, 10, 50))"
is "$(q "$N SELECT group_concat(id || ':' || coalesce(p, '-'), ' ') FROM (SELECT id, nest_parent(s, e, id) OVER (ORDER BY s, e DESC, id ROWS UNBOUNDED PRECEDING) AS p FROM t ORDER BY id);")" \
	"1:- 2:1 3:6 4:- 5:4 6:2" "nest_parent: the enclosing row that starts last; equal intervals nest by id"
is "$(q "$N SELECT group_concat(id || ':' || n, ' ') FROM (SELECT id, nest_sum(s, e, id, 1) OVER (ORDER BY s DESC, e, id DESC ROWS UNBOUNDED PRECEDING) AS n FROM t ORDER BY id);")" \
	"1:4.0 2:3.0 3:0.0 4:1.0 5:0.0 6:2.0" "nest_sum: every enclosed row counts, not just children"
is "$(qerr "$N SELECT nest_parent(s, e, id) OVER (ORDER BY s DESC ROWS UNBOUNDED PRECEDING) FROM t;")" \
	"nest_parent: the window must be ORDER BY start, end DESC, id ROWS UNBOUNDED PRECEDING" \
	"nest_parent: another order is an error"
is "$(qerr "$N SELECT nest_sum(s, e, id, 1) OVER (ORDER BY s, e DESC, id ROWS UNBOUNDED PRECEDING) FROM t;")" \
	"nest_sum: the window must be ORDER BY start DESC, end, id DESC ROWS UNBOUNDED PRECEDING" \
	"nest_sum: another order is an error"
is "$(qerr "$N SELECT nest_sum(s, e, id, 1) OVER (ORDER BY s DESC, e, id DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t;")" \
	"nest_parent and nest_sum need ROWS UNBOUNDED PRECEDING" "nest_sum: a sliding frame is an error"
ref_suite nest

# ---- priority_breakdown over many windows ----
P="WITH ev(s, e, c, p) AS (VALUES (0, 100, 'A', 0), (50, 150, 'B', 1), (120, 300, 'A', 0))"
is "$(q "$P SELECT priority_breakdown(s, e, c, p, '0 100 50 200') FROM ev;")" \
	'[{"A":100,"B":0,"other":0,"total":100},{"A":130,"B":20,"other":0,"total":150}]' \
	"priority_breakdown(windows): one object a window, in the order given"
is "$(q "SELECT priority_breakdown(NULL, NULL, NULL, NULL, '0 10');")" '[{"other":10,"total":10}]' \
	"priority_breakdown(windows): a window and no intervals"
is "$(qerr "$P SELECT priority_breakdown(s, e, c, p, '0 100 50') FROM ev;")" \
	'priority_breakdown: argument 5 (windows) must be integers "start end start end ..."' \
	"priority_breakdown(windows): an odd count is an error"
is "$(qerr "$P SELECT priority_breakdown(s, e, c, p, CASE WHEN s = 0 THEN '0 1' ELSE '0 2' END) FROM ev;")" \
	"priority_breakdown: windows must be the same on every row of a group" \
	"priority_breakdown(windows): the windows must not change within a group"
# Windows on one row only: the other rows' NULL take the group's (the same objects as above).
is "$(q "$P SELECT priority_breakdown(s, e, c, p, CASE WHEN s = 120 THEN '0 100 50 200' END) FROM ev;")" \
	'[{"A":100,"B":0,"other":0,"total":100},{"A":130,"B":20,"other":0,"total":150}]' \
	"priority_breakdown(windows): windows given on one row serve the group"
is "$(qerr "$P SELECT priority_breakdown(s, e, c, p, NULL) FROM ev;")" \
	"priority_breakdown: argument 5 (windows) must be text on some row of a group, not NULL on every row" \
	"priority_breakdown(windows): NULL on every row is an error"
ref_suite windows

done_testing
