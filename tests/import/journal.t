#!/bin/sh
# A new file's first import is written through the rollback journal and left in WAL mode
# (lib/store.c says why); an import into an existing file stays in WAL. A write to the file that
# was interrupted (its hot journal) is refused by readers with the way out, `profq repair`, which
# rolls it back to the rows committed before.
. "${0%/*}/../lib.sh"
cd "$TMP"

SAMPLE=$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
cat >t.json <<'EOF'
[{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 50},
 {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": "stream 7", "ts": 120, "dur": 20,
  "args": {"device": 0, "correlation": 1}}]
EOF
kernels() { sqlite "$1" "SELECT count(*) FROM kernels"; }

"$PROFQ" import -q -o new.db "$SAMPLE"
is "$?" 0 "a new file: imported"
is "$(sqlite new.db "PRAGMA journal_mode")" wal "a new file is left in WAL mode"
ok "$([ ! -e new.db-journal ]; echo $?)" "and without a journal beside it"
is "$(sqlite new.db "PRAGMA integrity_check")" ok "and passes SQLite's integrity check"
is "$(sqlite new.db "SELECT count(*) FROM derived_runs WHERE run_id = 1")" 9 \
	"with its nine derived tables written"
before=$(kernels new.db)
like "$before" '^[1-9][0-9]*$' "the sample has kernels ($before)"

"$PROFQ" import -q -o new.db t.json
is "$?$(sqlite new.db "PRAGMA journal_mode")" 0wal "a second import into it: still WAL"
is "$(kernels new.db)" "$((before + 1))" "and its one kernel added"

# Pages: a new file gets 16 KiB ones (lib/db.c says why); a file with other pages, as an older
# profq or sqlite3 wrote it, keeps its own through another import.
is "$(sqlite new.db "PRAGMA page_size")" 16384 "a new file has 16 KiB pages"
cp new.db small.db
sqlite small.db "PRAGMA journal_mode=DELETE; PRAGMA page_size=4096; VACUUM;" >/dev/null
is "$(sqlite small.db "PRAGMA page_size")" 4096 "a copy turned into 4 KiB pages"
cp t.json w.json && printf '\n\n' >>w.json # other bytes: not the file imported already
"$PROFQ" import -q -o small.db w.json
is "$?$(sqlite small.db "PRAGMA page_size")" 04096 "an import into it keeps them"
is "$(kernels small.db)$(sqlite small.db "PRAGMA integrity_check")" "$((before + 2))ok" \
	"with the new kernel added and the file intact"
"$PROFQ" kernel-sum new.db --run 1 --format csv >sums.csv
ok "$([ "$(wc -l <sums.csv)" -gt 10 ]; echo $?)" "the sample's kernel-sum has rows"
is "$("$PROFQ" kernel-sum small.db --run 1 --format csv)" "$(cat sums.csv)" \
	"and is the same read from the copy"

# Three files in one command into a new file: the first switches it to WAL, the others follow.
cp t.json u.json && printf '\n' >>u.json
"$PROFQ" import -q -o three.db t.json "$SAMPLE" u.json
is "$?$(sqlite three.db "PRAGMA journal_mode")" 0wal "three files into a new file: WAL"
is "$(kernels three.db)" "$((before + 2))" "with every file's kernels"

# A write interrupted half way (as by kill -9): a process that spills a transaction's pages into
# the file in rollback mode and exits without committing leaves a hot journal.
cp new.db cut.db
py - cut.db <<'EOF'
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=DELETE")
db.execute("PRAGMA cache_size=8")
db.execute("BEGIN")
db.execute("DELETE FROM kernels")
db.execute("CREATE TABLE filler(x)")
db.executemany("INSERT INTO filler VALUES (?)", ((b"x" * 900,) for _ in range(5000)))
os._exit(0)
EOF
ok "$([ -s cut.db-journal ]; echo $?)" "the interrupted write left its journal"
"$PROFQ" info cut.db >out 2>err
is "$?" 1 "a reader refuses the file: exit 1"
is "$(cat err)" "profq: cannot read 'cut.db': a write to it was interrupted, and its journal ('cut.db-journal') must be rolled back first: run 'profq repair cut.db'" \
	"and says what to run"
"$PROFQ" repair cut.db >/dev/null 2>err
is "$?" 0 "profq repair: exit 0"
is "$(kernels cut.db)" "$((before + 1))" "the kernels committed before are back"
is "$(sqlite cut.db "SELECT count(*) FROM sqlite_master WHERE name = 'filler'")" 0 \
	"and nothing of the interrupted write is left"
"$PROFQ" info cut.db >/dev/null
is "$?" 0 "readers open it again"

done_testing
