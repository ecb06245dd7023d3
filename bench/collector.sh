#!/bin/sh
# bench/collector.sh - the collector's hot paths (not a test): NVTX push+pop cost with and
# without the collector attached, and the writer's throughput from hand-built CUPTI kernel
# records into SQLite.   sh bench/collector.sh [PAIRS [ROWS]]   (defaults 1000000 1000000)
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$TOP/${PROFQ_BUILD:-build}
PAIRS=${1:-1000000}
ROWS=${2:-1000000}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profq-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
[ -x "$B/bench/nvtx_bench" ] && [ -x "$B/bench/writer_bench" ] ||
	{ echo "bench: collector benchmarks are not built (run make with CUPTI present)" >&2; exit 1; }

echo "machine: nproc=$(nproc), $(lscpu | sed -n 's/^Model name: *//p')"
echo "== NVTX push+pop, no tool"
"$B/bench/nvtx_bench" "$PAIRS"
echo "== NVTX push+pop, collector attached"
"$B/profq" record -o "$WORK/nvtx.db" -- "$B/bench/nvtx_bench" "$PAIRS"
echo "== writer: CUPTI kernel records -> SQLite"
"$B/bench/writer_bench" "$ROWS" "$WORK/writer.db"
echo "== the same rows through SQLite alone (the writer's ceiling)"
"$B/bench/sqlite_ceiling" "$ROWS" "$WORK/ceiling.db"
