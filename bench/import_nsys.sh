#!/bin/sh
# bench/import_nsys.sh [EXPORT] [RUNS] - time `profq import` of an Nsight Systems SQLite export
# (default: bench/gen_nsys.sh's 2.5 M-row export made from tests/data/nsys/h100_2gpu_1s.sqlite,
# the size of nsys-ai #300's export at 1/10 scale; 5 runs, each into a fresh database) and print
# the min / median / max wall time, rows/s and peak RSS. Not a test; results go to
# bench/RESULTS.md by hand.
#
# Each round also times the machine's own ceiling the issue measured its target against (issue
# 15: "SQLite copies the same three source tables into a fresh file at 2.2 M rows/s", where
# profq wrote 186 k rows/s and the target is 550 k, 25 % of that copy): the sqlite3 shell copying
# the export's kernel, runtime and NVTX tables into a new file, in turn with the import, so both
# see the same minute of a machine whose speed drifts. With PROFQ_BASE=path/to/another/profq,
# that build imports in turn too, and the speed-up over it is printed (the issue: "3x today").
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
profq=$top/${PROFQ_BUILD:-build}/profq
base=${PROFQ_BASE:-}
runs=${2:-5}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/profq-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src=${1:-}
if [ -z "$src" ]; then
	src=$tmp/export.sqlite
	sh "$top/bench/gen_nsys.sh" "$src"
fi

[ -x "$profq" ] || { echo "bench: $profq is not built (run make)" >&2; exit 1; }
[ -z "$base" ] || [ -x "$base" ] || { echo "bench: PROFQ_BASE=$base is not executable" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "bench: the sqlite3 shell is needed" >&2; exit 1; }
tables="CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_RUNTIME NVTX_EVENTS"
copy_sql="ATTACH '$(printf '%s' "$src" | sed "s/'/''/g")' AS s;"
copied=0
for t in $tables; do
	copy_sql="$copy_sql CREATE TABLE $t AS SELECT * FROM s.$t;"
	copied=$(( copied + $(sqlite3 -readonly "$src" "SELECT count(*) FROM $t") ))
done

now() { date +%s%N; }
# import PROFQ NAME I: one fresh import, its wall time (us) appended to $tmp/NAME
import() {
	rm -f "$tmp/b.db" "$tmp/b.db-journal" "$tmp/b.db-wal" "$tmp/b.db-shm"
	s=$(now)
	out=$(/usr/bin/time -f "%M" -o "$tmp/rss.$2.$3" "$1" import -o "$tmp/b.db" "$src" 2>&1) ||
		{ echo "bench: $1 import failed: $out" >&2; exit 1; }
	e=$(now)
	echo $(( (e - s) / 1000 )) >>"$tmp/$2"
	[ "$2" = head ] && printf '%s\n' "$out" >"$tmp/out"
	return 0
}
for i in $(seq "$runs"); do
	rm -f "$tmp/c.db"
	s=$(now)
	sqlite3 "$tmp/c.db" "$copy_sql"
	e=$(now)
	echo $(( (e - s) / 1000 )) >>"$tmp/copy"
	import "$profq" head "$i"
	[ -z "$base" ] || import "$base" base "$i"
done

# med FILE / best FILE / worst FILE: of the times (us) in FILE
med() { sort -n "$1" | sed -n "$(( (runs + 1) / 2 ))p"; }
best() { sort -n "$1" | head -1; }
worst() { sort -n "$1" | tail -1; }
ms() { echo $(( $1 / 1000 )); }
out=$(cat "$tmp/out")
rows=$(printf '%s\n' "$out" | sed -n 's/.*events, \([0-9,]*\) rows.*/\1/p' | tr -d ,)
rss=$(cat "$tmp"/rss.head.* | sort -n | tail -1)
rate=$(( rows * 1000000 / $(med "$tmp/head") ))
copy_rate=$(( copied * 1000000 / $(med "$tmp/copy") ))
echo "file:    $src ($(stat -c %s "$src") bytes)"
echo "command: $profq import -o DB $src   (fresh DB each run, $runs runs)"
echo "output:  $out"
echo "machine: nproc=$(nproc), $(lscpu | sed -n 's/^Model name: *//p')"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wall:    min $(ms "$(best "$tmp/head")") ms, median $(ms "$(med "$tmp/head")") ms, max $(ms "$(worst "$tmp/head")") ms; peak RSS $(( rss / 1024 )) MB"
echo "rate:    $rate rows/s written (median run; target 550000), $(( rows * 1000000 / $(best "$tmp/head") )) best"
echo "ceiling: sqlite3 copying $tables ($copied rows) into a new file, in turn with the imports:"
echo "         min $(ms "$(best "$tmp/copy")") ms, median $(ms "$(med "$tmp/copy")") ms, max $(ms "$(worst "$tmp/copy")") ms = $copy_rate rows/s"
# per-round ratios (the two measured within seconds of each other), their median
paste "$tmp/copy" "$tmp/head" | awk -v r="$rows" -v c="$copied" \
	'{ printf "%d\n", (r / $2) / (c / $1) * 1000 }' >"$tmp/share"
echo "share:   the import at $(( rate * 1000 / copy_rate / 10 )).$(( rate * 1000 / copy_rate % 10 )) % of that copy's rows/s at the medians, $(( $(med "$tmp/share") / 10 )).$(( $(med "$tmp/share") % 10 )) % at the median of the rounds' own (per round: $(tr '\n' ' ' <"$tmp/share")per mille)"
echo "         (the issue's target: 550 k of 2.2 M = 25.0 %; at its filing 186 k = 8.5 %)"
if [ -n "$base" ]; then
	b=$(med "$tmp/base")
	x100=$(( b * 100 / $(med "$tmp/head") ))
	echo "base:    $base: min $(ms "$(best "$tmp/base")") ms, median $(ms "$b") ms, max $(ms "$(worst "$tmp/base")") ms; peak RSS $(( $(cat "$tmp"/rss.base.* | sort -n | tail -1) / 1024 )) MB"
	paste "$tmp/base" "$tmp/head" | awk '{ printf "%d\n", $1 * 100 / $2 }' >"$tmp/speedup"
	r100=$(med "$tmp/speedup")
	echo "speedup: $(( x100 / 100 )).$(printf '%02d' $(( x100 % 100 )))x the base at the medians, $(( r100 / 100 )).$(printf '%02d' $(( r100 % 100 )))x at the median of the rounds' own (the issue's target: 3x the build of its filing)"
fi
