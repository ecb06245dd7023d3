#!/usr/bin/env python3
"""The TensorBoard plugin's own loader and views on one trace (bench/peers.sh; not part of profq).

    PYTHONPATH=<tb_plugin checkout> peer_tb.py TRACE.json[.gz]

Does what the plugin does for a run it opens: RunProfileData.parse (read, decompress, JSON, event
parsing and all its analyses) and RunGenerator.generate_run_profile (every view), then prints, as
JSON, the numbers bench/peers_check.py compares with profq's reports: the steps' breakdown (µs),
the GPU summary, the operator table and the kernel table.
"""
import json
import sys
import tempfile
import warnings

warnings.simplefilter("ignore")  # the plugin announces its deprecation on import

from torch_tb_profiler.profiler.data import RunProfileData  # noqa: E402
from torch_tb_profiler.profiler.run_generator import RunGenerator  # noqa: E402


def main():
    with tempfile.TemporaryDirectory() as cache:
        data = RunProfileData.parse("worker0", 1, sys.argv[1], cache)
        run = RunGenerator("worker0", 1, data).generate_run_profile()
    steps = run.overview["steps"]
    names = [c["name"] for c in steps["columns"] if c.get("type") == "number"]
    rows = [[r[0]] + [r[i] for i in range(1, len(r), 2)] for r in steps["rows"]]
    kt = run.kernel_table["data"]
    print(json.dumps({
        "steps": {"columns": names, "rows": rows},
        "gpu": {x["title"]: x["value"] for x in run.gpu_summary or []},
        "ops": run.operation_table_by_name["data"],
        "kernels": {"columns": [c["name"] for c in kt["columns"]], "rows": kt["rows"]},
    }))


if __name__ == "__main__":
    main()
