#!/usr/bin/python3
"""Time to quality of our SCIR and SGRLD LDA against scikit-learn's online variational LDA.

One corpus, one split, ONE evaluator for every point estimate of every method:
  1. builds //tools:lda and //tools:lda_evaluate (-c opt), or uses --bin_dir;
  2. writes an LdaConfig for the corpus (K = 50, minibatches of 50 documents, 1 thread) and
     exports the training part of its held-out split with lda_evaluate --export_train_dir;
  3. trains scikit-learn's LatentDirichletAllocation (learning_method="online",
     batch_size=50, n_jobs=1) by partial_fit over shuffled minibatches for --sklearn_passes
     passes in a child process whose numpy loads OpenBLAS from Debian's libopenblas0-pthread
     (third_party/debian_packages.txt; its directory found with dpkg -L, else ldconfig -p, and
     put first on LD_LIBRARY_PATH; one BLAS thread: the BLAS a pip-installed numpy brings),
     timing only partial_fit, and saves components_ at snapshots
     (--snapshots_per_pass for the first --target_passes passes, then one per pass); the child
     reports the BLAS that ran (threadpoolctl);
  4. runs the `lda` tool with SCIR and SGRLD (presets scir_fast / sgrld_fast, K = 50, batch
     50, one thread; --our_topic_update picks SCIR's eager or lazy topic update, or both;
     --our_presets adds runs of other presets, e.g. sgrld_fast_early) for
     --our_passes passes, writing the last sample and the posterior mean
     (kept samples after burn-in) as .phi snapshots at every evaluation; the tool's
     train_seconds exclude evaluations and snapshot writing, as scikit-learn's exclude its
     snapshots (only partial_fit is timed): both sides time exactly the training calls;
  5. scores every snapshot of every method with lda_evaluate --gibbs=false, i.e. the C++ fold-in
     evaluator (eval/fold_in.h: θ of each test document folded in from its observed half with
     φ fixed by fixed-point iterations, α = the model's, perplexity on the held-out half), and
     checks that it reproduces, bit for bit, the scores the lda tool wrote (point_trace);
  6. prints the unigram baseline (the training documents' word frequencies, add-one smoothed,
     scored by the same fold-in evaluator: K = 1), the time each method needs to reach
     scikit-learn's --target_passes-pass perplexity for good (the training seconds after which
     its curve stays at or below the target; a curve that dips below it and rises again has
     not reached it), the final values and the ratios asked by issue 22, the running-mean Gibbs
     predictive of our runs in its own, separately labelled column (never mixed with the point
     estimates), and draws perplexity against seconds (matplotlib) to
     bench_out/<corpus>/time_to_perplexity.png; the table also goes to summary.md there.

Run with Debian's python3 (it has python3-sklearn, matplotlib, threadpoolctl):
  /usr/bin/python3 bench/lda_vs_sklearn.py --corpus=kos
Any UCI corpus (docword + vocabulary; --test_docword for a separate test set over the same
vocabulary) or raw text (one document per line, or a directory), named by --name:
  /usr/bin/python3 bench/lda_vs_sklearn.py --name=reuters \
      --docword=../shared/data/reuters21578/docword.reuters21578.txt.gz \
      --vocab=../shared/data/reuters21578/vocab.reuters21578.txt
  /usr/bin/python3 bench/lda_vs_sklearn.py --name=titles --text=/tmp/titles.txt
  /usr/bin/python3 bench/lda_vs_sklearn.py --corpus=20news --sklearn_passes=20 --our_passes=20
scikit-learn's training can be done once and reused (same corpus, seed, clock):
  /usr/bin/python3 bench/lda_vs_sklearn.py --corpus=20news --sklearn_passes=50 --sklearn_only \
      --out=bench_out_sk
  /usr/bin/python3 bench/lda_vs_sklearn.py --corpus=20news --sklearn_from=bench_out_sk/20news \
      --our_samplers= --our_presets=sgrld_fast_early --burn_in_iterations=60 --our_passes=5
"""

import argparse
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.environ.get("SGMCMC_SHARED_DATA", os.path.join(os.path.dirname(REPO), "shared", "data"))
OPENBLAS_PACKAGE = "libopenblas0-pthread"  # third_party/debian_packages.txt
# Run name -> (preset, topic update); "scir_fast_lazy" is SCIR with topic_update LAZY.
RUNS = {"scir_fast": ("scir_fast", "EAGER"), "scir_fast_lazy": ("scir_fast", "LAZY"),
        "sgrld_fast": ("sgrld_fast", "EAGER")}

CORPORA = {
    # name: (docword, vocab, test docword or None)
    "kos": None,  # the embedded corpus
    "ap": ("ap/docword.ap.txt.gz", "ap/vocab.ap.txt", None),
    "20news": ("20newsgroups/docword.20news.train.txt.gz", "20newsgroups/vocab.20news.txt",
               "20newsgroups/docword.20news.test.txt.gz"),
}


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def run(command, **kwargs):
    shown = [c if len(c) < 300 else c[:120] + "...(%d chars)" % len(c) for c in command]
    log("+", " ".join(shown))
    return subprocess.run(command, check=True, cwd=REPO, **kwargs)


def bazel_bin():
    return subprocess.run(["./bazelw", "info", "-c", "opt", "bazel-bin"], check=True, cwd=REPO,
                          capture_output=True, text=True).stdout.strip()


def corpus_spec(args, parser):
    """(name, docword, vocab, test docword, text) from --corpus or the explicit corpus flags.

    Paths are absolute; docword is None for the embedded KOS corpus, text None for UCI."""
    explicit = args.docword or args.vocab or args.test_docword or args.text
    if not explicit:
        spec = CORPORA[args.corpus or "kos"]
        if spec is None:
            return ("kos", None, None, None, None)
        docword, vocab, test = (os.path.join(DATA, f) if f else None for f in spec)
        return (args.corpus or "kos", docword, vocab, test, None)
    if args.corpus:
        parser.error("--corpus names a known corpus; give it or --docword/--vocab/--text, "
                     "not both")
    if args.text and (args.docword or args.vocab or args.test_docword):
        parser.error("--text (raw text) excludes --docword, --vocab and --test_docword")
    if not args.text and not (args.docword and args.vocab):
        parser.error("a UCI corpus needs both --docword and --vocab")
    if not args.name:
        parser.error("--name is required with --docword/--text (the output folder and the "
                     "table's label)")
    if not all(c.isalnum() or c in "_-." for c in args.name):
        parser.error("--name %r must be made of letters, digits, '_', '-' and '.'" % args.name)
    paths = [os.path.abspath(p) if p else None
             for p in (args.docword, args.vocab, args.test_docword, args.text)]
    for flag, path in zip(("--docword", "--vocab", "--test_docword", "--text"), paths):
        if path and not os.path.exists(path):
            parser.error("%s: %s does not exist" % (flag, path))
    return (args.name, *paths)


def corpus_block(spec):
    _, docword, vocab, test, text = spec
    if text:
        return 'corpus {\n  text { path: "%s" }\n}\n' % text
    if docword is None:
        return ""  # embedded KOS
    block = 'corpus {\n  uci { docword: "%s" vocab: "%s" }\n' % (docword, vocab)
    if test:
        block += '  test_uci { docword: "%s" vocab: "%s" }\n' % (test, vocab)
    return block + "}\n"


def openblas_directory():
    """The directory of Debian's libopenblas0-pthread libblas.so.3, wherever it is installed.

    dpkg -L lists the package's files; without dpkg (or the package), ldconfig -p's cache is
    searched for an openblas-pthread libblas.so.3. Exits with a message naming the package
    when neither finds it."""
    candidates = []
    try:
        listed = subprocess.run(["dpkg", "-L", OPENBLAS_PACKAGE], capture_output=True,
                                text=True)
        if listed.returncode == 0:
            candidates = [line.strip() for line in listed.stdout.splitlines()
                          if line.strip().endswith("/libblas.so.3")]
    except OSError:
        pass
    if not candidates:
        try:
            cache = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True).stdout
        except OSError:
            cache = ""
        candidates = [line.split("=>")[-1].strip() for line in cache.splitlines()
                      if "libblas.so.3" in line and "openblas-pthread" in line]
    for path in candidates:
        if os.path.exists(path):
            return os.path.dirname(os.path.realpath(path))
    sys.exit("lda_vs_sklearn.py: OpenBLAS not found: neither `dpkg -L %s` nor `ldconfig -p` "
             "lists its libblas.so.3; install the Debian package %s (listed in "
             "third_party/debian_packages.txt; ./bazelw installs it)" % (
                 OPENBLAS_PACKAGE, OPENBLAS_PACKAGE))


def read_docword_csr(path):
    """A UCI docword file (plain or .gz) as a documents x words scipy CSR matrix of counts
    (float64; row d is document d + 1, column w is word w + 1)."""
    import gzip
    import numpy as np
    import scipy.sparse
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        num_docs = int(f.readline())
        vocabulary_size = int(f.readline())
        f.readline()
        data = np.loadtxt(f, dtype=np.int64, ndmin=2)
    return scipy.sparse.csr_matrix(
        (data[:, 2].astype(np.float64), (data[:, 0] - 1, data[:, 1] - 1)),
        shape=(num_docs, vocabulary_size))


# ---------------------------------------------------------------------------------------------
# scikit-learn, in a child process with OpenBLAS.

def sklearn_worker(spec_path):
    """Trains scikit-learn as described by the JSON spec; writes its snapshots and BLAS info."""
    with open(spec_path) as f:
        spec = json.load(f)
    import numpy as np
    from sklearn.decomposition import LatentDirichletAllocation
    from threadpoolctl import threadpool_info

    matrix = read_docword_csr(os.path.join(spec["train_dir"], "docword.txt"))
    num_docs = matrix.shape[0]
    model = LatentDirichletAllocation(
        n_components=spec["topics"], learning_method="online", batch_size=spec["batch"],
        total_samples=num_docs, n_jobs=1, random_state=spec["seed"], learning_offset=10.0,
        learning_decay=0.7)
    rng = np.random.default_rng(spec["seed"])
    batch = spec["batch"]
    batches_per_pass = (num_docs + batch - 1) // batch
    dense_every = max(1, batches_per_pass // spec["snapshots_per_pass"])
    seconds, cpu, step, rows = 0.0, 0.0, 0, []
    for epoch in range(spec["passes"]):
        order = rng.permutation(num_docs)
        for b in range(batches_per_pass):
            minibatch = matrix[order[b * batch:(b + 1) * batch]]
            start, cpu_start = time.perf_counter(), time.process_time()
            model.partial_fit(minibatch)
            seconds += time.perf_counter() - start
            cpu += time.process_time() - cpu_start
            step += 1
            end_of_pass = b == batches_per_pass - 1
            if end_of_pass or (epoch < spec["target_passes"] and step % dense_every == 0):
                path = os.path.join(spec["snapshot_dir"], "sklearn_%06d.f64" % step)
                model.components_.astype("<f8").tofile(path)  # rows normalised by lda_evaluate
                rows.append({"wall": seconds, "cpu": cpu, "path": path,
                             "passes": step / batches_per_pass})
        log("scikit-learn pass %d: %.1f s (CPU %.1f s)" % (epoch + 1, seconds, cpu))
        if spec["max_seconds"] > 0 and cpu >= spec["max_seconds"]:
            log("scikit-learn: stopped after %d passes (--sklearn_max_seconds)" % (epoch + 1))
            break
    info = {"snapshots": rows, "alpha": float(model.doc_topic_prior_),
            "blas": threadpool_info(), "sklearn": __import__("sklearn").__version__,
            "numpy": np.__version__, "batches_per_pass": batches_per_pass}
    with open(spec["result"], "w") as f:
        json.dump(info, f, indent=1)


def train_sklearn(args, out, train_dir):
    snapshot_dir = os.path.join(out, "sklearn_snapshots")
    os.makedirs(snapshot_dir)
    spec = {"train_dir": train_dir, "topics": args.topics, "batch": args.batch,
            "seed": args.seed, "passes": args.sklearn_passes,
            "target_passes": args.target_passes, "snapshots_per_pass": args.snapshots_per_pass,
            "snapshot_dir": snapshot_dir, "max_seconds": args.sklearn_max_seconds,
            "result": os.path.join(out, "sklearn.json")}
    return run_blas_worker(os.path.abspath(__file__), "--sklearn_worker",
                           os.path.join(out, "sklearn_spec.json"), spec)


def run_blas_worker(script, flag, spec_path, spec):
    """Writes `spec` (JSON) to spec_path, runs `script flag=spec_path` in a child process with
    Debian's OpenBLAS first on LD_LIBRARY_PATH and one thread everywhere, and returns the JSON
    the child wrote to spec["result"]."""
    with open(spec_path, "w") as f:
        json.dump(spec, f)
    env = dict(os.environ)
    # OpenBLAS for this process only, one thread everywhere.
    blas_dir = openblas_directory()
    log("OpenBLAS for the child: %s (Debian package %s)" % (blas_dir, OPENBLAS_PACKAGE))
    env["LD_LIBRARY_PATH"] = blas_dir + (":" + env["LD_LIBRARY_PATH"]
                                             if env.get("LD_LIBRARY_PATH") else "")
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    run([sys.executable, script, flag + "=" + spec_path], env=env)
    with open(spec["result"]) as f:
        return json.load(f)


# ---------------------------------------------------------------------------------------------
# Scoring and the comparison.

def score(evaluate, config_path, alpha, paths, output):
    """Fold-in perplexity of each topic matrix by lda_evaluate, {path: perplexity}."""
    scores = {}
    for i in range(0, len(paths), 40):  # keep command lines short
        part = output + ".%d.csv" % i
        run([evaluate, "--config=" + config_path, "--alpha=%r" % alpha, "--gibbs=false",
             "--topics=" + ",".join(paths[i:i + 40]), "--output=" + part])
        with open(part) as f:
            for r in csv.DictReader(f):
                scores[r["file"]] = float(r["fold_in_perplexity"])
    return scores


def time_to_reach(curve, target):
    """The first time after which `curve` ((seconds, perplexity) in time order) stays at or
    below `target`: the time of the point after its last point above the target (the first
    point if none is above), or None when its last point is above."""
    reach = None
    for seconds, perplexity in curve:
        if perplexity > target:
            reach = None
        elif reach is None:
            reach = seconds
    return reach


def unigram_baseline(evaluate, config_path, train_dir, out):
    """Fold-in perplexity of the training documents' unigram distribution (add-one smoothed:
    (n_w + 1) / (N + V)), a one-topic matrix scored by the same evaluator as every method."""
    import numpy as np
    matrix = read_docword_csr(os.path.join(train_dir, "docword.txt"))
    vocabulary_size = matrix.shape[1]
    counts = np.asarray(matrix.sum(axis=0)).ravel()
    path = os.path.join(out, "unigram.f64")
    ((counts + 1) / (counts.sum() + vocabulary_size)).astype("<f8").tofile(path)
    return score(evaluate, config_path, 1.0, [path], os.path.join(out, "unigram_score"))[path]


def fmt(x, digits=1):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else "%.*f" % (digits, x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sklearn_worker", default="", help=argparse.SUPPRESS)
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="",
                        help="a known corpus under ../shared/data (default kos, the embedded "
                        "one); or give --docword/--vocab or --text with --name")
    parser.add_argument("--docword", default="",
                        help="UCI docword file (plain or .gz) of any corpus; needs --vocab")
    parser.add_argument("--vocab", default="", help="its UCI vocabulary file")
    parser.add_argument("--test_docword", default="",
                        help="optional UCI test documents over the same vocabulary (else 10%% "
                        "of the documents are held out, as the lda tool does)")
    parser.add_argument("--text", default="",
                        help="raw text instead: one document per line (plain or .gz) or a "
                        "directory of files (data/text_reader.h's tokenizer and stop words)")
    parser.add_argument("--name", default="",
                        help="the corpus' name with --docword or --text (output folder, table)")
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--target_passes", type=int, default=5,
                        help="the target is scikit-learn's perplexity after this many passes")
    parser.add_argument("--sklearn_passes", type=int, default=50)
    parser.add_argument("--sklearn_from", default="",
                        help="reuse the scikit-learn training and scores of an earlier run of "
                        "this harness: its output directory (bench_out/<corpus>), which holds "
                        "sklearn_curve.json; the same corpus, seed and clock are required")
    parser.add_argument("--sklearn_only", action="store_true",
                        help="train and score scikit-learn (writing sklearn_curve.json), "
                        "then stop")
    parser.add_argument("--sklearn_max_seconds", type=float, default=0,
                        help="stop scikit-learn after the pass that crosses this many CPU "
                        "seconds (0: none)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="seconds of training measured as process CPU time (default: "
                        "steadier on a shared machine) or wall time")
    parser.add_argument("--our_passes", type=float, default=50)
    parser.add_argument("--our_max_seconds", type=float, default=0,
                        help="max_seconds (wall) of each of our runs (0: none)")
    parser.add_argument("--burn_in_fraction", type=float, default=0.5,
                        help="our burn-in (posterior mean and running predictive) as a "
                        "fraction of our iterations")
    parser.add_argument("--burn_in_iterations", type=int, default=-1,
                        help="our burn-in in iterations (overrides --burn_in_fraction; e.g. "
                        "the end of sgrld_fast_early's early sweep schedule, 60)")
    parser.add_argument("--mean_every", type=int, default=1,
                        help="our posterior mean keeps every this many iterations")
    parser.add_argument("--evaluations", type=int, default=40,
                        help="our evaluations (and snapshots) per run")
    parser.add_argument("--snapshots_per_pass", type=int, default=4)
    parser.add_argument("--our_topic_update", choices=("eager", "lazy", "both"),
                        default="eager",
                        help="SCIR's topic update (lda --topic_update): eager, lazy (run "
                        "scir_fast_lazy) or both runs")
    parser.add_argument("--our_samplers", default="scir,sgrld",
                        help="comma-separated subset of scir,sgrld to run (presets scir_fast, "
                        "sgrld_fast); empty for none")
    parser.add_argument("--our_presets", default="",
                        help="comma-separated further presets to run (models/lda/lda.h, e.g. "
                        "sgrld_fast_early), each as a run of that name, eager topic update")
    parser.add_argument("--our_run_fields", default="",
                        help="LdaRunConfig fields (textproto) added to every one of our runs, "
                        "e.g. 'step_size { h: 0.2 }'")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=os.path.join(REPO, "bench_out"))
    parser.add_argument("--keep_snapshots", action="store_true",
                        help="keep the .phi / .f64 snapshots (large on 20 Newsgroups)")
    parser.add_argument("--bin_dir", default="",
                        help="directory with prebuilt lda and lda_evaluate (and their "
                        ".runfiles), e.g. copies of bazel-bin/tools; skips the build")
    parser.add_argument("--skip_build", action="store_true")
    args = parser.parse_args()
    if args.sklearn_worker:
        sklearn_worker(args.sklearn_worker)
        return

    corpus = corpus_spec(args, parser)
    args.corpus = corpus[0]
    out = os.path.abspath(os.path.join(args.out, args.corpus))
    if args.sklearn_from and os.path.abspath(args.sklearn_from) == out:
        parser.error("--sklearn_from must not be this run's output directory (it is cleared)")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    if args.bin_dir:
        tools = os.path.abspath(args.bin_dir)
    else:
        if not args.skip_build:
            run(["./bazelw", "build", "-c", "opt", "//tools:lda", "//tools:lda_evaluate"])
        tools = os.path.join(bazel_bin(), "tools")
    lda, evaluate = os.path.join(tools, "lda"), os.path.join(tools, "lda_evaluate")

    # The split, and scikit-learn's training data from it.
    base = corpus_block(corpus) + "seed: %d\nthreads: 1\n" % args.seed
    base_path = os.path.join(out, "split.textpb")
    with open(base_path, "w") as f:
        f.write(base)
    train_dir = os.path.join(out, "train")
    run([evaluate, "--config=" + base_path, "--export_train_dir=" + train_dir])
    with open(os.path.join(train_dir, "docword.txt")) as f:
        num_docs = int(f.readline())
    unigram = unigram_baseline(evaluate, base_path, train_dir, out)
    log("unigram baseline (fold-in perplexity of the add-one smoothed word frequencies): %.1f"
        % unigram)

    # scikit-learn: trained and scored here, or reused from an earlier run's output.
    if args.sklearn_from:
        with open(os.path.join(args.sklearn_from, "sklearn_curve.json")) as f:
            saved = json.load(f)
        mine = {"corpus": args.corpus, "seed": args.seed, "clock": args.clock,
                "topics": args.topics, "batch": args.batch}
        if any(saved[k] != v for k, v in mine.items()):
            parser.error("--sklearn_from: %s was run with %s, this run has %s" % (
                args.sklearn_from, {k: saved[k] for k in mine}, mine))
        sk, sk_curve = saved["sklearn"], [tuple(c) for c in saved["curve"]]
        log("scikit-learn: reusing %s (%d snapshots)" % (args.sklearn_from, len(sk_curve)))
    else:
        sk = train_sklearn(args, out, train_dir)
        sk_scores = score(evaluate, base_path, sk["alpha"],
                          [r["path"] for r in sk["snapshots"]],
                          os.path.join(out, "sklearn_scores"))
        sk_curve = [(r[args.clock], sk_scores[r["path"]], r["passes"])
                    for r in sk["snapshots"]]
        with open(os.path.join(out, "sklearn_curve.json"), "w") as f:
            json.dump({"corpus": args.corpus, "seed": args.seed, "clock": args.clock,
                       "topics": args.topics, "batch": args.batch, "sklearn": sk,
                       "curve": sk_curve}, f, indent=1)
        if not args.keep_snapshots:
            shutil.rmtree(os.path.join(out, "sklearn_snapshots"), ignore_errors=True)
        if args.sklearn_only:
            log("scikit-learn after %g passes (%.1f s): %.1f; wrote %s/sklearn_curve.json" % (
                sk_curve[-1][2], sk_curve[-1][0], sk_curve[-1][1], out))
            return
    target_row = min(sk_curve, key=lambda c: abs(c[2] - args.target_passes))
    target = target_row[1]

    # Ours.
    iterations = int(round(args.our_passes * num_docs / args.batch))
    eval_every = max(1, iterations // args.evaluations)
    burn_in = (args.burn_in_iterations if args.burn_in_iterations >= 0
               else int(round(args.burn_in_fraction * iterations)))
    names = []
    for sampler in filter(None, args.our_samplers.split(",")):
        if sampler == "sgrld":
            names.append("sgrld_fast")
        elif sampler == "scir":
            if args.our_topic_update in ("eager", "both"):
                names.append("scir_fast")
            if args.our_topic_update in ("lazy", "both"):
                names.append("scir_fast_lazy")
        else:
            parser.error("--our_samplers: unknown sampler %r (valid: scir, sgrld)" % sampler)
    for preset in filter(None, args.our_presets.split(",")):
        RUNS.setdefault(preset, (preset, "EAGER"))
        names.append(preset)
    if not names:
        parser.error("no runs of ours: --our_samplers and --our_presets are both empty")
    runs = ""
    for name in names:
        preset, update = RUNS[name]
        runs += ("runs { name: '%s' preset: '%s' topic_update: %s num_topics: %d "
                 "minibatch_size: %d iterations: %d burn_in: %d mean_every: %d%s %s }\n" % (
                     name, preset, update, args.topics, args.batch, iterations, burn_in,
                     args.mean_every,
                     " max_seconds: %g" % args.our_max_seconds if args.our_max_seconds else "",
                     args.our_run_fields))
    config_path = os.path.join(out, "ours.textpb")
    with open(config_path, "w") as f:
        f.write(base + "eval_every: %d\noutput_dir: '%s'\nwrite_snapshots: true\n%s" % (
            eval_every, out, runs))
    # The tool's own per-phase wall times (Gibbs sweeps, topic update, posterior mean,
    # evaluations) go to its stderr; kept in lda_log.txt.
    with open(os.path.join(out, "lda_log.txt"), "w") as lda_log:
        run([lda, "--config=" + config_path, "--plot=false"], stderr=lda_log)
    with open(os.path.join(out, "lda_log.txt")) as f:
        phases = [line.strip() for line in f if "] time:" in line]

    ours = {}
    mismatches = 0
    for name in names:
        with open(os.path.join(out, "snapshots_%s.csv" % name)) as f:
            snaps = list(csv.DictReader(f))
        with open(os.path.join(out, "point_trace_%s.csv" % name)) as f:
            trace = {int(r["iteration"]): r for r in csv.DictReader(f)}
        paths = [s["last"] for s in snaps] + [s["mean"] for s in snaps if s["mean"]]
        scores = score(evaluate, base_path, 0.1, paths, os.path.join(out, "scores_" + name))
        last, mean, predictive = [], [], []
        for s in snaps:
            it = int(s["iteration"])
            row = trace[it]
            t = float(row["train_cpu_seconds"] if args.clock == "cpu" else s["train_seconds"])
            last.append((t, scores[s["last"]]))
            mismatches += "%.9g" % scores[s["last"]] != row["fold_in_perplexity_last"]
            if s["mean"]:
                mean.append((t, scores[s["mean"]]))
                mismatches += "%.9g" % scores[s["mean"]] != row["fold_in_perplexity_mean"]
            predictive.append((t, float(row["gibbs_running_predictive_perplexity"])))
        ours[name] = {"last": last, "mean": mean, "predictive": predictive,
                      "iterations": int(snaps[-1]["iteration"])}
    if not args.keep_snapshots:
        for name in names:
            shutil.rmtree(os.path.join(out, "snapshots_" + name), ignore_errors=True)

    # The comparison.
    blas = [(i.get("internal_api"), i.get("version"), i.get("architecture"),
             i.get("num_threads"), i.get("filepath")) for i in sk["blas"]]
    sk_final = sk_curve[-1][1]
    sk_reach = time_to_reach([(s, p) for s, p, _ in sk_curve], target)
    lines = []
    lines.append("corpus %s: %d training documents, K = %d, minibatch %d, one thread; every "
                 "point estimate scored by fold-in (eval/fold_in.h) on the same split; "
                 "seconds = %s time of training" % (args.corpus, num_docs, args.topics,
                                                   args.batch,
                                                   "process CPU" if args.clock == "cpu"
                                                   else "wall"))
    lines.append("scikit-learn %s, numpy %s, BLAS in its process: %s" % (
        sk["sklearn"], sk["numpy"], "; ".join("%s %s %s threads=%s %s" % b for b in blas)))
    lines.append("unigram baseline (training word frequencies, add-one smoothed, same "
                 "evaluator): %.1f" % unigram)
    lines.append("target = scikit-learn's fold-in perplexity after %g passes (%.1f s): %.1f" % (
        target_row[2], target_row[0], target))
    lines.append("scikit-learn after %g passes (%.1f s): %.1f" % (
        sk_curve[-1][2], sk_curve[-1][0], sk_final))
    lines.append("snapshot scores by lda_evaluate equal to the lda tool's own: %s" % (
        "yes, all" if mismatches == 0 else "NO, %d differ" % mismatches))
    lines.append("")
    lines.append("| method | passes | train s | final fold-in perplexity | s to stay <= %.1f | "
                 "speed-up vs scikit-learn | final vs scikit-learn's %g-pass | Gibbs running "
                 "predictive (not a point estimate) |" % (target, sk_curve[-1][2]))
    lines.append("|---|---|---|---|---|---|---|---|")
    lines.append("| scikit-learn online VB | %g | %.1f | %.1f | %s | 1.0x | +0.0%% | - |" % (
        sk_curve[-1][2], sk_curve[-1][0], sk_final, fmt(sk_reach)))
    verdict = []
    for name in names:
        o = ours[name]
        passes = o["iterations"] * args.batch / num_docs
        for kind, label in (("mean", "posterior mean"), ("last", "last sample")):
            curve = o[kind]
            if not curve:
                continue
            reach = time_to_reach(curve, target)
            final = curve[-1][1]
            lines.append("| ours %s, %s | %.1f | %.1f | %.1f | %s | %s | %+.1f%% | %s |" % (
                name, label, passes, curve[-1][0], final, fmt(reach),
                "-" if reach is None or sk_reach is None else "%.1fx" % (sk_reach / reach),
                100 * (final / sk_final - 1),
                fmt(o["predictive"][-1][1]) if kind == "mean" else "-"))
            verdict.append((name, label, reach, final))
    lines.append("")
    best_reach = min((r for _, _, r, _ in verdict if r is not None), default=None)
    best_final = min(f for _, _, _, f in verdict)
    lines.append("issue 22 targets: fastest to the target %s s (%s); >= 3x sooner than "
                 "scikit-learn's %s s: %s. Lowest final %.1f, %+.1f%% against scikit-learn's "
                 "last value %.1f; >= 2%% below: %s." % (
                     fmt(best_reach), ", ".join("%s %s" % (n, l) for n, l, r, _ in verdict
                                                if r is not None and r == best_reach) or "none",
                     fmt(sk_reach),
                     "yes" if best_reach is not None and sk_reach is not None
                     and 3 * best_reach <= sk_reach else "NO",
                     best_final, 100 * (best_final / sk_final - 1), sk_final,
                     "yes" if best_final <= 0.98 * sk_final else "NO"))
    lines.append("")
    lines.append("perplexity against training seconds (fold-in; a few points per curve):")

    def sampled(curve, n=8):
        step = max(1, len(curve) // n)
        points = curve[::step]
        if points[-1] != curve[-1]:
            points.append(curve[-1])
        return "  ".join("%.1fs:%.0f" % (s, p) for s, p in points)

    lines.append("  %-24s %s" % ("scikit-learn", sampled([(s, p) for s, p, _ in sk_curve])))
    for name in names:
        for kind in ("last", "mean"):
            if ours[name][kind]:
                lines.append("  %-24s %s" % (name + " " + kind, sampled(ours[name][kind])))
    lines.append("")
    lines.append("per-phase wall seconds of our runs (the lda tool; evaluations not in train s):")
    lines.extend("  " + p for p in phases)
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(out, "curves.json"), "w") as f:
        json.dump({"sklearn": sk_curve, "target": target, "ours": ours, "blas": sk["blas"]}, f)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 6))
    ax.plot([s for s, _, _ in sk_curve], [p for _, p, _ in sk_curve], "k.-",
            label="scikit-learn online VB")
    styles = {"scir_fast": "tab:red", "scir_fast_lazy": "tab:orange", "sgrld_fast": "tab:blue",
              "sgrld_fast_early": "tab:green"}
    for name in names:
        for kind, style in (("mean", "-"), ("last", ":")):
            curve = ours[name][kind]
            if curve:
                ax.plot([s for s, _ in curve], [p for _, p in curve], style,
                        color=styles.get(name), label="%s, %s" % (
                            name if name not in styles else
                            name.split("_")[0].upper() + (" lazy" if "lazy" in name else ""),
                            "posterior mean" if kind == "mean" else "last sample"))
    ax.axhline(target, color="gray", lw=0.8, ls="--",
               label="scikit-learn after %g passes" % target_row[2])
    top = max(p for _, p, _ in sk_curve[:3]) * 1.05
    ax.set_ylim(min(best_final, sk_final) * 0.97, top)
    ax.set_xlabel("training seconds (one thread, %s time)" % args.clock)
    ax.set_ylabel("held-out perplexity, fold-in point estimate")
    ax.set_title("%s, K = %d, minibatch %d: time to quality" % (args.corpus, args.topics,
                                                                 args.batch))
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "time_to_perplexity.png"), dpi=100)
    print("\nplot: %s/time_to_perplexity.png" % out)


if __name__ == "__main__":
    main()
