#!/usr/bin/env python3
"""nsys_expect.py REPORT NSYS.sqlite PROFQ_CSV

Computes what the profq report REPORT should say about an Nsight Systems export, directly from
the export's own tables (CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS, StringIds; for the trace reports'
UTC timestamps TARGET_INFO_SESSION_START_TIME), independently of profq's importer and SQL, with
the median from Python's statistics module, and compares it with the report's CSV output (a file).
Prints "ok" or the differences. Also the NVTX projection reports (nvtx-gpu-proj-trace/-sum,
nvtx-kern-sum; notes section 2.4) and range-sum, from NVTX_EVENTS and the RUNTIME/KERNEL/MEMCPY/
MEMSET rows (tests/reports/nsys_nvtx_proj.t). Written from the report semantics in
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


def groups_gpu(c):
    """cuda_gpu_sum: kernels by demangled name (CUDA_KERNEL) and memory operations (MEMORY_OPER)."""
    g = {("CUDA_KERNEL", k): v for k, v in groups_kernels(c, "demangled").items()}
    g.update({("MEMORY_OPER", k): v for k, v in groups_mem(c, "time").items()})
    return g


def pid_tid(gtid):
    return (gtid >> 24) & 0xFFFFFF, gtid & 0xFFFFFF


def launches(c):
    """cuda_kern_exec_trace: every kernel joined to its RUNTIME row (correlationId, same process);
    kernels without one are left out. Tuples of (api_start, api_dur, queue_dur or None,
    kernel_start, kernel_dur, total_dur, pid, tid, device, api_name, kernel_name)."""
    t = tables(c)
    if "CUPTI_ACTIVITY_KIND_KERNEL" not in t or "CUPTI_ACTIVITY_KIND_RUNTIME" not in t:
        return []
    s = strings(c)
    api = {}
    for start, end, gtid, corr, nid in c.execute(
            "SELECT start, end, globalTid, correlationId, nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME"):
        api.setdefault((gtid >> 24, corr), []).append((start, end, gtid, nid))
    out = []
    for ks, ke, dev, corr, gpid, dn in c.execute(
            "SELECT start, end, deviceId, correlationId, globalPid, demangledName "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL"):
        for a_s, a_e, gtid, nid in api.get((gpid >> 24, corr), []):
            pid, tid = pid_tid(gtid)
            out.append((a_s, a_e - a_s, ks - a_e if ks >= a_e else None, ks, ke - ks,
                        max(a_e, ke) - a_s, pid, tid, dev, strip_version(s[nid]), s[dn]))
    return out


def groups_kern_exec(c):
    g = {}
    for a_s, a, q, ks, k, t, pid, tid, dev, an, kn in launches(c):
        e = g.setdefault((pid, tid, dev, an, kn), {"t": [], "a": [], "q": [], "k": []})
        e["t"].append(t)
        e["a"].append(a)
        e["k"].append(k)
        if q is not None:
            e["q"].append(q)
    return g


def compare_kern_exec(c, rows):
    exp = groups_kern_exec(c)
    errs = []
    key = lambda r: (int(r["pid"]), int(r["tid"]), int(r["device"]), r["api_name"], r["kernel_name"])
    got = {}
    for r in rows:
        if key(r) in got:
            errs.append(f"duplicate row {key(r)!r}")
        got[key(r)] = r
    if set(got) != set(exp):
        errs.append(f"keys differ: missing {sorted(set(exp) - set(got), key=str)[:3]}, "
                    f"extra {sorted(set(got) - set(exp), key=str)[:3]}")
    for kk, e in exp.items():
        r = got.get(kk)
        if r is None:
            continue
        if int(r["count"]) != len(e["t"]) or int(r["q_count"]) != len(e["q"]):
            errs.append(f"{kk!r}: count {r['count']}/{r['q_count']}, expected "
                        f"{len(e['t'])}/{len(e['q'])}")
        for p in "takq":
            v = e[p]
            if not v:
                for col in ("avg", "med", "min", "max", "stddev"):
                    if r[f"{p}_{col}_ns"] != "":
                        errs.append(f"{kk!r}: {p}_{col}_ns is {r[p + '_' + col + '_ns']}, expected empty")
                continue
            want = {"min": min(v), "max": max(v), "med": statistics.median(v),
                    "avg": sum(v) / len(v)}
            for col, w in want.items():
                have = num(r[f"{p}_{col}_ns"])
                tol = 0.05 + 1e-6 if col == "avg" else 1e-6
                if have is None or abs(have - w) > tol:
                    errs.append(f"{kk!r}: {p}_{col}_ns is {r[p + '_' + col + '_ns']}, expected {w}")
    sums = [sum(exp[key(r)]["t"]) for r in rows if key(r) in exp]
    if sums != sorted(sums, reverse=True):
        errs.append("rows are not sorted by the sum of total times, descending")
    return errs


def epoch(c):
    """Trace reports print UTC nanoseconds: the export's session-relative timestamps plus its
    session start (TARGET_INFO_SESSION_START_TIME.utcEpochNs; notes section 1.2)."""
    return c.execute("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME").fetchone()[0]


def multiset_diff(want, have):
    from collections import Counter
    w, h = Counter(want), Counter(have)
    errs = []
    if len(want) != len(have):
        errs.append(f"{len(have)} rows, expected {len(want)}")
    if w != h:
        errs.append(f"rows differ: missing {list((w - h).elements())[:3]}, "
                    f"extra {list((h - w).elements())[:3]}")
    return errs


def ival(x):
    return int(x) if x not in ("", None) else None


def compare_kern_exec_trace(c, rows):
    off = epoch(c)
    want = [(l[0] + off,) + l[1:3] + (l[3] + off,) + l[4:] for l in launches(c)]
    have = [(ival(r["api_start_ns"]), ival(r["api_dur_ns"]), ival(r["queue_dur_ns"]),
             ival(r["kernel_start_ns"]), ival(r["kernel_dur_ns"]), ival(r["total_dur_ns"]),
             ival(r["pid"]), ival(r["tid"]), ival(r["device"]), r["api_name"], r["kernel_name"])
            for r in rows]
    errs = multiset_diff(want, have)
    for r in rows:
        if (r["queue_dur_ns"] == "") != (r["queue_start_ns"] == "") or (
                r["queue_dur_ns"] != "" and int(r["queue_start_ns"]) !=
                int(r["api_start_ns"]) + int(r["api_dur_ns"])):
            errs.append(f"queue_start_ns {r['queue_start_ns']} of the launch at {r['api_start_ns']}")
            break
    starts = [(int(r["api_start_ns"]), int(r["kernel_start_ns"])) for r in rows]
    if starts != sorted(starts):
        errs.append("rows are not sorted by API start")
    return errs


def compare_gpu_trace(c, rows):
    t = tables(c)
    s = strings(c)
    want = []
    if "CUPTI_ACTIVITY_KIND_KERNEL" in t:
        want += [(st, en - st, corr, s[dn]) for st, en, corr, dn in c.execute(
            "SELECT start, end, correlationId, demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL")]
    if "CUPTI_ACTIVITY_KIND_MEMCPY" in t:
        want += [(st, en - st, corr, f"[CUDA memcpy {COPY_LABELS[kind]}]")
                 for st, en, corr, kind in c.execute(
                     "SELECT start, end, correlationId, copyKind FROM CUPTI_ACTIVITY_KIND_MEMCPY")]
    if "CUPTI_ACTIVITY_KIND_MEMSET" in t:
        want += [(st, en - st, corr, "[CUDA memset]") for st, en, corr in c.execute(
            "SELECT start, end, correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET")]
    off = epoch(c)
    want = [(w[0] + off,) + w[1:] for w in want]
    have = [(int(r["start_ns"]), int(r["duration_ns"]), ival(r["correlation_id"]), r["name"])
            for r in rows]
    errs = multiset_diff(want, have)
    if [h[0] for h in have] != sorted(h[0] for h in have):
        errs.append("rows are not sorted by start")
    return errs


def compare_api_trace(c, rows):
    s = strings(c)
    off = epoch(c)
    want = [(st + off, en - st, strip_version(s[nid]), corr) + pid_tid(gtid)
            for st, en, nid, corr, gtid in c.execute(
                "SELECT start, end, nameId, correlationId, globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME")]
    have = [(int(r["start_ns"]), int(r["duration_ns"]), r["name"], ival(r["correlation_id"]),
             ival(r["pid"]), ival(r["tid"])) for r in rows]
    errs = multiset_diff(want, have)
    if [h[0] for h in have] != sorted(h[0] for h in have):
        errs.append("rows are not sorted by start")
    return errs


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


# --- NVTX projection (notes section 2.4): nvtx-gpu-proj-trace/-sum, nvtx-kern-sum, range-sum ---

def nvtx_ranges(c):
    """Push/pop and start/end ranges (59, 70, 60, 71) as dicts: id, name '<domain>:<text>', text,
    style, gtid, start, end (open ranges end at the last NVTX timestamp), end_gtid, closed."""
    if "NVTX_EVENTS" not in tables(c):
        return []
    s = strings(c)
    maxts = nvtx_max_ts(c)
    domains = {}
    for gtid, dom, text, tid in c.execute(
            "SELECT globalTid, domainId, text, textId FROM NVTX_EVENTS WHERE eventType = 75"):
        domains[(gtid >> 24 & 0xFFFFFF, dom)] = text if text is not None else s.get(tid)
    out = []
    for rid, start, end, et, text, tid, dom, gtid, egtid in c.execute(
            'SELECT rowid, start, "end", eventType, text, textId, domainId, globalTid, '
            'endGlobalTid FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71)'):
        msg = s[tid] if tid is not None else text
        dname = domains.get((gtid >> 24 & 0xFFFFFF, dom), "") if dom else ""
        out.append({"id": rid, "name": f"{dname or ''}:{msg}", "text": msg,
                    "style": "PushPop" if et in (59, 70) else "StartEnd", "gtid": gtid,
                    "start": start, "end": end if end is not None else maxts,
                    "closed": end is not None, "end_gtid": egtid})
    return out


def gpu_ops_by_call(c):
    """API calls that launched GPU work: (gtid, api_start, api_end, corr) -> list of
    (op_start, op_end, kernel_name or None); the op joins its RUNTIME row by correlationId
    within the process, ops without one are dropped."""
    t = tables(c)
    if "CUPTI_ACTIVITY_KIND_RUNTIME" not in t:
        return {}
    s = strings(c)
    api = {}
    for start, end, gtid, corr in c.execute(
            "SELECT start, end, globalTid, correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME"):
        api.setdefault((gtid >> 24, corr), []).append((gtid, start, end, corr))
    ops = []
    if "CUPTI_ACTIVITY_KIND_KERNEL" in t:
        ops += [(st, en, corr, gp, s[dn]) for st, en, corr, gp, dn in c.execute(
            "SELECT start, end, correlationId, globalPid, demangledName "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL")]
    for tab in ("CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"):
        if tab in t:
            ops += [(st, en, corr, gp, None) for st, en, corr, gp in c.execute(
                f"SELECT start, end, correlationId, globalPid FROM {tab}")]
    calls = {}
    for st, en, corr, gp, kname in ops:
        for a in api.get((gp >> 24, corr), []):
            calls.setdefault(a, []).append((st, en, kname))
    return calls


def projection(c):
    """Per projected range: the range dict plus ops (list of (start, end, kname, corr)).
    An op belongs to every range on its launching thread (ranges ended on another thread left
    out) whose [start, end] contains the API call's [start, end]. Per thread, the calls are sorted
    by start and each range bisects to the calls starting inside it."""
    import bisect
    calls = gpu_ops_by_call(c)
    per_thread = {}
    for a in calls:
        per_thread.setdefault(a[0], []).append(a)
    for v in per_thread.values():
        v.sort(key=lambda a: (a[1], a[2], a[3]))
    starts = {g: [a[1] for a in v] for g, v in per_thread.items()}
    out = []
    for r in nvtx_ranges(c):
        if r["end_gtid"] is not None and r["end_gtid"] != r["gtid"]:
            continue
        v = per_thread.get(r["gtid"])
        if not v:
            continue
        lo = bisect.bisect_left(starts[r["gtid"]], r["start"])
        hi = bisect.bisect_right(starts[r["gtid"]], r["end"])
        ops = [(st, en, kn, a[3]) for a in v[lo:hi] if a[2] <= r["end"] for st, en, kn in calls[a]]
        if ops:
            out.append((r, ops))
    return out


def proj_rows(c):
    off = epoch(c)
    rows = []
    for r, ops in projection(c):
        ps, pe = min(o[0] for o in ops), max(o[1] for o in ops)
        pid, tid = pid_tid(r["gtid"])
        rows.append((r["name"], ps + off, pe - ps, r["start"] + off, r["end"] - r["start"],
                     r["style"], pid, tid, len({o[3] for o in ops})))
    return rows


def compare_proj_trace(c, rows):
    want = proj_rows(c)
    have = [(r["name"], ival(r["proj_start_ns"]), ival(r["proj_duration_ns"]),
             ival(r["orig_start_ns"]), ival(r["orig_duration_ns"]), r["style"], ival(r["pid"]),
             ival(r["tid"]), ival(r["num_gpu_ops"])) for r in rows]
    errs = multiset_diff(want, have)
    if [h[1] for h in have] != sorted(h[1] for h in have):
        errs.append("rows are not sorted by projected start")
    return errs


def compare_proj_sum(c, rows):
    g = {}
    for name, ps, d, os_, od, style, pid, tid, n in proj_rows(c):
        e = g.setdefault((name, style), {"d": [], "rd": [], "ops": []})
        e["d"].append(d)
        e["rd"].append(od)
        e["ops"].append(n)
    errs = []
    got = {(r["range"], r["style"]): r for r in rows}
    if len(got) != len(rows) or set(got) != set(g):
        errs.append(f"keys differ: missing {sorted(set(g) - set(got))[:3]}, "
                    f"extra {sorted(set(got) - set(g))[:3]}, {len(rows)} rows")
    all_total = sum(sum(e["d"]) for e in g.values())
    for k, e in g.items():
        r = got.get(k)
        if r is None:
            continue
        d = e["d"]
        want = {"range_instances": len(d), "total_proj_ns": sum(d), "total_range_ns": sum(e["rd"]),
                "proj_min_ns": min(d), "proj_max_ns": max(d), "proj_med_ns": statistics.median(d),
                "total_gpu_ops": sum(e["ops"])}
        for col, w in want.items():
            if num(r[col]) is None or abs(num(r[col]) - w) > 1e-6:
                errs.append(f"{k!r}: {col} is {r[col]}, expected {w}")
        for col, w, tol in (("proj_avg_ns", sum(d) / len(d), 0.05),
                            ("proj_stddev_ns", statistics.stdev(d) if len(d) > 1 else 0.0, 0.05),
                            ("avg_gpu_ops", sum(e["ops"]) / len(d), 0.005),
                            ("time_pct", 100.0 * sum(d) / all_total, 0.05)):
            if abs(num(r[col]) - w) > tol + 1e-6:
                errs.append(f"{k!r}: {col} is {r[col]}, expected {w}")
    totals = [int(r["total_proj_ns"]) for r in rows]
    if totals != sorted(totals, reverse=True):
        errs.append("rows are not sorted by total_proj_ns descending")
    return errs


def compare_kern_sum(c, rows):
    g = {}
    for r, ops in projection(c):
        pid, tid = pid_tid(r["gtid"])
        for st, en, kn, corr in ops:
            if kn is None:
                continue
            e = g.setdefault((pid, tid, r["name"], r["style"], kn), {"r": set(), "d": []})
            e["r"].add(r["id"])
            e["d"].append(en - st)
    errs = []
    key = lambda r: (int(r["pid"]), int(r["tid"]), r["range"], r["style"], r["kernel_name"])
    got = {key(r): r for r in rows}
    if len(got) != len(rows) or set(got) != set(g):
        errs.append(f"keys differ: missing {sorted(set(g) - set(got))[:3]}, "
                    f"extra {sorted(set(got) - set(g))[:3]}, {len(rows)} rows")
    for k, e in g.items():
        r = got.get(k)
        if r is None:
            continue
        d = e["d"]
        want = {"nvtx_inst": len(e["r"]), "kern_inst": len(d), "total_ns": sum(d),
                "min_ns": min(d), "max_ns": max(d), "med_ns": statistics.median(d)}
        for col, w in want.items():
            if num(r[col]) is None or abs(num(r[col]) - w) > 1e-6:
                errs.append(f"{k!r}: {col} is {r[col]}, expected {w}")
        if abs(num(r["avg_ns"]) - sum(d) / len(d)) > 0.05 + 1e-6:
            errs.append(f"{k!r}: avg_ns is {r['avg_ns']}")
    totals = [int(r["total_ns"]) for r in rows]
    if totals != sorted(totals, reverse=True):
        errs.append("rows are not sorted by total_ns descending")
    return errs


def compare_range_sum(c, rows):
    """range-sum on an nsys export: closed NVTX ranges by (message, kind), no domain prefix."""
    g = {}
    for r in nvtx_ranges(c):
        if r["closed"]:
            kind = "nvtx_push_pop" if r["style"] == "PushPop" else "nvtx_start_end"
            g.setdefault((r["text"], kind), []).append(r["end"] - r["start"])
    errs = []
    got = {(r["name"], r["kind"]): r for r in rows}
    if len(got) != len(rows) or set(got) != set(g):
        errs.append(f"keys differ: missing {sorted(set(g) - set(got))[:3]}, "
                    f"extra {sorted(set(got) - set(g))[:3]}, {len(rows)} rows")
    for k, d in g.items():
        r = got.get(k)
        if r is None:
            continue
        if int(r["count"]) != len(d) or int(r["total_ns"]) != sum(d) or \
                abs(num(r["mean_ns"]) - sum(d) / len(d)) > 0.05 + 1e-6:
            errs.append(f"{k!r}: {r['count']}/{r['total_ns']}/{r['mean_ns']}, expected "
                        f"{len(d)}/{sum(d)}/{sum(d) / len(d)}")
    totals = [int(r["total_ns"]) for r in rows]
    if totals != sorted(totals, reverse=True):
        errs.append("rows are not sorted by total_ns descending")
    return errs


def main():
    report, nsys, out = sys.argv[1:4]
    c = sqlite3.connect(f"file:{nsys}?mode=ro", uri=True)
    rows = read_csv(out)
    if report.startswith("top-kernels"):
        by = report.split(":")[1] if ":" in report else "demangled"
        exp = summary(groups_kernels(c, by))
        errs = compare(exp, rows, lambda r: r["name"], dict(TIME_COLS, count="instances"))
    elif report == "gpu-sum":
        exp = summary(groups_gpu(c))
        errs = compare(exp, rows, lambda r: (r["category"], r["name"]),
                       dict(TIME_COLS, count="instances"))
    elif report == "kern-exec-sum":
        errs = compare_kern_exec(c, rows)
    elif report == "kern-exec-trace":
        errs = compare_kern_exec_trace(c, rows)
    elif report == "gpu-trace":
        errs = compare_gpu_trace(c, rows)
    elif report == "api-trace":
        errs = compare_api_trace(c, rows)
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
    elif report == "nvtx-gpu-proj-trace":
        errs = compare_proj_trace(c, rows)
    elif report == "nvtx-gpu-proj-sum":
        errs = compare_proj_sum(c, rows)
    elif report == "nvtx-kern-sum":
        errs = compare_kern_sum(c, rows)
    elif report == "range-sum":
        errs = compare_range_sum(c, rows)
    else:
        sys.exit(f"unknown report {report}")
    print("ok" if not errs else "\n".join(errs[:10]))


main()
