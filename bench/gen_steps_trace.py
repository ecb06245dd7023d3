#!/usr/bin/env python3
"""A big Kineto trace made of a real one's steps, for the side-by-side benchmark (bench/peers.sh).

    gen_steps_trace.py SAMPLE.json[.gz] MB OUT.json

Keeps the sample whole and appends copies of everything from its first ProfilerStep on (host ops,
runtime calls, kernels, memcpys, memsets, flows, memory instants), each copy shifted in time past
the previous one's end, until the JSON reaches about MB megabytes. Per copy, the ids that link
events are moved out of each other's way (External id, correlation, flow ids) and the steps
renumbered (ProfilerStep#N continues), so the copies are new steps of the same run, not
duplicates: profq, the TensorBoard plugin and HTA see a longer training run of the same shape.
The "PyTorch Profiler" trace span grows to cover the copies. Deterministic; writes plain JSON.
"""
import gzip
import json
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: gen_steps_trace.py SAMPLE.json[.gz] MB OUT.json")
    sample, target, out = sys.argv[1], float(sys.argv[2]) * 1e6, sys.argv[3]
    doc = load(sample)
    events = doc["traceEvents"]
    steps = [e for e in events if e.get("name", "").startswith("ProfilerStep#") and e.get("ph") == "X"]
    if not steps:
        sys.exit("gen_steps_trace.py: %s has no ProfilerStep#N events" % sample)
    first = min(e["ts"] for e in steps)
    numbers = [int(e["name"].split("#")[1]) for e in steps]
    nsteps = max(numbers) - min(numbers) + 1  # a copy's steps continue the numbering
    end = max(e["ts"] + e.get("dur", 0) for e in events if "ts" in e)
    # a copy starts 1 ms after the previous one's last event ends
    period = (end - first) + 1000
    body = [e for e in events if e.get("ph") != "M" and "ts" in e and e["ts"] >= first
            and e.get("cat") != "Trace"]
    ext = max((e.get("args", {}).get(k, 0) for e in events for k in ("External id", "external id")),
              default=0) + 1
    corr = max((e.get("args", {}).get("correlation", 0) for e in events), default=0) + 1
    flow = max((e.get("id", 0) for e in events if e.get("ph") in ("s", "f", "t")), default=0) + 1
    per_copy = len(json.dumps(body)) + 2 * len(body)  # the separators json.dump adds
    size = len(json.dumps(doc))
    copies = max(0, round((target - size) / per_copy))

    for c in range(1, copies + 1):
        for e in body:
            x = dict(e)  # only top-level values and args entries change: shallow copies do
            if "args" in e:
                x["args"] = dict(e["args"])
            x["ts"] = e["ts"] + c * period
            if x.get("ph") in ("s", "f", "t") and "id" in x:
                x["id"] = e["id"] + c * flow
            args = x.get("args")
            if args:
                for k in ("External id", "external id"):
                    if k in args and args[k]:
                        args[k] += c * ext
                if "correlation" in args:
                    args["correlation"] += c * corr
                if "external ts" in args:
                    args["external ts"] += c * period
            name = x.get("name", "")
            if name.startswith("ProfilerStep#"):
                x["name"] = "ProfilerStep#%d" % (int(name.split("#")[1]) + c * nsteps)
            events.append(x)
    for e in events:  # the profiler's own span covers every copy
        if e.get("cat") == "Trace" and "dur" in e:
            e["dur"] = end + copies * period - e["ts"]
    with open(out, "w") as f:
        json.dump(doc, f)
    print("%s: %d copies of %d events from %s, %d events, %.1f MB" % (
        out, copies, len(body), sample, len(events), (size + copies * per_copy) / 1e6))


if __name__ == "__main__":
    main()
