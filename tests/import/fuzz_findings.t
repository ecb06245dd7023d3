#!/bin/sh
# Every input make fuzz found crashing (tests/fuzz/findings/) goes through the normal profq: exit
# 0, or 1 with a "profq:" message, never a signal. Under make asan this is the sanitizers' check.
. "${0%/*}/../lib.sh"
cd "$TMP"
dir=$TOP/tests/fuzz/findings
n=0
for f in "$dir"/chrome/* "$dir"/nsys/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	for kg in "" --keep-going; do
		rm -f out.db*
		"$PROFQ" import $kg -o out.db "$f" >/dev/null 2>err
		rc=$?
		ok "$([ $rc -eq 0 ] || { [ $rc -eq 1 ] && grep -q '^profq: ' err; }; echo $?)" \
			"${f#"$dir"/} ${kg:-strict}: exit $rc $(head -c 100 err)"
	done
done
"$PROFQ" import -o base.db "$DATA/kineto/libkineto_test_traces/before_fix_trace.json" >/dev/null
for f in "$dir"/sqlfn/*.sql; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	"$PROFQ" sql base.db <"$f" >/dev/null 2>err
	rc=$?
	ok "$([ $rc -eq 0 ] || { [ $rc -eq 1 ] && grep -q '^profq: ' err; }; echo $?)" "${f#"$dir"/}: exit $rc"
done
ok "$([ $n -gt 0 ]; echo $?)" "$n findings replayed"
done_testing
