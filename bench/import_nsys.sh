#!/bin/sh
# bench/import_nsys.sh [EXPORT] [RUNS] - time `profq import` of an Nsight Systems SQLite export
# (default ../shared/data/nsys/h100_2gpu_1s.sqlite, 5 runs, each into a fresh database) and
# print the best and median wall time and rows/s. Not a test; results go to
# bench/RESULTS.md by hand.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
profq=$top/${PROFQ_BUILD:-build}/profq
src=${1:-$top/../shared/data/nsys/h100_2gpu_1s.sqlite}
runs=${2:-5}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/profq-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

[ -x "$profq" ] || { echo "bench: $profq is not built (run make)" >&2; exit 1; }
times=""
for i in $(seq "$runs"); do
	rm -f "$tmp/b.db"
	s=$(date +%s%N)
	out=$("$profq" import -o "$tmp/b.db" "$src")
	e=$(date +%s%N)
	times="$times $(( (e - s) / 1000 ))"
done
rows=$(printf '%s\n' "$out" | sed -n 's/.*events, \([0-9]*\) rows.*/\1/p')
events=$(printf '%s\n' "$out" | sed -n 's/.*: \([0-9]*\) events.*/\1/p')
printf '%s\n' $times | sort -n >"$tmp/t"
best=$(head -1 "$tmp/t"); med=$(sed -n "$(( (runs + 1) / 2 ))p" "$tmp/t")
echo "file:    $src ($(stat -c %s "$src") bytes)"
echo "command: $profq import -o DB $src   (fresh DB each run, $runs runs)"
echo "output:  $out"
echo "machine: nproc=$(nproc), $(lscpu | sed -n 's/^Model name: *//p')"
echo "best:    $(( best / 1000 )) ms   median: $(( med / 1000 )) ms"
echo "rate:    $(( rows * 1000000 / best )) rows/s written, $(( events * 1000000 / best )) source events/s (best run)"
