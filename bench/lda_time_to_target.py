#!/usr/bin/python3
"""Time to scikit-learn's 5-pass fold-in perplexity for several `lda` run settings (tuning).

Used to pick preset sgrld_fast_early (bench/README.md, issue 22) on validation seeds: trains
each run of ours with the `lda` tool (one thread, K = 50, minibatch 50) on the corpus and
split of --seed, and reads the tool's own fold-in scores (point_trace_RUN.csv, the scores
lda_vs_sklearn.py checks bit for bit) against the scikit-learn curve of an earlier
`lda_vs_sklearn.py --sklearn_only` run on the same corpus and seed:

  /usr/bin/python3 bench/lda_vs_sklearn.py --corpus=ap --seed=2 --sklearn_passes=6 \\
      --sklearn_only --out=/tmp/sk_s2
  /usr/bin/python3 bench/lda_time_to_target.py --sklearn_from=/tmp/sk_s2/ap --passes=4 \\
      --evaluations=40 --out=/tmp/tune \\
      "base|preset: 'sgrld_fast' burn_in: 60" \\
      "early|preset: 'sgrld_fast' burn_in: 60 early_gibbs_sweeps: 6 early_iterations: 60"

Each run is NAME|LdaRunConfig fields. Prints, per run, the CPU seconds of training at which
its last sample and its posterior mean first reach the target, the speed-up against
scikit-learn, and the final values.
"""

import argparse
import csv
import json
import os
import subprocess
import sys

import lda_vs_sklearn as harness


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sklearn_from", required=True,
                        help="an lda_vs_sklearn.py output directory with sklearn_curve.json")
    parser.add_argument("--passes", type=float, default=4)
    parser.add_argument("--evaluations", type=int, default=40)
    parser.add_argument("--target_passes", type=float, default=5)
    parser.add_argument("--out", required=True)
    parser.add_argument("--bin_dir", default="",
                        help="directory with a prebuilt lda (default: bazel-bin, -c opt)")
    parser.add_argument("runs", nargs="+", help="NAME|LdaRunConfig fields")
    args = parser.parse_args()

    with open(os.path.join(args.sklearn_from, "sklearn_curve.json")) as f:
        sk = json.load(f)
    if sk["clock"] != "cpu":
        parser.error("the scikit-learn curve must be in CPU seconds")
    target_row = min(sk["curve"], key=lambda c: abs(c[2] - args.target_passes))
    target = target_row[1]
    sk_reach = harness.time_to_reach([(s, p) for s, p, _ in sk["curve"]], target)
    lda = os.path.join(args.bin_dir or os.path.join(harness.bazel_bin(), "tools"), "lda")

    train_dir = os.path.join(args.sklearn_from, "train")
    with open(os.path.join(train_dir, "docword.txt")) as f:
        num_docs = int(f.readline())
    iterations = int(round(args.passes * num_docs / sk["batch"]))
    os.makedirs(args.out, exist_ok=True)
    config = harness.corpus_block(sk["corpus"]) + "seed: %d\nthreads: 1\n" % sk["seed"]
    config += "eval_every: %d\noutput_dir: '%s'\n" % (max(1, iterations // args.evaluations),
                                                      os.path.abspath(args.out))
    names = []
    for run in args.runs:
        name, fields = run.split("|", 1)
        names.append((name, fields))
        config += "runs { name: '%s' num_topics: %d minibatch_size: %d iterations: %d %s }\n" % (
            name, sk["topics"], sk["batch"], iterations, fields)
    config_path = os.path.join(args.out, "config.textpb")
    with open(config_path, "w") as f:
        f.write(config)
    with open(os.path.join(args.out, "lda_log.txt"), "w") as log:
        subprocess.run([lda, "--config=" + config_path, "--plot=false"], check=True, stderr=log)

    print("%s seed %d: target %.1f (scikit-learn after %g passes), reached by scikit-learn at "
          "%s CPU s" % (sk["corpus"], sk["seed"], target, target_row[2], harness.fmt(sk_reach, 2)))
    for name, fields in names:
        with open(os.path.join(args.out, "point_trace_%s.csv" % name)) as f:
            rows = list(csv.DictReader(f))
        last = [(float(r["train_cpu_seconds"]), float(r["fold_in_perplexity_last"])) for r in rows]
        mean = [(float(r["train_cpu_seconds"]), float(r["fold_in_perplexity_mean"]))
                for r in rows if int(r["mean_samples"]) > 0]
        reach_last = harness.time_to_reach(last, target)
        reach_mean = harness.time_to_reach(mean, target)
        reached = [r for r in (reach_last, reach_mean) if r is not None]
        print("  %-20s last %s s, mean %s s, speed-up %s; final last %.1f, mean %s after %.2f s"
              " | %s" % (name, harness.fmt(reach_last, 2), harness.fmt(reach_mean, 2),
                         "%.2fx" % (sk_reach / min(reached)) if reached and sk_reach else "-",
                         last[-1][1], harness.fmt(mean[-1][1] if mean else None),
                         last[-1][0], fields))


if __name__ == "__main__":
    sys.exit(main())
