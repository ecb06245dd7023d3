#!/bin/bash
# bench/clickhouse_push.sh - `profq push` throughput into ClickHouse, and bytes per event on disk
# (not a test; figures go to docs/scale-out.md).
#
#   bash bench/clickhouse_push.sh [MEGABYTES]   (default 200)
#
# Writes a synthetic Kineto-shaped trace of about MEGABYTES MB (bench/gen_kineto.c), imports it,
# starts two clickhouse-server shards on 127.0.0.1 in a temporary directory (the test's
# tests/clickhouse/servers.sh), and pushes the profile: into one server (one shard), then through
# Distributed tables over both. Prints rows, seconds and rows/s of each, and per table the rows,
# bytes on disk and uncompressed bytes per row. Everything is removed at exit.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
MB=${1:-200}
PROFQ=$TOP/${PROFQ_BUILD:-build}/profq
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profq-bench.XXXXXX")
. "$TOP/tests/clickhouse/servers.sh"
trap 'ch_stop; rm -rf "$WORK"' EXIT

[ -x "$PROFQ" ] || { echo "bench: build profq first (make)" >&2; exit 1; }
command -v clickhouse-server >/dev/null || { echo "bench: clickhouse-server is not installed" >&2; exit 1; }
cc -O2 -o "$WORK/gen_kineto" "$TOP/bench/gen_kineto.c"
"$WORK/gen_kineto" "$MB" >"$WORK/trace.json"
"$PROFQ" import -o "$WORK/p.db" "$WORK/trace.json" >/dev/null
echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "profile: $(wc -c <"$WORK/p.db") bytes of SQLite from $(wc -c <"$WORK/trace.json") bytes of JSON"
mkdir "$WORK/ch"
ch_start "$WORK/ch"
echo "clickhouse-server $(curl -sS "$CH_URL1/" --data-binary 'SELECT version()')"

echo "one shard:";            "$PROFQ" push --clickhouse "$CH_URL1" --database one "$WORK/p.db" | tail -1
"$PROFQ" push --clickhouse "$CH_URL2" --database two --cluster "$CH_CLUSTER" >/dev/null
echo "two shards, Distributed:"; "$PROFQ" push --clickhouse "$CH_URL1" --database two --cluster "$CH_CLUSTER" "$WORK/p.db" | tail -1
echo "bytes per row on disk (one shard):"
curl -sS "$CH_URL1/" --data-binary "SELECT table, sum(rows) AS n, sum(bytes_on_disk) AS disk,
  round(disk / n, 1) AS disk_per_row, round(sum(data_uncompressed_bytes) / n, 1) AS raw_per_row
  FROM system.parts WHERE database = 'one' AND active AND table != 'runs' GROUP BY table
  ORDER BY n DESC FORMAT PrettyCompactNoEscapes"
