#!/usr/bin/env python3
"""make_ranks.py OUTDIR N SAMPLE.json[.gz]... - N per-rank Kineto traces from the samples.

Rank i is sample i % len(samples) with distributedInfo.rank = i, every timestamp shifted by
i * 1234.567 us, kernel durations scaled by 1 + 0.02 * ((i * 7 + j) % 5) (j: the kernel's index),
ProfilerStep ranges stretched by 1 + 0.03 * ((i + step) % 4) so each step has its own straggler,
and every 10th kernel renamed to an NCCL all-reduce on its own stream, started half its duration
early so it overlaps the computation before it. Deterministic: same input, same files.
"""
import gzip
import json
import sys


def main():
    out, n, samples = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    for i in range(n):
        path = samples[i % len(samples)]
        with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
            trace = json.load(f)
        trace["distributedInfo"] = {"backend": "nccl", "rank": i, "world_size": n}
        shift = i * 1234.567
        j = 0
        for ev in trace.get("traceEvents", []):
            if "ts" in ev and isinstance(ev["ts"], (int, float)):
                ev["ts"] = round(ev["ts"] + shift, 3)
            cat = ev.get("cat", "")
            if ev.get("ph") == "X" and cat == "Kernel":
                ev["dur"] = round(ev["dur"] * (1 + 0.02 * ((i * 7 + j) % 5)), 3)
                if j % 10 == 0:
                    ev["name"] = "ncclKernel_AllReduce_RING_LL_Sum_float"
                    ev["tid"] = 99
                    ev.setdefault("args", {})["stream"] = 99
                    ev["ts"] = round(ev["ts"] - ev["dur"] / 2, 3)
                j += 1
            elif ev.get("ph") == "X" and ev.get("name", "").startswith("ProfilerStep#"):
                step = int(ev["name"][13:])
                ev["dur"] = round(ev["dur"] * (1 + 0.03 * ((i + step) % 4)), 3)
        with open(f"{out}/rank{i}.json", "w") as f:
            json.dump(trace, f)


if __name__ == "__main__":
    main()
