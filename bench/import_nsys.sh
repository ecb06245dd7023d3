#!/bin/sh
# bench/import_nsys.sh [EXPORT] [RUNS] - time `profq import` of an Nsight Systems SQLite export
# (default: bench/gen_nsys.sh's 2.5 M-row export made from tests/data/nsys/h100_2gpu_1s.sqlite,
# the size of nsys-ai #300's export at 1/10 scale; 5 runs, each into a fresh database) and print
# the min / median / max wall time, rows/s and peak RSS. Not a test; results go to
# bench/RESULTS.md by hand.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
profq=$top/${PROFQ_BUILD:-build}/profq
runs=${2:-5}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/profq-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src=${1:-}
if [ -z "$src" ]; then
	src=$tmp/export.sqlite
	sh "$top/bench/gen_nsys.sh" "$src"
fi

[ -x "$profq" ] || { echo "bench: $profq is not built (run make)" >&2; exit 1; }
times=""
for i in $(seq "$runs"); do
	rm -f "$tmp/b.db"
	s=$(date +%s%N)
	out=$(/usr/bin/time -f "%M" -o "$tmp/rss.$i" "$profq" import -o "$tmp/b.db" "$src" 2>&1)
	e=$(date +%s%N)
	times="$times $(( (e - s) / 1000 ))"
done
rss=$(cat "$tmp"/rss.* | sort -n | tail -1)
rows=$(printf '%s\n' "$out" | sed -n 's/.*events, \([0-9,]*\) rows.*/\1/p' | tr -d ,)
printf '%s\n' $times | sort -n >"$tmp/t"
best=$(head -1 "$tmp/t"); med=$(sed -n "$(( (runs + 1) / 2 ))p" "$tmp/t"); worst=$(tail -1 "$tmp/t")
echo "file:    $src ($(stat -c %s "$src") bytes)"
echo "command: $profq import -o DB $src   (fresh DB each run, $runs runs)"
echo "output:  $out"
echo "machine: nproc=$(nproc), $(lscpu | sed -n 's/^Model name: *//p')"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wall:    min $(( best / 1000 )) ms, median $(( med / 1000 )) ms, max $(( worst / 1000 )) ms; peak RSS $(( rss / 1024 )) MB"
echo "rate:    $(( rows * 1000000 / med )) rows/s written (median run; target 550000), $(( rows * 1000000 / best )) best"
