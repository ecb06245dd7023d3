#!/bin/sh
# bench/collector.sh - the collector's hot paths (not a test): NVTX push+pop cost with and
# without the collector attached, and the writer's throughput from hand-built CUPTI kernel
# records into SQLite against SQLite alone with the same rows (bench/sqlite_ceiling), in RUNS
# interleaved pairs: each pair's ratio, then min / median / max (the target is >= 85 %).
#   sh bench/collector.sh [PAIRS [ROWS [RUNS]]]   (defaults 1000000 1000000 7)
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$TOP/${PROFQ_BUILD:-build}
PAIRS=${1:-1000000}
ROWS=${2:-1000000}
RUNS=${3:-7}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profq-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
[ -x "$B/bench/nvtx_bench" ] && [ -x "$B/bench/writer_bench" ] ||
	{ echo "bench: collector benchmarks are not built (run make with CUPTI present)" >&2; exit 1; }

echo "machine: nproc=$(nproc), $(lscpu | sed -n 's/^Model name: *//p')"
echo "== NVTX push+pop, no tool"
"$B/bench/nvtx_bench" "$PAIRS"
echo "== NVTX push+pop, collector attached"
"$B/profq" record -o "$WORK/nvtx.db" -- "$B/bench/nvtx_bench" "$PAIRS"
echo "== writer (CUPTI kernel records -> SQLite) against the same rows through SQLite alone"
rate() { sed -n 's/.* = \([0-9]*\) rows\/s.*/\1/p' | head -n 1; }
for i in $(seq "$RUNS"); do
	w=$("$B/bench/writer_bench" "$ROWS" "$WORK/writer.db" | rate)
	c=$("$B/bench/sqlite_ceiling" "$ROWS" "$WORK/ceiling.db" | rate)
	rm -f "$WORK"/writer.db* "$WORK"/ceiling.db*
	echo "$w $c" | awk '{ printf "writer %d rows/s, sqlite alone %d rows/s: %.1f %%\n", $1, $2, 100 * $1 / $2 }'
done | tee "$WORK/pairs"
sed 's/.*: \([0-9.]*\) %/\1/' "$WORK/pairs" | sort -n |
	awk '{ v[NR] = $1 } END { printf "writer / sqlite alone: min %.1f %%, median %.1f %%, max %.1f %% of %d pairs (target >= 85 %%)\n", v[1], v[int((NR + 1) / 2)], v[NR], NR }'
