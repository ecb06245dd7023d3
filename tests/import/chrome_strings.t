#!/bin/sh
# The value scanner finds where each event ends by its strings: a quote ends a string unless
# escaped, and the scanner looks at sixteen bytes at a time. Names and args with escaped quotes
# and backslashes at every offset of those sixteen, in strings short and long, must come back as
# Python's json module reads them, every event in its place.
. "${0%/*}/../lib.sh"
cd "$TMP"

py - <<'PY'
import json
events, names = [], []
for k in range(40):
    for tail in ('"', '\\', '\\"', '"\\', ''):
        name = 'n' * k + tail + 'z' * (k % 7)
        stack = ('s' * (k * 3)) + tail + ('/' * 17) + '"end'
        names.append(name)
        events.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1,
                       "ts": len(events) * 10, "dur": 5,
                       "args": {"Call stack": stack, "External id": len(events)}})
open("s.json", "w").write(json.dumps(events))
open("names.txt", "w").write("\n".join(json.dumps(n) for n in names) + "\n")
PY
"$PROFQ" import -q -o s.db s.json >/dev/null
ok $? "the trace imports"
is "$(sqlite s.db "SELECT count(*) FROM ranges")" 200 "every event is a range"
sqlite s.db "SELECT json_quote(n.value) FROM ranges r JOIN strings n ON n.id = r.name_id ORDER BY r.start_ns" >got.txt
is "$(cmp got.txt names.txt && echo same)" same "every name as json reads it, in order"
is "$(sqlite s.db "SELECT count(*) FROM ranges WHERE json_extract(args, '$.\"Call stack\"') LIKE '%/////////////////\"end'")" \
	200 "every call stack kept whole"
done_testing
