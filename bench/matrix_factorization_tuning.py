#!/usr/bin/python3
"""The step-size protocol of bench/matrix_factorization_results.md (issue 19, session 4).

Tunes DSGLD's step, pSGLD's step and HAMCMC's gamma (eps = 1, so eps gamma) the same way on
a tuning split, then runs the picks on other splits and prints markdown tables:

  1. a 7-point grid with ratio sqrt(2) around each method's centre, on TUNE_SEED;
  2. the two 2^(1/4) neighbours of each method's stage-1 pick, on TUNE_SEED;
  3. the pick = the lowest mean of the averaged test RMSE at 1000, 2000 and 5000 iterations
     among the runs that did not diverge (the tool stops a diverged run with an error);
  4. the picks (and the tools' current defaults) on each of EVAL_SEEDS.

The seed draws the 90/10 split and the chains, so the evaluation splits are never tuned on.
Every run: MovieLens 100k, K = 10, sigmas 1, P = 4, 5000 iterations, 50 burn-in samples,
one rank, `nice -n 5`, one thread (about 2.5 s per DSGLD or pSGLD run and 5 s per HAMCMC
run on one core of the build machine; the whole script takes about 5 minutes).

Usage (from the repository root, after `./bazelw build -c opt //tools:matrix_factorization`):
  /usr/bin/python3 bench/matrix_factorization_tuning.py \
      [--binary=bazel-out/k8-opt/bin/tools/matrix_factorization] \
      [--ratings=../shared/data/movielens-100k/u.data.gz] [--out=/tmp/mf_tuning] \
      [--center_ratings]
--center_ratings passes the tool's --center_ratings to every run (the same grids and rules;
use another --out so that no run directory is shared).
"""

import argparse
import csv
import os
import statistics
import subprocess

CHECKPOINTS = (1000, 2000, 5000)
# method -> (flag, stage-1 centre, the tools' current default)
METHODS = {
    "sgld": ("sgld_step", 5e-4, 5e-4),
    "psgld": ("psgld_step", 1e-6, 1e-6),
    "hamcmc": ("hamcmc_gamma", 0.25, 0.25),
}
NAMES = {"sgld": "DSGLD", "psgld": "pSGLD", "hamcmc": "HAMCMC"}


def run(args, method, value, seed):
    """Averaged test RMSE at CHECKPOINTS, or None if the run diverged."""
    flag = METHODS[method][0]
    out = os.path.join(args.out, f"{method}_{value:.3g}_seed{seed}")
    command = ["nice", "-n", "5", args.binary, f"--ratings={args.ratings}",
               f"--methods={method}", f"--seed={seed}", "--iterations=5000",
               "--record_every=1000", "--noplot", f"--output_dir={out}",
               f"--{flag}={value:.3g}"] + (["--center_ratings"] if args.center_ratings else [])
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        if "diverged" in result.stderr:
            return None
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stderr}")
    with open(os.path.join(out, "rmse.csv"), newline="") as f:
        rows = {int(r["iteration"]): float(r["average_rmse"] or "nan")  # empty in burn-in
                for r in csv.DictReader(f)}
    return [rows[i] for i in CHECKPOINTS]


def cell(rmse):
    return "diverged" if rmse is None else " / ".join(f"{x:.4f}" for x in rmse)


def pick(results):
    finite = {v: r for v, r in results.items() if r is not None}
    return min(finite, key=lambda v: statistics.mean(finite[v]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default="bazel-out/k8-opt/bin/tools/matrix_factorization")
    parser.add_argument("--ratings", default="../shared/data/movielens-100k/u.data.gz")
    parser.add_argument("--out", default="/tmp/mf_tuning")
    parser.add_argument("--tune_seed", type=int, default=2)
    parser.add_argument("--eval_seeds", default="1,3,4,5")
    parser.add_argument("--center_ratings", action="store_true",
                        help="pass --center_ratings to every run of the tool")
    args = parser.parse_args()
    eval_seeds = [int(s) for s in args.eval_seeds.split(",")]

    picks = {}
    print(f"## Tuning split (seed {args.tune_seed}): averaged RMSE at 1000 / 2000 / 5000\n")
    for method, (flag, centre, _) in METHODS.items():
        results = {}
        for k in range(-3, 4):
            value = float(f"{centre * 2 ** (k / 2):.3g}")
            results[value] = run(args, method, value, args.tune_seed)
        stage1 = pick(results)
        for k in (-1, 1):
            value = float(f"{stage1 * 2 ** (k / 4):.3g}")
            results.setdefault(value, run(args, method, value, args.tune_seed))
        picks[method] = pick(results)
        print(f"| {NAMES[method]} --{flag} | 1000 / 2000 / 5000 | mean |")
        print("|---|---|---|")
        for value in sorted(results):
            r = results[value]
            mean = "" if r is None else f"{statistics.mean(r):.4f}"
            mark = " (pick)" if value == picks[method] else ""
            print(f"| {value:.3g}{mark} | {cell(r)} | {mean} |")
        print()

    print(f"## Evaluation splits (seeds {args.eval_seeds})\n")
    print("| method | " + " | ".join(f"seed {s}" for s in eval_seeds) + " | mean |")
    print("|---|" + "---|" * (len(eval_seeds) + 1))
    for method, (flag, _, default) in METHODS.items():
        for value in sorted({picks[method], default}):
            label = f"{NAMES[method]} {value:.3g}"
            label += " (pick)" if value == picks[method] else ""
            label += " (default)" if value == default else ""
            rmse = [run(args, method, value, s) for s in eval_seeds]
            finite = [r for r in rmse if r is not None]
            mean = ("" if not finite else
                    " / ".join(f"{statistics.mean(c):.4f}" for c in zip(*finite)))
            print(f"| {label} | " + " | ".join(cell(r) for r in rmse) + f" | {mean} |")


if __name__ == "__main__":
    main()
