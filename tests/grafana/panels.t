#!/bin/sh
# The Grafana dashboards run on a plain sqlite3 (the frser-sqlite-datasource plugin cannot load
# extensions): every panel's SQL, with Grafana's macros and the run variable substituted, runs
# through the sqlite3 CLI on imported real traces and returns the columns its field config names;
# time series come ordered by a `time` column in unix seconds; every datasource uid is provisioned.
. "${0%/*}/../lib.sh"
G=$TOP/grafana
command -v /usr/bin/python3 >/dev/null || skip_all "no /usr/bin/python3"

uid=$(sed -n 's/^ *uid: *//p' "$G/provisioning/datasources/profq.yaml")
is "$uid" profq "the datasource provisioning defines uid profq"
like "$(cat "$G/provisioning/datasources/profq.yaml")" 'path: \$PROFQ_DB' "the profile's path comes from PROFQ_DB"
like "$(cat "$G/provisioning/dashboards/profq.yaml")" 'path: \$PROFQ_GRAFANA_DASHBOARDS' \
	"the dashboards' directory comes from PROFQ_GRAFANA_DASHBOARDS"

"$PROFQ" import -q -o "$TMP/kineto.db" \
	"$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz" >/dev/null
ok $? "import a Kineto trace"
"$PROFQ" import -q -o "$TMP/nsys.db" "$DATA/nsys/h100_2gpu_1s.sqlite" >/dev/null
ok $? "import an nsys export"

for d in "$G"/dashboards/*.json; do
	name=${d##*/}
	py -c 'import json, sys; json.load(open(sys.argv[1]))' "$d"
	ok $? "$name parses as JSON"
	vars=$(py -c 'import json, sys; print(" ".join(v["name"] for v in json.load(open(sys.argv[1]))["templating"]["list"]))' "$d")
	is "$vars" run "$name has the run selector"
	for db in kineto nsys; do
		mkdir -p "$TMP/$db.$name"
		# The whole run as the dashboard's time range, in ms as Grafana gives $__from/$__to.
		range=$(sqlite "$TMP/$db.db" "SELECT id, start_ns / 1000000, end_ns / 1000000 + 1 FROM runs" | tr '|' ' ')
		set -- $range
		py "${0%/*}/panels.py" "$d" "$1" "$2" "$3" "$TMP/$db.$name" >"$TMP/$db.$name.list" || echo "not ok - panels.py $name"
		while IFS="$(printf '\t')" read -r sql type puid cols; do
			p=${sql##*/}
			is "$puid" "$uid" "$db $p: datasource uid is the provisioned one"
			out=$(sqlite -header -csv "$TMP/$db.db" <"$sql" 2>&1)
			ok $? "$db $p runs on plain sqlite3"
			[ -n "$out" ] && echo "$db $p" >>"$TMP/$name.nonempty"
			[ -z "$out" ] && continue
			header=$(printf '%s\n' "$out" | head -1 | tr -d '\r')
			missing=""
			for c in $cols; do
				printf ',%s,\n' "$header" | grep -q ",$c," || missing="$missing $c"
			done
			is "$missing" "" "$db $p returns the columns its field config names ($cols)"
			if [ "$type" = timeseries ]; then
				like "$header" '^time,' "$db $p: time comes first"
				printf '%s\n' "$out" | sed 1d | cut -d, -f1 | sort -c -g 2>/dev/null
				ok $? "$db $p: ordered by time"
				lo=$(($2 / 1000 - 1)) hi=$(($3 / 1000 + 1))
				bad=$(printf '%s\n' "$out" | sed 1d | awk -F, -v lo=$lo -v hi=$hi '$1 < lo || $1 > hi' | head -1)
				is "$bad" "" "$db $p: time in unix seconds within the run"
			fi
		done <"$TMP/$db.$name.list"
	done
	# A panel that returns nothing on both traces tests nothing: each must have rows on one.
	for sql in $(cut -f1 "$TMP/kineto.$name.list"); do
		p=${sql##*/}
		grep -q " $p\$" "$TMP/$name.nonempty" 2>/dev/null
		ok $? "$name $p returns rows on the Kineto or the nsys trace"
	done
done

# The PyTorch panels have rows on the PyTorch trace, the overview's GPU panels on both.
for p in profq-pytorch.1.A.sql profq-pytorch.2.A.sql profq-pytorch.3.A.sql profq-pytorch.4.A.sql \
		profq-overview.1.A.sql profq-overview.2.A.sql profq-overview.3.A.sql profq-overview.4.A.sql; do
	grep -q "^kineto $p\$" "$TMP/pytorch.json.nonempty" "$TMP/overview.json.nonempty" 2>/dev/null
	ok $? "kineto $p has rows"
done
for p in profq-overview.1.A.sql profq-overview.2.A.sql profq-overview.3.A.sql \
		profq-overview.4.A.sql profq-overview.5.A.sql; do
	grep -q "^nsys $p\$" "$TMP/overview.json.nonempty"
	ok $? "nsys $p has rows"
done

# The panels' figures against the reports that define them (computed there with other SQL).
# GPU utilization: busy time per device over the whole run = gpu-util-timeline's busy_ns total.
for db in kineto nsys; do
	"$PROFQ" gpu-util-timeline "$TMP/$db.db" --format csv >"$TMP/$db.util.csv"
	sqlite -header -csv "$TMP/$db.db" <"$TMP/$db.overview.json/profq-overview.1.A.sql" >"$TMP/$db.panel.csv"
	set -- $(sqlite "$TMP/$db.db" "SELECT start_ns / 1000000, end_ns / 1000000 + 1 FROM runs" | tr '|' ' ')
	is "$(py - "$TMP/$db.util.csv" "$TMP/$db.panel.csv" $(( ($2 - $1) * 1000000 / 300 )) <<'PY'
import csv, sys
report, panel, w = sys.argv[1], sys.argv[2], int(sys.argv[3])
want, got = {}, {}
for r in csv.DictReader(open(report)):
    want["GPU " + r["device"]] = want.get("GPU " + r["device"], 0) + int(r["busy_ns"])
for r in csv.DictReader(open(panel)):
    got[r["device"]] = got.get(r["device"], 0) + float(r["utilization_pct"]) / 100 * w
print(" ".join("%s:%s" % (d, "ok" if abs(got.get(d, 0) - want[d]) <= 0.001 * w * 300
                          else "%d != %d" % (got.get(d, 0), want[d])) for d in sorted(want)))
PY
)" "$(cut -d, -f2 "$TMP/$db.util.csv" | sed 1d | sort -u | sed 's/^/GPU /; s/$/:ok/' | tr '\n' ' ' | sed 's/ $//')" \
		"$db: GPU utilization panel's busy time per device = gpu-util-timeline's"
done
# Work per step: the GPU time each step launched = step-breakdown's kernel, memcpy, memset.
got=$(sqlite -csv "$TMP/kineto.db" <"$TMP/kineto.pytorch.json/profq-pytorch.2.A.sql" |
	awk -F, '{ gsub(/"|step /, "", $1); printf "%s:%d,%d,%d ", $1, $2 * 1000000 + .5, $3 * 1000000 + .5, $4 * 1000000 + .5 }')
want=$("$PROFQ" step-breakdown "$TMP/kineto.db" --format csv | sed 1d |
	awk -F, '$2 != "average" { printf "%s:%s,%s,%s ", $2, $3, $4, $5 }')
is "$got" "$want" "work per step: kernel, memcpy, memset per step = step-breakdown's"

done_testing
