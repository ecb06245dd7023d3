#!/bin/sh
# profq import of broken nsys exports: exit 1, one "profq: FILE: ..." line on stderr, and the
# target database byte-identical to before (or not created at all). --keep-going skips bad rows.
. "${0%/*}/../lib.sh"

NSYS=$DATA/nsys
[ -f "$NSYS/mock.sqlite" ] && [ -f "$NSYS/h100_2gpu_1s.sqlite" ] ||
	skip_all "no nsys exports (mock.sqlite, h100_2gpu_1s.sqlite) in $NSYS"

DB=$TMP/profile.db
"$PROFQ" import -q -o "$DB" "$NSYS/mock.sqlite" >/dev/null
ok $? "a database with one run to protect"

# fails NAME FILE REGEX [OPTION]: exit 1, a single stderr line naming FILE and matching REGEX,
# the existing database unchanged byte for byte, and no database created from nothing.
fails() {
	before=$(sha256sum "$DB" | cut -d' ' -f1)
	"$PROFQ" import ${4:-} -o "$DB" "$2" >"$TMP/out" 2>"$TMP/err"
	is "$?" 1 "$1: exit 1"
	is "$(wc -l <"$TMP/err" | tr -d ' ')" 1 "$1: one line on stderr"
	like "$(cat "$TMP/err")" "^profq: $2: $3" "$1: the message says what is wrong"
	is "$(sha256sum "$DB" | cut -d' ' -f1)" "$before" "$1: database byte-identical"
	rm -f "$TMP/new.db"
	"$PROFQ" import ${4:-} -o "$TMP/new.db" "$2" >/dev/null 2>&1
	is "$?" 1 "$1: exit 1 with a new database"
	[ ! -e "$TMP/new.db" ] && [ ! -e "$TMP/new.db-wal" ]
	ok $? "$1: no database file left behind"
}

# A required column dropped: the kernel table rebuilt without `start`.
cp "$NSYS/mock.sqlite" "$TMP/nostart.sqlite" && chmod u+w "$TMP/nostart.sqlite"
cols=$(sqlite "$TMP/nostart.sqlite" "SELECT group_concat('\"' || name || '\"', ', ') FROM
	pragma_table_info('CUPTI_ACTIVITY_KIND_KERNEL') WHERE name <> 'start'")
sqlite "$TMP/nostart.sqlite" "CREATE TABLE k AS SELECT $cols FROM CUPTI_ACTIVITY_KIND_KERNEL;
	DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; ALTER TABLE k RENAME TO CUPTI_ACTIVITY_KIND_KERNEL;"
fails "kernel table without start" "$TMP/nostart.sqlite" ".*CUPTI_ACTIVITY_KIND_KERNEL has no column 'start'"
fails "kernel table without start, --keep-going" "$TMP/nostart.sqlite" \
	".*CUPTI_ACTIVITY_KIND_KERNEL has no column 'start'" --keep-going

# A required column renamed.
cp "$NSYS/mock.sqlite" "$TMP/renamed.sqlite" && chmod u+w "$TMP/renamed.sqlite"
sqlite "$TMP/renamed.sqlite" 'ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY RENAME COLUMN "end" TO endNs'
fails "memcpy end renamed" "$TMP/renamed.sqlite" ".*CUPTI_ACTIVITY_KIND_MEMCPY has no column 'end'"
cp "$NSYS/mock.sqlite" "$TMP/noname.sqlite" && chmod u+w "$TMP/noname.sqlite"
sqlite "$TMP/noname.sqlite" 'ALTER TABLE CUPTI_ACTIVITY_KIND_RUNTIME RENAME COLUMN nameId TO nameIdx'
fails "runtime nameId renamed" "$TMP/noname.sqlite" ".*CUPTI_ACTIVITY_KIND_RUNTIME has no column 'nameId'"

# Truncated copies (an interrupted download or export).
head -c 1000000 "$NSYS/h100_2gpu_1s.sqlite" >"$TMP/truncated.sqlite"
fails "truncated export" "$TMP/truncated.sqlite" ".*(malformed|truncated)"
head -c 100 "$NSYS/h100_2gpu_1s.sqlite" >"$TMP/header-only.sqlite"
fails "header only" "$TMP/header-only.sqlite" "."

# Corrupt pages in the middle of an export.
cp "$NSYS/h100_2gpu_1s.sqlite" "$TMP/corrupt.sqlite" && chmod u+w "$TMP/corrupt.sqlite"
py -c "
import sys
with open(sys.argv[1], 'r+b') as f:
    f.seek(200 * 4096)
    f.write(bytes((i * 131 + 7) % 251 for i in range(50 * 4096)))
" "$TMP/corrupt.sqlite"
fails "corrupt pages" "$TMP/corrupt.sqlite" ".*(corrupt|malformed)"

# Empty SQLite databases and an empty file.
sqlite "$TMP/empty.sqlite" "CREATE TABLE x(a); DROP TABLE x;"
fails "empty SQLite database" "$TMP/empty.sqlite" ".*not an Nsight Systems export"
: >"$TMP/zero.sqlite"
fails "empty file" "$TMP/zero.sqlite" "empty file"

# Bad rows: two API calls ending before they start. Without --keep-going the import fails
# before writing; with it they are skipped, counted and recorded.
cp "$NSYS/mock.sqlite" "$TMP/badrows.sqlite" && chmod u+w "$TMP/badrows.sqlite"
sqlite "$TMP/badrows.sqlite" 'UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET "end" = start - 5
	WHERE rowid IN (SELECT rowid FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY rowid LIMIT 2)'
fails "API calls ending before they start" "$TMP/badrows.sqlite" \
	"CUPTI_ACTIVITY_KIND_RUNTIME: 2 rows with start/end not an integer, or end before start"
out=$("$PROFQ" import --keep-going -o "$DB" "$TMP/badrows.sqlite" 2>&1)
ok $? "--keep-going: bad rows skipped, import succeeds"
like "$out" "^profq: imported .* as run 2 .*, 2 skipped$" "--keep-going: 2 skipped reported"
is "$(sqlite "$DB" "SELECT (SELECT count(*) FROM api_calls WHERE run_id = 2),
	(SELECT value FROM run_metadata WHERE run_id = 2 AND key = 'nsys.skipped_rows'),
	(SELECT value FROM run_metadata WHERE run_id = 2 AND key LIKE 'nsys.skipped.CUPTI_ACTIVITY_KIND_RUNTIME%')")" \
   "$(sqlite "file:$NSYS/mock.sqlite?mode=ro" "SELECT count(*) - 2 FROM CUPTI_ACTIVITY_KIND_RUNTIME")|2|2" \
   "--keep-going: the other API calls imported, the 2 skipped recorded in run_metadata"

# NVTX ranges: three ending before they start, found after the CUDA tables were written (the run
# is rolled back); two without an end are not bad (unmatched pushes), so the count is three.
cp "$NSYS/h100_2gpu_1s.sqlite" "$TMP/badnvtx.sqlite" && chmod u+w "$TMP/badnvtx.sqlite"
sqlite "$TMP/badnvtx.sqlite" 'UPDATE NVTX_EVENTS SET "end" = start - 1
	WHERE rowid IN (SELECT rowid FROM NVTX_EVENTS ORDER BY rowid DESC LIMIT 3);
	UPDATE NVTX_EVENTS SET "end" = NULL WHERE rowid IN (SELECT rowid FROM NVTX_EVENTS ORDER BY rowid LIMIT 2)'
fails "NVTX ranges ending before they start" "$TMP/badnvtx.sqlite" \
	"NVTX_EVENTS: 3 rows with start/end not an integer, or end before start"
out=$("$PROFQ" import --keep-going -o "$DB" "$TMP/badnvtx.sqlite" 2>&1)
ok $? "--keep-going: bad NVTX rows skipped, import succeeds"
like "$out" "^profq: imported .* as run 3 .*, 3 skipped, 2 unmatched$" "--keep-going: 3 NVTX rows skipped, 2 unmatched"
is "$(sqlite "$DB" "SELECT count(*), count(*) - count(end_ns) FROM ranges WHERE run_id = 3")" \
   "$(sqlite "file:$TMP/badnvtx.sqlite?mode=ro" "SELECT count(*) - 3, 2 FROM NVTX_EVENTS")" \
   "--keep-going: the other ranges imported, the two without an end among them"

# The source export itself is never modified.
is "$(sha256sum "$NSYS/mock.sqlite" | cut -d' ' -f1)" \
   "$(grep mock.sqlite "$NSYS/SOURCES.md" | grep -o '[0-9a-f]\{64\}')" "mock.sqlite unchanged"

done_testing
