#!/usr/bin/env python3
"""chrome_check.py TRACE.json[.gz] - checks a Chrome trace profq export wrote, independently of
profq: the document's shape, the fields each phase needs, exact decimal timestamps (ns kept),
pid/tid ranges, X/B/E nesting per (pid, tid), flows paired and bound to slices, async b/e paired,
every process and used track named. Prints one problem per line and exits 1 when there are any;
otherwise prints the event counts per phase and category as JSON."""
import bisect
import collections
import decimal
import gzip
import json
import sys

problems = []


def bad(msg):
    if len(problems) < 50:
        problems.append(msg)


def load(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        return json.load(f, parse_float=decimal.Decimal)


def ns_of(v, what, i):
    """A time in us, as written, to integer ns; exact or a problem."""
    if isinstance(v, bool) or not isinstance(v, (int, decimal.Decimal)):
        bad(f'event {i}: {what} is not a number: {v!r}')
        return None
    d = decimal.Decimal(v) * 1000
    if d != d.to_integral_value():
        bad(f'event {i}: {what} {v} has more than 3 decimals (not whole ns)')
        return None
    return int(d)


def main():
    doc = load(sys.argv[1])
    if not isinstance(doc, dict) or not isinstance(doc.get('traceEvents'), list):
        print('not a {"traceEvents": [...]} object')
        return 1
    base = doc.get('baseTimeNanoseconds')
    if base is not None and (not isinstance(base, int) or base <= 0):
        bad(f'baseTimeNanoseconds {base!r} is not a positive integer')
    need = {
        'X': ('name', 'cat', 'ts', 'dur', 'pid', 'tid'),
        'B': ('name', 'ts', 'pid', 'tid'),
        'E': ('ts', 'pid', 'tid'),
        'i': ('name', 'ts', 'pid', 's'),
        'C': ('name', 'ts', 'pid', 'args'),
        'M': ('name', 'pid', 'args'),
        's': ('id', 'cat', 'name', 'ts', 'pid', 'tid'),
        'f': ('id', 'cat', 'name', 'ts', 'pid', 'tid', 'bp'),
        'b': ('id', 'cat', 'name', 'ts', 'pid', 'tid'),
        'e': ('id', 'cat', 'ts', 'pid', 'tid'),
    }
    counts = collections.Counter()
    tracks = collections.defaultdict(list)      # (pid, tid) -> [(start, end)]
    be = collections.defaultdict(list)          # (pid, tid) -> open B starts
    flows = collections.defaultdict(list)       # id -> [(ph, cat, name, pid, tid, ns)]
    asyncs = collections.defaultdict(list)      # (cat, id) -> [ph]
    pnames, plabels, tnames = set(), set(), set()
    used_pids, used_tracks = set(), set()
    for i, e in enumerate(doc['traceEvents']):
        if not isinstance(e, dict):
            bad(f'event {i} is not an object')
            continue
        ph = e.get('ph')
        if ph not in need:
            bad(f'event {i}: unexpected phase {ph!r}')
            continue
        for k in need[ph]:
            if k not in e:
                bad(f'event {i} ({ph}): no {k}')
        counts[ph + ':' + str(e.get('cat', e.get('name') if ph in 'MC' else ''))] += 1
        pid, tid = e.get('pid'), e.get('tid')
        for what, v in (('pid', pid), ('tid', tid)):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 2**32):
                bad(f'event {i}: {what} {v!r} is not an integer in [0, 2^32)')
        if 'args' in e and not isinstance(e['args'], dict):
            bad(f'event {i}: args is not an object')
        if ph == 'M':
            n = e.get('name')
            args = e.get('args', {})
            if n == 'process_name':
                pnames.add(pid)
            elif n == 'process_labels':
                plabels.add(pid)
            elif n == 'thread_name':
                tnames.add((pid, tid))
            elif n not in ('process_sort_index', 'thread_sort_index'):
                bad(f'event {i}: unknown metadata {n!r}')
            if n in ('process_name', 'thread_name') and not isinstance(args.get('name'), str):
                bad(f'event {i}: {n} without a name')
            continue
        ts = ns_of(e.get('ts'), 'ts', i)
        used_pids.add(pid)
        if ts is None:
            continue
        if ph == 'X':
            dur = ns_of(e.get('dur'), 'dur', i)
            if dur is None:
                continue
            if dur < 0:
                bad(f'event {i}: negative dur')
            tracks[(pid, tid)].append((ts, ts + dur))
            used_tracks.add((pid, tid))
        elif ph == 'B':
            be[(pid, tid)].append(ts)
            used_tracks.add((pid, tid))
        elif ph == 'E':
            if not be[(pid, tid)]:
                bad(f'event {i}: E without B on {(pid, tid)}')
            else:
                tracks[(pid, tid)].append((be[(pid, tid)].pop(), ts))
        elif ph in 'sf':
            flows[e.get('id')].append((ph, e.get('cat'), e.get('name'), pid, tid, ts))
            if ph == 'f' and e.get('bp') != 'e':
                bad(f'event {i}: flow end without "bp":"e"')
        elif ph in 'be':
            asyncs[(e.get('cat'), e.get('id'))].append(ph)
        elif ph == 'i' and e.get('s') not in ('g', 'p', 't'):
            bad(f'event {i}: instant scope {e.get("s")!r}')
        elif ph == 'C':
            for k, v in e.get('args', {}).items():
                if isinstance(v, bool) or not isinstance(v, (int, decimal.Decimal)):
                    bad(f'event {i}: counter value {k}={v!r} is not a number')
    # Unclosed B: open to the end of time.
    for key, starts in be.items():
        for s in starts:
            tracks[key].append((s, float('inf')))
    # Nesting: on one track, slices nest or are disjoint.
    for key, sl in tracks.items():
        sl.sort(key=lambda p: (p[0], -p[1]))
        stack = []
        for s, t in sl:
            while stack and stack[-1] <= s:
                stack.pop()
            if stack and t > stack[-1]:
                bad(f'track {key}: slice [{s}, {t}) crosses the end of an enclosing one at {stack[-1]}')
            stack.append(t)
    # Flows: one s and one f per id, same cat and name, each inside a slice of its track.
    def inside(key, ts):
        sl = tracks.get(key, [])
        j = bisect.bisect_right(sl, (ts, float('inf')))
        return any(a <= ts <= b for a, b in sl[max(0, j - 64):j])
    for fid, pts in flows.items():
        phs = sorted(p[0] for p in pts)
        if phs != ['f', 's']:
            bad(f'flow {fid}: points {phs}, want one s and one f')
            continue
        if len({(p[1], p[2]) for p in pts}) != 1:
            bad(f'flow {fid}: cat/name differ between its ends')
        for ph, _, _, pid, tid, ts in pts:
            if not inside((pid, tid), ts):
                bad(f'flow {fid}: {ph} at {ts} ns on {(pid, tid)} is in no slice')
    for key, phs in asyncs.items():
        if phs.count('b') != 1 or phs.count('e') > 1:
            bad(f'async {key}: phases {phs}')
    for pid in used_pids:
        if pid not in plabels:
            bad(f'pid {pid}: no process_labels')
    for key in used_tracks:
        if key[0] not in pnames and key[0] not in plabels:
            bad(f'track {key}: process not named')
    if problems:
        print('\n'.join(problems))
        return 1
    print(json.dumps(dict(sorted(counts.items()))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
