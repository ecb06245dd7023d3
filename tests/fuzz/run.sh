#!/bin/sh
# run.sh BUILD SECONDS [NAME...] - runs each libFuzzer harness built in BUILD/fuzz for SECONDS,
# one after another, on a corpus kept in BUILD/fuzz/corpus/NAME (seeded from tests/fuzz/seeds and
# from tests/data through seeds.sh). Fails, naming the input, on the first crash, leak,
# sanitizer report or timeout; prints each run's executions, speed and coverage.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
secs=${2:-60}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
names=${*:-$(cd "$top/tests/fuzz" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')}
# libFuzzer writes to the first directory only: the corpus it grows; the seeds stay as they are.
corpus=$build/fuzz/corpus
derived=$build/fuzz/seeds
sh "$top/tests/fuzz/seeds.sh" "$derived"
# A real trace in the database the SQL functions run against.
export PQ_FUZZ_TRACE="$top/tests/data/kineto/libkineto_test_traces/before_fix_trace.json"

status=0
for name in $names; do
	bin=$build/fuzz/fuzz_$name
	mkdir -p "$corpus/$name" "$build/fuzz/findings"
	seeds=$derived/$name
	[ -d "$top/tests/fuzz/seeds/$name" ] && seeds="$seeds $top/tests/fuzz/seeds/$name"
	[ -d "$top/tests/fuzz/findings/$name" ] && seeds="$seeds $top/tests/fuzz/findings/$name"
	log=$build/fuzz/$name.log
	echo "fuzz: $name for ${secs}s (log $log)"
	if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 "$bin" -max_total_time="$secs" \
		-timeout=20 -rss_limit_mb=2048 -max_len=131072 -print_final_stats=1 \
		-artifact_prefix="$build/fuzz/findings/$name-" "$corpus/$name" $seeds >"$log" 2>&1; then
		:
	else
		status=1
		echo "fuzz: $name FAILED:" >&2
		grep -E 'ERROR|SUMMARY|Test unit written|runtime error' "$log" | head -5 >&2
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
	units=$(ls "$corpus/$name" | wc -l)
	echo "fuzz: $name: ${execs:-?} runs, ${speed:-?}/s, $cov, corpus $units"
done
exit $status
