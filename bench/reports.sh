#!/bin/sh
# bench/reports.sh - the report benchmarks (not a test): nvtx-gpu-proj-sum on a database shaped
# like nsys-ai issue #300's export, and top-kernels on 10 M kernels. The databases (3 GB) are
# written by bench/gen_reports.sh into a scratch directory removed at exit.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
PROFQ=$TOP/${PROFQ_BUILD:-build}/profq
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profq-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
[ -x "$PROFQ" ] || { echo "bench: $PROFQ is not built (run make)" >&2; exit 1; }

echo "machine: nproc=$(nproc), $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"
sh "$TOP/bench/gen_reports.sh" "$WORK/big.db"
sh "$TOP/bench/gen_reports.sh" "$WORK/k10m.db" 10000000 0 5
echo "== nvtx-gpu-proj-sum: 2.19 M kernels, 7.06 M API rows, 15.9 M ranges (target 60 s)"
/usr/bin/time -f "%e s wall, %U s user, %M KB max RSS" "$PROFQ" nvtx-gpu-proj-sum "$WORK/big.db" \
	--limit 3
echo "== top-kernels: 10 M kernels (target 5 s)"
/usr/bin/time -f "%e s wall, %U s user, %M KB max RSS" "$PROFQ" top-kernels "$WORK/k10m.db" \
	--limit 3
