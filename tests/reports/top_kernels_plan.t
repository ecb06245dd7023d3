#!/bin/sh
# top-kernels' default grouping reads the kernels through the kernels_name index and aggregates
# without sorting them (bench/RESULTS.md: 10 M kernels in ~4 s instead of ~12 s); a database
# without that index (written before it existed) gives the same rows, sorting instead.
. "${0%/*}/../lib.sh"
cd "$TMP"
cat "$TOP/schema/schema.sql" "$TOP/schema/views.sql" | sqlite s.db
q=$(grep -v '^\.' "$TOP/queries/top-kernels.sql")
plan=$(sqlite -cmd ".load $EXT" s.db "EXPLAIN QUERY PLAN $q")
# The default branch: from LEFT-MOST SUBQUERY to the first UNION ALL.
first=$(printf '%s\n' "$plan" | awk '/LEFT-MOST SUBQUERY/ {on=1; next} /UNION ALL/ {on=0} on')
like "$first" "SCAN k USING COVERING INDEX kernels_name" "default grouping scans kernels_name"
is "$(printf '%s\n' "$first" | grep -c 'TEMP B-TREE')" 0 "default grouping needs no sort"

if [ ! -f "$DATA/nsys/h100_2gpu_1s.sqlite" ]; then
	skip "same rows without kernels_name" "no h100_2gpu_1s.sqlite"
	done_testing
	exit
fi
"$PROFQ" import -q -o h.db "$DATA/nsys/h100_2gpu_1s.sqlite" >/dev/null 2>&1
cp h.db old.db
sqlite old.db "DROP INDEX kernels_name"
for by in demangled name; do
	is "$("$PROFQ" top-kernels old.db --by "$by" --format csv)" \
		"$("$PROFQ" top-kernels h.db --by "$by" --format csv)" \
		"--by $by: same rows without kernels_name"
done
done_testing
