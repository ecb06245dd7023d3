#!/bin/sh
# --help and --version go to stdout and exit 0; every command has its own --help.
. "${0%/*}/../lib.sh"

out=$("$PROFQ" --help 2>"$TMP/err"); is "$?" 0 "--help exits 0"
is "$(cat "$TMP/err")" "" "--help writes nothing to stderr"
like "$out" "^Usage: profq <command>" "--help starts with the usage line"
for cmd in record import info sql report; do
	like "$out" "^  $cmd " "--help lists '$cmd'"
	"$PROFQ" "$cmd" --help >"$TMP/out" 2>&1
	is "$?" 0 "profq $cmd --help exits 0"
	like "$(head -n 1 "$TMP/out")" "^Usage: profq (report|$cmd)" "profq $cmd --help shows its usage"
done
is "$("$PROFQ" -h)" "$out" "-h is --help"

v=$("$PROFQ" --version); is "$?" 0 "--version exits 0"
want=$(sed -n 's/^#define PROFQ_VERSION "\(.*\)"/\1/p' "$TOP/lib/version.h")
like "$v" "^profq $want \\(schema version 1, SQLite 3\\.[0-9.]+\\)$" "--version names release, schema, SQLite"
is "$("$PROFQ" -V)" "$v" "-V is --version"

# Every canned report is listed, with a one-line description (its first "-- " line).
list=$("$PROFQ" report --list)
missing=""
for f in "$TOP"/queries/*.sql; do
	name=$(basename "$f" .sql)
	desc=$(sed -n 's/^-- //p' "$f" | head -n 1)
	got=$(printf '%s\n' "$list" | awk -v n="$name" '$1 == n { sub(/^[^ ]+ +/, ""); print }')
	[ -n "$desc" ] && [ "$got" = "$desc" ] || missing="$missing $name"
done
is "$missing" "" "report --list names every queries/*.sql with its description"

done_testing
