"""Tests of sgmcmc.LDA: the numbers of the C++ `lda` tool for the same seed, the
scikit-learn conventions, the error paths, Ctrl-C and pickling.

Usage (Bazel passes the tool): lda_test.py path/to/tools/lda
"""

import os
import pickle
import subprocess
import sys
import tempfile
import threading
import _thread
import unittest

import numpy as np
import scipy.sparse as sp

import sgmcmc
from sgmcmc import datasets

LDA_TOOL = None  # set from argv in __main__

# A small run of the tool: K = 5, 20 iterations of 50 documents, 5 Gibbs sweeps, evaluations
# every 5 iterations with 4 sweeps (about 0.3 s).
SEED = 7
TOOL_CONFIG = """
corpus {{ uci {{ docword: "{docword}" vocab: "{vocab}" }} }}
seed: {seed}
threads: 2
eval_every: 5
eval_sweeps: 4
runs {{ name: "py" num_topics: 5 gibbs_sweeps: 5 iterations: 20 }}
"""


def small_lda(**overrides):
    params = dict(n_components=5, gibbs_sweeps=5, max_iter=20, eval_every=5, eval_sweeps=4,
                  random_state=SEED, n_threads=2)
    params.update(overrides)
    return sgmcmc.LDA(**params)


def toy_counts(seed=0, docs=30, words=12):
    rng = np.random.RandomState(seed)
    return rng.poisson(2.0, size=(docs, words)).astype(np.float64)


class MatchesLdaToolTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.kos = datasets.load_kos(seed=SEED)
        directory = datasets.kos_directory()
        cls.out = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        config = os.path.join(cls.out, "config.textpb")
        with open(config, "w") as f:
            f.write(TOOL_CONFIG.format(docword=os.path.join(directory, "docword.kos.txt.gz"),
                                       vocab=os.path.join(directory, "vocab.kos.txt"),
                                       seed=SEED))
        subprocess.run([LDA_TOOL, "--config=" + config, "--output_dir=" + cls.out,
                        "--plot=false"], check=True, stderr=subprocess.DEVNULL)
        cls.lda = small_lda().fit(cls.kos.train,
                                  held_out=(cls.kos.test_observed, cls.kos.test_held_out))

    def read(self, name):
        with open(os.path.join(self.out, name)) as f:
            return f.read()

    def test_topic_matrix_is_the_tools(self):
        ours = "".join("\t".join("%.9g" % p for p in row) + "\n" for row in self.lda.last_sample_)
        self.assertEqual(ours, self.read("topic_matrix_py.tsv"))

    def test_trace_is_the_tools(self):
        lines = self.read("trace_py.csv").splitlines()[1:]
        self.assertEqual(len(lines), len(self.lda.trace_))
        for line, row in zip(lines, self.lda.trace_):
            fields = line.split(",")
            self.assertEqual(int(fields[0]), int(row[0]))
            self.assertEqual(fields[4:], ["%.9g" % v for v in row[1:]])
        self.assertIn("perplexity %.2f" % self.lda.perplexity_, self.read("summary.txt"))

    def test_posterior_mean_is_the_tools(self):
        # Same burn_in (the default, half of the iterations) and thin = mean_every = 1.
        ours = "".join("\t".join("%.9g" % p for p in row) + "\n" for row in self.lda.components_)
        self.assertEqual(ours, self.read("topic_matrix_mean_py.tsv"))

    def test_point_trace_is_the_tools(self):
        # The last row of point_trace_py.csv: the fold-in perplexity of the final π and of the
        # posterior mean on the test split, and the samples in the mean.
        header, *rows = self.read("point_trace_py.csv").splitlines()
        last = dict(zip(header.split(","), rows[-1].split(",")))
        self.assertEqual(int(last["iteration"]), self.lda.n_iter_)
        self.assertEqual(int(last["mean_samples"]), self.lda.n_samples_kept_)
        test = (self.kos.test_observed, self.kos.test_held_out)
        self.assertEqual(last["fold_in_perplexity_mean"], "%.9g" % self.lda.perplexity(
            test[0], method="fold_in", held_out=test[1]))
        self.assertEqual(last["gibbs_running_predictive_perplexity"],
                         "%.9g" % self.lda.perplexity_)
        last_sample = sgmcmc.LDA(**self.lda.get_params())
        last_sample.components_ = self.lda.last_sample_
        last_sample.n_features_in_, last_sample.seed_ = self.lda.n_features_in_, SEED
        self.assertEqual(last["fold_in_perplexity_last"], "%.9g" % last_sample.perplexity(
            test[0], method="fold_in", held_out=test[1]))

    def test_top_words_are_the_tools(self):
        text = sgmcmc.format_topics(self.lda.last_sample_, 5, self.kos.vocabulary, 10)
        self.assertEqual(text, self.read("topics_py.txt"))

    def test_corpus_is_the_tools(self):
        self.assertEqual(self.kos.train.shape, (3087, 6906))
        self.assertEqual(int(self.kos.train.sum() + self.kos.test_observed.sum() +
                             self.kos.test_held_out.sum()), 467714)


class LdaTest(unittest.TestCase):
    def test_same_numbers_for_any_threads_and_input_format(self):
        X = toy_counts()
        one = small_lda(n_threads=1, batch_size=10).fit(X)
        two = small_lda(n_threads=3, batch_size=10).fit(sp.csr_matrix(X))
        np.testing.assert_array_equal(one.components_, two.components_)
        np.testing.assert_array_equal(one.transform(X), two.transform(sp.csr_matrix(X)))

    def test_components_are_the_mean_of_the_kept_samples(self):
        lda = small_lda(batch_size=10, max_iter=18, burn_in=6, thin=3,
                        store_samples=True).fit(toy_counts())
        # The states after iterations 6, 9, 12, 15, 18 kept (LdaOptions::mean_burn_in = 6,
        # mean_every = 3: the lda tool's rule).
        self.assertEqual(lda.samples_.shape, (5, 5, 12))
        self.assertEqual(lda.n_samples_kept_, 5)
        # A running mean and a sum differ by rounding only (a few ulps).
        np.testing.assert_allclose(lda.components_, lda.samples_.mean(axis=0), rtol=1e-13)
        np.testing.assert_array_equal(lda.samples_[-1], lda.last_sample_)
        np.testing.assert_allclose(lda.components_.sum(axis=1), 1.0, rtol=1e-12)

    def test_transform_gives_topic_proportions(self):
        X = toy_counts()
        lda = small_lda(batch_size=10).fit(X)
        theta = lda.transform(X[:7])
        self.assertEqual(theta.shape, (7, 5))
        np.testing.assert_allclose(theta.sum(axis=1), 1.0, rtol=1e-12)
        np.testing.assert_array_equal(theta, lda.fit(X).transform(X[:7]))  # deterministic
        self.assertTrue(np.isfinite(lda.perplexity(X)))
        self.assertAlmostEqual(lda.score(X), -np.log(lda.perplexity(X)))
        self.assertTrue(np.isfinite(lda.perplexity(X, method="fold_in")))
        with self.assertRaisesRegex(ValueError, "method must be \"completion\" or \"fold_in\""):
            lda.perplexity(X, method="gibbs")

    def test_transform_of_a_row_depends_only_on_that_row(self):
        # The deterministic fold-in: with K > 1, any subset and any order of the documents
        # gives each document the same proportions, bit for bit.
        X = toy_counts()
        lda = small_lda(batch_size=10).fit(X)
        theta = lda.transform(X)
        for i in (0, 7, 29):
            np.testing.assert_array_equal(theta[i], lda.transform(X[i:i + 1])[0])
        order = np.random.RandomState(3).permutation(len(X))
        np.testing.assert_array_equal(theta[order], lda.transform(X[order]))
        np.testing.assert_array_equal(theta[5:9], lda.transform(sp.csr_matrix(X[5:9])))
        self.assertGreater(np.ptp(theta, axis=0).max(), 0.1)  # not a constant answer

    def test_partial_fit_continues_the_chain_and_pickles(self):
        X = toy_counts()
        batches = [X[:10], X[10:20], X[20:]]
        straight = small_lda(batch_size=5)
        for batch in batches:
            straight.partial_fit(batch)
        self.assertEqual(straight.n_iter_, 6)
        resumed = small_lda(batch_size=5).partial_fit(batches[0])
        resumed = pickle.loads(pickle.dumps(resumed))
        for batch in batches[1:]:
            resumed.partial_fit(batch)
        np.testing.assert_array_equal(straight.components_, resumed.components_)
        np.testing.assert_array_equal(straight.last_sample_, resumed.last_sample_)

    def test_partial_fit_total_samples_scales_by_the_corpus(self):
        # 300 documents on words 0-19 of 40 (words 20-39 never occur), fed as 10 chunks of 30.
        # Under SCIR a topic row is about Dirichlet(β + scaled counts), so the mass on the
        # unused words is about 20β / (40β + scale x (topic's counts)): the scale D/n of the
        # library's fit on all 300 documents and of partial_fit with total_samples=300 is 10
        # times the chunk's own 30/n (total_samples=None), so the unused mass is ~10x smaller.
        rng = np.random.RandomState(4)
        X = np.zeros((300, 40))
        X[:, :20] = rng.poisson(2.0, size=(300, 20))
        chunks = np.split(X, 10)

        def unused_mass(lda):
            return lda.components_[:, 20:].sum(axis=1).mean()

        def online(total_samples):
            lda = small_lda(sampler="scir", batch_size=10, total_samples=total_samples)
            for chunk in chunks:
                lda.partial_fit(chunk)
            return lda

        scaled, unscaled = online(300), online(None)
        self.assertEqual(scaled.n_iter_, 30)
        full = small_lda(sampler="scir", batch_size=10, max_iter=30, burn_in=0).fit(X)
        # Factors of 3 around the expected 10x (and 1x against fit): the early samples are
        # far from stationary, so the ratios vary with the seed; over seeds 7-10 they were
        # 4.4x-11.5x (scaled vs unscaled) and 0.8x-1.1x (scaled vs fit).
        self.assertLess(unused_mass(scaled) * 3, unused_mass(unscaled))
        self.assertLess(unused_mass(scaled), 3 * unused_mass(full))
        self.assertLess(unused_mass(full), 3 * unused_mass(scaled))
        # The default keeps the behaviour before total_samples: equal chunks of 30 documents
        # with total_samples=None or 30 are the same chain, bit for bit.
        np.testing.assert_array_equal(unscaled.components_, online(30).components_)
        with self.assertRaisesRegex(ValueError, "total_samples must be None or an int >= 1"):
            small_lda(total_samples=0).partial_fit(X)

    def test_random_state_follows_sklearn(self):
        X = toy_counts()
        # None: a fresh seed for each fit from NumPy's global RandomState.
        first = small_lda(random_state=None).fit(X)
        second = small_lda(random_state=None).fit(X)
        self.assertNotEqual(first.seed_, second.seed_)
        self.assertFalse(np.array_equal(first.last_sample_, second.last_sample_))
        np.random.seed(11)
        again = small_lda(random_state=None).fit(X)
        np.random.seed(11)
        np.testing.assert_array_equal(again.last_sample_,
                                      small_lda(random_state=None).fit(X).last_sample_)
        # An int reproduces, and is the seed; a RandomState draws it.
        np.testing.assert_array_equal(small_lda(random_state=3).fit(X).last_sample_,
                                      small_lda(random_state=3).fit(X).last_sample_)
        self.assertEqual(small_lda(random_state=3).fit(X).seed_, 3)
        drawn = small_lda(random_state=np.random.RandomState(5)).fit(X)
        self.assertEqual(drawn.seed_, np.random.RandomState(5).randint(np.iinfo(np.int32).max))
        # The fitted seed survives pickling, so a restored chain continues the same run.
        restored = pickle.loads(pickle.dumps(first))
        self.assertEqual(restored.seed_, first.seed_)
        self.assertEqual(restored.perplexity(X), first.perplexity(X))

    def test_sklearn_conventions(self):
        from sklearn.base import clone
        from sklearn.exceptions import NotFittedError
        lda = small_lda(alpha=0.3)
        self.assertEqual(lda.get_params()["alpha"], 0.3)
        self.assertIs(lda.set_params(alpha=0.2), lda)
        self.assertEqual(clone(lda).alpha, 0.2)
        with self.assertRaises(NotFittedError):
            lda.transform(toy_counts())
        X = toy_counts()
        self.assertIs(lda.fit(X), lda)
        self.assertEqual(lda.n_features_in_, 12)
        self.assertEqual(lda.fit_transform(X).shape, (30, 5))
        with self.assertRaisesRegex(ValueError, "X has 11 features"):
            lda.transform(X[:, :11])

    def test_ctrl_c_stops_fit_cleanly(self):
        X = toy_counts(docs=200, words=50)
        lda = small_lda(max_iter=10**7, batch_size=200, gibbs_sweeps=50, burn_in=0)
        timer = threading.Timer(0.2, _thread.interrupt_main)
        timer.start()
        with self.assertRaises(KeyboardInterrupt):
            lda.fit(X)
        timer.join()
        self.assertGreater(lda.n_iter_, 0)
        self.assertLess(lda.n_iter_, 10**7)
        self.assertEqual(lda.n_samples_kept_, lda.n_iter_)
        self.assertEqual(lda.transform(X[:2]).shape, (2, 5))


    def test_fit_releases_the_gil(self):
        # While fit runs in another thread, this thread keeps running Python: if fit held the
        # GIL for its whole C++ loop, the count below would stay 0 until it returned.
        X = toy_counts(docs=200, words=50)
        lda = small_lda(max_iter=10, batch_size=200, gibbs_sweeps=50)
        worker = threading.Thread(target=lda.fit, args=(X,))
        count = 0
        worker.start()
        while worker.is_alive():
            count += 1
        worker.join()
        self.assertEqual(lda.n_iter_, 10)
        self.assertGreater(count, 1000)


class ErrorPathTest(unittest.TestCase):
    def test_bad_counts_name_the_entry(self):
        X = toy_counts()
        X[3, 4] = 1.5
        with self.assertRaisesRegex(ValueError, r"^X\[3, 4\] = 1.5 is not a non-negative "
                                                r"integer count: LDA needs integer word counts "
                                                r"\(use CountVectorizer\)$"):
            small_lda(real_counts="error").fit(X)
        X[3, 4] = -2
        for real_counts in ("round", "scale", "error"):
            for matrix in (X, sp.csr_matrix(X)):
                with self.assertRaisesRegex(ValueError, r"^Negative values in data passed to "
                                                        r"LDA: X\[3, 4\] = -2 is not a "
                                                        r"non-negative count$"):
                    small_lda(real_counts=real_counts).fit(matrix)
        with self.assertRaisesRegex(ValueError, "^real_counts must be one of"):
            small_lda(real_counts="floor").fit(toy_counts())

    def test_real_counts_round_and_scale(self):
        # "round" (the default): the fit of X equals the fit of rint(X), dense or sparse;
        # integer counts are unchanged. "scale": each row over its smallest positive entry.
        X = toy_counts() * 0.37
        rounded = np.rint(X)
        a = small_lda().fit(X).components_
        np.testing.assert_array_equal(a, small_lda().fit(rounded).components_)
        np.testing.assert_array_equal(a, small_lda().fit(sp.csr_matrix(X)).components_)
        smallest = np.where(X > 0, X, np.inf).min(axis=1, keepdims=True)
        scaled = np.rint(X / smallest)
        b = small_lda(real_counts="scale").fit(X).components_
        np.testing.assert_array_equal(b, small_lda().fit(scaled).components_)
        np.testing.assert_array_equal(
            b, small_lda(real_counts="scale").fit(sp.csr_matrix(X)).components_)
        self.assertEqual(scaled[X > 0].min(), 1.0)
        extreme = np.array([[1e-300, 1.0, 0.0], [1.0, 1.0, 2.0]])
        for matrix in (extreme, sp.csr_matrix(extreme)):
            with self.assertRaisesRegex(ValueError, r"^real_counts=\"scale\": row 0's largest "
                                                    r"entry is 1e\+300 times"):
                small_lda(real_counts="scale").fit(matrix)

    def test_count_limit_is_stated(self):
        # 2^31 said "is not a non-negative integer count"; the limit is 2^31 - 1 per entry.
        X = toy_counts()
        X[2, 1] = 2.0**31
        with self.assertRaisesRegex(ValueError, r"^X\[2, 1\] = 2.14748e\+09 is larger than the "
                                                r"largest count of one entry, 2147483647 "
                                                r"\(2\^31 - 1\)$"):
            small_lda().fit(X)
        # A row of more than 2^31 - 1 tokens ended in std::length_error (an abort); checked
        # before anything is allocated.
        X[2, 1] = X[2, 3] = 2.0**30
        with self.assertRaisesRegex(ValueError, r"^X row 2 holds more than 2147483647 \(2\^31 - 1\)"
                                                r" tokens"):
            small_lda().fit(X)

    def test_burn_in_at_or_past_max_iter(self):
        # burn_in > max_iter kept no sample silently (components_ was then the last sample).
        X = toy_counts()
        with self.assertRaisesRegex(ValueError, r"^burn_in=21 must be at most max_iter=20: "):
            small_lda(burn_in=21).fit(X)
        with self.assertWarnsRegex(UserWarning, "burn_in=20 equals max_iter: the posterior mean "
                                                "is of one sample"):
            lda = small_lda(burn_in=20).fit(X)
        self.assertEqual(lda.n_samples_kept_, 1)
        np.testing.assert_array_equal(lda.components_, lda.last_sample_)
        self.assertEqual(small_lda(burn_in=19).fit(X).n_samples_kept_, 2)

    def test_held_out_must_be_a_pair(self):
        X = toy_counts()
        for held_out in (X, (X,), [X, X, X], sp.csr_matrix(X)):
            with self.assertRaisesRegex(TypeError, r"^held_out must be a pair \(X_observed, "
                                                   r"X_held_out\)"):
                small_lda().fit(X, held_out=held_out)

    def test_invalid_options_carry_the_status_message(self):
        X = toy_counts()
        with self.assertRaisesRegex(ValueError, r"^LdaOptions.alpha must be finite and > 0, "
                                                r"got -1$"):
            small_lda(alpha=-1).fit(X)
        with self.assertRaisesRegex(ValueError, "sampler must be \"scir\" or \"sgrld\""):
            small_lda(sampler="gibbs").fit(X)
        with self.assertRaisesRegex(ValueError, "thin must be >= 1"):
            small_lda(thin=0).fit(X)
        with self.assertRaisesRegex(ValueError, "n_components|num_topics"):
            small_lda(n_components=0).fit(X)

    def test_undefined_perplexity_and_absurd_options_raise(self):
        X = toy_counts()
        lda = small_lda().fit(X)
        # Documents with no tokens: 0/0 perplexity was returned as NaN.
        empty = np.zeros((3, X.shape[1]))
        with self.assertRaisesRegex(ValueError, "^X has no held-out tokens"):
            lda.perplexity(empty)
        with self.assertRaisesRegex(ValueError, r"^held_out\[1\] has no held-out tokens"):
            small_lda().fit(X, held_out=(X, empty))
        # A mistyped n_threads hung creating the threads; a seed past 64 bits was a TypeError
        # from pybind11's overload resolution.
        with self.assertRaisesRegex(ValueError, "n_threads must be at most 1024, got 100000"):
            small_lda(n_threads=100000).fit(X)
        with self.assertRaisesRegex(ValueError, r"random_state must be in \[0, 2\^64\)"):
            small_lda(random_state=2**70).fit(X)

    def test_huge_counts_raise_before_allocating(self):
        # Six entries of 2e9 asked for 48 GB of tokens: the process was killed (OOM) or got
        # std::bad_alloc; now the token total is checked before anything is allocated.
        with self.assertRaisesRegex(ValueError, "^X holds more than 4294967296 tokens"):
            small_lda().fit(np.array([[2e9, 0.0]] * 3))  # each row under 2^31 tokens

    def test_badly_typed_parameters_name_the_parameter(self):
        # Were pybind11 signature dumps (TypeError) that did not say which parameter.
        X = toy_counts()
        with self.assertRaisesRegex(TypeError, "^n_components must be an int, got 2.5$"):
            small_lda(n_components=2.5).fit(X)
        with self.assertRaisesRegex(ValueError, "^max_iter must be at most 9223372036854775807"):
            small_lda(max_iter=2**70).fit(X)
        with self.assertRaisesRegex(TypeError, "^alpha must be a real number, got 'a'$"):
            small_lda(alpha="a").fit(X)
        with self.assertRaisesRegex(ValueError, "^total_samples must be None or an int >= 1 "
                                                "and < 2\\^63, got 2.5$"):
            small_lda(total_samples=2.5).partial_fit(X)
        with self.assertRaisesRegex(ValueError, "^seed must be >= 0, got -1$"):
            datasets.load_uci("/nonexistent/docword.txt", "/nonexistent/vocab.txt", seed=-1)
        # batch_size is clamped to the number of documents, also beyond the C++ int.
        np.testing.assert_array_equal(small_lda(batch_size=10**12).fit(X).components_,
                                      small_lda(batch_size=X.shape[0]).fit(X).components_)

    def test_partial_fit_refuses_parameters_changed_since_the_chain_started(self):
        # The chain silently went on with the old K; a pickle of it aborted the interpreter
        # (CHECK failure) in the next partial_fit.
        X = toy_counts()
        lda = small_lda().partial_fit(X)
        lda.n_components = 6
        message = "^n_components is 6, but the chain partial_fit continues was started with 5"
        with self.assertRaisesRegex(ValueError, message):
            lda.partial_fit(X)
        with self.assertRaisesRegex(ValueError, message):
            pickle.loads(pickle.dumps(lda)).partial_fit(X)
        self.assertEqual(lda.transform(X).shape, (X.shape[0], 5))  # the fitted K
        lda.n_components = 5
        lda.n_threads = 1  # not a chain parameter: the results do not depend on it
        lda.partial_fit(X)

    def test_damaged_pickled_chain_raises(self):
        lda = small_lda().fit(toy_counts())
        state = lda.__getstate__()
        chain = list(state["_chain"])
        chain[7] = [1.0]  # one sample entry for K x V topics: a CHECK failure before
        state["_chain"] = tuple(chain)
        with self.assertRaisesRegex(ValueError, "^pickled LDA chain does not match 5 topics"):
            small_lda().__setstate__(state)

    def test_perplexity_rejects_topics_that_are_not_finite_and_non_negative(self):
        # The completion method's sparse Gibbs table CHECKs its entries (the process would end).
        lda = small_lda().fit(toy_counts())
        for bad in (np.nan, -0.5, np.inf):
            lda.components_ = lda.components_.copy()
            saved = lda.components_[1, 2]
            lda.components_[1, 2] = bad
            for method in ("completion", "fold_in"):
                with self.assertRaisesRegex(ValueError,
                                            r"^topics\[1, 2\] = .* must be finite and >= 0"):
                    lda.perplexity(toy_counts(), method=method)
            lda.components_[1, 2] = saved
        self.assertTrue(np.isfinite(lda.perplexity(toy_counts())))

    def test_format_topics_checks_its_arguments(self):
        # num_topics = 0 was a CHECK failure in models::SummarizeTopics; NaN was printed.
        with self.assertRaisesRegex(ValueError, "^need at least one topic and one word"):
            sgmcmc.format_topics(np.ones((0, 0)), 0, [], 2)
        with self.assertRaisesRegex(ValueError, r"^topics\[1, 2\] = nan must be finite"):
            sgmcmc.format_topics(np.array([[1.0, 0, 0], [0, 0, np.nan]]), 2, list("abc"), 2)
        # Out-of-range counts were pybind11 TypeErrors listing the overloads.
        with self.assertRaisesRegex(ValueError, "^format_topics: num_topics must be at most "
                                    "2147483647, got 4294967296$"):
            sgmcmc.format_topics(np.ones((1, 3)), 2**32, list("abc"), 2)
        with self.assertRaisesRegex(TypeError, "^format_topics: top_words must be an int, "
                                    "got 2.0$"):
            sgmcmc.format_topics(np.ones((1, 3)), 1, list("abc"), 2.0)

    def test_overflowing_settings_raise(self):
        # V x beta = inf and SGRLD's step at h = 1e300 made the topics NaN, and the next Gibbs
        # sweep aborted the interpreter (a CHECK); K x alpha = inf gave transform rows of 0.
        X = toy_counts()
        with self.assertRaisesRegex(ValueError, "V x beta = 12 x 1e\\+308 must be finite"):
            small_lda(beta=1e308).fit(X)
        with self.assertRaisesRegex(ValueError, "^LDA: SGRLD's state overflowed"):
            small_lda(sampler="sgrld", step_size=1e300).fit(X)
        lda = small_lda().fit(X)
        lda.alpha = 1e308
        with self.assertRaisesRegex(ValueError, "K x alpha = 5 x 1e\\+308 must be finite"):
            lda.transform(X)

    def test_missing_file_is_file_not_found(self):
        with self.assertRaises(FileNotFoundError):
            datasets.load_uci("/nonexistent/docword.txt", "/nonexistent/vocab.txt")

    def test_default_beta_follows_the_counts(self):
        # toy_counts: 30 x 12 Poisson(2) counts, NNZ 311 (86%); K = 5: 311 / 60 = 5.2 entries
        # per cell: 0.2 x 5.2 clamped to 0.1. K = 100: 0.052; K = 5000: 0.0012, clamped to 0.01.
        X = toy_counts()
        nnz = np.count_nonzero(X)
        for k, expected in ((5, 0.1), (100, 0.2 * nnz / (100 * 12)), (5000, 0.01)):
            lda = small_lda(sampler="scir", n_components=k, max_iter=2, eval_every=None).fit(X)
            self.assertAlmostEqual(lda.topic_word_prior_, expected, places=15, msg=k)
            self.assertIsNone(lda.beta)
        # Given: kept; SGRLD's default: sgrld_fast's 0.01.
        self.assertEqual(small_lda(sampler="scir", n_components=300, beta=0.3, max_iter=2,
                                   eval_every=None).fit(X).topic_word_prior_, 0.3)
        self.assertEqual(small_lda(n_components=300, topic_word_prior=0.2, max_iter=2,
                                   eval_every=None).fit(X).topic_word_prior_, 0.2)
        self.assertEqual(small_lda(sampler="sgrld", max_iter=2, eval_every=None)
                         .fit(X).topic_word_prior_, 0.01)
        # partial_fit: the first chunk's NNZ scaled to total_samples, kept for later chunks.
        # (about 0.42 entries per cell at K = 600: unclamped.)
        lda = small_lda(n_components=600, total_samples=300, eval_every=None)
        lda.partial_fit(X[:10])
        chunk = np.count_nonzero(X[:10])
        self.assertAlmostEqual(lda.topic_word_prior_, 0.2 * round(chunk * 30.0) / 7200,
                               places=15)
        self.assertLess(lda.topic_word_prior_, 0.1)
        lda.partial_fit(X[10:20])
        self.assertAlmostEqual(lda.topic_word_prior_, 0.2 * round(chunk * 30.0) / 7200,
                               places=15)

    def test_default_alpha_follows_the_number_of_topics(self):
        # models::DefaultLdaAlpha: K alpha = 0.05 K within [5, 10], alpha <= 0.1; given values
        # are kept.
        X = toy_counts()
        self.assertIsNone(sgmcmc.LDA().alpha)
        for k, expected in ((5, 0.1), (50, 0.1), (100, 0.05), (200, 0.05), (1000, 0.01)):
            lda = small_lda(n_components=k, max_iter=2, eval_every=None).fit(X)
            self.assertEqual(lda.doc_topic_prior_, expected, msg=k)
            self.assertIsNone(lda.alpha)
            if expected == 0.1:
                self.assertIsNone(lda.alpha_reason_, msg=k)
            else:
                self.assertEqual(lda.alpha_reason_, "alpha %g (default for K = %d: K alpha = "
                                 "0.05 K within [5, 10], alpha <= 0.1; models::DefaultLdaAlpha)"
                                 % (expected, k))
        given = small_lda(n_components=1000, alpha=0.3, max_iter=2, eval_every=None).fit(X)
        self.assertEqual(given.doc_topic_prior_, 0.3)
        self.assertIsNone(given.alpha_reason_)
        self.assertEqual(small_lda(n_components=1000, doc_topic_prior=0.2, max_iter=2,
                                   eval_every=None).fit(X).doc_topic_prior_, 0.2)
        with self.assertRaisesRegex(ValueError, "n_components"):
            small_lda(n_components=0).fit(X)

    def test_default_sampler_follows_the_data(self):
        # As the lda tool: fit by the mean document length (toy_counts: 30 documents of
        # about 24 tokens: SGRLD, with sgrld_fast's schedule and β), ...
        short = toy_counts()
        lda = small_lda(max_iter=2, eval_every=None).fit(short)
        self.assertIsNone(lda.sampler)
        self.assertIsNone(lda.step_size)
        self.assertEqual(lda.sampler_, "sgrld")
        self.assertEqual(lda.step_size_schedule_, (0.1, 100.0, 0.6))
        self.assertEqual(lda.topic_word_prior_, 0.01)
        self.assertRegex(lda.sampler_reason_, r"^sampler 'sgrld' \(default for a mean document "
                                              r"length of 2\d\.\d+ tokens \(< 100: sgrld_fast\)\)$")
        # ... 120 tokens per document: SCIR with scir_fast's schedule ...
        long = np.random.RandomState(1).poisson(10.0, size=(30, 12)).astype(float)
        lda = small_lda(max_iter=2, eval_every=None).fit(long)
        self.assertEqual(lda.sampler_, "scir")
        self.assertEqual(lda.step_size_schedule_, (0.5, 10.0, 0.33))
        self.assertIn(">= 100: scir_fast", lda.sampler_reason_)
        # ... sparse counts in memory, fewer than 0.5 entries per topic-word cell (311 / (100 x
        # 12) here): SCIR whatever the length ...
        lda = small_lda(n_components=100, max_iter=2, eval_every=None).fit(short)
        self.assertEqual(lda.sampler_, "scir")
        self.assertRegex(lda.sampler_reason_, r"^sampler 'scir' \(default for sparse counts, "
                                              r"0\.259\d* document-word entries per topic-word "
                                              r"cell \(NNZ 311 / \(K 100 x V 12\)\), < 0\.5: "
                                              r"scir_fast\)$")
        # ... and a stream (partial_fit) by the density of its first chunk scaled to
        # total_samples: 10 short documents standing for 30 at K = 2, NNZ / (K V) >= 2: SGRLD;
        # at K = 300 below 2: SCIR with β by the counts.
        lda = small_lda(n_components=2, total_samples=30, eval_every=None)
        lda.partial_fit(short[:10])
        self.assertEqual(lda.sampler_, "sgrld")
        self.assertRegex(lda.sampler_reason_, r"^sampler 'sgrld' \(default for a stream of "
                                              r"[\d.]+ document-word entries per topic-word cell "
                                              r"\(NNZ \d+ / \(K 2 x V 12\)\), >= 2: sgrld_fast\)$")
        lda.partial_fit(short[10:20])  # the chain keeps its sampler
        self.assertEqual(lda.sampler_, "sgrld")
        lda = small_lda(n_components=300, total_samples=30, eval_every=None)
        lda.partial_fit(short[:10])
        self.assertEqual(lda.sampler_, "scir")
        # Given: kept, with that sampler's schedule unless given too; the reason is None.
        lda = small_lda(sampler="sgrld", max_iter=2, eval_every=None).fit(long)
        self.assertEqual((lda.sampler_, lda.step_size_schedule_), ("sgrld", (0.1, 100.0, 0.6)))
        self.assertIsNone(lda.sampler_reason_)
        lda = small_lda(learning_method="scir", step_size=0.2, learning_offset=50, max_iter=2,
                        eval_every=None).fit(short)
        self.assertEqual((lda.sampler_, lda.step_size_schedule_), ("scir", (0.2, 50.0, 0.33)))
        # The same chain as naming the chosen settings.
        named = small_lda(sampler="sgrld", step_size=0.1, step_size_tau=100, step_size_kappa=0.6,
                          beta=0.01, max_iter=2, eval_every=None).fit(short)
        np.testing.assert_array_equal(small_lda(max_iter=2, eval_every=None).fit(short)
                                      .components_, named.components_)

    def test_sgrld_runs(self):
        lda = small_lda(sampler="sgrld", step_size=0.1, step_size_tau=100,
                        step_size_kappa=0.6, batch_size=10).fit(toy_counts())
        np.testing.assert_allclose(lda.components_.sum(axis=1), 1.0, rtol=1e-12)


if __name__ == "__main__":
    LDA_TOOL = os.path.abspath(sys.argv.pop(1))
    unittest.main()
