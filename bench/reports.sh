#!/bin/sh
# bench/reports.sh - the report benchmarks (not a test): nvtx-gpu-proj-sum on databases shaped
# like nsys-ai issue #300's export, at 1/10 scale against the Python bisect reference
# (bench/nvtx_proj_ref.py, the same numbers checked first) and at full scale (wall and peak
# RSS), and top-kernels on 10 M kernels. The databases (3.2 GB) are written by
# bench/gen_reports.sh into a scratch directory removed at exit. RUNS (default 5) runs each.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
PROFQ=$TOP/${PROFQ_BUILD:-build}/profq
RUNS=${RUNS:-5}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profq-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
[ -x "$PROFQ" ] || { echo "bench: $PROFQ is not built (run make)" >&2; exit 1; }

# Runs "$@" RUNS times under /usr/bin/time: prints min / median / max of wall seconds and peak RSS.
timed() {
	i=0
	while [ $i -lt "$RUNS" ]; do
		/usr/bin/time -f "%e %M" -o "$WORK/time.$i" "$@" >/dev/null
		i=$((i + 1))
	done
	cat "$WORK"/time.* | sort -n | awk '{ w[NR] = $1; if ($2 > m) m = $2 }
		END { printf "%s / %s / %s s wall, peak RSS %.0f MB\n", w[1], w[int((NR + 1) / 2)], w[NR], m / 1024 }'
	rm -f "$WORK"/time.*
}

echo "machine: nproc=$(nproc), $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs: $RUNS each, min / median / max"
sh "$TOP/bench/gen_reports.sh" "$WORK/tenth.db" 219000 141200 5
echo "== nvtx-gpu-proj-sum, 1/10 scale (targets: <= 2 s, >= 4x the Python reference)"
"$PROFQ" nvtx-gpu-proj-sum "$WORK/tenth.db" --format csv | cut -d, -f2-4,6-8,10,14-15 >"$WORK/profq.csv"
python3 "$TOP/bench/nvtx_proj_ref.py" "$WORK/tenth.db" >"$WORK/ref.csv"
cmp -s "$WORK/profq.csv" "$WORK/ref.csv" ||
	{ echo "bench: profq and the Python reference disagree:" >&2; diff "$WORK/profq.csv" "$WORK/ref.csv" >&2; exit 1; }
echo "same numbers as the reference: $(($(wc -l <"$WORK/ref.csv") - 1)) rows"
printf 'profq:  '; timed "$PROFQ" nvtx-gpu-proj-sum "$WORK/tenth.db"
printf 'python: '; timed python3 "$TOP/bench/nvtx_proj_ref.py" "$WORK/tenth.db"
rm -f "$WORK/tenth.db"

sh "$TOP/bench/gen_reports.sh" "$WORK/big.db"
echo "== nvtx-gpu-proj-sum: 2.19 M kernels, 7.06 M API rows, 15.9 M ranges (targets: <= 20 s, <= 1 GB)"
timed "$PROFQ" nvtx-gpu-proj-sum "$WORK/big.db" --limit 3
rm -f "$WORK/big.db"

sh "$TOP/bench/gen_reports.sh" "$WORK/k10m.db" 10000000 0 5
echo "== top-kernels: 10 M kernels (target 5 s)"
timed "$PROFQ" top-kernels "$WORK/k10m.db" --limit 3
