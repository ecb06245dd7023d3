#!/bin/sh
# bench/rows_ceiling.sh [TRACE] [RUNS] - `profq import` of TRACE against SQLite alone writing the
# same rows (bench/rows_ceiling.c: the rows the import wrote, read back, inserted again with none
# of profq's code in the loop, then the same index build and commit), in turn RUNS times (5).
# Prints min / median / max of each phase and the import's share of the ceiling:
#   rows    the import's reading and writing (a Chrome trace's parsing runs beside the writing)
#           against SQLite's inserts alone;
#   writer  the CPU time of the import's writing thread in that phase against the same inserts:
#           the writer's share of the ceiling (issue 15 asks >= 85 % for Chrome rows);
#   index   the event indexes' build, the same statements on both sides;
#   end     the import's derived tables and commit against the commit alone.
# Default TRACE: a 300 MB Kineto-shaped trace from bench/gen_kineto (the import bench's shape).
# Not a test; results go to bench/RESULTS.md by hand.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/${PROFQ_BUILD:-build}
runs=${2:-5}
for p in "$b/profq" "$b/bench/rows_ceiling"; do
	[ -x "$p" ] || { echo "bench: $p is not built (run make)" >&2; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/profq-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trace=${1:-}
if [ -z "$trace" ]; then
	trace=$tmp/trace.json
	cc -O2 -o "$tmp/gen_kineto" "$top/bench/gen_kineto.c"
	"$tmp/gen_kineto" 300 >"$trace"
	sync
fi

for i in $(seq "$runs"); do
	python3 "$top/bench/import_phases.py" "$b/profq" "$tmp/import.db" "$trace" >>"$tmp/import"
	"$b/bench/rows_ceiling" "$tmp/import.db" "$tmp/ceiling.db" >>"$tmp/ceiling"
done
rows=$(awk 'NR == 1 { print $2 }' "$tmp/ceiling")

# spread FILE FIELD: "min median max" of the numbers after FIELD
spread() {
	awk -v f="$2" '{ for (i = 1; i < NF; i++) if ($i == f) print $(i + 1) }' "$1" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.3f %.3f %.3f\n", v[1], v[int((NR + 1) / 2)], v[NR] }'
}
med() { spread "$1" "$2" | cut -d' ' -f2; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f %%", 100 * a / b }'; }

echo "trace:   $trace ($(stat -c %s "$trace") bytes), $rows event rows"
echo "command: $b/profq import --progress -o DB TRACE, then $b/bench/rows_ceiling DB OUT ($runs runs each, in turn)"
echo "machine: nproc=$(nproc), $(lscpu | sed -n 's/^Model name: *//p'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "                      min / median / max s"
echo "import rows:          $(spread "$tmp/import" rows)"
echo "import writer CPU:     $(spread "$tmp/import" writer)"
echo "ceiling inserts:      $(spread "$tmp/ceiling" insert)"
echo "import indexes:       $(spread "$tmp/import" index)"
echo "ceiling indexes:      $(spread "$tmp/ceiling" index)"
echo "import derive+commit: $(spread "$tmp/import" finish)"
echo "ceiling commit:       $(spread "$tmp/ceiling" commit)"
echo "import total:         $(spread "$tmp/import" total)"
ir=$(med "$tmp/import" rows) cr=$(med "$tmp/ceiling" insert)
it=$(med "$tmp/import" total) iw=$(med "$tmp/import" writer)
ct=$(awk '{ print $4 + $6 + $8 }' "$tmp/ceiling" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
echo "rows:    the import's rows phase at $(pct "$cr" "$ir") of SQLite's insert ceiling (medians)"
echo "writer:  the writing thread at $(pct "$cr" "$iw") of SQLite's insert ceiling (medians; target >= 85 %)"
echo "total:   the import at $(pct "$ct" "$it") of SQLite's inserts + indexes + commit ($ct s);" \
	"$(awk -v r="$rows" -v t="$it" 'BEGIN { printf "%.0f", r / t }') rows/s against" \
	"$(awk -v r="$rows" -v t="$ct" 'BEGIN { printf "%.0f", r / t }') rows/s"
