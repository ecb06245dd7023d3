#!/bin/sh
# profq.so loads into Debian's sqlite3 and python3, and works on a profq database.
. "${0%/*}/../lib.sh"
cd "$TMP"
"$BUILD/examples/demo" demo.db
want=$(sed -n 's/^#define PROFQ_VERSION "\(.*\)"/\1/p' "$TOP/lib/version.h")

is "$(sqlite :memory: ".load $EXT" "SELECT profq_version(), profq_schema_version()")" \
	"$want|1" "sqlite3 .load <build>/profq (entry point from the file name)"
is "$(sqlite :memory: "SELECT load_extension('$EXT.so')" "SELECT profq_version()")" \
	"$(printf '\n%s' "$want")" "SELECT load_extension() with the .so suffix"
is "$(sqlite demo.db ".load $EXT" "SELECT profq_version(), count(*) FROM v_kernels")" \
	"$want|200" "the extension next to the views of a profq database"

got=$(py - "$EXT" demo.db <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[2])
c.enable_load_extension(True)
c.load_extension(sys.argv[1])
c.enable_load_extension(False)
print(c.execute("SELECT profq_version(), count(*) FROM kernels").fetchone())
PY
)
is "$got" "('$want', 200)" "Debian python3: enable_load_extension + load_extension"

# The extension calls SQLite only through the API pointer: it must not link libsqlite3.
ok "$(ldd "$EXT.so" | grep -c libsqlite3 | grep -qx 0; echo $?)" "profq.so does not link libsqlite3"
like "$(nm -D --defined-only "$EXT.so")" " T sqlite3_profq_init$" "profq.so exports sqlite3_profq_init"

done_testing
