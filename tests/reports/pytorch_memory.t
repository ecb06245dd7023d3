#!/bin/sh
# memory-curve and memory-sum on a hand-made trace (tb_plugin memory view, notes/kineto_hta.md §1.7).
# Expected values worked by hand from the events below (µs in the trace, ns in the reports).
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"

# M TS BYTES DEVICE_TYPE DEVICE_ID [MORE_ARGS]: a [memory] instant on thread 123
M() { raw "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":13721,\"tid\":\"123\",\"ts\":$1,\"args\":{\"Bytes\":$2,\"Device Type\":$3,\"Device Id\":$4${5:+,$5}}}"; }

# ProfilerStep#1 [0,1000) > aten::linear [100,400) > aten::addmm [150,300) > aten::empty [160,170);
# ProfilerStep#1 > aten::relu [500,600) > aten::empty [510,520)
trace_begin "$TMP/m.json"
X Operator 'ProfilerStep#1' 123 0 1000 '"External id": 1'
X Operator aten::linear 123 100 300 '"External id": 2'
X Operator aten::addmm 123 150 150 '"External id": 3'
X Operator aten::empty 123 160 10 '"External id": 4'
X Operator aten::relu 123 500 100 '"External id": 5'
X Operator aten::empty 123 510 10 '"External id": 6'
M 165 512 1 0 '"Addr":1,"Total Allocated":512,"Total Reserved":2097152'      # GPU0, empty#1
M 166 100 1 1                                                                # GPU1, empty#1, no totals
M 200 256 1 0 '"Addr":2,"Total Allocated":768,"Total Reserved":2097152'      # GPU0, addmm
M 350 -512 1 0 '"Addr":1,"Total Allocated":256,"Total Reserved":2097152'     # GPU0, linear
M 515 1024 1 0 '"Addr":3,"Total Allocated":1280,"Total Reserved":4194304'    # GPU0, empty#2
M 550 64 0 -1                                                                # CPU, relu
M 580 50 1 1                                                                 # GPU1, relu
M 700 -256 1 0 '"Addr":2,"Total Allocated":1024,"Total Reserved":4194304'    # GPU0, step only
M 800 -64 0 -1                                                               # CPU, step only
trace_end
sed -i 's/ *# .*$//' "$TMP/m.json"
import_trace "$TMP/m.json" "$TMP/m.db"

is "$("$PROFQ" memory-curve "$TMP/m.db" --format csv | cut -d, -f2- | sed 1d)" \
"550000,CPU,64,
800000,CPU,0,
165000,GPU0,512,2097152
200000,GPU0,768,2097152
350000,GPU0,256,2097152
515000,GPU0,1280,4194304
700000,GPU0,1024,4194304
166000,GPU1,100,
580000,GPU1,150," "memory-curve: Total Allocated/Reserved on GPU0, running sums on CPU and GPU1"

# device,name,calls,size_inc,self_size_inc,alloc_count,self_alloc_count,alloc_size,self_alloc_size
is "$("$PROFQ" memory-sum "$TMP/m.db" --format csv | cut -d, -f2- | sed 1d)" \
"CPU,aten::relu,1,64,64,1,1,64,64
GPU0,aten::empty,2,1536,1536,2,2,1536,1536
GPU0,aten::relu,1,1024,0,1,0,1024,0
GPU0,aten::addmm,1,768,256,2,1,768,256
GPU0,aten::linear,1,256,-512,2,0,768,0
GPU1,aten::addmm,1,100,0,1,0,100,0
GPU1,aten::empty,2,100,100,1,1,100,100
GPU1,aten::linear,1,100,0,1,0,100,0
GPU1,aten::relu,1,50,50,1,1,50,50" "memory-sum: self = innermost op, total = every containing op"

is "$(sqlite "$TMP/m.db" ".load $EXT" ".mode csv" ".param set :run NULL" ".param set :limit NULL" \
	".read $TOP/queries/memory-curve.sql" 2>&1 | wc -l | tr -d ' ')" "9" "memory-curve runs in sqlite3"

# Edges, on thread 200 of another trace: an event at a node's start counts for it, at its end not;
# partial overlaps (aten::a, aten::b) both count, the one starting last is the innermost (self); a
# zero-length node holds nothing; a python-category range is a node (innermost, so no operator's
# self), a python_function-category one is not; ProfilerStep and Optimizer.step annotations are
# nodes but not listed. Both ways give the hand-worked rows: tb_memory_sums as imported
# (lib/derive_memory.c), and v_tb_memory_sums computing them with the run not derived.
M2() { raw "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":13721,\"tid\":\"200\",\"ts\":$1,\"args\":{\"Bytes\":$2,\"Device Type\":$3,\"Device Id\":$4}}"; }
trace_begin "$TMP/e.json"
X Operator 'ProfilerStep#2' 200 2000 1000 '"External id": 1'
X user_annotation my_label 200 2050 900
X Operator aten::a 200 2100 200 '"External id": 2'
X Operator aten::b 200 2200 200 '"External id": 3'
X Operator aten::z 200 2250 0 '"External id": 4'
X python 'f.py(1): g' 200 2260 20
X python_function 'h.py(2): k' 200 2270 5
X user_annotation 'Optimizer.step#SGD.step' 200 2600 100
X Operator aten::c 200 2610 50 '"External id": 5'
M2 2100 100 1 0
M2 2200 10 1 0
M2 2250 1000 1 0
M2 2265 7 1 0
M2 2272 1 1 0
M2 2300 -100 1 0
M2 2400 5 1 0
M2 2620 3 1 1
M2 2650 2 0 -1
M2 3500 1 1 0
trace_end
import_trace "$TMP/e.json" "$TMP/e.db"
want="CPU,aten::c,1,2,2,1,1,2,2
GPU0,aten::a,1,1118,100,5,1,1118,100
GPU0,aten::b,1,918,910,4,2,1018,1010
GPU1,aten::c,1,3,3,1,1,3,3"
is "$("$PROFQ" memory-sum "$TMP/e.db" --format csv | cut -d, -f2- | sed 1d)" "$want" \
	"memory-sum edges: boundaries, partial overlaps, zero length, python nodes (stored rows)"
is "$(sqlite "$TMP/e.db" "SELECT count(*) FROM tb_memory_sums WHERE run_id = 1")" 4 "tb_memory_sums holds them"
cp "$TMP/e.db" "$TMP/e2.db"
sqlite "$TMP/e2.db" "DELETE FROM derived_runs"
is "$("$PROFQ" memory-sum "$TMP/e2.db" --format csv | cut -d, -f2- | sed 1d)" "$want" \
	"memory-sum edges: the same computed by v_tb_memory_sums"

done_testing
