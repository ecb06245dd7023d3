#!/bin/sh
# Bad input to `profq info` and `profq sql`: exit 1 with one "profq: ..." line, nothing created
# or changed; usage errors exit 2.
. "${0%/*}/../lib.sh"
cd "$TMP"

# expect_fail NAME STATUS ARGS...: runs profq, checks the exit status and a single stderr line.
expect_fail() {
	name=$1 want=$2
	shift 2
	"$PROFQ" "$@" >out 2>err
	is "$?" "$want" "$name: exit $want"
	is "$(cat out)" "" "$name: nothing on stdout"
	like "$(head -n 1 err)" "^profq: " "$name: stderr starts with 'profq: '"
}

for cmd in info sql; do
	set -- "$cmd"
	[ "$cmd" = sql ] && extra="SELECT 1" || extra=""

	expect_fail "$cmd missing file" 1 "$cmd" missing.db $extra
	is "$(wc -l <err)" 1 "$cmd missing file: one line"
	like "$(cat err)" "cannot open 'missing.db': No such file or directory" \
		"$cmd missing file: says why"
	ok "$([ ! -e missing.db ]; echo $?)" "$cmd missing file: not created"

	printf 'just text\n' >text.db
	sum=$(sha256sum text.db)
	expect_fail "$cmd non-SQLite file" 1 "$cmd" text.db $extra
	is "$(cat err)" "profq: 'text.db' is not an SQLite database" "$cmd non-SQLite: message"
	is "$(sha256sum text.db)" "$sum" "$cmd non-SQLite: file unchanged"

	rm -f other.db
	sqlite other.db "CREATE TABLE t(x); INSERT INTO t VALUES (42)"
	sum=$(sha256sum other.db)
	expect_fail "$cmd other SQLite file" 1 "$cmd" other.db $extra
	is "$(cat err)" "profq: 'other.db' is an SQLite database but not a profq database" \
		"$cmd other SQLite: message"
	is "$(sha256sum other.db)" "$sum" "$cmd other SQLite: file unchanged"
	ok "$([ ! -e other.db-wal ] && [ ! -e other.db-journal ]; echo $?)" \
		"$cmd other SQLite: no journal left"

	: >empty.db
	expect_fail "$cmd empty file" 1 "$cmd" empty.db $extra
	is "$(wc -c <empty.db | tr -d ' ')" 0 "$cmd empty file: still empty"

	mkdir -p adir
	expect_fail "$cmd directory" 1 "$cmd" adir $extra
done

if [ -f "$DATA/nsys/mock.sqlite" ]; then
	sum=$(sha256sum "$DATA/nsys/mock.sqlite")
	expect_fail "nsys export" 1 info "$DATA/nsys/mock.sqlite"
	like "$(cat err)" "is an Nsight Systems export, not a profq database" "nsys export: named"
	is "$(sha256sum "$DATA/nsys/mock.sqlite")" "$sum" "nsys export: unchanged"
else
	skip "nsys export" "no tests/data/nsys"
fi

# Usage errors.
"$PROFQ" >out 2>err; is "$?" 2 "no command: exit 2"
"$PROFQ" frobnicate >out 2>err; is "$?" 2 "unknown command: exit 2"
like "$(cat err)" "unknown command or report 'frobnicate'" "unknown command: named"
"$PROFQ" --bogus >out 2>err; is "$?" 2 "unknown option: exit 2"
"$PROFQ" info >out 2>err; is "$?" 2 "info without a database: exit 2"
"$PROFQ" info a.db b.db >out 2>err; is "$?" 2 "info with two databases: exit 2"
"$PROFQ" sql >out 2>err; is "$?" 2 "sql without a database: exit 2"
"$PROFQ" sql x.db --format xml "SELECT 1" >out 2>err; is "$?" 2 "sql --format xml: exit 2"
like "$(cat err)" "unknown format 'xml'" "sql --format xml: named"
"$PROFQ" info x.db --format csv >out 2>err; is "$?" 2 "info --format csv: exit 2"
"$PROFQ" sql x.db --param novalue "SELECT 1" >out 2>err; is "$?" 2 "--param without '=': exit 2"
"$PROFQ" report >out 2>err; is "$?" 2 "report without --list or a name: exit 2"
ok "$([ ! -e x.db ]; echo $?)" "usage errors create no file"

# A statement error on a good database.
"$BUILD/examples/demo" demo.db
sum=$(sha256sum demo.db)
"$PROFQ" sql demo.db "SELECT nosuchcolumn FROM kernels" >out 2>err
is "$?" 1 "SQL error: exit 1"
is "$(cat err)" "profq: no such column: nosuchcolumn" "SQL error: SQLite's message"
"$PROFQ" info demo.db >/dev/null
is "$(sha256sum demo.db)" "$sum" "info leaves a database byte-identical"

done_testing
