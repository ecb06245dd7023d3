#!/bin/sh
# report-view.sh REPORT.sql VIEW : the view VIEW that a report with derived rows defines (docs/
# schema.md, Derived tables): the report's WITH clause up to its final SELECT, its parameters
# NULL (their defaults), then `SELECT * FROM core` (the CTE holding the stored and computed rows).
# The report stays the one definition; the build appends these views to schema/views.sql.
set -eu
report=$1
view=$2
grep -q '^core AS (' "$report" || { echo "report-view.sh: $report has no core CTE" >&2; exit 1; }
last=$(grep -n '^SELECT ' "$report" | tail -1 | cut -d: -f1)
printf '\n-- %s: generated from %s by scripts/report-view.sh.\nCREATE VIEW %s AS\n' "$view" "$report" "$view"
sed -n "/^WITH\$/,$((last - 1))p" "$report" | sed -E 's/([^:A-Za-z0-9_]):[a-z][a-z_]*/\1NULL/g'
printf 'SELECT * FROM core;\n'
