#!/bin/sh
# priority_breakdown (ext/priority.c): the tb_plugin micro-case, the range_utils subtract example,
# error texts, and seeded random sets against the brute force in iv_ref.py.
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

# ---- tb_plugin test_profiler.py::test_all_categories (notes/kineto_hta.md §2.2), in µs ----
# Step ProfilerStep#1 [50,450): total 400. Roles and priorities as tb_plugin (§1.3): Kernel 0,
# Memcpy 1, Memset 2, Runtime 4, DataLoader 5, CPU Exec 6.
#   Kernel 430-445 = 15; Memcpy 405-415 = 10; Memset 420-425 = 5;
#   Runtime 360-380 + 390-400 + 405-410 = 20 + 10 + (5, shadowed by Memcpy 405-415) = 30;
#   DataLoader 100-280 = 180 (aten::to 200-260 is CPU Exec, shadowed by it);
#   CPU Exec: nll_loss_backward 340-410 minus Runtime and Memcpy = 340-360 + 380-390 + 400-405 = 35;
#   Other = 400 - (15+10+5+30+180+35) = 125.
cat >"$TMP/step.sql" <<'SQL'
CREATE TABLE ev(step INTEGER, start_ns INTEGER, end_ns INTEGER, role TEXT, prio INTEGER);
CREATE TABLE steps(step INTEGER, start_ns INTEGER, end_ns INTEGER);
INSERT INTO steps VALUES (1, 50, 450);
INSERT INTO ev VALUES
	(1, 100, 280, 'DataLoader', 5),  -- enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__
	(1, 200, 260, 'CPU Exec', 6),    -- aten::to
	(1, 340, 410, 'CPU Exec', 6),    -- aten::nll_loss_backward (other thread)
	(1, 360, 380, 'Runtime', 4),
	(1, 390, 400, 'Runtime', 4),
	(1, 405, 410, 'Runtime', 4),
	(1, 405, 415, 'Memcpy', 1),
	(1, 420, 425, 'Memset', 2),
	(1, 430, 445, 'Kernel', 0);
SQL
is "$(q ".read $TMP/step.sql
SELECT priority_breakdown(ev.start_ns, ev.end_ns, role, prio, s.start_ns, s.end_ns)
FROM steps s JOIN ev USING (step) GROUP BY step;")" \
	'{"Kernel":15,"Memcpy":10,"Memset":5,"Runtime":30,"DataLoader":180,"CPU Exec":35,"other":125,"total":400}' \
	"tb_plugin test_all_categories"
# Without a window the window is the inputs' span, 100..445 = 345; other = the gaps
# 280-340 + 415-420 + 425-430 = 60 + 5 + 5 = 70 (= 345 - 275).
is "$(q ".read $TMP/step.sql
SELECT priority_breakdown(start_ns, end_ns, role, prio) FROM ev;")" \
	'{"Kernel":15,"Memcpy":10,"Memset":5,"Runtime":30,"DataLoader":180,"CPU Exec":35,"other":70,"total":345}' \
	"no window: span of the inputs"
is "$(q ".read $TMP/step.sql
SELECT json_extract(priority_breakdown(start_ns, end_ns, role, prio, 50, 450), '\$.Runtime') FROM ev;")" 30 \
	"the result is JSON that json_extract reads"
# Shadowed category still listed; a window outside every input is all "other".
is "$(q "SELECT priority_breakdown(s, e, c, p) FROM (SELECT 0 s, 100 e, 'Kernel' c, 0 p UNION ALL SELECT 10, 20, 'CPU Exec', 6);")" \
	'{"Kernel":100,"CPU Exec":0,"other":0,"total":100}' "fully shadowed category reported as 0"
is "$(q "SELECT priority_breakdown(s, e, c, p, 1000, 1010) FROM (SELECT 0 s, 100 e, 'Kernel' c, 0 p);")" \
	'{"Kernel":0,"other":10,"total":10}' "window outside the inputs"
is "$(q "SELECT priority_breakdown(s, e, c, p, 0, 50) FROM (SELECT NULL s, NULL e, NULL c, NULL p);")" \
	'{"other":50,"total":50}' "window but no intervals (e.g. a LEFT JOIN with no events)"
is "$(q "SELECT quote(priority_breakdown(s, e, c, p)) FROM (SELECT 1 s, 2 e, 'a' c, 0 p) WHERE 0;")" \
	NULL "no rows gives NULL"
is "$(q "SELECT priority_breakdown(s, e, c, p) FROM (SELECT 0 s, 10 e, 'b' c, 1 p UNION ALL SELECT 0, 10, 'a', 1);")" \
	'{"a":10,"b":0,"other":0,"total":10}' "equal priorities: the category name that sorts first wins"
is "$(q "SELECT priority_breakdown(s, e, c, p) FROM (SELECT 0 s, 10 e, 'say \"hi\"' c, 0 p);")" \
	'{"say \"hi\"":10,"other":0,"total":10}' "category names are JSON-escaped"

# ---- range_utils subtract example (kineto_hta.md §1.3), times ×10 to make them integers ----
# A = [11,22) [33,44) [55,66); B = [0,1) [10,14) [15,16) [19,34) [43,46).
# tb_plugin: A − B = [14,15) [16,19) [34,43) [55,66) → 1 + 3 + 9 + 11 = 24.
# With B at priority 0 and A at 1, what is charged to A is exactly A − B.
cat >"$TMP/sub.sql" <<'SQL'
CREATE TABLE r(s, e, c, p);
INSERT INTO r VALUES (11,22,'A',1),(33,44,'A',1),(55,66,'A',1),
	(0,1,'B',0),(10,14,'B',0),(15,16,'B',0),(19,34,'B',0),(43,46,'B',0);
SQL
is "$(q ".read $TMP/sub.sql
SELECT json_extract(priority_breakdown(s, e, c, p), '\$.A') FROM r;")" 24 "range_utils subtract: |A − B| = 24"
# Each expected piece is entirely A, and the gaps between pieces inside A's extent hold no A.
is "$(q ".read $TMP/sub.sql
SELECT group_concat(a) FROM (SELECT json_extract(priority_breakdown(s, e, c, p, w.ws, w.we), '\$.A') a
 FROM r, (SELECT 14 ws, 15 we UNION ALL SELECT 16, 19 UNION ALL SELECT 34, 43 UNION ALL SELECT 55, 66
          UNION ALL SELECT 11, 14 UNION ALL SELECT 15, 16 UNION ALL SELECT 19, 34 UNION ALL SELECT 43, 55) w
 GROUP BY w.ws, w.we ORDER BY w.ws);")" "0,1,0,3,0,9,0,11" \
	"range_utils subtract: the pieces [14,15) [16,19) [34,43) [55,66) exactly"

# ---- errors ----
is "$(qerr "SELECT priority_breakdown(0, 10, 'other', 0);")" \
	'priority_breakdown: category name "other" is reserved (the result uses it for uncovered time)' \
	"reserved category other"
is "$(qerr "SELECT priority_breakdown(0, 10, 'total', 0);")" \
	'priority_breakdown: category name "total" is reserved (the result uses it for the window length)' \
	"reserved category total"
is "$(qerr "SELECT priority_breakdown(0, 10, x'41', 0);")" \
	"priority_breakdown: argument 3 (category) must be text, got a blob" "blob category"
is "$(qerr "SELECT priority_breakdown(0, 10, 'K', 'high');")" \
	"priority_breakdown: argument 4 (priority) must be an integer, got text that is not an integer" \
	"text priority"
is "$(qerr "SELECT priority_breakdown(0, 1e300, 'K', 0);")" \
	"priority_breakdown: argument 2 (end) must be an integer number of ns, got a REAL outside the 64-bit integer range" \
	"huge end"
is "$(qerr "SELECT priority_breakdown(s, 10, 'K', 0, 0, w) FROM (SELECT 0 s, 10 w UNION ALL SELECT 1, 11);")" \
	"priority_breakdown: window_start and window_end must be the same on every row of a group" \
	"window must not change within a group"
is "$(qerr "SELECT priority_breakdown(0, 10, 'K', 0, 'a', 5);")" \
	"priority_breakdown: argument 5 (window_start) must be an integer number of ns, got text that is not an integer" \
	"text window"
is "$(qerr "SELECT priority_breakdown(-9223372036854775808, 9223372036854775807, 'K', 0);")" \
	"priority_breakdown: interval length overflows a 64-bit integer" "span overflow"
is "$(qerr "SELECT priority_breakdown(0, 10, 'K');")" \
	"wrong number of arguments to function priority_breakdown()" "arity"

is "$(q "PRAGMA hard_heap_limit = 20000000;
SELECT priority_breakdown(value, value + 10, 'c' || (value % 3), value % 3) FROM generate_series(1, 2000000);" |
	sed -n 's/^[A-Za-z]* error near line [0-9]*: //p')" "out of memory (7)" "out of memory is reported"

# Category names are JSON-quoted: SQLite's own json_each reads each name back unchanged, also
# one longer than the quoting's stack buffer.
long=$(printf 'x%.0s' $(seq 300))
is "$(q "SELECT group_concat(key || '=' || value, ';') FROM json_each((SELECT priority_breakdown(s, e, c, p)
	FROM (SELECT 0 s, 10 e, 'say \"hi\"' || char(10) || '\\' c, 0 p UNION ALL SELECT 20, 25, '$long', 1)))")" \
	"say \"hi\"
\\=10;$long=5;other=10;total=25" "names with quotes, a newline, a backslash, 300 bytes"

ref_suite priority 12

done_testing
