#!/usr/bin/python3
"""Kineto-style Chrome traces for checking the HTA reports against HTA itself (issue #17).

Writes one rank's trace as current libkineto does (libkineto/src/output_json.cpp): ts relative to
baseTimeNanoseconds with three decimals (ns resolution), pid = device and tid = stream for GPU
events, gpu_user_annotation spans 1 ns wider on each side than the GPU work they cover, ac2g and
fwdbwd flows, NCCL kernels with the collective metadata args of a linked record_param_comms op,
distributedInfo with the rank. Deterministic for a given seed.

  hta_traces.py [--rank R] [--world N] [--steps N] [--ops N] [--seed S] [--sync] [--absolute]
                [--integer] [--no-annotations] > trace.json

--sync adds cuda_sync events (Stream Sync / Event Sync); --absolute writes epoch µs without
baseTimeNanoseconds (older PyTorch); --integer rounds every time to whole µs.
"""
import argparse
import json
import random
import sys

BASE_NS = 1_700_000_000_123_456_789  # not a whole µs: HTA rounds the relative ts, not the epoch
PID, TID = 4242, 4242

COMPUTE = ["void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>",
           "volta_sgemm_128x64_nn", "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int>",
           "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn",
           "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float>>",
           "triton_poi_fused_relu_0", "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm>"]
NCCL = [("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", "allreduce"),
        ("ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)", "allgather"),
        ("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
         "reduce_scatter")]


class Trace:
    def __init__(self, a):
        self.a, self.r = a, random.Random(a.seed * 1000 + a.rank)
        self.ev, self.corr, self.ext, self.flow = [], 1000 * (a.rank + 1), 1, 1
        self.free = {}  # stream -> ns when its last GPU event ends

    def t(self, ns):  # µs text with three decimals, as libkineto's fmtTs
        if self.a.integer:
            return str(round(ns / 1000))
        if self.a.absolute:  # epoch µs, as PyTorch wrote before baseTimeNanoseconds
            ns += BASE_NS
        return "%d.%03d" % (ns // 1000, ns % 1000)

    def x(self, cat, name, pid, tid, ts, dur, args=None):
        e = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
             "ts": "@%s@" % self.t(ts), "dur": "@%s@" % self.dur(ts, dur)}
        if args is not None:
            e["args"] = args
        self.ev.append(e)
        return e

    def dur(self, ts, dur):
        if self.a.integer:
            return str(round((ts + dur) / 1000) - round(ts / 1000))
        return "%d.%03d" % (dur // 1000, dur % 1000)

    def flow_pair(self, cat, src, dst):
        for ph, (pid, tid, ts) in (("s", src), ("f", dst)):
            e = {"ph": ph, "id": self.flow, "pid": pid, "tid": tid, "ts": "@%s@" % self.t(ts),
                 "cat": cat, "name": cat}
            if ph == "f":
                e["bp"] = "e"
            self.ev.append(e)
        self.flow += 1

    def gpu(self, cat, name, stream, ready, dur, corr, ext, extra=None):
        start = max(ready, self.free.get(stream, 0) + self.r.randint(300, 2600))
        args = {"External id": ext, "queued": 0, "device": 0, "context": 1, "stream": stream,
                "correlation": corr}
        if extra:
            args.update(extra)
        self.x(cat, name, 0, stream, start, dur, args)
        self.free[stream] = start + dur
        return start, start + dur

    def launch(self, now, rt_name, cat, name, stream, dur, extra=None):
        """A runtime call at `now` and its GPU event; returns (cpu end, gpu start, gpu end)."""
        corr, ext = self.corr, self.ext
        self.corr += 1
        rt_dur = self.r.randint(2500, 9000) if self.r.random() > 0.02 else self.r.randint(51000, 70000)
        self.x("cuda_runtime", rt_name, PID, TID, now, rt_dur,
               {"External id": ext, "cbid": 211, "correlation": corr})
        delay = self.r.randint(1500, 6000) if self.r.random() > 0.03 else self.r.randint(120000, 200000)
        s, e = self.gpu(cat, name, stream, now + rt_dur + delay - self.r.randint(0, 2000), dur, corr, ext,
                        extra)
        self.flow_pair("ac2g", (PID, TID, now), (0, stream, s))
        return now + rt_dur, s, e

    def kernel_dur(self):
        u = self.r.random()
        if u < 0.25:
            return self.r.randint(250, 950)  # sub-µs kernels: HTA's ceil/floor turns many negative
        if u < 0.85:
            return self.r.randint(1000, 40000)
        return self.r.randint(40000, 400000)

    def step(self, n, now):
        a, r = self.a, self.r
        step_start, first, last = now, None, 0
        step_ext = self.ext
        self.ext += 1
        steps = self.x("user_annotation", "ProfilerStep#%d" % n, PID, TID, now, 1, {"External id": step_ext})
        now += r.randint(5000, 30000)
        fwd_ops = []
        for i in range(a.ops):
            self.ext += 1
            op_start = now
            name = "aten::op%d" % (i % 17)
            now += r.randint(1000, 4000) + (r.randint(5000, 60000) if r.random() < 0.5 else 0)
            kind = r.random()
            if kind < 0.06:
                end, s, e = self.launch(now, "cudaMemcpyAsync", "gpu_memcpy", "Memcpy HtoD (Pageable -> Device)",
                                        13 if r.random() < 0.6 else 7, r.randint(800, 90000),
                                        {"bytes": 4096, "memory bandwidth (GB/s)": 3.2})
            elif kind < 0.10:
                end, s, e = self.launch(now, "cudaMemsetAsync", "gpu_memset", "Memset (Device)", 7,
                                        r.randint(300, 3000), {"bytes": 1024, "memory bandwidth (GB/s)": 40.1})
            elif kind < 0.15 and a.world > 1:
                kname, coll = NCCL[i % len(NCCL)]
                self.x("cpu_op", "record_param_comms", PID, TID, now - 500, 12000, {
                    "External id": self.ext, "Collective name": coll, "dtype": "Float",
                    "In msg nelems": 2049000, "Out msg nelems": 2049000, "Group size": a.world,
                    "Process Group Name": "0", "Process Group Description": "default_pg",
                    "Process Group Ranks": "[%s]" % ", ".join(str(k) for k in range(a.world)),
                    "Rank": a.rank})
                end, s, e = self.launch(now, "cudaLaunchKernel", "kernel", kname, 20, r.randint(60000, 500000), {
                    "Collective name": coll, "In msg nelems": 2049000, "Out msg nelems": 2049000,
                    "Group size": a.world, "dtype": "Float", "In split size": "[]", "Out split size": "[]",
                    "Process Group Name": "0", "Process Group Description": "default_pg",
                    "Process Group Ranks": "[%s]" % ", ".join(str(k) for k in range(a.world)),
                    "grid": [2, 1, 1], "block": [512, 1, 1]})
            else:
                stream = 24 if r.random() < 0.15 else 7
                end, s, e = self.launch(now, "cudaLaunchKernelExC" if r.random() < 0.1 else "cudaLaunchKernel",
                                        "kernel", r.choice(COMPUTE), stream, self.kernel_dur(),
                                        {"grid": [80, 1, 1], "block": [256, 1, 1], "registers per thread": 32,
                                         "shared memory": 0, "blocks per SM": 1.0, "warps per SM": 8.0,
                                         "est. achieved occupancy %": 25})
            first = s if first is None else min(first, s)
            last = max(last, e)
            now = end + r.randint(500, 3000) + (r.randint(50000, 300000) if r.random() < 0.04 else 0)
            op = self.x("cpu_op", name, PID, TID, op_start, now - op_start, {"External id": self.ext})
            if i < a.ops // 2:
                fwd_ops.append((op_start, op))
            elif fwd_ops and r.random() < 0.3:
                fs, _ = fwd_ops.pop()
                self.flow_pair("fwdbwd", (PID, TID, fs), (PID, TID, op_start))
            now += r.randint(200, 1500)
        if a.sync:
            corr = self.corr
            self.corr += 1
            self.x("cuda_runtime", "cudaStreamSynchronize", PID, TID, now, max(last - now, 0) + 3000,
                   {"External id": step_ext, "cbid": 131, "correlation": corr})
            self.x("cuda_sync", "Stream Sync", 0, 7, now + 1000, max(last - now, 0) + 500,
                   {"cuda_sync_kind": "Stream Sync", "stream": 7, "correlation": corr, "device": 0,
                    "context": 1})
            self.x("cuda_sync", "Event Sync", 0, 7, now + 1200, 700,
                   {"cuda_sync_kind": "Event Sync", "wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": 1,
                    "wait_on_cuda_event_id": 1, "stream": -1, "correlation": corr + 100000, "device": 0,
                    "context": 1})
            now = max(now, last) + 4000
        steps["dur"] = "@%s@" % self.dur(step_start, now - step_start)
        if not a.no_annotations and first is not None:  # projected on the first kernel's stream, 1 ns wider
            self.x("gpu_user_annotation", "ProfilerStep#%d" % n, 0, 7, first - 1, last - first + 2,
                   {"External id": step_ext})
        return now + r.randint(1000, 20000)

    def write(self, out):
        a, now = self.a, self.r.randint(100000, 200000)
        for n in range(a.first_step, a.first_step + a.steps):
            now = self.step(n, now)
        meta = [{"name": "process_name", "ph": "M", "ts": "@%s@" % self.t(0), "pid": PID, "tid": 0,
                 "args": {"name": "python"}},
                {"name": "process_name", "ph": "M", "ts": "@%s@" % self.t(0), "pid": 0, "tid": 0,
                 "args": {"name": "python"}},
                {"name": "process_labels", "ph": "M", "ts": "@%s@" % self.t(0), "pid": 0, "tid": 0,
                 "args": {"labels": "GPU 0"}}]
        for s in sorted(self.free):
            meta.append({"name": "thread_name", "ph": "M", "ts": "@%s@" % self.t(0), "pid": 0, "tid": s,
                         "args": {"name": "stream %d" % s}})
        doc = {"schemaVersion": 1,
               "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85031714816,
                                     "computeMajor": 8, "computeMinor": 0, "maxThreadsPerBlock": 1024,
                                     "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536,
                                     "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": 108}],
               "distributedInfo": {"backend": "nccl", "rank": a.rank, "world_size": a.world}}
        if not a.absolute:
            doc["baseTimeNanoseconds"] = BASE_NS
        doc["traceEvents"] = meta + self.ev
        # numbers as libkineto prints them (json would write strings or reformat floats)
        text = json.dumps(doc, indent=1)
        out.write(text.replace('"@', "").replace('@"', ""))
        out.write("\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rank", type=int, default=0)
    p.add_argument("--world", type=int, default=2)
    p.add_argument("--steps", type=int, default=4)
    p.add_argument("--first-step", type=int, default=3)
    p.add_argument("--ops", type=int, default=120)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--sync", action="store_true")
    p.add_argument("--absolute", action="store_true")
    p.add_argument("--integer", action="store_true")
    p.add_argument("--no-annotations", action="store_true")
    Trace(p.parse_args()).write(sys.stdout)


if __name__ == "__main__":
    main()
