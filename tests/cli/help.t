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

# Every command of `profq --help` and every report: `profq help NAME` is `profq NAME --help`.
cmds=$(printf '%s\n' "$out" | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
like "$(echo $cmds)" "^record import info sql analyze repair html export merge diff push ch-report report help" "--help lists the commands"
bad=""
for name in $cmds $(cd "$TOP/queries" && ls *.sql | sed 's/\.sql$//'); do
	a=$("$PROFQ" help "$name" 2>&1); sa=$?
	b=$("$PROFQ" "$name" --help 2>&1); sb=$?
	[ "$sa:$sb" = "0:0" ] && [ -n "$a" ] && [ "$a" = "$b" ] &&
		printf '%s\n' "$a" | head -n 1 | grep -q "^Usage: profq $name" || bad="$bad $name"
done
is "$bad" "" "profq help NAME = profq NAME --help (exit 0, starts with its usage) for all"
is "$("$PROFQ" help)" "$out" "profq help alone is --help"
is "$("$PROFQ" report -h)" "$("$PROFQ" help report)" "report -h is help report"

# A report's help lists each option its file declares, with choices and default, and run/limit.
bad=""
for f in "$TOP"/queries/*.sql; do
	name=$(basename "$f" .sql)
	"$PROFQ" help "$name" >"$TMP/h"
	{ sed -n 's/^-- option \([^=]*\)=/  --\1 /p' "$f"; echo "  --run <id>: "
	  echo "  --limit <n>: "; } >"$TMP/want"
	while IFS= read -r line; do
		grep -qF -- "$line" "$TMP/h" || bad="$bad $name:${line%% (*}"
	done <"$TMP/want"
done
is "$bad" "" "every report's help lists its declared options (choices, default, text), run, limit"
is "$("$PROFQ" help op-sum | head -n 1)" \
	"Usage: profq op-sum <profile.db> [--format table|csv|json] [--by name|name+input-shape] [--run ID] [--limit N]" \
	"report usage line: every option with its choices"
like "$("$PROFQ" help op-sum)" "^  --by name\|name\+input-shape \(default name\): one row per operator name" \
	"report help: choices and default from the header"

# The analyze rules named in its help are the analyze-*.sql files.
rules=$(cd "$TOP/queries" && ls analyze-*.sql | sed 's/^analyze-//; s/\.sql$//')
is "$("$PROFQ" help analyze | sed -n '/^Rules:/,/^$/s/^  \([a-z_]*\) .*/\1/p')" "$rules" \
	"analyze help lists exactly the rule files"

done_testing
