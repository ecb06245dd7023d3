#!/usr/bin/env python3
"""make_ranks.py TRACE OUTDIR [SHIFT_US [DELAY_US [DELAY_STEP]]] - two HTA-style ranks of a
distributed job made from one single-GPU Kineto trace (PyTorch's samples have no multi-rank trace):
OUTDIR/rank0.json and OUTDIR/rank1.json, each with distributedInfo {backend nccl, rank, world_size 2}
and, in every ProfilerStep#N, one NCCL all-reduce kernel on stream 99 of the trace's GPU starting
at the step's middle and lasting 30 % (rank 0) or 40 % (rank 1) of the step. Rank 1 is perturbed:
every ts is shifted by SHIFT_US (default 1000.5 us, another clock), and from the middle of step
DELAY_STEP (default: the middle step, counted from 0) on, everything is DELAY_US later (default
2000 us) and what spans that moment lasts DELAY_US longer, so rank 1 is the straggler of that step.
Times stay exact decimals (parsed and written as Decimal)."""
import copy
import decimal
import gzip
import json
import sys
from decimal import Decimal

NS = Decimal('0.001')


def load(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        return json.load(f, parse_float=Decimal)


def dump(v, out):
    if isinstance(v, dict):
        out.append('{')
        for i, (k, x) in enumerate(v.items()):
            out.append((',' if i else '') + json.dumps(k) + ':')
            dump(x, out)
        out.append('}')
    elif isinstance(v, list):
        out.append('[')
        for i, x in enumerate(v):
            if i:
                out.append(',\n' if isinstance(x, dict) and 'ph' in x else ',')
            dump(x, out)
        out.append(']')
    elif isinstance(v, Decimal):
        out.append(format(v.normalize(), 'f') if v == v.to_integral_value() else format(v, 'f'))
    else:
        out.append(json.dumps(v))


def is_step(e):
    return e.get('ph') == 'X' and str(e.get('name', '')).startswith('ProfilerStep#')


def make(doc, rank, shift, delay, delay_step):
    doc = copy.deepcopy(doc)
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    for e in events:
        for k in ('ts', 'dur'):
            if isinstance(e.get(k), (str, int)):
                e[k] = Decimal(e[k])
    steps = sorted((e for e in events if is_step(e)), key=lambda e: e['ts'])
    if rank == 1:
        if steps:
            s = steps[min(delay_step, len(steps) - 1)]
            t = s['ts'] + (s['dur'] / 2).quantize(NS)
            for e in events:
                if 'ts' not in e:
                    continue
                if e['ts'] >= t:
                    e['ts'] += delay
                elif 'dur' in e and e['ts'] + e['dur'] > t:
                    e['dur'] += delay
        for e in events:
            if 'ts' in e:
                e['ts'] += shift
    kernel = next((e for e in events if e.get('ph') == 'X' and str(e.get('cat', '')).lower() == 'kernel'), None)
    if kernel is not None:
        for i, s in enumerate(sorted((e for e in events if is_step(e)), key=lambda e: e['ts'])):
            k = copy.deepcopy(kernel)
            k['name'] = 'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)'
            k['ts'] = s['ts'] + (s['dur'] / 2).quantize(NS)
            k['dur'] = (s['dur'] * (Decimal('0.3') if rank == 0 else Decimal('0.4'))).quantize(NS)
            k['tid'] = 'stream 99' if isinstance(kernel.get('tid'), str) else 99
            args = {a: v for a, v in k.get('args', {}).items()
                    if a not in ('correlation', 'external id', 'External id')}
            args['stream'] = 99
            args['correlation'] = 900000000 + i
            k['args'] = args
            events.append(k)
    if not isinstance(doc, dict):
        doc = {'traceEvents': events}
    doc['distributedInfo'] = {'backend': 'nccl', 'rank': rank, 'world_size': 2}
    return doc


def main():
    src, outdir = sys.argv[1], sys.argv[2]
    shift = Decimal(sys.argv[3]) if len(sys.argv) > 3 else Decimal('1000.5')
    delay = Decimal(sys.argv[4]) if len(sys.argv) > 4 else Decimal('2000')
    doc = load(src)
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    nsteps = sum(1 for e in events if is_step(e))
    delay_step = int(sys.argv[5]) if len(sys.argv) > 5 else nsteps // 2
    for rank in (0, 1):
        out = []
        dump(make(doc, rank, shift, delay, delay_step), out)
        with open(f'{outdir}/rank{rank}.json', 'w', encoding='utf-8') as f:
            f.write(''.join(out) + '\n')
    return 0


if __name__ == '__main__':
    decimal.getcontext().prec = 40
    sys.exit(main())
