#!/usr/bin/env python3
"""Holistic Trace Analysis' own code on one trace folder (bench/peers.sh; not part of profq).

    PYTHONPATH=<HTA checkout> peer_hta.py TRACE_DIR

TraceAnalysis(trace_dir) (read and parse every trace of the folder) and its temporal and idle time
breakdowns, printed as JSON for bench/peers_check.py (µs, as HTA gives them).
"""
import json
import logging
import sys
import warnings

warnings.simplefilter("ignore")
logging.disable(logging.WARNING)

from hta.trace_analysis import TraceAnalysis  # noqa: E402


def main():
    ta = TraceAnalysis(trace_dir=sys.argv[1])
    temporal = ta.get_temporal_breakdown(visualize=False)
    idle = ta.get_idle_time_breakdown(visualize=False)[0]
    print(json.dumps({"temporal": temporal.to_dict(orient="records"),
                      "idle": idle.to_dict(orient="records")}, default=float))


if __name__ == "__main__":
    main()
