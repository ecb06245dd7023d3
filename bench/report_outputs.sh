#!/bin/bash
# bench/report_outputs.sh OUTDIR - every canned report's csv output on every sample of tests/data,
# for before/after comparisons of a speed-up (which must not change a byte):
#
#   PROFQ_BIN=/tmp/base/build/profq bash bench/report_outputs.sh /tmp/before
#   bash bench/report_outputs.sh /tmp/after && diff -r /tmp/before /tmp/after
#
# Each Kineto sample and nsys export is imported on its own, and the two ResNet-50 workers of
# resnet50_num_workers_0 together (two runs). Per report: the default options, then each choice of
# each option with a fixed set of choices (a|b), one at a time, and numeric options at a second value.
# OUTDIR/SAMPLE/REPORT[,OPTION=VALUE].csv holds stdout, then the exit status and stderr.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
PROFQ=${PROFQ_BIN:-$TOP/${PROFQ_BUILD:-build}/profq}
OUT=${1:?usage: report_outputs.sh OUTDIR}
D=$TOP/tests/data
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/profq-outputs.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

i=0
for f in "$D"/kineto/*/*.json* "$D"/nsys/*.sqlite; do
	i=$((i + 1))
	"$PROFQ" import -q -o "$WORK/$i.db" "$f" >/dev/null 2>&1 || { echo "cannot import $f" >&2; exit 1; }
	echo "$(basename "$f")" >"$WORK/$i.name"
done
i=$((i + 1))
"$PROFQ" import -q -o "$WORK/$i.db" "$D"/kineto/resnet50_num_workers_0/*.json.gz >/dev/null || exit 1
echo "resnet50_num_workers_0-both" >"$WORK/$i.name"

# "--name value" variants of a report: its "-- option name=a|b (default a)" and "name=<x>" lines
variants() {
	sed -n 's/^-- option \([a-z-]*\)=\([^ ]*\) (default \([^)]*\)).*/\1 \2 \3/p' "$1" |
		while read -r name choices def; do
			case $choices in
			'<'*) echo "--$name $(awk -v d="$def" 'BEGIN { print (d + 0 == 0) ? 1 : d * 2 }')" ;;
			*) echo "$choices" | tr '|' '\n' | grep -vx "$def" | sed "s/^/--$name /" ;;
			esac
		done
}

for db in "$WORK"/*.db; do
	dir=$OUT/$(cat "${db%.db}.name")
	mkdir -p "$dir"
	for q in "$TOP"/queries/*.sql; do
		r=$(basename "$q" .sql)
		{ echo ""; variants "$q"; } | while read -r opt; do
			# shellcheck disable=SC2086
			o=$dir/$r$(echo "$opt" | sed 's/^--/,/; s/ /=/').csv
			"$PROFQ" "$r" "$db" $opt --format csv >"$o" 2>"$WORK/err"
			echo "# exit $?: $(cat "$WORK/err")" >>"$o"
		done
	done
done
echo "$(find "$OUT" -name '*.csv' | wc -l) outputs in $OUT"
