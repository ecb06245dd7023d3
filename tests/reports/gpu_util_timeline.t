#!/bin/sh
# gpu-util-timeline against the same figure computed in Python from the raw tables (interval union
# per device, clipped to equal chunks), on a Kineto trace, an nsys export of two GPUs, and a
# hand-made trace whose answer is known.
. "${0%/*}/../lib.sh"
. "${0%/*}/trace.sh"

"$PROFQ" import -q -o "$TMP/k.db" \
	"$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz" >/dev/null
"$PROFQ" import -q -o "$TMP/n.db" "$DATA/nsys/h100_2gpu_1s.sqlite" >/dev/null
for db in k n; do
	for chunks in 100 7; do
		got=$("$PROFQ" gpu-util-timeline "$TMP/$db.db" --chunks $chunks --format csv | sed 1d)
		want=$(py "${0%/*}/gpu_util_expect.py" "$TMP/$db.db" $chunks)
		is "$got" "$want" "$db.db --chunks $chunks: the union of each device's operations per chunk"
	done
done
is "$("$PROFQ" gpu-util-timeline "$TMP/n.db" --format csv | sed 1d | cut -d, -f2 | sort -u | tr '\n' ' ')" \
	"0 1 " "one timeline per device"

# Two overlapping kernels on two streams, [100, 300) and [200, 400) µs, then [600, 700): the span
# [100, 700) in 3 chunks of 200 µs is busy 200, 100 (of which overlap counts once), 100.
trace_begin "$TMP/t.json"
X Kernel k1 'stream 7' 100 200 '"correlation": 1, "device": 0, "stream": 7'
X Kernel k2 'stream 8' 200 200 '"correlation": 2, "device": 0, "stream": 8'
X Kernel k3 'stream 7' 600 100 '"correlation": 3, "device": 0, "stream": 7'
trace_end
import_trace "$TMP/t.json" "$TMP/t.db"
is "$("$PROFQ" gpu-util-timeline "$TMP/t.db" --chunks 3 --format csv | sed 1d | cut -d, -f3,6,7 | tr '\n' ' ')" \
	"0,200000,100.0 1,100000,50.0 2,100000,50.0 " "overlapping kernels count once"

done_testing
