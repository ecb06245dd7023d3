#!/bin/sh
# examples/notebook.py on imported samples: it draws its figures, its DataFrames hold the numbers
# `profq <report> --format csv` prints, and examples/notebook.ipynb has the same code cells.
. "${0%/*}/../lib.sh"
py -c 'import pandas, matplotlib' 2>/dev/null ||
	skip_all "Debian's python3 lacks pandas or matplotlib (make deps installs them)"

nb=$TOP/examples/notebook.py
py - "$nb" "$TOP/examples/notebook.ipynb" <<'PY'
import json, re, sys
script = [c.partition("\n")[2].strip("\n") for c in re.split(r"^# %%", open(sys.argv[1]).read(), flags=re.M)[1:]
          if not c.startswith(" [markdown]")]
cells = ["".join(c["source"]) for c in json.load(open(sys.argv[2]))["cells"] if c["cell_type"] == "code"]
sys.exit(0 if script == cells else 1)
PY
ok $? "notebook.ipynb's code cells are notebook.py's"

# same REPORT ARGS...: the notebook's CSV of REPORT against the CLI's, compared as DataFrames
same() {
	csv=$1; shift
	"$PROFQ" "$@" --format csv >"$TMP/cli.csv"
	py - "$TMP/cli.csv" "$csv" <<'PY'
import sys, pandas
cli, nb = (pandas.read_csv(p, keep_default_na=False) for p in sys.argv[1:])
pandas.testing.assert_frame_equal(nb, cli, check_dtype=False)
sys.exit(0 if len(cli) else 1)
PY
}

"$PROFQ" import -q -o "$TMP/k.db" \
	"$DATA/kineto/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz" >/dev/null
"$PROFQ" import -q -o "$TMP/n.db" "$DATA/nsys/h100_2gpu_1s.sqlite" >/dev/null

py "$nb" "$TMP/k.db" "$TMP/k" >/dev/null
ok $? "notebook.py runs on a Kineto trace"
for f in step-breakdown top-kernels gpu-utilization; do
	is "$(head -c 8 "$TMP/k/run1-$f.png" 2>/dev/null | od -An -c | tr -d ' ')" '211PNG\r\n032\n' "run1-$f.png is a PNG"
done
same "$TMP/k/run1-step-breakdown.csv" step-breakdown "$TMP/k.db" --run 1
ok $? "step-breakdown DataFrame = profq step-breakdown --format csv"
same "$TMP/k/run1-top-kernels.csv" top-kernels "$TMP/k.db" --run 1 --by short-name --limit 15
ok $? "top-kernels DataFrame = profq top-kernels --by short-name --limit 15 --format csv"
same "$TMP/k/run1-gpu-util-timeline.csv" gpu-util-timeline "$TMP/k.db" --run 1
ok $? "gpu-util-timeline DataFrame = profq gpu-util-timeline --format csv"

# An nsys export: two GPUs, no PyTorch steps (no step figure, and no failure).
py "$nb" "$TMP/n.db" "$TMP/n" >"$TMP/n.out"
ok $? "notebook.py runs on an nsys export"
like "$(cat "$TMP/n.out")" "run 1: no ProfilerStep ranges" "says there are no steps"
is "$(ls "$TMP/n" | grep -c 'png$')" 2 "two figures without steps"
same "$TMP/n/run1-gpu-util-timeline.csv" gpu-util-timeline "$TMP/n.db" --run 1
ok $? "gpu-util-timeline DataFrame on two GPUs"

py "$nb" "$TMP/k.db" 2>"$TMP/err"
is "$?" 1 "a missing argument fails"
like "$(cat "$TMP/err")" "usage: notebook.py" "with the usage"

done_testing
