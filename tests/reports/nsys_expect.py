#!/usr/bin/env python3
"""nsys_expect.py REPORT NSYS.sqlite PROFQ_CSV

Computes what the profq report REPORT should say about an Nsight Systems export, directly from
the export's own tables (CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS, StringIds), independently of profq's
importer and SQL, with the median from Python's statistics module, and compares it with the report's
CSV output (a file). Prints "ok" or the differences. Written from the report semantics in
/work/shared/notes/nsys.md section 2 (nothing of NVIDIA's code)."""
import csv
import re
import sqlite3
import statistics
import sys

# ENUM_CUDA_MEMCPY_OPER labels; legacy (2.x) exports have no ENUM tables.
COPY_LABELS = {0: "Unknown", 1: "Host-to-Device", 2: "Device-to-Host", 3: "Host-to-Array",
               4: "Array-to-Host", 5: "Array-to-Array", 6: "Array-to-Device",
               7: "Device-to-Array", 8: "Device-to-Device", 9: "Host-to-Host",
               10: "Peer-to-Peer", 11: "Unified Host-to-Device", 12: "Unified Device-to-Host",
               13: "Unified Device-to-Device"}


def tables(c):
    return {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def strings(c):
    return dict(c.execute("SELECT id, value FROM StringIds"))


def groups_kernels(c, by):
    s = strings(c)
    col = {"demangled": "demangledName", "short-name": "shortName", "name": "mangledName"}[by]
    g = {}
    if "CUPTI_ACTIVITY_KIND_KERNEL" not in tables(c):
        return g
    for start, end, nid, did in c.execute(
            f"SELECT start, end, {col}, demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL"):
        name = s.get(nid) if nid is not None else s[did]
        g.setdefault(name, []).append(end - start)
    return g


def strip_version(name):
    return re.sub(r"_v[0-9]+$", "", name)


def groups_api(c):
    s = strings(c)
    g = {}
    for start, end, nid in c.execute("SELECT start, end, nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME"):
        g.setdefault(strip_version(s[nid]), []).append(end - start)
    return g


def groups_mem(c, what):
    t = tables(c)
    g = {}
    if "CUPTI_ACTIVITY_KIND_MEMCPY" in t:
        for start, end, kind, b in c.execute(
                "SELECT start, end, copyKind, bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY"):
            g.setdefault(f"[CUDA memcpy {COPY_LABELS[kind]}]", []).append(
                end - start if what == "time" else b)
    if "CUPTI_ACTIVITY_KIND_MEMSET" in t:
        for start, end, b in c.execute("SELECT start, end, bytes FROM CUPTI_ACTIVITY_KIND_MEMSET"):
            g.setdefault("[CUDA memset]", []).append(end - start if what == "time" else b)
    return g


def nvtx_max_ts(c):
    return c.execute('SELECT max(max(start, coalesce("end", start))) FROM NVTX_EVENTS').fetchone()[0]


def groups_nvtx(c, types, with_style):
    g = {}
    if "NVTX_EVENTS" not in tables(c):
        return g
    s = strings(c)
    maxts = nvtx_max_ts(c)
    # Domain names per (process, domainId): eventType 75 rows.
    domains = {}
    for gtid, dom, text, tid in c.execute(
            "SELECT globalTid, domainId, text, textId FROM NVTX_EVENTS WHERE eventType = 75"):
        domains[(gtid >> 24 & 0xFFFFFF, dom)] = text if text is not None else s.get(tid)
    q = ('SELECT start, "end", eventType, text, textId, domainId, globalTid FROM NVTX_EVENTS '
         f'WHERE eventType IN ({",".join(map(str, types))})')
    for start, end, et, text, tid, dom, gtid in c.execute(q):
        name = s[tid] if tid is not None else text
        dname = domains.get((gtid >> 24 & 0xFFFFFF, dom), "") if dom else ""
        key = f"{dname or ''}:{name}"
        if with_style:
            key = (key, "PushPop" if et in (59, 70) else "StartEnd")
        g.setdefault(key, []).append((end if end is not None else maxts) - start)
    return g


def summary(g):
    out = {}
    for k, v in g.items():
        out[k] = {"count": len(v), "total": sum(v), "min": min(v), "max": max(v),
                  "med": statistics.median(v)}
    return out


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(x):
    return float(x) if x not in ("", None) else None


def compare(expected, rows, keyf, cols, scale=1.0):
    """cols maps summary keys to CSV columns."""
    errs = []
    got = {}
    for r in rows:
        got[keyf(r)] = r
    if set(got) != set(expected):
        errs.append(f"keys differ: missing {sorted(set(expected) - set(got), key=str)[:3]}, "
                    f"extra {sorted(set(got) - set(expected), key=str)[:3]}")
    for k, e in expected.items():
        r = got.get(k)
        if r is None:
            continue
        for sk, col in cols.items():
            want, have = e[sk] / scale, num(r[col])
            if abs(want - have) > (1e-6 if scale == 1.0 else 5e-7):
                errs.append(f"{k!r}: {col} is {r[col]}, expected {want}")
    totals = [num(r[cols["total"]]) for r in rows]
    if totals != sorted(totals, reverse=True):
        errs.append("rows are not sorted by total descending")
    # time_pct: share of the listed rows, rounded to 0.1
    if rows and "time_pct" in rows[0]:
        all_total = sum(e["total"] for e in expected.values())
        for k, e in expected.items():
            r = got.get(k)
            if r is not None and abs(num(r["time_pct"]) - 100.0 * e["total"] / all_total) > 0.05 + 1e-9:
                errs.append(f"{k!r}: time_pct {r['time_pct']}")
    return errs


TIME_COLS = {"total": "total_ns", "min": "min_ns", "max": "max_ns", "med": "med_ns"}


def main():
    report, nsys, out = sys.argv[1:4]
    c = sqlite3.connect(f"file:{nsys}?mode=ro", uri=True)
    rows = read_csv(out)
    if report.startswith("top-kernels"):
        by = report.split(":")[1] if ":" in report else "demangled"
        exp = summary(groups_kernels(c, by))
        errs = compare(exp, rows, lambda r: r["name"], dict(TIME_COLS, count="instances"))
    elif report == "api-sum":
        exp = summary(groups_api(c))
        errs = compare(exp, rows, lambda r: r["name"], dict(TIME_COLS, count="num_calls"))
    elif report == "gpu-mem-time-sum":
        exp = summary(groups_mem(c, "time"))
        errs = compare(exp, rows, lambda r: r["operation"], dict(TIME_COLS, count="count"))
    elif report == "gpu-mem-size-sum":
        exp = summary(groups_mem(c, "size"))
        errs = []
        got = {r["operation"]: r for r in rows}
        errs = compare(exp, rows, lambda r: r["operation"],
                       {"total": "total_mb", "min": "min_mb", "max": "max_mb", "med": "med_mb"},
                       scale=1e6)
        for k, e in exp.items():
            if k in got and int(got[k]["count"]) != e["count"]:
                errs.append(f"{k}: count")
    elif report == "nvtx-sum":
        exp = summary(groups_nvtx(c, (59, 60, 70, 71), True))
        errs = compare(exp, rows, lambda r: (r["range"], r["style"]),
                       dict(TIME_COLS, count="instances"))
    elif report == "nvtx-pushpop-sum":
        exp = summary(groups_nvtx(c, (59, 70), False))
        errs = compare(exp, rows, lambda r: r["range"], dict(TIME_COLS, count="instances"))
    elif report == "nvtx-startend-sum":
        exp = summary(groups_nvtx(c, (60, 71), False))
        errs = compare(exp, rows, lambda r: r["range"], dict(TIME_COLS, count="instances"))
    else:
        sys.exit(f"unknown report {report}")
    if "count" not in TIME_COLS and not errs:
        pass
    print("ok" if not errs else "\n".join(errs[:10]))


main()
