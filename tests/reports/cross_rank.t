#!/bin/sh
# Cross-rank reports on merged ranks: rank-summary (per rank and step: computation,
# communication, overlap, idle, straggler), kernels-across-ranks (min/median/max over ranks) and
# comm-overlap per rank. A hand-worked three-rank job, then two HTA-style ranks made from a Kineto
# sample by make_ranks.py, checked against Python over the two rank JSON files themselves.
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"

# --- Hand-worked (us). gemm is computation, ncclKernel_AllReduce communication, the memcpy
# neither. rank0 step1 [0,100): gemm [10,50), nccl [40,70), memcpy [80,90) -> comp 40, comm 30,
# overlap 10, idle 100 - 70 = 30; step2 [100,160): gemm [110,150) -> comp 40, idle 20.
# rank1 step1 [0,130): gemm [10,60), nccl [70,100) -> 50, 30, 0, idle 50; step2 [130,180):
# nccl [130,170), gemm [140,150) -> 10, 40, 10, idle 10. rank2 step1 [0,110): gemm [0,110) and
# gemm [100,120) across the step's end -> comp 110 (cut), idle 0; step2 [110,165): its [110,120)
# part -> comp 10, idle 45. Step 1 lasts 100, 130, 110: median 110, rank1 the straggler (+20);
# step 2 60, 50, 55: median 55, rank0 (+5).
N=ncclKernel_AllReduce_RING_LL_Sum_float
M='Memcpy HtoD (Pageable -> Device)'
trace_begin "$TMP/h0.json"
X cpu_op 'ProfilerStep#1' 1 0 100; X cpu_op 'ProfilerStep#2' 1 100 60
X kernel gemm 'stream 7' 10 40; X kernel $N 'stream 20' 40 30; X gpu_memcpy "$M" 'stream 7' 80 10
X kernel gemm 'stream 7' 110 40
trace_end
trace_begin "$TMP/h1.json"
X cpu_op 'ProfilerStep#1' 1 0 130; X cpu_op 'ProfilerStep#2' 1 130 50
X kernel gemm 'stream 7' 10 50; X kernel $N 'stream 20' 70 30
X kernel $N 'stream 20' 130 40; X kernel gemm 'stream 7' 140 10
trace_end
trace_begin "$TMP/h2.json"
X cpu_op 'ProfilerStep#1' 1 0 110; X cpu_op 'ProfilerStep#2' 1 110 55
X kernel gemm 'stream 7' 0 110; X kernel gemm 'stream 8' 100 20
trace_end
"$PROFQ" merge -o "$TMP/h.db" --rank 0 "$TMP/h0.json" --rank 1 "$TMP/h1.json" --rank 2 "$TMP/h2.json" >/dev/null
ok $? "three hand-made ranks merge"
is "$("$PROFQ" rank-summary "$TMP/h.db" --format csv)" \
"run_id,rank,step,step_ns,computation_ns,communication_ns,overlap_ns,idle_ns,median_step_ns,excess_ns,straggler
1,0,1,100000,40000,30000,10000,30000,110000.0,-10000.0,0
2,1,1,130000,50000,30000,0,50000,110000.0,20000.0,1
3,2,1,110000,110000,0,0,0,110000.0,0.0,0
1,0,2,60000,40000,0,0,20000,55000.0,5000.0,1
2,1,2,50000,10000,40000,10000,10000,55000.0,-5000.0,0
3,2,2,55000,10000,0,0,45000,55000.0,0.0,0" "rank-summary: the hand-worked rows"
is "$("$PROFQ" rank-summary "$TMP/h.db" --run 2 --format csv | sed 1d | cut -d, -f1,3,11 | tr '\n' ' ')" \
	"2,1,1 2,2,0 " "--run 2: that rank's rows, straggler still judged against every rank"
is "$("$PROFQ" kernels-across-ranks "$TMP/h.db" --format csv)" \
"ranks,instances,total_ns,min_rank_ns,med_rank_ns,max_rank_ns,max_rank,max_run_id,name
3,6,270000,60000,80000.0,130000,2,3,gemm
2,3,100000,0,30000.0,70000,1,2,$N" "kernels-across-ranks: sums, min/median/max over ranks (0 where absent), the slowest rank"
# --mode exact: these kernels have no launching call, so HTA's step cut (by the launch) drops them.
is "$("$PROFQ" comm-overlap "$TMP/h.db" --mode exact --format json | py -c '
import json, sys
print(" ".join("%s:%s/%s" % (r["rank"], r["comm_ns"], r["overlap_ns"]) for r in json.load(sys.stdin)))')" \
	"0:30000/10000 1:70000/10000 2:0/0" "comm-overlap per rank: communication time and the part under computation"

# --- Two HTA-style ranks from a Kineto sample.
S=$(ls "$DATA"/kineto/resnet50_num_workers_0/*.pt.trace.json.gz 2>/dev/null | head -1)
[ -n "$S" ] || { skip "resnet50 ranks" "no sample in $DATA"; done_testing; }
py "${0%/*}/make_ranks.py" "$S" "$TMP"
"$PROFQ" merge -o "$TMP/job.db" "$TMP/rank0.json" "$TMP/rank1.json" >/dev/null
ok $? "rank0.json and rank1.json (distributedInfo) merge"
is "$(sqlite "$TMP/job.db" "SELECT group_concat(rank) FROM runs")" "0,1" "ranks from distributedInfo"
py - "$TMP/rank0.json" "$TMP/rank1.json" >"$TMP/want" <<'PY'
import collections, decimal, fnmatch, json, statistics, sys
from decimal import Decimal
COMM = ('nccl*', 'hip*', 'hccl*', '*ncclKernel*')
MEM = ('Memcpy*', 'hipMemcpy*', 'Memset*', 'hipMemset*', 'dma*')
NONCOMP = ('*Memcpy*', '*Memset*', '*dma*', '*Sync*', 'Stream Wait Event*', 'cuda*LaunchKernel*',
           'runFunction*', 'job_exe*', 'packet*', 'pe_exe*', 'cpum_exe_subgraph*', 'collective_subgraph_execution*')
def m(name, pats): return any(fnmatch.fnmatchcase(name, p) for p in pats)
def ns(v): return int(Decimal(v) * 1000)
def union(iv):
    tot, ce, cs = 0, None, None
    for s, e in sorted(iv):
        if e <= s: continue
        if ce is None or s > ce:
            if ce is not None: tot += ce - cs
            cs, ce = s, e
        else: ce = max(ce, e)
    return tot + (ce - cs if ce is not None else 0)
rows, kern = [], collections.defaultdict(dict)
for run, path in enumerate(sys.argv[1:], 1):
    doc = json.load(open(path), parse_float=Decimal)
    rank = doc['distributedInfo']['rank']
    ev = [e for e in doc['traceEvents'] if e.get('ph') == 'X']
    gpu = []
    for e in ev:
        c = e.get('cat', '').lower()
        if c == 'kernel':
            t = 'COMM' if m(e['name'], COMM) else 'MEM' if m(e['name'], MEM) else 'OTHER' if m(e['name'], NONCOMP) else 'COMP'
            k = kern[e['name']].setdefault(run, [0, 0, rank])
            k[0] += 1; k[1] += ns(e['dur'])
        elif c in ('memcpy', 'memset', 'gpu_memcpy', 'gpu_memset'):
            t = 'MEM'
        else:
            continue
        gpu.append((ns(e['ts']), ns(e['ts']) + ns(e['dur']), t))
    for e in ev:
        if e['name'].startswith('ProfilerStep#'):
            s, t = ns(e['ts']), ns(e['ts']) + ns(e['dur'])
            cut = [(max(a, s), min(b, t), ty) for a, b, ty in gpu if a < t and b > s]
            comp = union([(a, b) for a, b, ty in cut if ty == 'COMP'])
            comm = union([(a, b) for a, b, ty in cut if ty == 'COMM'])
            either = union([(a, b) for a, b, ty in cut if ty in ('COMP', 'COMM')])
            rows.append([run, rank, int(e['name'][13:]), t - s, comp, comm, comp + comm - either, t - s - union([(a, b) for a, b, _ in cut])])
bystep = collections.defaultdict(list)
for r in rows: bystep[r[2]].append(r)
for step in sorted(bystep):
    rs = bystep[step]
    med = statistics.median(r[3] for r in rs)
    slow = sorted(rs, key=lambda r: (-r[3], r[1]))[0]
    for r in sorted(rs, key=lambda r: r[1]):
        print(*r, '%.1f' % med, '%.1f' % (r[3] - med), int(r is slow and len(rs) > 1 and r[3] > med), sep=',')
print('--')
out = []
for name, per in kern.items():
    ts = [per.get(run, [0, 0, None])[1] for run in (1, 2)]
    mx = max((per.get(run, [0, 0, None])[1], -run) for run in (1, 2))
    out.append((-sum(ts), name, len(per), sum(v[0] for v in per.values()), sum(ts), min(ts), '%.1f' % statistics.median(ts), max(ts), per[-mx[1]][2], -mx[1]))
for o in sorted(out):
    print(*o[2:], o[1], sep='\t')
PY
{
	"$PROFQ" rank-summary "$TMP/job.db" --format csv | sed 1d
	echo --
	"$PROFQ" kernels-across-ranks "$TMP/job.db" --format csv | sed 1d | py -c '
import csv, sys
for r in csv.reader(sys.stdin): print(*r, sep="\t")'
} >"$TMP/got"
is "$(sed -n '/^--$/q;p' "$TMP/got" | wc -l | tr -d ' ')" "$(sed -n '/^--$/q;p' "$TMP/want" | wc -l | tr -d ' ')" \
	"rank-summary: a row per rank and ProfilerStep"
is "$(sed -n '/^--$/q;p' "$TMP/got")" "$(sed -n '/^--$/q;p' "$TMP/want")" \
	"rank-summary: every value equals Python over the two rank files"
is "$(sed -n '/^--$/q;p' "$TMP/got" | awk -F, '$11 == 1 { print $2 ":" $3 }')" \
	"$(sed -n '/^--$/q;p' "$TMP/want" | awk -F, '$11 == 1 { print $2 ":" $3 }')" "the straggler: rank 1 in the delayed step"
like "$(sed -n '/^--$/q;p' "$TMP/got" | awk -F, '$11 == 1 { print $10 }')" "^1000000\.0$" "its excess over the median: half the 2 ms delay (the median of two ranks is their mean)"
is "$(sed '1,/^--$/d' "$TMP/got" | sort | md5sum)" "$(sed '1,/^--$/d' "$TMP/want" | sort | md5sum)" \
	"kernels-across-ranks: every row equals Python over the two rank files"
is "$(sed '1,/^--$/d' "$TMP/got" | head -1 | cut -f9)" "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)" \
	"kernels-across-ranks: sorted by total (the all-reduce first)"
# comm-overlap per rank over the merged ranks, against the same Python definitions (--mode exact:
# make_ranks.py's all-reduce kernels have no launching call for HTA's step cut to keep).
is "$("$PROFQ" comm-overlap "$TMP/job.db" --mode exact --format json | py -c '
import json, sys
print(" ".join("%s:%s/%s" % (r["rank"], r["comm_ns"], r["overlap_ns"]) for r in json.load(sys.stdin)))')" \
	"$(py - "$TMP/rank0.json" "$TMP/rank1.json" <<'PY'
import decimal, fnmatch, json, sys
from decimal import Decimal
COMM = ('nccl*', 'hip*', 'hccl*', '*ncclKernel*')
MEM = ('Memcpy*', 'hipMemcpy*', 'Memset*', 'hipMemset*', 'dma*')
NONCOMP = ('*Memcpy*', '*Memset*', '*dma*', '*Sync*', 'Stream Wait Event*', 'cuda*LaunchKernel*',
           'runFunction*', 'job_exe*', 'packet*', 'pe_exe*', 'cpum_exe_subgraph*', 'collective_subgraph_execution*')
def m(n, p): return any(fnmatch.fnmatchcase(n, x) for x in p)
def ns(v): return int(Decimal(v) * 1000)
def union(iv):
    tot, cs, ce = 0, None, None
    for s, e in sorted(iv):
        if ce is None or s > ce:
            if ce is not None: tot += ce - cs
            cs, ce = s, e
        else: ce = max(ce, e)
    return tot + (ce - cs if ce is not None else 0)
out = []
for p in sys.argv[1:]:
    doc = json.load(open(p), parse_float=Decimal)
    k = [e for e in doc['traceEvents'] if e.get('ph') == 'X' and e.get('cat', '').lower() == 'kernel']
    comm = [(ns(e['ts']), ns(e['ts']) + ns(e['dur'])) for e in k if m(e['name'], COMM)]
    comp = [(ns(e['ts']), ns(e['ts']) + ns(e['dur'])) for e in k if not m(e['name'], COMM) and not m(e['name'], MEM) and not m(e['name'], NONCOMP)]
    out.append('%d:%d/%d' % (doc['distributedInfo']['rank'], union(comm), union(comm) + union(comp) - union(comm + comp)))
print(' '.join(out))
PY
)" "comm-overlap: per rank, equal to Python over the rank files"
for r in rank-summary kernels-across-ranks; do
	is "$(sqlite "$TMP/h.db" ".load $EXT" ".mode csv" ".param set :run NULL" ".param set :limit NULL" \
		".read $TOP/queries/$r.sql" 2>&1 | tr -d '\r' | md5sum)" \
		"$("$PROFQ" $r "$TMP/h.db" --format csv | sed 1d | md5sum)" "$r runs unchanged in sqlite3"
done
done_testing
