#!/bin/sh
# `make install PREFIX=... DESTDIR=...` puts everything where the README says, and it works there.
. "${0%/*}/../lib.sh"

make -s -C "$TOP" B="${PROFQ_BUILD:-build}" install PREFIX=/opt/pq DESTDIR="$TMP/stage" \
	>"$TMP/log" 2>&1
is "$?" 0 "make install with PREFIX and DESTDIR"
root=$TMP/stage/opt/pq
for f in bin/profq lib/profq/profq.so share/profq/schema/schema.sql share/profq/schema/views.sql; do
	ok "$([ -f "$root/$f" ]; echo $?)" "installs $f"
done
ok "$([ -x "$root/bin/profq" ]; echo $?)" "profq is executable"
like "$("$root/bin/profq" --version)" "^profq " "the installed profq runs"
is "$(sqlite :memory: ".load $root/lib/profq/profq" "SELECT profq_schema_version()")" 1 \
	"the installed extension loads"
is "$(grep '^\.load' "$root/share/profq/queries/top-kernels.sql")" ".load /opt/pq/lib/profq/profq" \
	"installed reports load the installed extension"
is "$(grep -c '^\.load /opt/pq/lib/profq/profq$' "$root"/share/profq/queries/*.sql | grep -c ':1$')" \
	"$(grep -l '^\.load' "$TOP"/queries/*.sql | wc -l)" \
	"every installed report that loads the extension has the installed .load line"
is "$(grep '^EXTENSION = ' "$root/share/profq/python/profq.py")" \
	'EXTENSION = "/opt/pq/lib/profq/profq"' "the installed profq.py names the installed extension"
is "$(diff "$TOP/python/profq.py" "$root/share/profq/python/profq.py" | grep -c '^[<>]')" 2 \
	"and differs from the repository's copy in that line only"
ok "$([ ! -e /opt/pq ]; echo $?)" "nothing written outside DESTDIR"

make -s -C "$TOP" B="${PROFQ_BUILD:-build}" uninstall PREFIX=/opt/pq DESTDIR="$TMP/stage" \
	>"$TMP/log" 2>&1
ok "$([ ! -e "$root/bin/profq" ] && [ ! -e "$root/lib/profq" ]; echo $?)" "make uninstall removes it"

done_testing
