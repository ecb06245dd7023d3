#!/bin/sh
# Every SQL function the extension registers is documented in docs/sql-functions.md.
. "${0%/*}/../lib.sh"
cd "$TMP"

sqlite :memory: "SELECT DISTINCT name FROM pragma_function_list ORDER BY 1" >plain.txt
sqlite :memory: ".load $EXT" "SELECT DISTINCT name FROM pragma_function_list ORDER BY 1" >loaded.txt
sqlite :memory: ".load $EXT" "SELECT name FROM pragma_module_list ORDER BY 1" >modules.txt
sqlite :memory: "SELECT name FROM pragma_module_list ORDER BY 1" >plain_modules.txt
added=$(comm -13 plain.txt loaded.txt; comm -13 plain_modules.txt modules.txt)
ok "$([ -n "$added" ]; echo $?)" "the extension registers functions ($(echo $added | wc -w))"

missing=""
for f in $added; do
	grep -q "\`$f[(\`]" "$TOP/docs/sql-functions.md" || grep -q "^###* .*$f(" "$TOP/docs/sql-functions.md" ||
		missing="$missing $f"
done
is "$missing" "" "docs/sql-functions.md documents every function and table-valued function"

done_testing
