#!/bin/sh
# Progress and the per-file line: `profq import` off a terminal prints one line per file on stderr;
# --progress shows every phase (reading, writing, building indexes, committing) even off a
# terminal, at most 4 redraws a second; --quiet prints nothing; on a terminal (script(1)) the
# progress line is redrawn in place and cleared before the file's line. Long queries show their
# running time on a terminal only.
. "${0%/*}/../lib.sh"
cd "$TMP"

printf '[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":2,"name":"a"},{"ph":"X","pid":1,"tid":1,"ts":5,"dur":1,"name":"b"},{"ph":"i","pid":1,"tid":1,"ts":6,"name":"m","s":"t"}]' >small.json
# About 70,000 events (68 batches of the reader), enough to show the redraw limit.
py -c '
import sys
ev = ",".join("{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%d,\"dur\":1,\"name\":\"op%d\"}" % (i % 4, i * 2, i % 50) for i in range(70000))
sys.stdout.write("[" + ev + "]")' >big.json
# The event tables' indexes, counted in a file independently of profq's own listing.
indexes() { sqlite "$1" "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN
	('kernels','memcpys','memsets','api_calls','ranges','marks','memory_events','counters','synchronizations','flows')"; }

# Off a terminal: one line per file, on stderr, nothing on stdout.
"$PROFQ" import -o two.db small.json big.json >out 2>err
is "$?" 0 "two files import"
is "$(cat out)" "" "nothing on stdout"
is "$(wc -l <err)" 2 "one line per file on stderr"
like "$(sed -n 1p err)" '^profq: imported small.json as run 1 \(chrome-json\) in [0-9]+\.[0-9]{2} s: 3 events, 3 rows$' \
	"the first file's line: run 1, 3 events"
like "$(sed -n 2p err)" '^profq: imported big.json as run 2 \(chrome-json\) in [0-9]+\.[0-9]{2} s: 70,000 events, 70,000 rows$' \
	"the second's: run 2, 70,000 events with grouped digits"
is "$(sqlite two.db "SELECT group_concat(n) FROM (SELECT count(*) n FROM ranges GROUP BY run_id ORDER BY run_id)")" \
	"2,70000" "the lines' counts are what the file holds"

# --quiet: nothing at all, and the import is done all the same.
"$PROFQ" import --quiet -o q.db small.json >out 2>err
is "$?:$(cat out)$(cat err)" "0:" "--quiet: exit 0, nothing on stdout or stderr"
is "$(sqlite q.db "SELECT count(*) FROM runs")" 1 "--quiet: the run is there"
"$PROFQ" import -q -o q.db missing.json >out 2>err
is "$?:$(cat err)" "1:profq: missing.json: cannot open: No such file or directory" "--quiet: errors still show"

# --progress off a terminal: a line per redraw, every phase in order, then the file's line.
"$PROFQ" import --progress -o p.db big.json >out 2>err
is "$?" 0 "--progress import"
n=$(indexes p.db)
phases=$(sed -n 's/^profq: importing big.json: \([a-z ]*[a-z]\).*/\1/p' err | uniq | tr '\n' ',')
is "$phases" "reading,writing,building indexes,committing," "Chrome: reading, writing, building indexes, committing"
like "$(cat err)" "building indexes $n of $n" "index building counts to the $n event indexes"
like "$(cat err)" "reading 100%" "a phase's last step is shown"
like "$(tail -n 1 err)" "^profq: imported big.json as run 1 " "the file's line comes last"
secs=$(sed -n 's/.* in \([0-9.]*\) s:.*/\1/p' err)
lines=$(grep -c '^profq: importing' err)
# At most 4 redraws a second, plus each phase's first and last step (4 phases). The reader
# hands over 68 batches, each a report: without the limit there would be 68 lines.
ok "$(py -c "import sys; sys.exit(0 if $lines <= 4 * $secs + 2 * 4 + 1 else 1)"; echo $?)" \
	"$lines progress lines in $secs s: at most 4 a second plus each phase's first and last"
NSYS=$DATA/nsys/mock.sqlite
if [ -f "$NSYS" ]; then
	"$PROFQ" import --progress -o n.db "$NSYS" >out 2>err
	phases=$(sed -n 's/^profq: importing [^:]*: \([a-z ]*[a-z]\).*/\1/p' err | uniq | tr '\n' ',')
	is "$phases" "reading,writing,building indexes,committing," "nsys: reading, writing, building indexes, committing"
else
	skip "nsys phases" "no $NSYS"
fi

# A real terminal: redrawn in place (carriage return, erase line), cleared before the file's line.
if script -qc true /dev/null >/dev/null 2>&1; then
	script -qc "'$PROFQ' import -o tty.db big.json" /dev/null >tty.out
	like "$(tr '\r\033' 'RE' <tty.out | head -c 300)" '^RE\[Kprofq: importing big\.json: reading 0%' \
		"terminal: the line is drawn in place from the start"
	like "$(tr '\r\033' 'RE' <tty.out)" 'building indexes' "terminal: index building shows"
	last=$(tr '\r\033' 'RE' <tty.out | awk -F 'RE\\[K' '{ print $NF }' | tr -d 'R')
	like "$last" '^profq: imported big\.json as run 1 \(chrome-json\)' \
		"terminal: the line is cleared, the file's line is what stays"
	# A query that runs over a second (~3 s here; 10 M rows took 1.0 s, too close) shows its time on
	# a terminal, and is cleared.
	slow="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30000000) SELECT count(*) AS n FROM c"
	script -qc "'$PROFQ' sql tty.db '$slow'" /dev/null >slow.out
	like "$(tr '\r\033' 'RE' <slow.out)" 'RE\[Kprofq: running query: [0-9]+ sRE\[K *n' "a long query shows its time, then is cleared"
	"$PROFQ" sql tty.db "$slow" >out 2>err
	is "$(cat err)$(tail -n 1 out)" "30000000" "off a terminal: no progress, just the rows"
else
	skip "terminal progress" "script(1) cannot make a terminal here"
fi

done_testing
