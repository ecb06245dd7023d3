#!/bin/sh
# bench/growth.sh - how report time grows with the trace (not a test): top-kernels and
# nvtx-gpu-proj-sum on bench/gen_reports.sh databases (nsys-ai #300's shape: 3 API calls and
# ~7.3 NVTX ranges per kernel), step-breakdown and temporal-breakdown on bench/gen_pytorch.sh
# databases (PyTorch profiler shape, computed from the events), at 1 M, 3 M and 10 M kernels
# (SIZES to change them). Prints min / median / max wall seconds of RUNS (default 5) runs per
# point, then per report the exponent b of a least-squares fit time = a * kernels^b of the
# medians (1: linear). Writes up to ~9 GB of scratch databases, one at a time.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
PROFQ=$TOP/${PROFQ_BUILD:-build}/profq
RUNS=${RUNS:-5}
SIZES=${SIZES:-1000000 3000000 10000000}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profq-growth.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
[ -x "$PROFQ" ] || { echo "bench: $PROFQ is not built (run make)" >&2; exit 1; }

# point REPORT KERNELS DB [ARGS]: one line "REPORT KERNELS min med max" into $WORK/points.
point() {
	r=$1 n=$2
	shift 2
	set -- "$(python3 "$TOP/bench/wall.py" "$RUNS" "$PROFQ" "$r" "$@")"
	echo "$r $n $1" | tee -a "$WORK/points"
}

echo "machine: nproc=$(nproc), $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs: $RUNS per point; report kernels min med max (wall s)"
for n in $SIZES; do
	sh "$TOP/bench/gen_reports.sh" "$WORK/nv.db" "$n" $((n * 3 / 5)) 5 >/dev/null
	point top-kernels "$n" "$WORK/nv.db" --limit 3
	point nvtx-gpu-proj-sum "$n" "$WORK/nv.db" --limit 3
	rm -f "$WORK/nv.db"
	sh "$TOP/bench/gen_pytorch.sh" "$WORK/pt.db" "$n" >/dev/null
	point step-breakdown "$n" "$WORK/pt.db"
	point temporal-breakdown "$n" "$WORK/pt.db"
	rm -f "$WORK/pt.db"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$WORK/points" <<'PY'
import collections, math, sys
pts = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, n, lo, med, hi = line.split()
    pts[r].append((math.log(int(n)), math.log(float(med))))
print("fitted exponent b (time ~ kernels^b, medians):")
for r, p in pts.items():
    mx, my = sum(x for x, _ in p) / len(p), sum(y for _, y in p) / len(p)
    b = sum((x - mx) * (y - my) for x, y in p) / sum((x - mx) ** 2 for x, _ in p)
    print("  %-20s %.2f" % (r, b))
PY
