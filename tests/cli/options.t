#!/bin/sh
# Report options (docs/reports.md): a report takes exactly the options its file declares plus run
# and limit, as --NAME VALUE, --NAME=VALUE or --param NAME=VALUE ('-' and '_' alike), values
# checked; unknown names and values are usage errors (exit 2, one 'profq:' line naming the valid
# choices); --run of a run the file does not have is exit 1. Usage errors of every command start
# with 'profq:'; an unknown command suggests the closest name. `profq sql` binds a file's
# declared defaults and checks --param against its declarations.
. "${0%/*}/../lib.sh"
cd "$TMP"
"$BUILD/examples/demo" demo.db
"$BUILD/examples/demo" one.db
if [ -f "$DATA/nsys/mock.sqlite" ]; then
	"$PROFQ" import -q -o demo.db "$DATA/nsys/mock.sqlite" >/dev/null
	runs="1, 2"
else
	runs="1"
fi

# expect NAME STATUS STDERR ARGS...: exit status, nothing on stdout, exactly that stderr line.
expect() {
	name=$1 want=$2 msg=$3
	shift 3
	"$PROFQ" "$@" >out 2>err
	is "$?:$(cat out)" "$want:" "$name: exit $want, no output"
	is "$(cat err)" "$msg" "$name: message"
}

expect "unknown value" 2 "profq: op-sum: --by must be name|name+input-shape, not 'bogus'" \
	op-sum demo.db --param by=bogus
expect "unknown value as --by" 2 "profq: op-sum: --by must be name|name+input-shape, not 'bogus'" \
	op-sum demo.db --by bogus
expect "unknown --param name" 2 "profq: op-sum: unknown option 'rnu' (options: by, run, limit)" \
	op-sum demo.db --param rnu=2
expect "unknown --NAME" 2 "profq: op-sum: unknown option 'rnu' (options: by, run, limit)" \
	op-sum demo.db --rnu 2
expect "an option of another report" 2 \
	"profq: api-sum: unknown option 'by' (options: run, limit)" api-sum demo.db --by name
expect "missing value" 2 "profq: op-sum: --by needs a value" op-sum demo.db --by
expect "--param without =" 2 "profq: op-sum: --param needs NAME=VALUE, not 'by'" \
	op-sum demo.db --param by
expect "--run 0" 2 "profq: op-sum: --run must be a run id (a positive integer), not '0'" \
	op-sum demo.db --run 0
expect "--run x" 2 "profq: op-sum: --run must be a run id (a positive integer), not 'x'" \
	op-sum demo.db --param run=x
expect "--limit -1" 2 "profq: top-kernels: --limit must be a non-negative integer, not '-1'" \
	top-kernels demo.db --limit -1
expect "numeric placeholder" 2 "profq: analyze-gpu_gaps: --gap-ms must be a number (<ms>), not 'soon'" \
	analyze-gpu_gaps demo.db --gap-ms soon
expect "--format xml" 2 "profq: op-sum: --format must be table|csv|json, not 'xml'" \
	op-sum demo.db --format xml
expect "two databases" 2 "profq: op-sum: give exactly one database (got 'demo.db' and 'one.db')" \
	op-sum demo.db one.db
expect "no database" 2 "profq: op-sum: no database given (profq op-sum <profile.db>)" op-sum
expect "single-dash option" 2 "profq: op-sum: unknown option '-x' (see 'profq help op-sum')" \
	op-sum demo.db -x
expect "--run of a missing run" 1 "profq: op-sum: no run 99 in demo.db (runs: $runs)" \
	op-sum demo.db --run 99
expect "--run of a missing run, csv" 1 "profq: top-kernels: no run 3 in demo.db (runs: $runs)" \
	top-kernels demo.db --run 3 --format csv
expect "--run on a one-run file" 1 "profq: gpu-sum: no run 2 in one.db (runs: 1)" \
	gpu-sum one.db --param run=2
expect "analyze --run of a missing run" 1 "profq: analyze: no run 7 in demo.db (runs: $runs)" \
	analyze demo.db --run 7
expect "analyze --run 1.5" 2 "profq: analyze: bad value '1.5' for --run" analyze demo.db --run 1.5
ok "$([ ! -e x.db ]; "$PROFQ" op-sum x.db --rnu 1 2>/dev/null; [ ! -e x.db ]; echo $?)" \
	"a usage error opens no file"

# The same option, spelled every accepted way, gives the same rows; and it is really bound.
want=$("$PROFQ" launch-stats demo.db --format csv --runtime-cutoff-us 1)
for spelling in "--runtime_cutoff_us 1" "--runtime-cutoff-us=1" "--param runtime-cutoff-us=1" \
		"--param runtime_cutoff_us=1" "-p runtime_cutoff_us=1"; do
	# shellcheck disable=SC2086
	is "$("$PROFQ" launch-stats demo.db --format csv $spelling)" "$want" "launch-stats $spelling"
done
ok "$([ "$want" != "$("$PROFQ" launch-stats demo.db --format csv)" ]; echo $?)" \
	"--runtime-cutoff-us 1 changes the report (so it is bound)"
is "$("$PROFQ" top-kernels demo.db --format csv --by short-name --limit 2 --run 1)" \
	"$("$PROFQ" top-kernels demo.db --format=csv --param by=short-name --param limit=2 -r 1)" \
	"--by/--limit/--run and their --param forms agree"
is "$("$PROFQ" top-kernels demo.db --format csv --by short-name --run 1 | wc -l)" \
	"$("$PROFQ" sql demo.db --format csv --param by=short-name --param run=1 \
		"SELECT count(DISTINCT kernel_short_name(name)) + 1 AS n FROM v_kernels WHERE run_id = :run" |
		tail -n 1)" \
	"--by short-name groups by short name"

# profq sql with a file that declares options: defaults bound, --param checked.
cat >opt.sql <<'SQL'
-- A test report
-- option n=<n> (default 7): a number
-- option mode=a|b-c (default a): a choice
-- option label=<text>: no default
.load build/profq
.mode csv
SELECT :n AS n, typeof(:n) AS t, :mode AS mode, :label AS label;
SQL
is "$("$PROFQ" sql demo.db --format csv --file opt.sql)" "$(printf 'n,t,mode,label\n7,integer,a,')" \
	"sql --file: dot-commands skipped, declared defaults bound, no default is NULL"
is "$("$PROFQ" sql demo.db --format csv <opt.sql)" "$(printf 'n,t,mode,label\n7,integer,a,')" \
	"sql < FILE: the same"
is "$("$PROFQ" sql demo.db --format csv --file opt.sql --param n=3 --param mode=b-c \
	--param label=x)" "$(printf 'n,t,mode,label\n3,integer,b-c,x')" "sql --param overrides them"
expect "sql --file: unknown --param" 2 "profq: opt: unknown option 'm' (options: n, mode, label, run, limit)" \
	sql demo.db --file opt.sql --param m=1
expect "sql < FILE: unknown --param" 2 "profq: sql: unknown option 'm' (options: n, mode, label, run, limit)" \
	sql demo.db --param m=1 <opt.sql
expect "sql --file: bad value" 2 "profq: opt: --mode must be a|b-c, not 'c'" \
	sql demo.db --file opt.sql --param mode=c
expect "sql --file: missing run" 1 "profq: opt: no run 9 in demo.db (runs: $runs)" \
	sql demo.db --file opt.sql --param run=9
expect "sql --file and SQL" 2 "profq: sql: give the SQL as arguments or with --file, not both" \
	sql demo.db --file opt.sql "SELECT 1"
expect "sql --file missing" 1 "profq: cannot open 'nope.sql': No such file or directory" \
	sql demo.db --file nope.sql
is "$("$PROFQ" sql demo.db --format csv --param anything=5 "SELECT :anything")" "$(printf ':anything\n5')" \
	"SQL without declarations: --param binds any name"
is "$("$PROFQ" sql demo.db --format csv --file "$TOP/queries/top-kernels.sql" --param by=short-name)" \
	"$("$PROFQ" top-kernels demo.db --format csv --by short-name)" "sql --file runs a report file"

# Every command's usage errors, getopt's included, are one 'profq:' line.
for cmd in record import info sql analyze; do
	expect "$cmd --bogus" 2 "profq: $cmd: unknown option '--bogus' (see 'profq help $cmd')" \
		"$cmd" --bogus
	expect "$cmd -Z" 2 "profq: $cmd: unknown option '-Z' (see 'profq help $cmd')" "$cmd" -Z
done
expect "info --format without value" 2 "profq: info: option '--format' needs a value" \
	info demo.db --format
expect "import -o without value" 2 "profq: import: option '-o' needs a value" import -o
expect "sql --param without value" 2 "profq: sql: option '--param' needs a value" sql demo.db --param
expect "top-level unknown option" 2 "profq: unknown option '--bogus' (see 'profq --help')" --bogus
expect "no command" 2 "profq: no command given (see 'profq --help')"

# An unknown command names the closest command or report.
expect "misspelt report" 2 "profq: unknown command 'top-kernel'; did you mean 'top-kernels'?" \
	top-kernel demo.db
expect "misspelt command" 2 "profq: unknown command 'improt'; did you mean 'import'?" improt x
expect "misspelt report after report" 2 "profq: unknown report 'op-smu'; did you mean 'op-sum'?" \
	report op-smu demo.db
expect "nothing close" 2 \
	"profq: unknown command or report 'frobnicate' (see 'profq --help' and 'profq report --list')" \
	frobnicate
expect "help of nothing" 2 "profq: unknown command 'hepl'; did you mean 'help'?" help hepl

done_testing
