#!/usr/bin/python3
"""Our streamed LDA against gensim's and scikit-learn's online variational LDA (issue 29).

One synthetic corpus with known topics (tools/lda_generate_corpus), one pass over its training
documents for every method, and for every method the SAME two scores of the topic matrix it
holds at each checkpoint:
  * held-out perplexity by our fold-in evaluator (tools/lda_evaluate --gibbs=false on the
    corpus' separate held-out file, eval/fold_in.h: θ of each test document folded in from its
    observed half with φ fixed, perplexity of its held-out half; α = --alpha for every method),
  * topic recovery, the mean Hellinger distance of the optimally matched learned and true
    topics (tools/lda_topic_recovery, eval/topic_recovery.h; 0 = the truth).
Each method gives curves of (documents seen, training CPU seconds, training wall seconds,
held-out perplexity, recovery).

Methods (--methods, comma-separated):
  sklearn      scikit-learn LatentDirichletAllocation(learning_method="online"), partial_fit
               on consecutive minibatches of --peer_batch documents, total_samples = D,
               n_jobs = 1, in a child process with Debian's OpenBLAS (one thread);
  gensim       gensim LdaModel (the single-process online VB of Hoffman et al. 2010),
               chunksize = --peer_batch, one update() call over the whole stream;
  gensim_mcN   gensim LdaMulticore with workers = N (N + 1 processes: N E-step workers and the
               master, which merges and does the M-step), chunksize = --peer_batch;
  ours:PRESET  the `lda` tool streaming the docword file (one thread, one pass), the tool's
               streamed minibatch size (D / 100, 50 to 1000) unless --our_minibatch or the
               method's minibatch_size; scored on its snapshots (the headline
               estimate: the last sample before burn-in ends, the posterior mean after).
A method may carry settings after slashes: a peer's batch (minibatch / chunksize), offset and
decay (the step size (offset + t)^-decay: scikit-learn's learning_offset / learning_decay,
gensim's offset / decay), e.g. sklearn/batch=64/offset=1/decay=0.5; our run's LdaRunConfig
fields (tools/lda_config.proto), e.g. ours:sgrld_fast/burn_in=200.
The peers get the generator's priors, α = --alpha and η = --eta (the generator's β: the mean
of its per-word Dirichlet parameters β V b_w), and otherwise their libraries' defaults (stated
in the summary). Their training data is parsed into memory before the clock starts (ours reads
and parses its stream inside its timed steps). Only the training calls are timed: snapshots
(writing the topic matrix) are outside the clock for every method.

Comparison (issue 29's target): for each of our runs and each peer, the training seconds each
needs to reach, for good, the peer's final perplexity and final recovery (a curve "reaches" a
value at the first checkpoint after which it stays at or below it), their ratio (target:
ours >= 5x sooner), and whether ours ends better on both. CPU seconds by default (steadier on
a shared machine; a gensim_mcN peer's include its worker processes), wall seconds alongside.

  /usr/bin/python3 bench/lda_peers.py --corpus_dir=/tmp/lda_peers/corpus \\
      --work=/tmp/lda_peers/work --out=bench/results/lda_peers
(bench/lda_peers.sh generates the corpus, builds the tools and runs this.) With --reuse a
method whose curve is already in --work is not trained again.
"""

import argparse
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lda_vs_sklearn as harness  # noqa: E402  (run, log, score, time_to_reach, BLAS, reader)

REPO = harness.REPO
log, run = harness.log, harness.run


# ---------------------------------------------------------------------------------------------
# Clocks: training time with snapshots left out; CPU time includes the child processes.

def _children_cpu_seconds():
    """CPU seconds of this process' live children (gensim's worker processes), from /proc."""
    me, tick, total = os.getpid(), os.sysconf("SC_CLK_TCK"), 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def cpu_seconds():
    """CPU time of this process and its children, live (from /proc) and reaped (os.times)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system + _children_cpu_seconds()


class TrainingClock:
    """Wall and CPU seconds spent between start() and stop(), summed over the intervals."""

    def __init__(self):
        self.wall = self.cpu = 0.0
        self._start = None

    def start(self):
        self._start = (time.perf_counter(), cpu_seconds())

    def stop(self):
        wall, cpu = self._start
        self.wall += time.perf_counter() - wall
        self.cpu += cpu_seconds() - cpu
        self._start = None


def checkpoints_for(num_docs, every, first, step):
    """Checkpoint document counts: `first` (ascending, the early ones), then every `every`
    documents to num_docs, each rounded up to a multiple of `step` (a minibatch); num_docs last."""
    wanted = list(first) + list(range(every, num_docs, every))
    rounded = sorted({min(num_docs, int(math.ceil(c / step)) * step) for c in wanted if c > 0})
    return rounded if rounded and rounded[-1] == num_docs else rounded + [num_docs]


# ---------------------------------------------------------------------------------------------
# The peers, each in a child process with OpenBLAS and one BLAS thread.

def parse_method(method):
    """'sklearn/batch=64/offset=1' -> ('sklearn', {'batch': '64', 'offset': '1'})."""
    base, *options = method.split("/")
    settings = {}
    for option in options:
        key, sep, value = option.partition("=")
        if not sep or not key or not value:
            sys.exit("method %r: %r is not key=value" % (method, option))
        settings[key] = value
    return base, settings


def file_name(method):
    return re.sub(r"[^A-Za-z0-9_.=-]", "_", method)


def peer_worker(spec_path):
    with open(spec_path) as f:
        spec = json.load(f)
    import numpy as np
    from threadpoolctl import threadpool_info
    matrix = harness.read_docword_csr(spec["docword"])
    num_docs, vocabulary_size = matrix.shape
    method, topics = spec["method"], spec["topics"]
    base, options = parse_method(method)
    unknown = set(options) - {"batch", "offset", "decay", "passes"}
    if unknown:
        sys.exit("%s: unknown peer settings %s (valid: batch, offset, decay, passes)" % (
            method, sorted(unknown)))
    batch = int(options.get("batch", spec["batch"]))
    passes = int(options.get("passes", 1))
    step_size = {}
    os.makedirs(spec["snapshot_dir"], exist_ok=True)
    clock, rows = TrainingClock(), []

    def snapshot(documents, topic_matrix):
        path = os.path.join(spec["snapshot_dir"], "%03d_%07d.f64" % (len(rows), documents))
        np.asarray(topic_matrix, dtype="<f8").tofile(path)  # rows normalised by the tools
        rows.append({"documents": int(documents), "cpu": clock.cpu, "wall": clock.wall,
                     "path": path, "load": os.getloadavg()[0]})
        log("%s: %d documents, %.1f CPU s, %.1f wall s" % (method, documents, clock.cpu,
                                                           clock.wall))

    if base == "sklearn":
        for key in ("offset", "decay"):
            if key in options:
                step_size["learning_" + key] = float(options[key])
        from sklearn.decomposition import LatentDirichletAllocation
        import sklearn
        version = "scikit-learn " + sklearn.__version__
        model = LatentDirichletAllocation(
            n_components=topics, learning_method="online", batch_size=batch,
            total_samples=num_docs, n_jobs=1, random_state=spec["seed"],
            doc_topic_prior=spec["alpha"], topic_word_prior=spec["eta"], **step_size)
        settings = {k: v for k, v in model.get_params().items()}
        settings["passes"] = passes
        for epoch in range(passes):
            seen = 0
            for checkpoint in checkpoints_for(num_docs, spec["every"], spec["first"], batch):
                while seen < checkpoint:
                    rows_batch = matrix[seen:min(seen + batch, checkpoint)]
                    clock.start()
                    model.partial_fit(rows_batch)
                    clock.stop()
                    seen += rows_batch.shape[0]
                snapshot(epoch * num_docs + seen, model.components_)
    elif base == "gensim" or base.startswith("gensim_mc"):
        for key in ("offset", "decay"):
            if key in options:
                step_size[key] = float(options[key])
        import gensim
        from gensim.models import LdaModel, LdaMulticore
        version = "gensim " + gensim.__version__
        indices, counts, starts = (matrix.indices.tolist(), matrix.data.astype(np.int64).tolist(),
                                   matrix.indptr.tolist())
        bows = [list(zip(indices[starts[d]:starts[d + 1]], counts[starts[d]:starts[d + 1]]))
                for d in range(num_docs)]
        del indices, counts
        common = dict(num_topics=topics, id2word={w: str(w + 1) for w in range(vocabulary_size)},
                      chunksize=batch, passes=passes, alpha=spec["alpha"], eta=spec["eta"],
                      eval_every=0, random_state=spec["seed"], **step_size)
        if base == "gensim":
            model, step = LdaModel(update_every=1, **common), batch
        else:
            workers = int(base[len("gensim_mc"):])
            model, step = LdaMulticore(workers=workers, **common), batch * workers
        settings = {k: getattr(model, k) for k in ("chunksize", "decay", "offset", "iterations",
                                                   "gamma_threshold", "passes")}
        settings.update(alpha=float(model.alpha[0]), eta=float(np.mean(model.eta)),
                        dtype=str(model.dtype), workers=getattr(model, "workers", 1))
        marks = set(checkpoints_for(num_docs, spec["every"], spec["first"], step)[:-1])

        class Stream:
            """The documents in file order; at a checkpoint, a snapshot off the clock."""
            epoch = 0

            def __len__(self):
                return num_docs

            def __iter__(self):
                for d, bow in enumerate(bows):
                    if d in marks:
                        clock.stop()
                        # Documents seen: in the first pass gensim's num_updates, the documents
                        # the M-steps have taken in (for LdaMulticore fewer than d: chunks still
                        # in the workers' queue); gensim stops counting after it, so later
                        # passes count the documents read.
                        snapshot(model.num_updates if self.epoch == 0
                                 else self.epoch * num_docs + d, model.get_topics())
                        clock.start()
                    yield bow
                self.epoch += 1

        clock.start()
        model.update(Stream())
        clock.stop()
        snapshot(passes * num_docs if passes > 1 else model.num_updates, model.get_topics())
    else:
        sys.exit("unknown peer %r (valid: sklearn, gensim, gensim_mcN)" % method)
    info = {"method": method, "version": version, "numpy": np.__version__,
            "settings": {k: v if isinstance(v, (int, float, str, type(None))) else str(v)
                         for k, v in settings.items()},
            "blas": threadpool_info(), "num_docs": num_docs, "snapshots": rows}
    with open(spec["result"], "w") as f:
        json.dump(info, f, indent=1)


def train_peer(args, method, work):
    spec = {"method": method, "docword": os.path.join(args.corpus_dir, "docword.txt"),
            "topics": args.topics, "batch": args.peer_batch, "alpha": args.alpha,
            "eta": args.eta, "seed": args.seed, "every": args.every,
            "first": [int(x) for x in args.first.split(",") if x],
            "snapshot_dir": os.path.join(work, "snapshots_" + file_name(method)),
            "result": os.path.join(work, "peer_%s.json" % file_name(method))}
    return harness.run_blas_worker(os.path.abspath(__file__), "--peer_worker",
                                   os.path.join(work, "spec_%s.json" % file_name(method)), spec)


# ---------------------------------------------------------------------------------------------
# Ours.

def train_ours(args, method, tools, work):
    preset, options = parse_method(method[len("ours:"):])
    name = file_name(method[len("ours:"):]).replace("=", "-")
    out = os.path.join(work, "ours_" + name)
    shutil.rmtree(out, ignore_errors=True)
    fields = "".join(" %s: %s" % kv for kv in options.items())
    if args.our_minibatch:
        fields += " minibatch_size: %d" % args.our_minibatch
    config = os.path.join(work, "ours_%s.textpb" % name)
    with open(config, "w") as f:
        f.write(split_block(args) + "eval_every: %d\nwrite_snapshots: true\noutput_dir: '%s'\n"
                "runs { name: '%s' preset: '%s' num_topics: %d%s %s }\n" % (
                    args.our_eval_every, out, name, preset, args.topics, fields,
                    args.our_run_fields))
    load = os.getloadavg()[0]
    preset = name  # the run's name, in the output files' names
    with open(os.path.join(work, "ours_%s_log.txt" % preset), "w") as lda_log:
        run([os.path.join(tools, "lda"), "--config=" + config, "--plot=false"], stderr=lda_log)
    with open(os.path.join(out, "snapshots_%s.csv" % preset)) as f:
        snaps = {int(r["iteration"]): r for r in csv.DictReader(f)}
    with open(os.path.join(out, "point_trace_%s.csv" % preset)) as f:
        trace = list(csv.DictReader(f))
    rows = []
    for t in trace:
        s = snaps[int(t["iteration"])]
        rows.append({"documents": int(t["documents"]), "cpu": float(t["train_cpu_seconds"]),
                     "wall": float(t["train_seconds"]), "path": s["mean"] or s["last"],
                     "last": s["last"], "tool_perplexity": t["heldout_perplexity"],
                     "load": load})
    with open(os.path.join(out, "summary.txt")) as f:
        summary = f.read()
    return {"method": method, "version": "sgmcmc lda (this tree)",
            "settings": {"config": open(config).read()}, "snapshots": rows,
            "tool_summary": summary}


def split_block(args):
    c = args.corpus_dir
    return ("seed: %d\nthreads: 1\nstream {\n  docword: '%s/docword.txt'\n  vocab: "
            "'%s/vocab.txt'\n  test_docword: '%s/heldout.docword.txt'\n  passes: 1\n}\n" % (
                args.seed, c, c, c))


# ---------------------------------------------------------------------------------------------
# Scoring and the comparison.

def recovery(tool, truth, paths, output):
    """Mean Hellinger distance of each matrix to the true topics, {path: distance}."""
    scores = {}
    for i in range(0, len(paths), 40):
        part = output + ".%d.csv" % i
        run([tool, "--true_topics=" + truth, "--topics=" + ",".join(paths[i:i + 40]),
             "--output=" + part])
        with open(part) as f:
            for r in csv.DictReader(f):
                scores[r["file"]] = float(r["mean_hellinger"])
    return scores


def score_method(result, tools, args, work):
    """Adds perplexity and recovery to every snapshot row of `result`; returns mismatches of
    our tool's own perplexity against lda_evaluate's (should be 0)."""
    rows = result["snapshots"]
    paths = [r["path"] for r in rows]
    name = file_name(result["method"])
    perplexity = harness.score(os.path.join(tools, "lda_evaluate"),
                               os.path.join(work, "split.textpb"), args.alpha, paths,
                               os.path.join(work, "perplexity_" + name))
    distance = recovery(os.path.join(tools, "lda_topic_recovery"),
                        os.path.join(args.corpus_dir, "topics.phi"), paths,
                        os.path.join(work, "recovery_" + name))
    mismatches = 0
    for r in rows:
        r["perplexity"], r["recovery"] = perplexity[r["path"]], distance[r["path"]]
        if "tool_perplexity" in r:
            mismatches += "%.9g" % r["perplexity"] != r["tool_perplexity"]
    return mismatches


def time_to(rows, key, target, clock):
    return harness.time_to_reach([(r[clock], r[key]) for r in rows], target)


def ratio(peer_seconds, our_seconds):
    if peer_seconds is None or our_seconds is None:
        return None
    return peer_seconds / max(our_seconds, 1e-9)


def fmt(x, digits=1, suffix=""):
    return "-" if x is None else "%.*f%s" % (digits, x, suffix)


def compare(results, ours_names, peer_names, clock):
    """Markdown lines: for each (ours, peer), times to reach the peer's final values, and the
    verdicts (ours, peer, >= 5x sooner on both, ends better on both, degenerate keys).

    A peer whose curve is never above its final value (it ended no better than at its first
    checkpoint, e.g. a recovery that worsens over the pass) "reaches" it at its first
    checkpoint: no speed-up is defined there ("n/a"), and that score is left out of the >= 5x
    verdict (marked "yes*")."""
    lines = ["| ours | peer | peer's final perplexity | peer reaches it (s) | ours reaches it "
             "(s) | speed-up | peer's final recovery | peer reaches it (s) | ours reaches it "
             "(s) | speed-up | >= 5x on both | ours ends better on both |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    verdicts = []
    for o in ours_names:
        ours = results[o]["snapshots"]
        for p in peer_names:
            peer = results[p]["snapshots"]
            cells, fast, degenerate = [], True, []
            for key in ("perplexity", "recovery"):
                target = peer[-1][key]
                t_peer = time_to(peer, key, target, clock)
                t_ours = time_to(ours, key, target, clock)
                if t_peer is not None and t_peer <= peer[0][clock]:
                    degenerate.append(key)
                    speed_up = "n/a"
                else:
                    r = ratio(t_peer, t_ours)
                    fast = fast and r is not None and r >= 5
                    speed_up = fmt(r, 1, "x")
                cells += [fmt(target, 3 if key == "recovery" else 1), fmt(t_peer, 2),
                          fmt(t_ours, 2), speed_up]
            better = (ours[-1]["perplexity"] < peer[-1]["perplexity"]
                      and ours[-1]["recovery"] < peer[-1]["recovery"])
            verdicts.append((o, p, fast, better, degenerate))
            lines.append("| %s | %s | %s | %s | %s |" % (
                o, p, " | ".join(cells), ("yes*" if degenerate else "yes") if fast else "NO",
                "yes" if better else "NO"))
    return lines, verdicts


def write_outputs(args, results, order, oracle, unigram):
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "curves.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["method", "documents", "train_cpu_seconds", "train_wall_seconds",
                    "heldout_perplexity", "recovery_mean_hellinger", "load_average_1min"])
        for m in order:
            for r in results[m]["snapshots"]:
                w.writerow([m, r["documents"], "%.3f" % r["cpu"], "%.3f" % r["wall"],
                            "%.4f" % r["perplexity"], "%.5f" % r["recovery"],
                            "%.2f" % r["load"]])
    with open(os.path.join(out, "methods.json"), "w") as f:
        json.dump({m: {k: v for k, v in results[m].items() if k != "snapshots"}
                   for m in order}, f, indent=1)
    ours_names = [m for m in order if m.startswith("ours:")]
    peer_names = [m for m in order if not m.startswith("ours:")]
    lines = ["Corpus %s (%s), %d training documents; K = %d; every topic matrix "
             "scored by lda_evaluate --gibbs=false --alpha=%g (fold-in) and lda_topic_recovery "
             "(mean Hellinger after Hungarian matching)." % (
                 args.corpus_dir, generator_line(args.corpus_dir),
                 results[order[0]]["snapshots"][-1]["documents"], args.topics, args.alpha),
             "Reference: the true topics score perplexity %.2f (recovery 0); the unigram "
             "distribution (add-one smoothed training word frequencies) %.2f." % (
                 oracle, unigram),
             "",
             "| method | documents | train CPU s | train wall s | final held-out perplexity | "
             "final recovery | load (1 min) |", "|---|---|---|---|---|---|---|"]
    for m in order:
        last = results[m]["snapshots"][-1]
        lines.append("| %s | %d | %.1f | %.1f | %.2f | %.4f | %.1f |" % (
            m, last["documents"], last["cpu"], last["wall"], last["perplexity"],
            last["recovery"], last["load"]))
    verdict_lines = []
    for clock, label in (("cpu", "CPU seconds"), ("wall", "wall seconds")):
        table, verdicts = compare(results, ours_names, peer_names, clock)
        lines += ["", "Time to each peer's final values, training %s:" % label, ""] + table
        verdict_lines.append("%s: target (>= 5x sooner on both and ending better on both) met "
                             "against %s; not met against %s%s." % (
                                 label, ", ".join("%s by %s%s" % (p, o, "*" if d else "")
                                                  for o, p, f, b, d in verdicts
                                                  if f and b) or "none",
                                 ", ".join("%s by %s" % (p, o) for o, p, f, b, d in verdicts
                                           if not (f and b)) or "none",
                                 " (*: judged on %s alone; the peer ended no better than at "
                                 "its first checkpoint on the other)" % "/".join(sorted({
                                     k for o, p, f, b, d in verdicts for k in
                                     ("perplexity", "recovery") if d and k not in d}))
                                 if any(f and b and d for o, p, f, b, d in verdicts) else ""))
    lines += [""] + verdict_lines + ["", "Settings:"]
    for m in order:
        settings = results[m]["settings"]
        text = settings["config"].replace("\n", " ") if "config" in settings else ", ".join(
            "%s=%s" % kv for kv in sorted(settings.items()))
        lines.append("- %s (%s): %s" % (m, results[m]["version"], text))
        blas = ["%s %s threads=%s" % (b.get("internal_api"), b.get("version"),
                                      b.get("num_threads"))
                for b in results[m].get("blas", [])]
        if blas:
            lines.append("  BLAS: " + "; ".join(blas))
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(text + "\n")
    plot(results, order, oracle, unigram, os.path.join(out, "lda_peers.png"))


def generator_line(corpus_dir):
    with open(os.path.join(corpus_dir, "generator.txt")) as f:
        return ", ".join(line.strip().replace(" = ", "=") for line in f if line.strip())


def plot(results, order, oracle, unigram, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5))
    for (row, key, label) in ((0, "perplexity", "held-out perplexity (fold-in)"),
                              (1, "recovery", "recovery: mean Hellinger to the true topics")):
        for col, (x, xlabel) in enumerate((("cpu", "training CPU seconds (log)"),
                                           ("documents", "documents seen"))):
            ax = axes[row][col]
            for i, m in enumerate(order):
                rows = results[m]["snapshots"]
                style = "-" if m.startswith("ours") else "--" if m.startswith("sklearn") else ":"
                ax.plot([max(r[x], 1e-2) for r in rows], [r[key] for r in rows], style,
                        marker=".", color=plt.get_cmap("tab20")(i % 20), label=m)
            if key == "perplexity":
                ax.axhline(oracle, color="gray", lw=0.8, ls="--", label="true topics")
                ax.axhline(unigram, color="gray", lw=0.8, ls=":", label="unigram")
                ax.set_ylim(oracle * 0.97, unigram * 1.3)  # random starts are far above
            if x == "cpu":
                ax.set_xscale("log")
            ax.set_xlabel(xlabel)
            ax.set_ylabel(label)
            ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("One pass over 10^5 synthetic documents: ours against gensim and scikit-learn")
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer_worker", default="", help=argparse.SUPPRESS)
    parser.add_argument("--corpus_dir", default="/tmp/lda_peers/corpus",
                        help="lda_generate_corpus output: docword.txt, heldout.docword.txt, "
                        "vocab.txt, topics.phi, generator.txt (plain, not gzip)")
    parser.add_argument("--work", default="/tmp/lda_peers/work",
                        help="scratch: snapshots, configs, per-method results")
    parser.add_argument("--out", default=os.path.join(REPO, "bench", "results", "lda_peers"))
    parser.add_argument("--methods", default="ours:sgrld_fast,sklearn,gensim,gensim_mc2")
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--alpha", type=float, default=0.1,
                        help="document-topic prior of the peers and of the fold-in evaluator")
    parser.add_argument("--eta", type=float, default=0.01, help="topic-word prior of the peers")
    parser.add_argument("--peer_batch", type=int, default=256,
                        help="scikit-learn's batch_size, gensim's chunksize")
    parser.add_argument("--every", type=int, default=5000, help="peer checkpoint spacing")
    parser.add_argument("--first", default="256,512,1024,2048,3072",
                        help="early peer checkpoints (documents)")
    parser.add_argument("--our_minibatch", type=int, default=0, help="0: the preset's")
    parser.add_argument("--our_eval_every", type=int, default=2)
    parser.add_argument("--our_run_fields", default="",
                        help="LdaRunConfig fields (textproto) added to our runs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bin_dir", default="", help="prebuilt tools (skips the build)")
    parser.add_argument("--reuse", action="store_true",
                        help="reuse the scored curves of methods already in --work")
    parser.add_argument("--keep_snapshots", action="store_true")
    args = parser.parse_args()
    if args.peer_worker:
        peer_worker(args.peer_worker)
        return
    if args.bin_dir:
        tools = os.path.abspath(args.bin_dir)
    else:
        run(["./bazelw", "build", "--config=bench", "--jobs=2", "//tools:lda",
             "//tools:lda_evaluate", "//tools:lda_topic_recovery"])
        tools = os.path.join(subprocess.run(
            ["./bazelw", "info", "--config=bench", "bazel-bin"], check=True, cwd=REPO,
            capture_output=True, text=True).stdout.strip(), "tools")
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "split.textpb"), "w") as f:
        f.write(split_block(args))
    evaluate = os.path.join(tools, "lda_evaluate")
    oracle = harness.score(evaluate, os.path.join(work, "split.textpb"), args.alpha,
                           [os.path.join(args.corpus_dir, "topics.phi")],
                           os.path.join(work, "oracle"))
    oracle = list(oracle.values())[0]
    unigram = harness.unigram_baseline(evaluate, os.path.join(work, "split.textpb"),
                                       args.corpus_dir, work)
    order = [m for m in args.methods.split(",") if m]
    results = {}
    for method in order:
        curve = os.path.join(work, "curve_%s.json" % file_name(method))
        if args.reuse and os.path.exists(curve):
            with open(curve) as f:
                results[method] = json.load(f)
            log("%s: reusing %s" % (method, curve))
            continue
        if method.startswith("ours:"):
            result = train_ours(args, method, tools, work)
        else:
            result = train_peer(args, method, work)
        mismatches = score_method(result, tools, args, work)
        if mismatches:
            sys.exit("%s: %d of lda_evaluate's perplexities differ from the lda tool's own "
                     "(point_trace heldout_perplexity): not the same evaluator" % (
                         method, mismatches))
        results[method] = result
        with open(curve, "w") as f:
            json.dump(result, f, indent=1)
        if not args.keep_snapshots:
            for r in result["snapshots"]:
                for p in (r["path"], r.get("last")):
                    if p and os.path.exists(p):
                        os.remove(p)
    write_outputs(args, results, order, oracle, unigram)


if __name__ == "__main__":
    main()
