#!/bin/sh
# report_times.sh - every canned report on the ResNet50 sample, imported once: wall seconds of
# `profq REPORT DB --format csv` (a new process each time, as a user runs it), min / median / max of
# PROFQ_BENCH_RUNS runs (5). The PyTorch and HTA reports' target is ~20 ms (issue 15).
#
#   sh bench/report_times.sh [TRACE]        (make bench runs it; PROFQ_BUILD=build by default)
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
PROFQ=${PROFQ_BIN:-$TOP/${PROFQ_BUILD:-build}/profq}  # PROFQ_BIN: another build, for before/after
RUNS=${PROFQ_BENCH_RUNS:-5}
TRACE=${1:-$TOP/tests/data/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz}
PY=${PROFQ_PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profq-reports.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "# profq reports on $(basename "$TRACE"): $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cpu," \
	"$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $("$PROFQ" --version); $PROFQ REPORT DB --format csv, $RUNS runs: min / median / max ms"
"$PROFQ" import -q -o "$WORK/t.db" "$TRACE" || exit 1
for f in "$TOP"/queries/*.sql; do
	r=$(basename "$f" .sql)
	set -- $("$PY" "$TOP/bench/wall.py" "$RUNS" "$PROFQ" "$r" "$WORK/t.db" --format csv) || exit 1
	awk -v r="$r" -v a="$1" -v b="$2" -v c="$3" \
		'BEGIN { printf "%-26s %7.1f %7.1f %7.1f\n", r, a * 1000, b * 1000, c * 1000 }'
done
echo "# load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
