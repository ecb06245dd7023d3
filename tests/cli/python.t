#!/bin/sh
# python/profq.py refuses what `profq NAME` refuses, with the same message (less "profq: "),
# finds the extension and the report files, and binds options as profq does.
. "${0%/*}/../lib.sh"
cd "$TMP"
"$BUILD/examples/demo" demo.db

# pyrun CODE: runs CODE with profq imported and conn open on demo.db; prints what it prints, or
# "ReportError: <message>".
pyrun() {
	PROFQ_EXTENSION=$EXT py -c "
import sys; sys.path.insert(0, '$TOP/python')
import profq
conn = profq.connect('demo.db')
try:
    $1
except profq.ReportError as e:
    print('ReportError: %s' % e)
"
}

# Each refusal gives the message the CLI gives.
for case in "op-sum|by='bogus'|--by bogus" "op-sum|rnu=2|--rnu 2" "op-sum|run=0|--run 0" \
		"op-sum|run='1.5'|--run 1.5" "top-kernels|limit=-1|--limit -1" \
		"analyze-gpu_gaps|gap_ms='soon'|--gap-ms soon" "op-sum|run=99|--run 99" \
		"api-sum|by='name'|--by name"; do
	r=${case%%|*} rest=${case#*|}
	py_args=${rest%%|*} cli_args=${rest#*|}
	# shellcheck disable=SC2086
	want=$("$PROFQ" "$r" demo.db $cli_args 2>&1 >/dev/null)
	is "$(pyrun "profq.run_report(conn, '$r', $py_args)")" "ReportError: ${want#profq: }" \
		"python refuses $r $cli_args as profq does"
done

# Values and spellings: gap_ms / gap-ms, strings and numbers, bound as profq binds them.
is "$(pyrun "print(profq.run_report(conn, 'launch-stats', runtime_cutoff_us=1)[1][:3])")" \
	"$(pyrun "print(profq.run_report(conn, 'launch-stats', **{'runtime-cutoff-us': '1'})[1][:3])")" \
	"python: runtime_cutoff_us=1 is runtime-cutoff-us='1'"
is "$(pyrun "print(len(profq.run_report(conn, 'top-kernels', limit=2)[1]))")" 2 "python: limit"
is "$(pyrun "print(profq.run_report(conn, 'top-kernels', by='short-name')[0])")" \
	"$("$PROFQ" top-kernels demo.db --format csv | head -n 1 | py -c "import sys; print(sys.stdin.read().strip().split(','))")" \
	"python: the report's columns"
is "$(pyrun "print(profq.report_options('op-sum'))")" \
	"{'by': (('name', 'name+input-shape'), 'name'), 'run': ('<id>', None), 'limit': ('<n>', None)}" \
	"python: report_options in profq help's order"
is "$(pyrun "print(profq.run_report(conn, '$TOP/queries/top-kernels.sql', limit=1)[1] == profq.run_report(conn, 'top-kernels', limit=1)[1])")" \
	True "python: a path to a .sql file runs as the named report"
is "$(pyrun "profq.run_report(conn, 'top-kernel')" | sed 's/ (reports: .*//')" \
	"ReportError: unknown report 'top-kernel'" "python: unknown report"

# A path with characters special in URIs opens.
mkdir 'a dir?#%'
cp demo.db 'a dir?#%/d.db'
is "$(PROFQ_EXTENSION=$EXT py -c "
import sys; sys.path.insert(0, '$TOP/python')
import profq
print(profq.connect('a dir?#%/d.db').execute('SELECT count(*) FROM runs').fetchone()[0])")" 1 \
	"python: connect takes any path"
# Read-only by default.
is "$(PROFQ_EXTENSION=$EXT py -c "
import sys, sqlite3; sys.path.insert(0, '$TOP/python')
import profq
try:
    profq.connect('demo.db').execute('DELETE FROM runs')
except sqlite3.OperationalError as e:
    print(e)")" "attempt to write a readonly database" "python: connect is read-only by default"

done_testing
