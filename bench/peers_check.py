#!/usr/bin/env python3
"""Do profq and a peer give the same numbers on one trace? (bench/peers.sh runs it before timing.)

    peers_check.py tb PEER.json STEP.csv GPU.csv OPS.csv KERNELS.csv
    peers_check.py hta PEER.json TEMPORAL.csv IDLE.csv

PEER.json is bench/peer_tb.py's or bench/peer_hta.py's output, the CSVs profq's reports on the
same trace (profq NAME DB --format csv). Times compare in whole µs (the peers' unit: profq's ns
/ 1000, rounded), percentages and means as printed (2 places; one unit of the last place apart
counts as the same, see same()). Prints how many values agree, and each one that does not; exits
1 when any does not.
"""
import csv
import json
import sys

checked = 0
bad = []


def same(what, peer, ours):
    global checked
    checked += 1
    # A value both round to 2 places may differ by that last unit: each side sums the same
    # doubles in its own order, and a sum that lands on ...5 rounds either way.
    close = isinstance(peer, float) and isinstance(ours, float) and abs(peer - ours) <= 0.0100001
    if peer != ours and not close:
        bad.append("%s: peer %r, profq %r" % (what, peer, ours))


def us(ns):
    return round(int(ns) / 1000)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def check_tb(peer, step_csv, gpu_csv, ops_csv, kernels_csv):
    cols = {"Kernel": "kernel_ns", "Memcpy": "memcpy_ns", "Memset": "memset_ns",
            "Communication": "communication_ns", "Runtime": "runtime_ns",
            "DataLoader": "dataloader_ns", "CPU Exec": "cpu_exec_ns", "Other": "other_ns"}
    ours = {r["step"]: r for r in rows(step_csv)}
    for r in peer["steps"]["rows"]:
        for name, value in zip(peer["steps"]["columns"], r[1:]):
            same("step %s %s" % (r[0], name), value, us(ours[r[0]][cols[name]]))
    gpu = rows(gpu_csv)[0]
    for title, col in (("GPU Utilization", "gpu_utilization_pct"), ("Est. SM Efficiency", "sm_efficiency_pct"),
                       ("Est. Achieved Occupancy", "achieved_occupancy_pct"),
                       ("Kernel Time using Tensor Cores", "tensor_core_pct")):
        if title in peer["gpu"]:
            same("gpu " + title, float(peer["gpu"][title].split()[0]), float(gpu[col]))
    ops = {r["name"]: r for r in rows(ops_csv)}
    for op in peer["ops"]:
        r = ops.get(op["name"])
        if r is None:
            same("op %s" % op["name"], "listed", "missing")
            continue
        same("op %s calls" % op["name"], op["calls"], int(r["calls"]))
        for key in ("device_self", "device_total", "host_self", "host_total"):
            same("op %s %s" % (op["name"], key), op[key + "_duration"], us(r[key + "_ns"]))
    kernels = {r["name"]: r for r in rows(kernels_csv)}
    cols = peer["kernels"]["columns"]
    for k in peer["kernels"]["rows"]:
        k = dict(zip(cols, k))
        r = kernels[k["Name"]]
        same("kernel %s calls" % k["Name"][:40], k["Calls"], int(r["calls"]))
        same("kernel %s total" % k["Name"][:40], k["Total Duration (us)"], us(r["total_ns"]))
        for title, col in (("Mean Blocks Per SM", "mean_blocks_per_sm"),
                           ("Mean Est. Achieved Occupancy (%)", "mean_est_achieved_occupancy_pct")):
            same("kernel %s %s" % (k["Name"][:40], title), k[title], float(r[col]))


def check_hta(peer, temporal_csv, idle_csv):
    ours = {int(r["rank"]): r for r in rows(temporal_csv)}
    for t in peer["temporal"]:
        r = ours[int(t["rank"])]
        for key in ("idle", "compute", "non_compute", "kernel"):
            same("rank %d %s_time" % (t["rank"], key), t[key + "_time(us)"], us(r[key + "_ns"]))
        for key in ("idle", "compute", "non_compute"):
            same("rank %d %s_pct" % (t["rank"], key), t[key + "_time_pctg"], float(r[key + "_pct"]))
    ours = {(int(r["rank"]), int(r["stream"])): r for r in rows(idle_csv)}
    cols = {"host_wait": "host_wait_ns", "kernel_wait": "kernel_wait_ns", "other": "other_ns"}
    for i in peer["idle"]:
        r = ours[(int(i["rank"]), int(i["stream"]))]
        same("rank %d stream %d %s" % (i["rank"], i["stream"], i["idle_category"]), i["idle_time"],
             us(r[cols[i["idle_category"]]]))


def main():
    kind, peer = sys.argv[1], json.load(open(sys.argv[2]))
    if kind == "tb":
        check_tb(peer, *sys.argv[3:7])
    else:
        check_hta(peer, *sys.argv[3:5])
    for b in bad:
        print("  differs: " + b)
    print("%d values compared, %d differ" % (checked, len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
