"""Checks a `profq html` page against the CLI's own csv of the same reports.

usage: html_check.py PAGE.html KIND CSV...   prints one line per failed check, nothing when all pass
  KIND=bars  CSV of a *-sum report: each of its first 15 rows is a bar whose <title> is
             "<name column>: <total_ns / 1e6 to 3 places>"
  KIND=steps CSV of step-breakdown: each step's parts are rects titled "<step> <part>: <ms>"
  KIND=summary CSV of run-summary: each count is in the summary table, formatted with commas
"""
import csv
import sys
import xml.etree.ElementTree as ET

page, kind, *csvs = sys.argv[1:]
root = ET.parse(page).getroot()
titles = set("".join(t.itertext()) for t in root.iter("title"))
bad = []
for path in csvs:
    rows = list(csv.DictReader(open(path, newline="")))
    if not rows:
        bad.append("%s: no rows to check" % path)
    if kind == "bars":
        for r in rows[:15]:
            name = r.get("name", r.get("range"))
            want = "%s: %.3f" % (name, int(r["total_ns"]) / 1e6)
            if want not in titles:
                bad.append("no bar titled %r" % want)
    elif kind == "steps":
        for r in rows:
            if r["step"] == "average":
                continue
            for col, v in r.items():
                if col.endswith("_ns") and col != "total_ns" and int(v) > 0:
                    want = "%s %s: %.3f" % (r["step"], col[:-3], int(v) / 1e6)
                    if want not in titles:
                        bad.append("no step part titled %r" % want)
    elif kind == "summary":
        cells = {}
        for tr in root.iter("tr"):
            th, td = tr.find("th"), tr.find("td")
            if th is not None and td is not None:
                cells.setdefault(th.text, []).append("".join(td.itertext()))
        for r in rows:
            for col, label in (("kernels", "kernels"), ("api_calls", "CUDA API calls"),
                               ("memory_events", "memory events")):
                if "{:,}".format(int(r[col])) not in cells.get(label, []):
                    bad.append("summary %s is not %s" % (label, r[col]))
for b in bad:
    print(b)
