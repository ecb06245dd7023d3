#!/bin/sh
# analyze rule gpu_time_util against a brute-force reference: random GPU operations on several
# (run, process, device) spans, every chunk's busy time summed operation by operation in Python
# (clipped to the chunk, as nsys), low chunks merged into islands. Cases the report's arithmetic
# must get right: a span shorter than the number of chunks (empty chunks), zero-length operations
# on chunk boundaries, operations reaching over many chunks, the last operation ending the span.
. "${0%/*}/../lib.sh"
cd "$TMP"
cat "$TOP/schema/schema.sql" "$TOP/schema/views.sql" | sqlite t.db || exit 1

py - >ops.sql <<'PY'
import random
random.seed(7)
print("BEGIN;")
print("INSERT INTO strings(id, value) VALUES (1, 'k');")
for run in (1, 2):
    print("INSERT INTO runs(id, source, created_utc, profq_version) VALUES (%d, 't', '2024', 't');" % run)
print("INSERT INTO processes(id, run_id, pid) VALUES (1, 1, 101), (2, 1, 102), (3, 2, 103);")
for run, proc, dev, n, span in ((1, 1, 1, 400, 10**9), (1, 1, 2, 60, 7), (1, 2, 3, 3, 10**6),
                                (2, 3, 4, 900, 123456789), (2, 3, None, 5, 1000)):
    if dev is not None:
        print("INSERT INTO devices(id, run_id, ordinal) VALUES (%d, %d, %d);" % (dev, run, dev - 1))
    table = ("kernels", "memcpys", "memsets")
    for i in range(n):
        s = random.randrange(span)
        r = random.random()
        e = s if r < 0.1 else min(span, s + (random.randrange(span // 3 + 1) if r < 0.2
                                             else random.randrange(span // 200 + 2)))
        t = random.choice(table)
        extra = ", name_id" if t == "kernels" else ""
        val = ", 1" if t == "kernels" else ""
        print("INSERT INTO %s(run_id, process_id, device_id, start_ns, end_ns, correlation_id%s) "
              "VALUES (%d, %d, %s, %d, %d, %d%s);" % (t, extra, run, proc,
              "NULL" if dev is None else dev, s, e, i, val))
    # the span's ends: one operation at 0 (chunk boundaries from s0) and one ending at span
    print("INSERT INTO kernels(run_id, process_id, device_id, start_ns, end_ns, correlation_id, name_id) "
          "VALUES (%d, %d, %s, 0, 0, -1, 1), (%d, %d, %s, %d, %d, -2, 1);"
          % (run, proc, "NULL" if dev is None else dev, run, proc, "NULL" if dev is None else dev,
             span - 1, span))
print("COMMIT;")
PY
sqlite t.db <ops.sql || exit 1

# reference CHUNKS THRESHOLD: the report's rows as "start,end,duration,chunks,pid,device,run util"
reference() {
	py - "$1" "$2" <<'PY'
import sqlite3, sys
n, thr = int(sys.argv[1]), float(sys.argv[2])
db = sqlite3.connect("t.db")
ops = db.execute("""SELECT o.run_id, o.process_id, o.device_id, start_ns, end_ns, p.pid, d.ordinal
  FROM (SELECT run_id, process_id, device_id, start_ns, end_ns FROM kernels UNION ALL
        SELECT run_id, process_id, device_id, start_ns, end_ns FROM memcpys UNION ALL
        SELECT run_id, process_id, device_id, start_ns, end_ns FROM memsets) o
  LEFT JOIN processes p ON p.id = o.process_id LEFT JOIN devices d ON d.id = o.device_id""").fetchall()
groups = {}
for run, proc, dev, s, e, pid, ordinal in ops:
    groups.setdefault((run, proc, dev, pid, ordinal), []).append((s, e))
out = []
for (run, proc, dev, pid, ordinal), g in groups.items():
    s0, s1 = min(s for s, _ in g), max(e for _, e in g)
    if s1 <= s0:
        continue
    low = []
    for i in range(n):
        cs, ce = s0 + (s1 - s0) * i // n, s0 + (s1 - s0) * (i + 1) // n
        busy = sum(min(e, ce) - max(s, cs) for s, e in g if s < ce and e > cs)
        if ce > cs and 100.0 * busy / (ce - cs) < thr:
            low.append((i, cs, ce, busy))
    islands = []
    for c in low:
        if islands and islands[-1][-1][0] == c[0] - 1:
            islands[-1].append(c)
        else:
            islands.append([c])
    for isl in islands:
        a, b = isl[0][1], isl[-1][2]
        util = 100.0 * sum(c[3] for c in isl) / sum(c[2] - c[1] for c in isl)
        out.append("%d,%d,%d,%d,%s,%s,%d %.4f" % (a, b, b - a, len(isl), pid,
                   "" if ordinal is None else ordinal, run, util))
print("\n".join(sorted(out)))
PY
}

# got CHUNKS THRESHOLD: the report in the same shape
got() {
	"$PROFQ" analyze t.db --rule gpu_time_util --chunks "$1" --threshold "$2" --format csv \
		2>/dev/null | tail -n +2 | awk -F, '{ printf "%s,%s,%s,%s,%s,%s,%s %.4f\n", $1, $2, $3, $5, $6, $7, $8, $4 }' | sort
}

# same lines, util_pct compared after rounding to 2 places (the report's precision)
for case in "30 50" "1 101" "7 80" "1000 50" "1000 101" "3 0.5"; do
	set -- $case
	reference "$1" "$2" >want.$1.$2 || exit 1
	got "$1" "$2" >got.$1.$2
	paste -d'|' want.$1.$2 got.$1.$2 | awk -F'|' '
		{ split($1, w, " "); split($2, g, " ")
		  if (w[1] != g[1] || (w[2] - g[2]) > 0.0051 || (g[2] - w[2]) > 0.0051) bad++ }
		END { exit bad > 0 }'
	ok $? "gpu_time_util --chunks $1 --threshold $2: $(wc -l <want.$1.$2) rows as the reference"
	is "$(wc -l <got.$1.$2)" "$(wc -l <want.$1.$2)" "gpu_time_util --chunks $1 --threshold $2: row count"
done
done_testing
