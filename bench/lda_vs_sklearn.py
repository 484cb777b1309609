#!/usr/bin/python3
"""Time-to-perplexity of our SCIR and SGRLD LDA against scikit-learn's online variational LDA.

One run, one corpus, one split, one perplexity code for everybody:
  1. builds //tools:lda and //tools:lda_evaluate (-c opt);
  2. writes an LdaConfig for the corpus (K = 50, minibatches of 50 documents, 1 thread) and
     exports the training part of its held-out split with lda_evaluate --export_train_dir;
  3. trains scikit-learn's LatentDirichletAllocation (learning_method="online", batch_size=50,
     n_components=50, one thread) by partial_fit over shuffled minibatches for --passes
     passes, timing only partial_fit, and saves the normalised components_ at every snapshot;
  4. runs the `lda` tool with SCIR and SGRLD (presets scir_fast / sgrld_fast at K = 50,
     --gibbs_sweeps per document) for as many minibatches as scikit-learn's passes (times
     --our_passes_factor), timing only training (the tool excludes its evaluations);
  5. scores scikit-learn's snapshots with lda_evaluate: the same test documents, the same
     document-completion split (every 10th token held out) and the same Gibbs-based
     perplexity code as our runs (alpha = scikit-learn's doc_topic_prior);
  6. prints, side by side, the perplexity against training seconds of all three methods and
     the time each needs to reach the perplexity scikit-learn reaches after its last pass,
     and draws bench_out/time_to_perplexity.png (gnuplot).

Our runs report the running mean of p_dw over the evaluations after burn-in (half of the
iterations), the SG-MCMC estimate of the posterior predictive; scikit-learn's point
estimates are scored one snapshot at a time.

Run with Debian's python3 (it has python3-sklearn; the pyenv python3 on PATH does not):
  /usr/bin/python3 bench/lda_vs_sklearn.py --corpus=kos
  /usr/bin/python3 bench/lda_vs_sklearn.py --corpus=ap --passes=5
  /usr/bin/python3 bench/lda_vs_sklearn.py --corpus=20news --passes=5
"""

import argparse
import csv
import os
import shutil
import subprocess
import sys
import time

# One thread for numpy / scikit-learn, set before they are imported.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import numpy as np  # noqa: E402
import scipy.sparse  # noqa: E402
from sklearn.decomposition import LatentDirichletAllocation  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.environ.get("SGMCMC_SHARED_DATA", os.path.join(os.path.dirname(REPO), "shared", "data"))

CORPORA = {
    # name: (docword, vocab, test docword or None)
    "kos": None,  # the embedded corpus
    "ap": ("ap/docword.ap.txt.gz", "ap/vocab.ap.txt", None),
    "20news": ("20newsgroups/docword.20news.train.txt.gz", "20newsgroups/vocab.20news.txt",
               "20newsgroups/docword.20news.test.txt.gz"),
}


def run(command, **kwargs):
    print("+", " ".join(command), file=sys.stderr, flush=True)
    return subprocess.run(command, check=True, cwd=REPO, **kwargs)


def build():
    run(["./bazelw", "build", "-c", "opt", "//tools:lda", "//tools:lda_evaluate"])
    out = subprocess.run(["./bazelw", "info", "-c", "opt", "bazel-bin"], check=True, cwd=REPO,
                         capture_output=True, text=True).stdout.strip()
    return os.path.join(out, "tools", "lda"), os.path.join(out, "tools", "lda_evaluate")


def corpus_block(name):
    spec = CORPORA[name]
    if spec is None:
        return ""  # embedded KOS
    docword, vocab, test = spec
    block = 'corpus {\n  uci { docword: "%s" vocab: "%s" }\n' % (
        os.path.join(DATA, docword), os.path.join(DATA, vocab))
    if test:
        block += '  test_uci { docword: "%s" vocab: "%s" }\n' % (
            os.path.join(DATA, test), os.path.join(DATA, vocab))
    return block + "}\n"


def read_uci(directory):
    """The exported training corpus as a CSR document-term matrix."""
    import gzip  # noqa: F401 (plain text here)
    with open(os.path.join(directory, "docword.txt")) as f:
        num_docs = int(f.readline())
        vocabulary_size = int(f.readline())
        f.readline()
        data = np.loadtxt(f, dtype=np.int64, ndmin=2)
    rows, cols, counts = data[:, 0] - 1, data[:, 1] - 1, data[:, 2]
    return scipy.sparse.csr_matrix((counts.astype(np.float64), (rows, cols)),
                                   shape=(num_docs, vocabulary_size))


def train_sklearn(matrix, args, snapshot_dir):
    """Online VB by partial_fit over shuffled minibatches; returns [(seconds, path, pass)]."""
    num_docs = matrix.shape[0]
    model = LatentDirichletAllocation(
        n_components=args.topics, learning_method="online", batch_size=args.batch,
        total_samples=num_docs, n_jobs=1, random_state=args.seed,
        learning_offset=10.0, learning_decay=0.7)
    rng = np.random.default_rng(args.seed)
    batches_per_pass = (num_docs + args.batch - 1) // args.batch
    snapshot_every = max(1, batches_per_pass // args.snapshots_per_pass)
    seconds, snapshots, step = 0.0, [], 0
    for epoch in range(args.passes):
        order = rng.permutation(num_docs)
        for b in range(batches_per_pass):
            batch = matrix[order[b * args.batch:(b + 1) * args.batch]]
            start = time.perf_counter()
            model.partial_fit(batch)
            seconds += time.perf_counter() - start
            step += 1
            if step % snapshot_every == 0 or b == batches_per_pass - 1:
                path = os.path.join(snapshot_dir, "sklearn_%05d.f64" % step)
                topics = model.components_ / model.components_.sum(axis=1, keepdims=True)
                topics.astype("<f8").tofile(path)
                snapshots.append((seconds, path, step / batches_per_pass))
        print("scikit-learn pass %d: %.1f s" % (epoch + 1, seconds), file=sys.stderr, flush=True)
    return snapshots, model.doc_topic_prior_


def read_trace(path):
    with open(path) as f:
        return [(float(r["train_seconds"]), float(r["running_perplexity"]), int(r["iteration"]))
                for r in csv.DictReader(f)]


def time_to_reach(curve, target):
    for seconds, perplexity in curve:
        if perplexity <= target:
            return seconds
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="kos")
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--passes", type=int, default=5, help="scikit-learn passes")
    parser.add_argument("--our_passes_factor", type=float, default=1.0,
                        help="our runs visit this many times scikit-learn's documents")
    parser.add_argument("--gibbs_sweeps", type=int, default=0,
                        help="Gibbs sweeps per document for our runs (0: the presets')")
    parser.add_argument("--snapshots_per_pass", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval_every", type=int, default=0,
                        help="our evaluation period in iterations (0: 40 per run)")
    parser.add_argument("--out", default=os.path.join(REPO, "bench_out"))
    parser.add_argument("--skip_build", action="store_true")
    parser.add_argument("--bin_dir", default="",
                        help="directory with prebuilt lda and lda_evaluate (and their "
                        ".runfiles), e.g. copies of bazel-bin/tools; skips the build")
    args = parser.parse_args()

    out = os.path.abspath(os.path.join(args.out, args.corpus))
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "snapshots"))
    if args.bin_dir:
        lda, evaluate = (os.path.join(os.path.abspath(args.bin_dir), t)
                         for t in ("lda", "lda_evaluate"))
    elif args.skip_build:
        bin_dir = subprocess.run(["./bazelw", "info", "-c", "opt", "bazel-bin"], check=True,
                                 cwd=REPO, capture_output=True, text=True).stdout.strip()
        lda, evaluate = (os.path.join(bin_dir, "tools", t) for t in ("lda", "lda_evaluate"))
    else:
        lda, evaluate = build()

    # The split, and scikit-learn's training data from it.
    base = corpus_block(args.corpus) + "seed: %d\nthreads: 1\n" % args.seed
    base_path = os.path.join(out, "split.textpb")
    with open(base_path, "w") as f:
        f.write(base)
    run([evaluate, "--config=" + base_path, "--export_train_dir=" + os.path.join(out, "train")])
    matrix = read_uci(os.path.join(out, "train"))
    num_docs = matrix.shape[0]

    # scikit-learn.
    snapshots, sklearn_alpha = train_sklearn(matrix, args, os.path.join(out, "snapshots"))
    scores_path = os.path.join(out, "sklearn_scores.csv")
    run([evaluate, "--config=" + base_path, "--alpha=%r" % sklearn_alpha,
         "--topics=" + ",".join(p for _, p, _ in snapshots), "--output=" + scores_path])
    with open(scores_path) as f:
        scores = {r["file"]: float(r["perplexity"]) for r in csv.DictReader(f)}
    sklearn_curve = [(s, scores[p]) for s, p, _ in snapshots]

    # Our samplers, as many minibatches as scikit-learn's passes (times the factor).
    iterations = int(round(args.passes * args.our_passes_factor * num_docs / args.batch))
    eval_every = args.eval_every or max(1, iterations // 40)
    runs = ""
    for preset in ("scir_fast", "sgrld_fast"):
        runs += "runs { preset: '%s' num_topics: %d minibatch_size: %d iterations: %d%s }\n" % (
            preset, args.topics, args.batch, iterations,
            " gibbs_sweeps: %d" % args.gibbs_sweeps if args.gibbs_sweeps else "")
    config_path = os.path.join(out, "ours.textpb")
    with open(config_path, "w") as f:
        f.write(base + "eval_every: %d\noutput_dir: '%s'\n%s" % (eval_every, out, runs))
    run([lda, "--config=" + config_path])
    ours = {name: read_trace(os.path.join(out, "trace_%s.csv" % name))
            for name in ("scir_fast", "sgrld_fast")}

    # The comparison.
    target = sklearn_curve[-1][1]
    print()
    print("corpus %s: %d training documents, K = %d, minibatch %d, one thread; perplexity by "
          "document completion on the same split" % (args.corpus, num_docs, args.topics,
                                                       args.batch))
    print("target = scikit-learn's perplexity after %d passes: %.1f" % (args.passes, target))
    print()
    print("%-24s %12s %14s %16s" % ("method", "train s", "final perp.", "s to target"))
    rows = [("scikit-learn online VB", sklearn_curve[-1][0], target,
             time_to_reach(sklearn_curve, target))]
    for name, trace in ours.items():
        curve = [(s, p) for s, p, _ in trace]
        rows.append(("ours " + name, curve[-1][0], curve[-1][1], time_to_reach(curve, target)))
    for name, seconds, final, reach in rows:
        print("%-24s %12.1f %14.1f %16s" % (name, seconds, final,
                                             "-" if reach is None else "%.1f" % reach))
    print()
    print("perplexity against training seconds:")
    print("%-24s %s" % ("scikit-learn", "  ".join("%.1fs:%.0f" % c for c in sklearn_curve)))
    for name, trace in ours.items():
        print("%-24s %s" % (name, "  ".join("%.1fs:%.0f" % (s, p) for s, p, _ in trace)))

    with open(os.path.join(out, "sklearn_trace.csv"), "w") as f:
        f.write("train_seconds,perplexity\n")
        for s, p in sklearn_curve:
            f.write("%.6f,%.9g\n" % (s, p))
    if shutil.which("gnuplot"):
        script = os.path.join(REPO, "bench", "time_to_perplexity.gp")
        subprocess.run(["gnuplot", "-e", "dir='%s'; corpus='%s'" % (out, args.corpus), script],
                       check=False)
        print("\nplot: %s/time_to_perplexity.png" % out)


if __name__ == "__main__":
    main()
