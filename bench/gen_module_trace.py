"""bench/gen_module_trace.py - a synthetic Kineto trace with nn.Module ranges for timing op-sum and
module-view: N ProfilerSteps, each an nn.Module: Net of 8 nn.Module: Block of 4 ops that launch one
kernel each. Usage: python3 bench/gen_module_trace.py N OUT.json"""
import json, sys
n = int(sys.argv[1]); ev = []; t = 0; pyid = 1; corr = 1; ext = 1
ev.append({"ph": "X", "cat": "python_function", "name": "train", "pid": 1, "tid": 1, "ts": 0, "dur": n * 1000 + 10, "args": {"Python id": 0}})
for i in range(n):
    base = i * 1000 + 5
    ev.append({"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#%d" % i, "pid": 1, "tid": 1, "ts": base, "dur": 990, "args": {"External id": ext}}); ext += 1
    top = pyid; pyid += 1
    ev.append({"ph": "X", "cat": "python_function", "name": "nn.Module: Net", "pid": 1, "tid": 1, "ts": base + 1, "dur": 980, "args": {"Python id": top, "Python parent id": 0, "Python module id": 0}})
    for b in range(8):
        bid = pyid; pyid += 1
        s = base + 2 + b * 120
        ev.append({"ph": "X", "cat": "python_function", "name": "nn.Module: Block", "pid": 1, "tid": 1, "ts": s, "dur": 118, "args": {"Python id": bid, "Python parent id": top, "Python module id": b + 1}})
        for o in range(4):
            os_ = s + 1 + o * 29
            ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::linear" if o % 2 == 0 else "aten::relu", "pid": 1, "tid": 1, "ts": os_, "dur": 27, "args": {"External id": ext}})
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": os_ + 2, "dur": 5, "args": {"correlation": corr, "external id": ext}})
            ev.append({"ph": "X", "cat": "kernel", "name": "k%d" % o, "pid": 0, "tid": "stream 7", "ts": os_ + 8, "dur": 15, "args": {"device": 0, "correlation": corr, "external id": ext}})
            corr += 1; ext += 1
json.dump(ev, open(sys.argv[2], "w"))
