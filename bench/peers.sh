#!/bin/sh
# peers.sh - profq side by side with the peers' own code (issue 15), timed the same way:
#   the TensorBoard profiler plugin (pytorch/kineto tb_plugin: RunProfileData.parse and
#   RunGenerator.generate_run_profile, bench/peer_tb.py) against profq import + step-breakdown +
#   gpu-summary + op-sum + kernel-sum; Holistic Trace Analysis (TraceAnalysis + temporal and idle
#   time breakdowns, bench/peer_hta.py) against profq import + temporal-breakdown + idle-breakdown;
#   and each report alone on the imported file (a repeated question) against the peer re-parsing.
# On the ResNet50 sample the repository ships and on a ~200 MB trace of its steps
# (bench/gen_steps_trace.py). Both sides' numbers are compared first (bench/peers_check.py); a
# trace where they differ is not timed. Every figure: min / median / max wall seconds of
# PROFQ_BENCH_RUNS runs (5), each a new process, a peer's runs and profq's in turn; ratios are of
# medians.
#
#   sh bench/peers.sh            (make bench runs it)
#
# The peers' code is fetched at bench time (never part of the repository) into PROFQ_PEER_CACHE
# (default ~/.cache/profq-peers) at the commits notes/kineto_hta.md read: kineto 041e7ce9 (the last
# with tb_plugin), HolisticTraceAnalysis f4d0062c. PROFQ_KINETO_GIT / PROFQ_HTA_GIT choose where
# from (default: their public GitHub repositories; a local clone or mirror works). They run on
# PROFQ_PYTHON (default /usr/bin/python3) with Debian's python3-pandas (HTA also wants
# python3-plotly, -networkx, -yaml, -ijson, -psutil, -pydot). A peer that cannot be fetched or
# imported is skipped with the reason (exit 0). PROFQ_BENCH_BIG_MB (200; 0: no big trace).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
PROFQ=$TOP/${PROFQ_BUILD:-build}/profq
RUNS=${PROFQ_BENCH_RUNS:-5}
BIG_MB=${PROFQ_BENCH_BIG_MB:-200}
CACHE=${PROFQ_PEER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/profq-peers}
PY=${PROFQ_PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=python3
SAMPLE=$TOP/tests/data/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
KINETO_REV=041e7ce99f1562dd81232ee58b7c454ef16bfae2
HTA_REV=f4d0062c382f42bd8a74838bcdad1916c7d5d2da
TB_REPORTS="step-breakdown gpu-summary op-sum kernel-sum"
HTA_REPORTS="temporal-breakdown idle-breakdown"

[ -x "$PROFQ" ] || { echo "peers: $PROFQ not built (make)" >&2; exit 1; }

# fetch NAME URL REV PATH: PATH of repository URL at REV, checked out once into the cache; prints
# the checkout's directory. Only PATH is checked out (a blob-less clone fetches only its files).
fetch() {
	_dir=$CACHE/$1-$3
	if [ ! -d "$_dir/$4" ]; then
		mkdir -p "$CACHE" && rm -rf "$_dir.tmp" &&
			git clone -q --filter=blob:none --no-checkout "$2" "$_dir.tmp" 2>"$CACHE/$1.err" &&
			git -C "$_dir.tmp" checkout -q "$3" -- "$4" 2>>"$CACHE/$1.err" &&
			mv "$_dir.tmp" "$_dir" || { rm -rf "$_dir.tmp"; return 1; }
	fi
	echo "$_dir"
}

peer_ok() { # NAME DIR MODULE: the peer's code imports on $PY
	PYTHONPATH=$2 "$PY" -c "import warnings; warnings.simplefilter('ignore'); import $3" \
		>/dev/null 2>"$CACHE/$1.err"
}

TB="" HTA=""
if d=$(fetch kineto "${PROFQ_KINETO_GIT:-https://github.com/pytorch/kineto.git}" $KINETO_REV \
	tb_plugin/torch_tb_profiler); then
	if peer_ok kineto "$d/tb_plugin" torch_tb_profiler.profiler.run_generator; then
		TB=$d/tb_plugin
	else
		echo "peers: tb_plugin does not import on $PY ($(tail -1 "$CACHE/kineto.err")): skipped"
	fi
else
	echo "peers: cannot fetch pytorch/kineto ($(tail -1 "$CACHE/kineto.err" 2>/dev/null)): tb_plugin skipped"
fi
if d=$(fetch hta "${PROFQ_HTA_GIT:-https://github.com/facebookresearch/HolisticTraceAnalysis.git}" \
	$HTA_REV hta); then
	if peer_ok hta "$d" hta.trace_analysis; then
		HTA=$d
	else
		echo "peers: HTA does not import on $PY ($(tail -1 "$CACHE/hta.err")): skipped"
	fi
else
	echo "peers: cannot fetch HolisticTraceAnalysis ($(tail -1 "$CACHE/hta.err" 2>/dev/null)): HTA skipped"
fi
[ -n "$TB$HTA" ] || { echo "peers: no peer to compare with: skipped"; exit 0; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/profq-peers.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "# profq side by side with its peers: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cpu," \
	"$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p')"
echo "# $("$PROFQ" --version); $("$PY" --version); load average at start:" \
	"$(cut -d' ' -f1-3 /proc/loadavg)"
echo "# tb_plugin: kineto $KINETO_REV ${TB:-(skipped)}"
echo "# HTA: HolisticTraceAnalysis $HTA_REV ${HTA:-(skipped)}"
echo "# $RUNS runs each: min / median / max wall seconds"

# wall LABEL CMD...: times it, prints the line, leaves the median in $MED
wall() {
	_label=$1
	shift
	set -- $("$PY" "$TOP/bench/wall.py" "$RUNS" "$@") || return 1
	MED=$2
	printf '%-58s %8.3f %8.3f %8.3f\n' "$_label" "$1" "$2" "$3"
}

# pair PEER_LABEL PROFQ_LABEL PEER_CMD... :: PROFQ_CMD...: both timed in turn (a peer's run, then
# profq's, RUNS times: each side sees the machine the other leaves), prints both lines, leaves the
# medians in $PEER_MED and $MED
pair() {
	_pl=$1 _ql=$2
	shift 2
	set -- $("$PY" "$TOP/bench/wall_pair.py" "$RUNS" :: "$@") || return 1
	PEER_MED=$2 MED=$5
	printf '%-58s %8.3f %8.3f %8.3f\n' "$_pl" "$1" "$2" "$3"
	printf '%-58s %8.3f %8.3f %8.3f\n' "$_ql" "$4" "$5" "$6"
}

ratio() { "$PY" -c "import sys; print('%.1fx' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }

# What `profq` does end to end for a question: import the trace into a new file, run the reports.
# sh -c "$CHAIN" sh DB TRACE REPORT...
CHAIN='db=$1 trace=$2; shift 2; rm -f "$db" "$db-wal" "$db-shm"
"$PROFQ" import -q -o "$db" "$trace" || exit 1
for r in "$@"; do "$PROFQ" "$r" "$db" --format csv || exit 1; done'
export PROFQ

run_trace() { # NAME TRACE
	n=$1 trace=$2
	echo
	echo "== $n: $(basename "$trace"), $("$PY" -c 'import gzip, sys; p = sys.argv[1]
f = gzip.open(p) if p.endswith(".gz") else open(p, "rb")
print("%.1f MB of JSON" % (sum(len(b) for b in iter(lambda: f.read(1 << 20), b"")) / 1e6))' "$trace")"
	db=$WORK/$n.db
	"$PROFQ" import -q -o "$db" "$trace" || return 1
	for r in $TB_REPORTS $HTA_REPORTS; do "$PROFQ" "$r" "$db" --format csv >"$WORK/$n.$r.csv" || return 1; done
	mkdir -p "$WORK/hta-$n" && ln -sf "$trace" "$WORK/hta-$n/$(basename "$trace")"
	wall "profq import alone" sh -c 'rm -f "$1" "$1-wal" "$1-shm"; exec "$2" import -q -o "$1" "$3"' \
		sh "$WORK/t.db" "$PROFQ" "$trace"
	import=$MED
	tb_med="" hta_med=""
	if [ -n "$TB" ]; then
		PYTHONPATH=$TB "$PY" "$TOP/bench/peer_tb.py" "$trace" >"$WORK/$n.tb.json" 2>"$WORK/tb.err" ||
			{ echo "tb_plugin failed: $(tail -1 "$WORK/tb.err")"; return 1; }
		if "$PY" "$TOP/bench/peers_check.py" tb "$WORK/$n.tb.json" "$WORK/$n.step-breakdown.csv" \
			"$WORK/$n.gpu-summary.csv" "$WORK/$n.op-sum.csv" "$WORK/$n.kernel-sum.csv" >"$WORK/check"; then
			echo "check tb_plugin: $(tail -1 "$WORK/check") (steps, GPU summary, operator and kernel tables)"
			pair "tb_plugin: RunProfileData.parse + generate_run_profile" \
				"profq import + $(echo $TB_REPORTS | sed 's/ / + /g')" \
				env PYTHONPATH="$TB" "$PY" "$TOP/bench/peer_tb.py" "$trace" :: \
				sh -c "$CHAIN" sh "$WORK/t.db" "$trace" $TB_REPORTS
			tb_med=$PEER_MED
			echo "   end to end: $(ratio "$tb_med" "$MED") the plugin's speed (target >= 3x);" \
				"profq import alone $(ratio "$tb_med" "$import")"
		else
			cat "$WORK/check"
			echo "tb_plugin and profq differ: not timed"
		fi
	fi
	if [ -n "$HTA" ]; then
		PYTHONPATH=$HTA "$PY" "$TOP/bench/peer_hta.py" "$WORK/hta-$n" >"$WORK/$n.hta.json" 2>"$WORK/hta.err" ||
			{ echo "HTA failed: $(tail -1 "$WORK/hta.err")"; return 1; }
		if "$PY" "$TOP/bench/peers_check.py" hta "$WORK/$n.hta.json" "$WORK/$n.temporal-breakdown.csv" \
			"$WORK/$n.idle-breakdown.csv" >"$WORK/check"; then
			echo "check HTA: $(tail -1 "$WORK/check") (temporal and idle time breakdowns)"
			pair "HTA: TraceAnalysis + temporal + idle breakdown" \
				"profq import + $(echo $HTA_REPORTS | sed 's/ / + /g')" \
				env PYTHONPATH="$HTA" "$PY" "$TOP/bench/peer_hta.py" "$WORK/hta-$n" :: \
				sh -c "$CHAIN" sh "$WORK/t.db" "$trace" $HTA_REPORTS
			hta_med=$PEER_MED
			echo "   end to end: $(ratio "$hta_med" "$MED") HTA's speed (target >= 5x);" \
				"profq import alone $(ratio "$hta_med" "$import")"
		else
			cat "$WORK/check"
			echo "HTA and profq differ: not timed"
		fi
	fi
	echo "-- a repeated question on the imported file (profq REPORT DB), against the peer re-parsing"
	for r in $TB_REPORTS $HTA_REPORTS; do
		case " $TB_REPORTS " in *" $r "*) peer=$tb_med who=tb_plugin ;; *) peer=$hta_med who=HTA ;; esac
		wall "profq $r" "$PROFQ" "$r" "$db" --format csv
		[ -n "$peer" ] && echo "   $(ratio "$peer" "$MED") $who re-parsing (target >= 100x)"
	done
}

run_trace sample "$SAMPLE"
if [ "$BIG_MB" != 0 ]; then
	"$PY" "$TOP/bench/gen_steps_trace.py" "$SAMPLE" "$BIG_MB" "$WORK/big.json" | sed 's|^.*/big.json: |# big trace: |'
	run_trace big "$WORK/big.json"
	rm -f "$WORK/big.json"
fi
echo
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
