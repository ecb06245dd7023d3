#!/bin/sh
# Every table, view and column of the schema is documented in docs/schema.md, and the schema loads
# into a plain sqlite3 with the version and application id the binaries check.
. "${0%/*}/../lib.sh"
cd "$TMP"
doc=$TOP/docs/schema.md

cat "$TOP/schema/schema.sql" "$BUILD/gen/views.sql" | sqlite s.db  # views.sql + the reports' views
is "$?" 0 "schema/schema.sql and the views (views.sql, the reports') load into sqlite3"
is "$(sqlite s.db "PRAGMA user_version")" 1 "user_version is 1"
is "$(sqlite s.db "PRAGMA application_id")" 1347569233 "application_id is 'PRFQ'"
is "$(sqlite s.db "PRAGMA foreign_key_check")" "" "enumeration rows satisfy the foreign keys"

missing=""
for t in $(sqlite s.db "SELECT name FROM sqlite_master WHERE type IN ('table','view') \
		AND name NOT LIKE 'sqlite_%' ORDER BY name"); do
	grep -q "^### \`$t\`" "$doc" || { missing="$missing $t"; continue; }
	# The table's section: from its heading to the next heading.
	section=$(awk -v h="### \`$t\`" '$0 == h {on=1; next} /^#/ {on=0} on' "$doc")
	for c in $(sqlite s.db "SELECT name FROM pragma_table_info('$t')"); do
		printf '%s\n' "$section" | grep -q "^| \`$c\` |" || missing="$missing $t.$c"
	done
done
is "$missing" "" "docs/schema.md documents every table, view and column"

done_testing
