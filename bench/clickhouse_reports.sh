#!/bin/bash
# bench/clickhouse_reports.sh - the cross-rank reports in ClickHouse (`profq ch-report`) against the
# same local reports on the merged file, at a size past the test's (not a test; figures go to
# docs/scale-out.md).
#
#   bash bench/clickhouse_reports.sh [MB_PER_RANK] [RANKS]   (default 50 4)
#
# Makes one long trace from the ResNet-50 sample's steps (bench/gen_steps_trace.py), RANKS shifted
# and perturbed ranks of it (tests/clickhouse/make_ranks.py), imports them one file per rank and
# merged into one, starts two clickhouse-server shards on 127.0.0.1 (tests/clickhouse/servers.sh),
# pushes the rank files through the Distributed tables, checks that each ClickHouse report equals
# the local one (tests/clickhouse/same_report.py), then times both: wall seconds min/med/max of 5
# (the ClickHouse side's work is in the servers, so wall is the figure). Removed at exit.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
MB=${1:-50}
RANKS=${2:-4}
PROFQ=$TOP/${PROFQ_BUILD:-build}/profq
SAMPLE=$TOP/tests/data/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profq-bench.XXXXXX")
. "$TOP/tests/clickhouse/servers.sh"
trap 'ch_stop; rm -rf "$WORK"' EXIT

[ -x "$PROFQ" ] || { echo "bench: build profq first (make)" >&2; exit 1; }
command -v clickhouse-server >/dev/null || { echo "bench: clickhouse-server is not installed" >&2; exit 1; }
[ -f "$SAMPLE" ] || { echo "bench: no sample at $SAMPLE" >&2; exit 1; }
python3 "$TOP/bench/gen_steps_trace.py" "$SAMPLE" "$MB" "$WORK/big.json" >/dev/null
python3 "$TOP/tests/clickhouse/make_ranks.py" "$WORK" "$RANKS" "$WORK/big.json"
rm "$WORK/big.json"
for ((i = 0; i < RANKS; i++)); do "$PROFQ" import -q -o "$WORK/rank$i.db" "$WORK/rank$i.json" >/dev/null; done
"$PROFQ" import -q -o "$WORK/job.db" "$WORK"/rank*.json >/dev/null
rm "$WORK"/rank*.json
echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "job: $RANKS ranks, $("$PROFQ" sql "$WORK/job.db" --format csv "SELECT (SELECT count(*) FROM kernels) || ' kernels, ' || (SELECT count(*) FROM ranges) || ' ranges'" | sed 1d | tr -d '"'), merged file $(($(wc -c <"$WORK/job.db") / 1048576)) MB"
mkdir "$WORK/ch"
ch_start "$WORK/ch"
"$PROFQ" push --clickhouse "$CH_URL2" --cluster "$CH_CLUSTER" >/dev/null
"$PROFQ" push --clickhouse "$CH_URL1" --cluster "$CH_CLUSTER" "$WORK"/rank*.db | tail -1
echo "report                  ClickHouse (2 shards) min/med/max s   local on the merged file min/med/max s"
for spec in "kernels-across-ranks|" "rank-summary|" "gpu-util-timeline|" "comm-overlap|--mode exact"; do
	IFS='|' read -r r opt <<<"$spec"
	"$PROFQ" ch-report "$r" --clickhouse "$CH_URL1" --format csv >"$WORK/ch.csv"
	# shellcheck disable=SC2086
	"$PROFQ" "$r" "$WORK/job.db" $opt --format csv >"$WORK/local.csv"
	python3 "$TOP/tests/clickhouse/same_report.py" csv "$WORK/local.csv" "$WORK/ch.csv" "$WORK/job.db" ||
		{ echo "bench: $r differs between ClickHouse and the local report" >&2; exit 1; }
	# shellcheck disable=SC2086
	printf '%-22s  %-36s  %s\n' "$r" \
		"$(python3 "$TOP/bench/wall.py" 5 "$PROFQ" ch-report "$r" --clickhouse "$CH_URL1")" \
		"$(python3 "$TOP/bench/wall.py" 5 "$PROFQ" "$r" "$WORK/job.db" $opt)"
done
