#!/bin/sh
# A file whose bytes are already a run of the database is skipped with a message (exit 0), unless
# --again; the run keeps the file's SHA-256 as run_metadata source_sha256 (checked against
# sha256sum) and its size as source_bytes. The hash is computed beside the import unless a run of
# the same size (or without a size) may be the file: both ways give sha256sum's hash. Chrome JSON
# plain and gzip, and an nsys export.
. "${0%/*}/../lib.sh"
cd "$TMP"
command -v sha256sum >/dev/null || skip_all "no sha256sum"

cat >t.json <<'EOF'
[{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 50},
 {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": "stream 7", "ts": 120, "dur": 20,
  "args": {"device": 0, "correlation": 1}}]
EOF
gzip -c t.json >t.json.gz
NSYS=$DATA/nsys/mock.sqlite
runs() { sqlite "$1" "SELECT count(*) FROM runs"; }
meta() { sqlite "$1" "SELECT value FROM run_metadata WHERE run_id = $2 AND key = '$3'"; }
sha() { sha256sum <"$1" | cut -d' ' -f1; }

for f in t.json t.json.gz "$NSYS"; do
	name=$(basename "$f")
	[ -f "$f" ] || { skip "$name" "absent"; continue; }
	db=$TMP/$name.db
	"$PROFQ" import -o "$db" "$f" >/dev/null 2>&1
	is "$(meta "$db" 1 source_sha256)" "$(sha "$f")" "$name: source_sha256 is sha256sum's"
	is "$(meta "$db" 1 source_bytes)" "$(wc -c <"$f" | tr -d ' ')" "$name: source_bytes is its size"
	out=$("$PROFQ" import -o "$db" "$f" 2>"$TMP/err")
	is "$?" 0 "$name: importing it again exits 0"
	is "$(cat "$TMP/err")" "profq: $f is already run 1 of $db; skipped (--again imports it again)" \
		"$name: and says it is run 1"
	is "$out$(runs "$db")" 1 "$name: nothing printed on stdout, still one run"
	"$PROFQ" import -q -o "$db" --again "$f" >/dev/null 2>"$TMP/err"
	is "$?$(cat "$TMP/err")$(runs "$db")" 02 "$name: --again imports it as run 2"
	is "$(meta "$db" 2 source_sha256)" "$(sha "$f")" "$name: run 2's source_sha256 is sha256sum's too"
	cp "$f" "$TMP/copy"
	"$PROFQ" import -o "$db" "$TMP/copy" >/dev/null 2>"$TMP/err"
	like "$(cat "$TMP/err")" "copy is already run 1 of" "$name: the same bytes under another name: skipped"
done

# The same file twice in one command: the second is skipped; the others still import.
"$PROFQ" import -o one.db t.json t.json t.json.gz >/dev/null 2>err
is "$?$(runs one.db)" 02 "t.json t.json t.json.gz: two runs (gzip bytes differ), exit 0"
is "$(grep -v '^profq: imported ' err)" "profq: t.json is already run 1 of one.db; skipped (--again imports it again)" \
	"one message for the repeated file"

# Runs imported before the hash was kept have none: they never match.
sqlite one.db "DELETE FROM run_metadata WHERE key = 'source_sha256'"
"$PROFQ" import -q -o one.db t.json >/dev/null 2>err
is "$?$(cat err)$(runs one.db)" 03 "a run without source_sha256 matches nothing: t.json imports as run 3"

# A run with a hash but no size (imported before profq kept sizes) may be any file: still found.
sqlite one.db "DELETE FROM run_metadata WHERE key = 'source_bytes'"
"$PROFQ" import -o one.db t.json >/dev/null 2>err
is "$?$(cat err)$(runs one.db)" "0profq: t.json is already run 3 of one.db; skipped (--again imports it again)3" \
	"a run without source_bytes is still matched by its hash"

# Another file of the same size is hashed first, not skipped, and keeps its own hash.
sed 's/aten::mm/aten::mv/' t.json >t2.json
is "$(wc -c <t2.json)" "$(wc -c <t.json)" "t2.json has t.json's size"
"$PROFQ" import -q -o one.db t2.json >/dev/null 2>err
is "$?$(cat err)$(runs one.db)" 04 "the same size, other bytes: t2.json imports as run 4"
is "$(meta one.db 4 source_sha256)" "$(sha t2.json)" "run 4's source_sha256 is t2.json's"

# Skipping writes nothing.
"$PROFQ" import -o one.db t.json >/dev/null 2>&1
is "$?$(runs one.db)" 04 "skipping leaves the database as it was"

done_testing
