#!/bin/sh
# `profq sql`: the three output formats, parameters, standard input, the extension.
. "${0%/*}/../lib.sh"
cd "$TMP"
"$BUILD/examples/demo" demo.db

q="SELECT 1 AS n, 'a,b' AS comma, 'say \"hi\"' AS quote, NULL AS missing, 2.5 AS half"

csv=$("$PROFQ" sql demo.db --format csv "$q")
is "$csv" "$(printf 'n,comma,quote,missing,half\n1,"a,b","say ""hi""",,2.5')" \
	"csv: header row, RFC 4180 quoting, NULL empty"
# Python's csv module reads it back to the same values.
is "$(printf '%s\n' "$csv" | py -c 'import csv,sys; print(list(csv.reader(sys.stdin)))')" \
	"[['n', 'comma', 'quote', 'missing', 'half'], ['1', 'a,b', 'say \"hi\"', '', '2.5']]" \
	"csv: parses back with Python's csv module"

json=$("$PROFQ" sql demo.db --format json "$q")
is "$(printf '%s' "$json" | py -c 'import json,sys; print(json.load(sys.stdin))')" \
	"[{'n': 1, 'comma': 'a,b', 'quote': 'say \"hi\"', 'missing': None, 'half': 2.5}]" \
	"json: an array of objects with typed values"
is "$("$PROFQ" sql demo.db --format json "SELECT 1 WHERE 0")" "[]" "json: no rows is []"
is "$("$PROFQ" sql demo.db --format json "SELECT 9007199254740993 AS big")" \
	"$(printf '[\n{"big":9007199254740993}\n]')" "json: integers beyond 2^53 stay exact"

table=$("$PROFQ" sql demo.db "SELECT 'x' AS name, 12345 AS total_ns UNION ALL SELECT 'longer', 7")
is "$table" "$(printf 'name    total_ns\n------  --------\nx          12345\nlonger         7')" \
	"table: header, rule, text left and numbers right"
table=$("$PROFQ" sql demo.db "SELECT 'é' AS s, 1 AS n UNION ALL SELECT 'ab', 2")
is "$table" "$(printf 's   n\n--  -\né   1\nab  2')" "table: widths count characters, not bytes"

is "$("$PROFQ" sql demo.db --format csv --param lim=2 \
	"SELECT count(*) FROM (SELECT 1 FROM kernels LIMIT :lim)")" "$(printf 'count(*)\n2')" \
	"--param binds :name as an integer"
is "$("$PROFQ" sql demo.db --format csv --param who=relu_kernel \
	"SELECT count(*) FROM v_kernels WHERE short_name = @who")" "$(printf 'count(*)\n50')" \
	"--param binds @name as text"
is "$("$PROFQ" sql demo.db --format csv "SELECT :unset IS NULL AS n")" "$(printf 'n\n1')" \
	"an unset parameter is NULL, as in sqlite3"

is "$(echo "SELECT count(*) AS k FROM kernels;" | "$PROFQ" sql demo.db --format csv)" \
	"$(printf 'k\n200')" "SQL from standard input"
is "$("$PROFQ" sql demo.db --format csv "SELECT 1 AS a;" "SELECT 2 AS b")" \
	"$(printf 'a\n1\nb\n2')" "several statements print each result"

want=$(sed -n 's/^#define PROFQ_VERSION "\(.*\)"/\1/p' "$TOP/lib/version.h")
is "$("$PROFQ" sql demo.db --format csv "SELECT profq_version() AS v")" "$(printf 'v\n%s' "$want")" \
	"the extension's functions are loaded"

# The demo's shape (examples/demo.c header): independent arithmetic, not profq's.
# forward GEMMs: 5 steps x sum_{i=0..9} (180 + 10 i) us = 5 x 2250 us
is "$("$PROFQ" sql demo.db --format csv \
	"SELECT sum(duration_ns) FROM v_kernels WHERE name = 'ampere_sgemm_128x64_nn'")" \
	"$(printf 'sum(duration_ns)\n11250000')" "demo: forward GEMM time is 5 x 2250 us"

done_testing
