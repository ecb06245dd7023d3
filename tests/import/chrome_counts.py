"""Independent counts and sums of a Chrome trace, for tests/import/chrome_kineto.t.

Reads the trace with Python's json/gzip modules (numbers as Decimal, so microsecond fractions are
exact) and prints `key value` lines that the test compares with SQL over the imported run.
"""
import gzip
import json
import sys
from decimal import Decimal, ROUND_HALF_UP


def ns(x):
    return int((Decimal(x) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


path = sys.argv[1]
opener = gzip.open if path.endswith(".gz") else open
with opener(path, "rt") as f:
    doc = json.load(f, parse_float=Decimal)
events = doc["traceEvents"] if isinstance(doc, dict) else doc
base = int(doc.get("baseTimeNanoseconds", 0)) if isinstance(doc, dict) else 0

out = {}


def add(key, v=1):
    out[key] = out.get(key, 0) + v


for e in events:
    ph, cat = e.get("ph"), (e.get("cat") or "").lower()
    args = e.get("args", {})
    if ph == "X":
        start = base + ns(e["ts"])
        dur = ns(e["dur"])
        if cat == "kernel":
            add("kernels")
            add("kernel_dur_ns", dur)
            add("kernel_start_ns", start % 10**12)  # stays within int64 when summed
            add("kernel_grid_x", int(args.get("grid", [0])[0]))
            add("kernel_regs", int(args.get("registers per thread", 0)))
        elif cat in ("memcpy", "gpu_memcpy"):
            add("memcpys")
            add("memcpy_bytes", int(args.get("bytes", 0)))
        elif cat in ("memset", "gpu_memset"):
            add("memsets")
            add("memset_bytes", int(args.get("bytes", 0)))
        elif cat in ("runtime", "cuda_runtime", "cuda_driver"):
            add("api_calls")
            add("api_dur_ns", dur)
            add("api_correlation", int(args.get("correlation", 0)))
        elif cat in ("operator", "cpu_op"):
            add("cpu_ops")
            add("cpu_op_dur_ns", dur)
            add("cpu_op_external", int(args.get("External id", args.get("external id", 0))))
            if e["name"].startswith("ProfilerStep#"):
                add("profiler_steps")
        elif cat == "cuda_sync":
            add("syncs")
        else:
            add("other_ranges")
    elif ph == "i" and e.get("name") == "[memory]":
        add("memory_events")
        add("memory_abs_bytes", abs(int(args["Bytes"])))
    elif ph in ("i", "I"):
        add("marks")
    elif ph in ("s", "t", "f"):
        add("flows")
    elif ph == "M":
        add("metadata_events")
devs = doc.get("deviceProperties", doc.get("computeProperties", [])) if isinstance(doc, dict) else []
out["devices"] = len(devs)
out["events"] = len(events)
for k in sorted(out):
    print(k, out[k])
