#!/bin/sh
# Table output (profq sql / reports): long text columns last, widths by display width, fixed
# decimals per REAL column, cutting to a terminal's width; CSV and JSON untouched by all of it.
. "${0%/*}/../lib.sh"
cd "$TMP"
"$BUILD/examples/demo" demo.db

l41=$(printf 'k%.0s' $(seq 41))   # 41 columns: a long text column
l40=$(printf 'm%.0s' $(seq 40))   # 40: still short
q="SELECT '$l41' AS name, 7 AS n, '$l40' AS mid, 'x' AS s"

is "$("$PROFQ" sql demo.db "$q" | head -n 1 | tr -s ' ')" "n mid s name" \
	"table: the 41-column text goes last, the 40-column one stays"
is "$("$PROFQ" sql demo.db "$q" --format csv | head -n 1)" "name,n,mid,s" "csv: the query's order"
is "$("$PROFQ" sql demo.db "$q" --format json | py -c 'import json,sys; print(",".join(json.load(sys.stdin)[0]))')" \
	"name,n,mid,s" "json: the query's order"
is "$("$PROFQ" sql demo.db "$q" | sed -n 3p)" "7  $l40  x  $l41" "the row follows its header"

# Display width: é is one column, 日本 two each, a combining accent none. Python's unicodedata
# gives the same widths independently.
t="SELECT 'héllo 日本' AS w, 1 AS n UNION ALL SELECT 'e' || char(769) || 'x', 22"
out=$("$PROFQ" sql demo.db "$t")
is "$(printf '%s\n' "$out" | sed -n 2p)" "----------  --" "rule: 10 columns for 'héllo 日本', 2 for n"
widths=$(printf '%s\n' "$out" | py -c '
import sys, unicodedata
def w(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
print(" ".join(str(w(l.rstrip("\n"))) for l in sys.stdin))')
is "$widths" "14 14 14 14" "every line is 14 columns wide on screen"

# Fixed decimals: a REAL column shows the most decimals any of its values needs, on every row;
# integers in it too. Text made by printf keeps its own form.
d="SELECT 1.5 AS r, 2 AS i, printf('%.3f', 1) AS t UNION ALL SELECT 10.25, 3, '2.5'
   UNION ALL SELECT 100, 40, '7' UNION ALL SELECT NULL, NULL, NULL"
is "$("$PROFQ" sql demo.db "$d")" "     r   i      t
------  --  -----
  1.50   2  1.000
 10.25   3    2.5
100.00  40      7" "table: 2 decimals for every r, integers stay integers, text kept"
is "$("$PROFQ" sql demo.db "$d" | sed -n '6p;7p' | od -An -c | tr -s ' ')" " \\n" \
	"an all-NULL row is an empty line (no trailing spaces)"
is "$("$PROFQ" sql demo.db "SELECT 3.0 AS whole UNION ALL SELECT 4.0" | tail -n 2 | tr -d ' ')" "3.0
4.0" "a REAL column of whole numbers keeps one decimal"
is "$("$PROFQ" sql demo.db "SELECT 1.0 / 3 AS third, 2.5e-7 AS tiny, 1.5e20 AS big")" "   third      tiny                      big
--------  --------  -----------------------
0.333333  0.000000  150000000000000000000.0" "at most 6 decimals, no exponents"
is "$("$PROFQ" sql demo.db "$d" --format csv)" "r,i,t
1.5,2,1.000
10.25,3,2.5
100,40,7
,," "csv: values as SQLite gives them"
is "$("$PROFQ" sql demo.db "$d" --format json | tr -d '\n')" \
	'[{"r":1.5,"i":2,"t":"1.000"},{"r":10.25,"i":3,"t":"2.5"},{"r":100,"i":40,"t":"7"},{"r":null,"i":null,"t":null}]' \
	"json: values as SQLite gives them"

# A terminal: the long column is cut with an ellipsis so a row fits the width; CSV is not.
if script -qc true /dev/null >/dev/null 2>&1; then
	long=$(printf 'void kernel_%.0s' $(seq 20))
	script -qc "stty cols 60; '$PROFQ' sql demo.db \"SELECT 12345 AS calls, '$long' AS name\"" /dev/null |
		tr -d '\r' >tty.out
	is "$(sed -n 3p tty.out)" "12345  $(printf '%s' "$long" | cut -c1-52)…" \
		"terminal of 60 columns: the name cut to 53 columns, ending in …"
	is "$(py -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' tty.out)" 60 \
		"no line is wider than the terminal"
	script -qc "stty cols 60; '$PROFQ' sql demo.db --format csv \"SELECT 12345 AS calls, '$long' AS name\"" /dev/null |
		tr -d '\r' >tty.csv
	is "$(sed -n 2p tty.csv)" "12345,$long" "csv on a terminal: never cut"
	"$PROFQ" sql demo.db "SELECT 12345 AS calls, '$long' AS name" >pipe.out
	is "$(sed -n 3p pipe.out)" "12345  $long" "table into a pipe: never cut"
else
	skip "terminal width" "script(1) cannot make a terminal here"
fi

done_testing
