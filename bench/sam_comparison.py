#!/usr/bin/python3
"""Tabulates bench/sam_comparison.sh: the held-out log-perplexity of every method and step size
at equal sampler wall time, mean ± standard deviation over the seeds.

Usage: /usr/bin/python3 bench/sam_comparison.py OUTPUT_DIR

Reads OUTPUT_DIR/{sg,gmc}_step<ε>_seed<s>/sam_perplexity.csv (method, iteration, seconds,
log_perplexity). The value of a run at a mark of t seconds is its last evaluation with
seconds <= t (the best the run had to show by then); a run with no evaluation by t is left
out of that cell. Prints a Markdown table per step size and the tuned table (each method at
its step with the lowest mean at the last mark); lower is better.
"""
import csv
import glob
import os
import re
import statistics
import sys

MARKS = (5, 10, 20, 30)


def main(out):
    runs = {}  # (method, step) -> seed -> [(seconds, log_perplexity)]
    for path in sorted(glob.glob(os.path.join(out, "*_step*_seed*", "sam_perplexity.csv"))):
        match = re.search(r"_step([^_]+)_seed(\d+)", os.path.dirname(path))
        step, seed = match.group(1), int(match.group(2))
        with open(path) as f:
            for row in csv.DictReader(f):
                runs.setdefault((row["method"], step), {}).setdefault(seed, []).append(
                    (float(row["seconds"]), float(row["log_perplexity"])))

    def cell(series_by_seed, mark):
        values = []
        for series in series_by_seed.values():
            before = [lp for s, lp in series if s <= mark]
            if before:
                values.append(before[-1])
        if not values:
            return None, "n/a"
        mean = statistics.mean(values)
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        return mean, f"{mean:.1f} ± {sd:.1f} ({len(values)})"

    header = "| method | step | " + " | ".join(f"{m} s" for m in MARKS) + " |"
    rule = "|" + "---|" * (len(MARKS) + 2)
    print("All runs (mean ± sd over seeds (number of seeds with an evaluation by then)):\n")
    print(header)
    print(rule)
    best = {}
    for (method, step), by_seed in sorted(runs.items()):
        cells = [cell(by_seed, m) for m in MARKS]
        print(f"| {method} | {step} | " + " | ".join(c[1] for c in cells) + " |")
        last = cells[-1][0]
        if last is not None and (method not in best or last < best[method][0]):
            best[method] = (last, step, cells)
    print("\nTuned (each method at its best step by the last mark):\n")
    print(header)
    print(rule)
    for method, (_, step, cells) in sorted(best.items()):
        print(f"| {method} | {step} | " + " | ".join(c[1] for c in cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
