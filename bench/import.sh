#!/bin/sh
# bench/import.sh - Chrome/Kineto import throughput and peak memory (not a test).
#
#   sh bench/import.sh [MEGABYTES] [RUNS]   (defaults 500 and 5)
#
# Builds bench/gen_kineto.c, writes a synthetic Kineto-shaped trace of about MEGABYTES MB into a
# temporary directory (removed at exit; nothing big is left in the repository), and imports it
# RUNS times with `profq import` under /usr/bin/time -v, plain and gzip-compressed, each into a
# fresh database. Prints each run, then the min / median / max wall time, MB/s of uncompressed
# JSON at the median and the highest peak RSS. The trace files are synced to disk first: the
# kernel writing back the just-made 500 MB while the first import runs slowed it by up to 20 %. Then the ceiling of the import's
# first stage on its own: build/bench/parse_bench reads, inflates, scans and parses every
# event and writes nothing (-n: nothing else; without: also the digest the import's reader thread
# makes of each event). From the two, an estimate of each stage's
# CPU time: reader = parse_bench's, importer (rows, SQLite) = the import's CPU time minus that;
# on an otherwise idle 2-CPU machine the import's wall time approaches the larger of the two.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
MB=${1:-500}
RUNS=${2:-5}
PROFQ=$TOP/${PROFQ_BUILD:-build}/profq
PARSE=$TOP/${PROFQ_BUILD:-build}/bench/parse_bench
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profq-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

[ -x "$PROFQ" ] && [ -x "$PARSE" ] || { echo "bench: build profq first (make)" >&2; exit 1; }
cc -O2 -o "$WORK/gen_kineto" "$TOP/bench/gen_kineto.c"
"$WORK/gen_kineto" "$MB" >"$WORK/trace.json"
sync
bytes=$(wc -c <"$WORK/trace.json")
echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "trace: $bytes bytes of JSON"

ceiling() { # label file: runs parse_bench, sets reader_cpu
	echo "ceiling, $1: $("$PARSE" -n "$2")"
	line=$("$PARSE" "$2")
	echo "ceiling, $1: $line"
	reader_cpu=$(printf '%s\n' "$line" | sed -n 's/.*cpu \([0-9.]*\) s.*/\1/p')
}

one() { # label file (after ceiling): one import, its line; its wall time appended to $WORK/walls
	rm -f "$WORK/out.db" "$WORK/out.db-wal" "$WORK/out.db-shm" "$WORK/out.db-journal"
	/usr/bin/time -v "$PROFQ" import -o "$WORK/out.db" "$2" >"$WORK/stdout" 2>"$WORK/time"
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$WORK/time" |
		awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
	user=$(sed -n 's/.*User time (seconds): //p' "$WORK/time")
	sys=$(sed -n 's/.*System time (seconds): //p' "$WORK/time")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/time")
	echo "$wall $rss" >>"$WORK/walls"
	awk -v b="$bytes" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v l="$1" 'BEGIN {
		printf "%-6s wall %6.2f s  %6.1f MB/s | cpu %6.2f s (user %.2f, sys %.2f)  %6.1f MB/s | peak RSS %.0f MB\n",
			l, w, b / 1e6 / w, u + s, u, s, b / 1e6 / (u + s), r / 1024 }'
	awk -v b="$bytes" -v u="$user" -v s="$sys" -v p="$reader_cpu" 'BEGIN {
		i = u + s - p; m = i > p ? i : p
		printf "       stages (estimate): reader %.2f s, importer %.2f s cpu; bound on 2 idle CPUs %.2f s = %.1f MB/s\n",
			p, i, m, b / 1e6 / m }'
}

run() { # label file (after ceiling): RUNS imports and their summary
	: >"$WORK/walls"
	for i in $(seq "$RUNS"); do
		one "$1" "$2"
	done
	sed 's/^/       /' "$WORK/stdout"
	sort -n "$WORK/walls" | awk -v b="$bytes" -v l="$1" '{ w[NR] = $1; if ($2 > r) r = $2 }
		END { m = w[int((NR + 1) / 2)]
		      printf "%-6s %d runs: wall min %.2f / median %.2f / max %.2f s = %.1f MB/s at the median; peak RSS %.0f MB\n",
			l, NR, w[1], m, w[NR], b / 1e6 / m, r / 1024 }'
}
ceiling plain "$WORK/trace.json"
run plain "$WORK/trace.json"
gzip -1 -c "$WORK/trace.json" >"$WORK/trace.json.gz"
rm -f "$WORK/trace.json"
sync
echo "gzip: $(wc -c <"$WORK/trace.json.gz") bytes"
ceiling gzip "$WORK/trace.json.gz"
run gzip "$WORK/trace.json.gz"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
