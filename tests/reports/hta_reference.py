#!/usr/bin/python3
"""Run Holistic Trace Analysis on a directory of traces and print what the profq tests compare.

Not part of the suite (HTA is not vendored): this is how the numbers in tests/reports/hta_*.t were
made. HTA_SRC names a checkout of facebookresearch/HolisticTraceAnalysis (the tests cite the commit);
it needs Debian's python3-pandas, -numpy, -plotly, -networkx, -pydot, -yaml, -ijson, -psutil.

  HTA_SRC=/tmp/hta /usr/bin/python3 hta_reference.py DIR [--include-last-step]
"""
import logging
import os
import sys

sys.path.insert(0, os.environ.get("HTA_SRC", "/tmp/hta"))
logging.disable(logging.WARNING)
import pandas as pd  # noqa: E402
from hta.trace_analysis import TraceAnalysis  # noqa: E402

pd.set_option("display.width", 250)
pd.set_option("display.max_columns", 30)
pd.set_option("display.max_rows", 500)


def main():
    d = sys.argv[1]
    ta = TraceAnalysis(trace_dir=d, include_last_profiler_step="--include-last-step" in sys.argv)
    ranks = ta.t.get_ranks()
    print("== temporal\n", ta.get_temporal_breakdown(visualize=False).to_string(index=False))
    idle, _ = ta.get_idle_time_breakdown(ranks=ranks, visualize=False)
    print("== idle\n", idle.to_string(index=False))
    print("== overlap\n", ta.get_comm_comp_overlap(visualize=False).to_string(index=False))
    ls = ta.get_cuda_kernel_launch_stats(ranks=ranks, visualize=False)
    for r in ranks:
        df = ls[r]
        print("== launch rank %d: rows %d, sums cpu %d gpu %d delay %d, short %d, runtime>50 %d, delay>100 %d"
              % (r, len(df), df.cpu_duration.sum(), df.gpu_duration.sum(), df.launch_delay.sum(),
                 (df.gpu_duration < df.cpu_duration).sum(), (df.cpu_duration > 50).sum(),
                 (df.launch_delay > 100).sum()))
        if "--rows" in sys.argv:
            print(df.sort_values("correlation").to_csv(index=False))
    types, kernels = ta.get_gpu_kernel_breakdown(visualize=False)
    print("== kernel types\n", types.to_string(index=False))
    print("== kernels\n", kernels.to_string(index=False))
    print("== queue length\n", ta.get_queue_length_summary(ranks=ranks).to_string())


if __name__ == "__main__":
    main()
