"""List the Grafana panels' queries with the macros and variables substituted, for panels.t.

usage: panels.py DASHBOARD.json RUN FROM_MS TO_MS OUTDIR
Writes OUTDIR/<dashboard uid>.<panel id>.sql and prints one line per panel:
<file> <tab> <panel type> <tab> <datasource uid> <tab> <columns the field config names, space-separated>
"""
import json
import os
import re
import sys

dash_path, run, from_ms, to_ms, out = sys.argv[1:]
dash = json.load(open(dash_path))


def substitute(sql):
    # $__unixEpochGroupSeconds(col, seconds) is the plugin's macro; the rest are Grafana's.
    sql = re.sub(r"\$__unixEpochGroupSeconds\(([^,]+),\s*([^)]+)\)",
                 r"cast((\1) / (\2) AS int) * (\2)", sql)
    sql = sql.replace("$__from", from_ms).replace("$__to", to_ms)
    return sql.replace("${run}", run).replace("$run", run)


uids = set()
for var in dash["templating"]["list"]:
    uids.add(var["datasource"]["uid"])
    path = os.path.join(out, "%s.var.%s.sql" % (dash["uid"], var["name"]))
    open(path, "w").write(substitute(var["query"]) + ";\n")
    print("%s\tvariable\t%s\t%s" % (path, var["datasource"]["uid"], ""))
for p in dash["panels"]:
    cols = [o["matcher"]["options"] for o in p["fieldConfig"]["overrides"]
            if o["matcher"]["id"] == "byName"]
    if p["type"] == "timeseries":
        cols.insert(0, "time")
    for t in p["targets"]:
        uid = t.get("datasource", p["datasource"])["uid"]
        if p["datasource"]["uid"] != uid:
            uid = "mismatch"
        path = os.path.join(out, "%s.%s.%s.sql" % (dash["uid"], p["id"], t["refId"]))
        open(path, "w").write(substitute(t["rawQueryText"]) + ";\n")
        print("%s\t%s\t%s\t%s" % (path, p["type"], uid, " ".join(cols)))
