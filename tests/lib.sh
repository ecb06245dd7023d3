# tests/lib.sh - TAP helpers for the shell tests. Source it first:  . "${0%/*}/../lib.sh"
#
#   ok COND_STATUS NAME        pass when the previous command's status (pass $?) is 0
#   is GOT EXPECTED NAME       string equality, shows both on failure
#   like GOT REGEX NAME        grep -E match
#   skip_all REASON            whole file skipped (prints "1..0 # SKIP reason" and exits)
#   skip NAME REASON           one skipped test point
#   done_testing               prints the plan; exit status 1 when anything failed
#
# Variables: TOP (the repository), BUILD (the build directory, $PROFQ_BUILD or build),
# PROFQ (the CLI), EXT (the extension without .so), DATA (tests/data: the real traces the repository
# ships), SHARED_DATA (../shared/data: what it cannot ship, report1.sqlite), TMP (a fresh directory
# removed at exit). nsys_exports lists every Nsight Systems export at hand, one path a line. Run sqlite3 through `sqlite` and Python through `py` so ASan builds work.

set -u
TOP=$(cd "$(dirname "$0")" && while [ ! -f Makefile ] && [ "$PWD" != / ]; do cd ..; done && pwd)
BUILD=$TOP/${PROFQ_BUILD:-build}
PROFQ=$BUILD/profq
EXT=$BUILD/profq
DATA=$TOP/tests/data
SHARED_DATA=$(cd "$TOP/.." && pwd)/shared/data
TMP=$(mktemp -d "${TMPDIR:-/tmp}/profq-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
_tap_n=0
_tap_failed=0

# An ASan-built profq.so loaded into Debian's sqlite3 or python3 needs the runtime preloaded.
_preload=""
if [ "${PROFQ_ASAN:-0}" = 1 ]; then
	_preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
fi

nsys_exports() {
	for _f in "$DATA"/nsys/*.sqlite "$SHARED_DATA"/nsys/report1.sqlite; do
		if [ -f "$_f" ]; then echo "$_f"; fi
	done
}

sqlite() {
	LD_PRELOAD="$_preload" ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
		sqlite3 -batch -bail -init /dev/null "$@"
}

py() {
	LD_PRELOAD="$_preload" ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" /usr/bin/python3 "$@"
}

ok() {
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_failed=$((_tap_failed + 1))
	fi
}

is() {
	_tap_n=$((_tap_n + 1))
	if [ "$1" = "$2" ]; then
		echo "ok $_tap_n - $3"
	else
		echo "not ok $_tap_n - $3"
		printf '#   got:      %s\n#   expected: %s\n' "$1" "$2" | sed '3,$s/^/#             /'
		_tap_failed=$((_tap_failed + 1))
	fi
}

like() {
	_tap_n=$((_tap_n + 1))
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		echo "ok $_tap_n - $3"
	else
		echo "not ok $_tap_n - $3"
		printf '#   got:   %s\n#   wanted: /%s/\n' "$1" "$2"
		_tap_failed=$((_tap_failed + 1))
	fi
}

skip() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

done_testing() {
	echo "1..$_tap_n"
	[ "$_tap_failed" -eq 0 ]
	exit $?
}

[ -x "$PROFQ" ] || { echo "Bail out! $PROFQ is not built (run make)"; exit 1; }
