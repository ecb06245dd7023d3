#!/bin/sh
# Files profq does not read as they are get an error naming the command to run instead: an
# Nsight Systems report (.nsys-rep) the `nsys export` that makes it SQLite, an nsys SQLite export
# given where a profq database goes the `profq import` that reads it.
. "${0%/*}/../lib.sh"
cd "$TMP"

# A report is nsys's own binary format: any bytes that are neither JSON nor SQLite stand for one.
# They start with a fixed byte: random ones began like JSON ('{', '[', whitespace) ~2 % of runs.
printf '\001' >report.nsys-rep
head -c 4096 /dev/urandom >>report.nsys-rep
printf 'QDSTRM\0\0' >>report.nsys-rep
export_cmd='nsys export --type sqlite --output report.sqlite report.nsys-rep'

"$PROFQ" import -q -o out.db report.nsys-rep >out 2>err
is "$?" 1 "import of a .nsys-rep fails"
is "$(wc -l <err)" 1 "one line on stderr"
like "$(cat err)" "^profq: report.nsys-rep: .*Nsight Systems report" "the file and what it is"
is "$(sed 's/.*: nsys export/nsys export/' err)" "$export_cmd" "the line ends with the export command"
ok "$([ ! -e out.db ]; echo $?)" "no database left behind"

cp report.nsys-rep "my run's.nsys-rep"
"$PROFQ" import -q -o out.db "my run's.nsys-rep" 2>err
like "$(cat err)" "--output 'my run'\\\\''s.sqlite' 'my run'\\\\''s.nsys-rep'\$" \
	"names are quoted for the shell"

for cmd in info "sql" "top-kernels"; do
	[ "$cmd" = sql ] && extra="SELECT 1" || extra=""
	"$PROFQ" $cmd report.nsys-rep $extra >out 2>err
	is "$?" 1 "$cmd on a .nsys-rep fails"
	is "$(cat err)" "profq: 'report.nsys-rep' is an Nsight Systems report, not a profq database; export and import it first: $export_cmd; profq import -o profile.db report.sqlite" \
		"$cmd on a .nsys-rep: the export and the import command"
done

# The name alone does not decide: a Chrome trace named .nsys-rep imports as one.
printf '[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":2,"name":"k"}]' >trace.nsys-rep
"$PROFQ" import -q -o named.db trace.nsys-rep >/dev/null 2>&1
ok $? "a JSON trace named .nsys-rep imports"

NSYS=$DATA/nsys/mock.sqlite
if [ -f "$NSYS" ]; then
	cp "$NSYS" export.sqlite
	sum=$(sha256sum export.sqlite)
	for cmd in info "sql" "top-kernels" "kernel-sum"; do
		[ "$cmd" = sql ] && extra="SELECT 1" || extra=""
		"$PROFQ" $cmd export.sqlite $extra >out 2>err
		is "$?" 1 "$cmd on an nsys export fails"
		is "$(cat err)" "profq: 'export.sqlite' is an Nsight Systems export, not a profq database; import it first: profq import -o profile.db export.sqlite" \
			"$cmd on an nsys export: the import command"
	done
	is "$(sha256sum export.sqlite)" "$sum" "the export is unchanged"
	# The command the hint names works as it is.
	eval "$BUILD/$(sed 's/.*import it first: profq/profq/' err) >/dev/null 2>&1"
	ok $? "the suggested import runs"
	is "$(sqlite profile.db "SELECT source, count(*) FROM runs")" "nsys-sqlite|1" \
		"and makes profile.db with the export as its run"
else
	skip "nsys export hints" "no $NSYS"
fi

done_testing
