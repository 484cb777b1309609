#!/usr/bin/python3
"""Markdown table of bench/accelerated_dp_section41.sh's runs (one directory per label).

For each seed and start: Y = Algorithm 8 sweeps and X = accelerated iterations to within 1%
of the reference (identical in every repetition), the medians over repetitions of their
seconds (milliseconds here) and of the measured ratio (collapsed seconds / accelerated
seconds; ">=" when Algorithm 8 never got within 1%: its whole run time), the iteration-count
ratios P*Y/X (the speed-up if a worker's iteration cost 1/P of a sweep on P dedicated cores,
communication free) and min(P,2)*Y/X (the same on this 2-core machine; not bounds: from a
100-cluster start a worker's iteration skips the features absent from its rows and costs
less than that, while Algorithm 8's first sweeps visit all 100), and the final test log predictive (features)
of each method. Then the median ratio per start and the 1-minute load averages logged.

Usage: accelerated_dp_section41_table.py DIR
"""
import csv
import glob
import math
import os
import re
import statistics
import sys


def read_summary(path):
    rows = {}
    with open(path) as f:
        for line in f:
            if line.startswith('#') or line.startswith('method,'):
                continue
            method, init, final, features, seconds, t1, i1 = line.strip().split(',')
            rows[(method, init)] = dict(final=float(final), features=int(features),
                                        seconds=float(seconds), t1=float(t1), i1=int(i1))
    return rows


def main():
    base = sys.argv[1]
    runs = {}  # seed -> list of (summary rows)
    workers = None
    for d in sorted(glob.glob(os.path.join(base, 's*r*'))):
        if not os.path.isdir(d):
            continue
        seed = int(re.match(r's(\d+)r\d+', os.path.basename(d)).group(1))
        runs.setdefault(seed, []).append(read_summary(os.path.join(d, 'summary.csv')))
        with open(d + '.log') as f:
            m = re.search(r'accelerated_dp: (\d+) rank', f.read())
            workers = int(m.group(1)) if m else workers
    p = workers or 1
    print(f'P = {p} workers; medians over {len(next(iter(runs.values())))} repetition(s)\n')
    print('| seed | start | Alg. 8 sweeps Y | Alg. 8 ms | accel. iterations X | accel. ms | '
          'measured ratio | P·Y/X | min(P,2)·Y/X | final Alg. 8 (K) | final accel. (K) | '
          'final hybrid (K) | final slice (K) |')
    print('|' + '---|' * 13)
    ratios = {}
    for seed in sorted(runs):
        reps = runs[seed]
        for init in ['one', 'random', 'kmeans']:
            if ('accelerated', init) not in reps[0] or ('collapsed', init) not in reps[0]:
                continue
            c0, a0 = reps[0][('collapsed', init)], reps[0][('accelerated', init)]
            for r in reps:  # the draws are bit-identical: so are the iteration counts
                assert r[('collapsed', init)]['i1'] == c0['i1']
                assert r[('accelerated', init)]['i1'] == a0['i1']
            y, x = c0['i1'], a0['i1']
            bound = y < 0
            c_ms = [1e3 * (r[('collapsed', init)]['seconds'] if bound else
                           r[('collapsed', init)]['t1']) for r in reps]
            a_ms = [1e3 * r[('accelerated', init)]['t1'] for r in reps]
            rep_ratio = [c / a if a > 0 else math.nan for c, a in zip(c_ms, a_ms)]
            ratio = statistics.median(rep_ratio) if x > 0 else math.nan
            ratios.setdefault(init, []).append(ratio)
            y_text = 'never in run' if bound else str(y)
            ideal = (lambda f: '∞' if bound else ('n/a' if x <= 0 else f'{f * y / x:.1f}'))
            finals = []
            for method in ['collapsed', 'accelerated', 'hybrid', 'uncollapsed']:
                row = reps[0].get((method, init))
                finals.append(f'{row["final"]:.0f} ({row["features"]})' if row else '-')
            print(f'| {seed} | {init} | {y_text} | {statistics.median(c_ms):.1f} | '
                  f'{x if x >= 0 else "never"} | {statistics.median(a_ms):.1f} | '
                  f'{">= " if bound else ""}{ratio:.2f} | {ideal(p)} | {ideal(min(p, 2))} | '
                  + ' | '.join(finals) + ' |')
    print()
    for init, values in ratios.items():
        finite = [v for v in values if not math.isnan(v)]
        med = statistics.median(finite) if finite else math.nan
        print(f'- {init}: median measured ratio {med:.2f} (range {min(finite):.2f}-'
              f'{max(finite):.2f}) over {len(finite)} seeds' if finite else f'- {init}: n/a')
    loads = []
    with open(os.path.join(base, 'load.txt')) as f:
        for line in f:
            m = re.search(r'load average: ([\d.]+)', line)
            if m:
                loads.append(float(m.group(1)))
    print(f'- 1-minute load average before the runs: {min(loads):.2f}-{max(loads):.2f} '
          f'(median {statistics.median(loads):.2f})')


if __name__ == '__main__':
    main()
