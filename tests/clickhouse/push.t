#!/bin/bash
# profq push and ch-report against two real clickhouse-server shards on 127.0.0.1 (a remote_servers
# cluster and Distributed tables over them): four per-rank profiles made from the Kineto samples
# (make_ranks.py) are pushed; every ClickHouse report equals the same report computed by profq on
# the merged SQLite file; a shard killed in the middle of a push fails it, and nothing of the
# half-pushed run is visible; pushing again completes the job without duplicates.
. "${0%/*}/../lib.sh"
. "${0%/*}/servers.sh"
HERE=$TOP/tests/clickhouse
S=$DATA/kineto/resnet50_num_workers_0

command -v clickhouse-server >/dev/null 2>&1 ||
	skip_all "clickhouse-server is not installed (Debian: apt-get install clickhouse-server)"
command -v curl >/dev/null 2>&1 || skip_all "curl is not installed"
[ -d "$S" ] || skip_all "no Kineto samples in $S"
pid=
trap '[ -n "$pid" ] && kill -CONT "$pid" 2>/dev/null; ch_stop; rm -rf "$TMP"' EXIT

py "$HERE/make_ranks.py" "$TMP" 4 "$S"/worker0.1623143089861.pt.trace.json.gz \
	"$S"/worker0.1623143566756.pt.trace.json.gz
ok $? "four per-rank traces made from the samples"
for i in 0 1 2 3; do "$PROFQ" import -q -o "$TMP/rank$i.db" "$TMP/rank$i.json" >/dev/null || exit 1; done
"$PROFQ" import -q -o "$TMP/job.db" "$TMP"/rank0.json "$TMP"/rank1.json "$TMP"/rank2.json "$TMP"/rank3.json >/dev/null
ok $? "merged SQLite file of the four ranks"

mkdir -p "$TMP/ch"
t0=$(date +%s)
ch_start "$TMP/ch"
ok $? "two shards started and answer /ping ($(( $(date +%s) - t0 )) s)"

chq() {  # chq URL SQL [DATABASE]: one query's TSV output
	curl -sS --max-time 30 "$1/?database=${3:-profq}" --data-binary "$2"
}

# Tables on both shards: <t>_local MergeTree + Distributed <t> over the cluster.
"$PROFQ" push --clickhouse "$CH_URL2" --cluster "$CH_CLUSTER" >/dev/null
ok $? "push without files creates the tables on shard 2"
out=$("$PROFQ" push --clickhouse "$CH_URL1" --cluster "$CH_CLUSTER" "$TMP/rank0.db" "$TMP/rank1.db")
ok $? "push rank 0 and rank 1 through shard 1"
like "$out" "rank1.db: run 1 \(rank 1\): [0-9]+ rows in [0-9.]+ s, [0-9]+ rows/s" "progress per file with rows/s"
echo "$out" | sed 's/^/# /'
want=$(sqlite "$TMP/job.db" "SELECT count(*) FROM kernels k JOIN runs r ON r.id = k.run_id WHERE r.rank IN (0, 1)")
is "$(chq "$CH_URL1" "SELECT count() FROM kernels")" "$want" "kernels of ranks 0 and 1 through the Distributed table"
is "$(chq "$CH_URL1" "SELECT count() > 0 FROM kernels_local") $(chq "$CH_URL2" "SELECT count() > 0 FROM kernels_local")" \
	"1 1" "rows on both shards"

out=$("$PROFQ" push --clickhouse "$CH_URL1" --cluster "$CH_CLUSTER" "$TMP/rank0.db")
ok $? "pushing rank 0 again succeeds"
like "$out" "already there" "and says it is already there"
is "$(chq "$CH_URL1" "SELECT count() FROM kernels")" "$want" "nothing was added"

# Kill shard 2 in the middle of pushing ranks 2 and 3: small batches make the push take seconds;
# once rank 2's first rows are on shard 1 (and its marker is not), profq is stopped, the shard
# killed, profq continued.
"$PROFQ" push --clickhouse "$CH_URL1" --cluster "$CH_CLUSTER" --batch-rows 200 \
	"$TMP/rank2.db" "$TMP/rank3.db" >"$TMP/push.out" 2>"$TMP/push.err" &
pid=$!
i=0
while [ "$i" -lt 600 ]; do
	n=$(chq "$CH_URL1" "SELECT (SELECT count() FROM kernels_local WHERE rank = 2) > 0 AND (SELECT count() FROM runs WHERE rank = 2) = 0")
	[ "$n" = 1 ] && break
	sleep 0.05
	i=$((i + 1))
done
kill -STOP "$pid" 2>/dev/null
is "$n" 1 "caught the push of rank 2 half-way"
ch_stop_shard 2
kill -CONT "$pid" 2>/dev/null
wait "$pid"
is "$?" 1 "the push fails with exit status 1"
like "$(cat "$TMP/push.err")" "^profq: .*rank2.db: run 1: push failed, nothing of it is visible: .*ClickHouse" \
	"the failure is reported"
ch_start_shard 2
ok $? "shard 2 restarted"
is "$(chq "$CH_URL1" "SELECT arrayStringConcat(groupArray(toString(rank)), ' ') FROM (SELECT rank FROM runs ORDER BY rank)")" \
	"0 1" "only the complete runs are in runs"
like "$(chq "$CH_URL1" "SELECT count() FROM kernels WHERE rank = 2")" "^[1-9]" "the half-pushed rows exist"
is "$(chq "$CH_URL1" "SELECT count() FROM kernels WHERE push_id GLOBAL IN (SELECT push_id FROM runs)")" "$want" \
	"and are not visible"
is "$("$PROFQ" ch-report comm-overlap --clickhouse "$CH_URL1" --format csv | cut -d, -f1 | tr '\n' ' ')" \
	"rank 0 1 " "reports see ranks 0 and 1 only"

out=$("$PROFQ" push --clickhouse "$CH_URL1" --cluster "$CH_CLUSTER" "$TMP"/rank0.db "$TMP"/rank1.db "$TMP"/rank2.db "$TMP"/rank3.db)
ok $? "pushing all four again completes the job"
is "$(echo "$out" | grep -c 'already there')" 2 "ranks 0 and 1 were already there"
is "$(chq "$CH_URL1" "SELECT count() FROM kernels WHERE push_id GLOBAL IN (SELECT push_id FROM runs)")" \
	"$(sqlite "$TMP/job.db" "SELECT count(*) FROM kernels")" "every kernel of the job once"
for t in ranges memcpys memsets api_calls; do
	is "$(chq "$CH_URL2" "SELECT count() FROM $t WHERE push_id GLOBAL IN (SELECT push_id FROM runs)")" \
		"$(sqlite "$TMP/job.db" "SELECT count(*) FROM $t")" "$t: every row once (read through shard 2)"
done

# Every ClickHouse report equals the local report of the same name on the merged file, in csv and
# json, after the normalizations of docs/scale-out.md only (run ids dropped, or made ranks).
# "report|ch-report options|local options"
for spec in "kernels-across-ranks||" "kernels-across-ranks|--by name|--by name" "rank-summary||" \
	"gpu-util-timeline||" "gpu-util-timeline|--chunks 7|--chunks 7" \
	"gpu-util-timeline|--chunks 0|--chunks 0" "comm-overlap||--mode exact"; do
	IFS='|' read -r r chopt locopt <<<"$spec"
	for f in csv json; do
		# shellcheck disable=SC2086
		"$PROFQ" ch-report "$r" --clickhouse "$CH_URL1" $chopt --format "$f" >"$TMP/$r.ch.$f"
		# shellcheck disable=SC2086
		"$PROFQ" "$r" "$TMP/job.db" $locopt --format "$f" >"$TMP/$r.local.$f"
		py "$HERE/same_report.py" "$f" "$TMP/$r.local.$f" "$TMP/$r.ch.$f" "$TMP/job.db"
		ok $? "$r $chopt --format $f: ClickHouse = profq $r $locopt on the merged file ($(wc -l <"$TMP/$r.ch.$f") lines)"
	done
done
for r in rank-summary gpu-util-timeline comm-overlap; do
	is "$(py -c "import json,sys; print(sorted({r['rank'] for r in json.load(open(sys.argv[1]))}))" "$TMP/$r.ch.json")" \
		"[0, 1, 2, 3]" "$r: rows of all four ranks"
done
is "$("$PROFQ" ch-report kernels-across-ranks --clickhouse "$CH_URL1" --format csv --limit 3)" \
	"$(head -4 "$TMP/kernels-across-ranks.ch.csv")" "ch-report --limit 3: the first three rows"
like "$(grep -c ',1$' "$TMP/rank-summary.ch.csv")" "^[1-9]" "rank-summary marks stragglers"
is "$(grep -c '^4,.*,ncclKernel_AllReduce_RING_LL_Sum_float$' "$TMP/kernels-across-ranks.ch.csv")" 1 \
	"kernels-across-ranks: the all-reduce on all four ranks"
"$PROFQ" ch-report gpu-util-timeline --clickhouse "$CH_URL1" --chunks x 2>/dev/null
is "$?" 2 "gpu-util-timeline --chunks x: usage error"

# One server without a cluster, database "single": a hand-made profile (hand.json: names with a
# tab, a newline, a backslash, quotes and UTF-8; a communication kernel inside a computation one).
"$PROFQ" import -q -o "$TMP/hand.db" "$HERE/hand.json" >/dev/null
"$PROFQ" push --clickhouse "$CH_URL1" --database single --job j1 "$TMP/hand.db" >/dev/null
ok $? "push into a single server's database (tables created on first use)"
is "$(chq "$CH_URL1" "SELECT engine FROM system.tables WHERE database = 'single' AND name = 'kernels'" single)" \
	MergeTree "a plain MergeTree table without --cluster"
for f in csv json; do
	"$PROFQ" ch-report kernels-across-ranks --clickhouse "$CH_URL1" --database single --format "$f" >"$TMP/hand.ch.$f"
	"$PROFQ" kernels-across-ranks "$TMP/hand.db" --format "$f" >"$TMP/hand.local.$f"
	py "$HERE/same_report.py" "$f" "$TMP/hand.local.$f" "$TMP/hand.ch.$f" "$TMP/hand.db"
	ok $? "--format $f: names with tabs, newlines, backslashes, quotes and UTF-8 come back unchanged"
done
# By hand: communication [1003000, 1007000) lies inside computation [1000500, 1010750).
is "$("$PROFQ" ch-report comm-overlap --clickhouse "$CH_URL1" --database single --format csv | sed 1d)" \
	"5,4000,4000,100.0" "comm-overlap by hand: 4000 ns of communication, all of it overlapped"
# By hand, 3 chunks of the span [1000500, 1025000) (24500 ns; boundaries 1000500 + 24500 * i / 3):
# busy time is [1000500, 1010750) and [1020000, 1025000): 8166 of 8166 ns, 2084 of 8167 ns
# (25.517 %), 5000 of 8167 ns (61.222 %).
is "$("$PROFQ" ch-report gpu-util-timeline --clickhouse "$CH_URL1" --database single --chunks 3 --format csv | sed 1d | tr '\n' ' ')" \
	"5,0,0,1000500,1008666,8166,100.0 5,0,1,1008666,1016833,2084,25.52 5,0,2,1016833,1025000,5000,61.22 " \
	"gpu-util-timeline by hand: unions clipped to 3 chunks"
# By hand, step 1 = [1000000, 1030000): computation [1000500, 1010750) and [1020000, 1025000)
# (15250 ns), communication 4000 ns inside it, idle 30000 - 15250; one rank, so no straggler.
is "$("$PROFQ" ch-report rank-summary --clickhouse "$CH_URL1" --database single --format csv | sed 1d)" \
	"5,1,30000,15250,4000,4000,14750,30000.0,0.0,0" "rank-summary by hand: a step of one rank"
cp "$TMP/hand.db" "$TMP/open.db"
sqlite "$TMP/open.db" "UPDATE runs SET status = 'open'; UPDATE kernels SET start_ns = start_ns + 1"
like "$("$PROFQ" push --clickhouse "$CH_URL1" --database single --job j1 "$TMP/open.db")" \
	"run 1: status 'open', not pushed" "an open run is not pushed"
is "$(chq "$CH_URL1" "SELECT count() FROM runs" single)" 1 "and nothing of it is in runs"
missing=$(chq "$CH_URL1" "SELECT table, name, type FROM system.columns WHERE database = 'single' FORMAT TSV" single |
	while IFS='	' read -r t c ty; do
		grep -F "| \`$t\` |" "$TOP/docs/scale-out.md" | grep -qF "\`$c\` $ty" || echo "$t.$c"
	done)
is "$missing" "" "docs/scale-out.md lists every ClickHouse column with its type (tables and views)"
"$PROFQ" push --clickhouse "$CH_URL1" --database single --job j2 "$TMP/rank0.db" >/dev/null
for t in runs kernels memcpys memsets api_calls ranges memory_events counters; do
	chq "$CH_URL1" "ALTER TABLE $t DROP PARTITION 'j1'" single
done
is "$(chq "$CH_URL1" "SELECT arrayStringConcat(groupArray(toString(rank)), ' ') FROM (SELECT rank FROM runs ORDER BY rank)" single) $(chq "$CH_URL1" "SELECT count() FROM kernels" single)" \
	"0 $(sqlite "$TMP/rank0.db" "SELECT count(*) FROM kernels")" "DROP PARTITION 'j1' drops job j1's run and keeps job j2's"

"$PROFQ" push --clickhouse http://127.0.0.1:1 "$TMP/rank0.db" 2>"$TMP/err"
is "$?" 1 "push to a server that is not there: exit 1"
like "$(cat "$TMP/err")" "^profq: ClickHouse at http://127.0.0.1:1" "with the reason"
"$PROFQ" ch-report nope --clickhouse "$CH_URL1" 2>/dev/null
is "$?" 2 "unknown ch-report: usage error"
"$PROFQ" ch-report comm-overlap --clickhouse "$CH_URL1" --database nosuch 2>"$TMP/err"
is "$?" 1 "ch-report on a database push never made: exit 1"
like "$(cat "$TMP/err")" "doesn't exist.*profq push --clickhouse URL" "with the way to make it"

ch_stop
done_testing
