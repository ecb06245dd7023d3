#!/bin/sh
# An export's NVTX events are read in rowid order when each thread's are already in the order the
# push/pop stacks need (lib/nsys_order.c), the threads interleaved; else sorted (the import is
# begun again once a row read in rowid order breaks that order). Both reads give the same ranges:
# the h100 export as it is (time order, read in rowid order) against a copy of it whose NVTX rows
# are scrambled (read sorted) and one whose threads are stored one after the other (rowid order
# again, not interleaved). Compared by content: write order and ids differ.
. "${0%/*}/../lib.sh"

f=$DATA/nsys/h100_2gpu_1s.sqlite
[ -f "$f" ] || skip_all "no $f"

# copy NAME ORDER: the export with its NVTX rows stored again in ORDER.
copy() {
	cp "$f" "$TMP/$1.sqlite" && chmod u+w "$TMP/$1.sqlite" &&
		sqlite "$TMP/$1.sqlite" "CREATE TEMP TABLE e AS SELECT * FROM NVTX_EVENTS;
			DELETE FROM NVTX_EVENTS; INSERT INTO NVTX_EVENTS SELECT * FROM e ORDER BY $2"
}
copy scrambled "(rowid * 7919) % 16811"
copy by_thread "globalTid DESC, rowid"
# ties: two ranges of one start on a new thread, stored the inner one first (only a sort puts the
# outer one first, as its stack needs).
copy ties "rowid" && sqlite "$TMP/ties.sqlite" "INSERT INTO NVTX_EVENTS (eventType, start, \"end\",
	globalTid, text) SELECT 59, s, s + 10, g, 'inner' FROM (SELECT max(start) + 1000 AS s,
	(max(globalTid) | 16777215) AS g FROM NVTX_EVENTS) UNION ALL SELECT 59, s, s + 100, g, 'outer'
	FROM (SELECT max(start) + 1000 AS s, (max(globalTid) | 16777215) AS g FROM NVTX_EVENTS)"
ok $? "three copies of the export"

# The ranges of run R, resolved: thread, times, name, kind, depth and the parent's thread, times
# and name, sorted.
ranges() {
	sqlite "$TMP/all.db" "SELECT t.tid, r.start_ns, r.end_ns, n.value, r.kind, r.depth, pt.tid,
	        p.start_ns, p.end_ns, pn.value, r.end_thread_id IS NULL, d.name_id IS NULL
	      FROM ranges r JOIN threads t ON t.id = r.thread_id JOIN strings n ON n.id = r.name_id
	      LEFT JOIN ranges p ON p.id = r.parent_id LEFT JOIN threads pt ON pt.id = p.thread_id
	      LEFT JOIN strings pn ON pn.id = p.name_id LEFT JOIN nvtx_domains d ON d.id = r.domain_id
	      WHERE r.run_id = $1 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12"
}

"$PROFQ" import -q -o "$TMP/all.db" "$f" >/dev/null &&
	"$PROFQ" import -q -o "$TMP/all.db" "$TMP/scrambled.sqlite" >/dev/null &&
	"$PROFQ" import -q -o "$TMP/all.db" "$TMP/by_thread.sqlite" >/dev/null &&
	"$PROFQ" import -q -o "$TMP/all.db" "$TMP/ties.sqlite" >/dev/null
ok $? "import the export and the copies"
is "$(sqlite "$TMP/all.db" "SELECT count(*), sum(parent_id IS NOT NULL), max(depth) FROM ranges
	WHERE run_id = 1")" "16782|12444|4" "the export's ranges: 12444 with a parent, 4 deep"
is "$(ranges 1 | wc -l)" "16782" "every range resolved"
is "$(ranges 2 | cksum)" "$(ranges 1 | cksum)" "scrambled rows, read sorted: the same ranges"
is "$(ranges 3 | cksum)" "$(ranges 1 | cksum)" "threads one after the other: the same ranges"
is "$(sqlite "$TMP/all.db" "SELECT n.value, r.depth, coalesce(pn.value, '-') FROM ranges r
	JOIN strings n ON n.id = r.name_id LEFT JOIN ranges p ON p.id = r.parent_id
	LEFT JOIN strings pn ON pn.id = p.name_id WHERE r.run_id = 4 AND n.value IN ('inner', 'outer')
	ORDER BY 1")" "inner|1|outer
outer|0|-" "one start, the inner range stored first: still inside the outer one"
is "$(sqlite "$TMP/all.db" "SELECT count(*) FROM ranges c JOIN ranges p ON p.id = c.parent_id
	WHERE p.run_id <> c.run_id OR p.thread_id <> c.thread_id")" "0" \
	"every parent is of the same run and thread"

# The reads are made in rowid order untested and tested row by row (lib/nsys_read.c): an export
# in order is written once; one out of order is begun again, sorted, at the first row that breaks
# the order (among the scrambled copy's first rows; the ties copy's last), and the first try
# leaves nothing behind.
writes() {
	rm -f "$TMP/one.db"
	"$PROFQ" import --progress -o "$TMP/one.db" "$1" 2>&1 | tr '\r' '\n' | grep -c 'writing 0%'
}
is "$(writes "$f") $(writes "$TMP/by_thread.sqlite")" "1 1" "in order: written once"
is "$(writes "$TMP/scrambled.sqlite") $(writes "$TMP/ties.sqlite")" "2 2" \
	"out of order: begun again, sorted"
is "$(sqlite "$TMP/all.db" "SELECT count(*), max(id), sum(status = 'complete') FROM runs")" \
	"4|4|4" "a run each, nothing of the first tries left"
is "$(sqlite "$TMP/all.db" "SELECT group_concat(n, ' ') FROM (SELECT count(*) AS n FROM ranges
	GROUP BY run_id ORDER BY run_id)")" "16782 16782 16782 16784" "each run's ranges once"

done_testing
