"""Fits LDA to the KOS blog corpus from Python and prints the top words and the perplexity:
the same numbers as the C++ `lda` tool for the same seed and iterations.

    ./bazelw run -c opt //examples:python_lda -- --iterations=100
    ./bazelw run -c opt //tools:lda -- --iterations=100 --plot=false     # same numbers

(or, with the wheel installed: python3 examples/python_lda.py --iterations=100). The settings
are the tool's default run: preset scir_fast (SCIR, h = 0.5, tau = 10, kappa = 0.33,
alpha = 0.1, beta = 0.1, 50 documents per iteration, 20 Gibbs sweeps) with K = 50 topics on
90% of KOS, the document-completion perplexity of the other 10% evaluated every 5% of the
iterations (20 sweeps), its running mean over the second half. The top words are those of
the final sample (the tool's topics_scir_fast.txt); the perplexity line is the tool's
summary line without the timing.
"""

import argparse
import time

import sgmcmc


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=0, help="0: every core")
    args = parser.parse_args()

    kos = sgmcmc.datasets.load_kos(seed=args.seed)
    print(kos.description)
    lda = sgmcmc.LDA(n_components=50, sampler="scir", alpha=0.1, beta=0.1, batch_size=50,
                     step_size=0.5, step_size_tau=10, step_size_kappa=0.33, gibbs_sweeps=20,
                     max_iter=args.iterations, eval_sweeps=20, n_threads=args.threads or None,
                     random_state=args.seed)
    start = time.perf_counter()
    lda.fit(kos.train, held_out=(kos.test_observed, kos.test_held_out))
    seconds = time.perf_counter() - start
    print(sgmcmc.format_topics(lda.last_sample_, lda.n_components, kos.vocabulary, 10), end="")
    print("scir_fast: %d iterations, perplexity %.2f (last evaluation %.2f)" %
          (lda.n_iter_, lda.perplexity_, lda.trace_[-1, 2]))
    print("fit took %.1f s (training and evaluations)" % seconds)


if __name__ == "__main__":
    main()
