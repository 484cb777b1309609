"""sgmcmc.LDA as a drop-in for sklearn.decomposition.LatentDirichletAllocation: a script
written for scikit-learn runs with only its import swapped; scikit-learn's parameter names,
get_feature_names_out / set_output(transform="pandas"), verbose progress output."""

import contextlib
import io
import os
import subprocess
import sys
import unittest
import warnings

import numpy as np
import scipy.sparse as sp

import sgmcmc

SKLEARN_IMPORT = "from sklearn.decomposition import LatentDirichletAllocation"
SGMCMC_IMPORT = "from sgmcmc import LDA as LatentDirichletAllocation"


def script_path():
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "examples", "topics_sklearn.py")


def run_script(source):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, "-c", source], env=env, capture_output=True,
                          text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def toy_counts(seed=0, docs=40, words=12):
    return np.random.RandomState(seed).poisson(2.0, size=(docs, words)).astype(np.float64)


def small(**overrides):
    params = dict(n_components=3, max_iter=20, gibbs_sweeps=4, batch_size=10, n_threads=1,
                  random_state=5)
    params.update(overrides)
    return sgmcmc.LDA(**params)


class SwapImportTest(unittest.TestCase):
    def test_sklearn_script_runs_with_the_import_swapped(self):
        with open(script_path()) as f:
            source = f.read()
        self.assertIn(SKLEARN_IMPORT, source)
        outputs = {}
        for name, text in (("sklearn", source),
                           ("sgmcmc", source.replace(SKLEARN_IMPORT, SGMCMC_IMPORT))):
            returncode, stdout, stderr = run_script(text)
            self.assertEqual(returncode, 0, "%s: %s" % (name, stderr[-3000:]))
            outputs[name] = stdout.splitlines()
        planted = [" ".join(sorted(words)) for words in (
            ["apple", "banana", "cherry", "grape", "lemon", "mango", "peach", "plum"],
            ["bolt", "drill", "hammer", "nail", "saw", "screw", "wrench", "chisel"],
            ["cello", "drum", "flute", "harp", "oboe", "piano", "tuba", "violin"])]
        for name, lines in outputs.items():
            topics = [line[len("topic: "):].split() for line in lines if line.startswith("topic:")]
            self.assertEqual(len(topics), 3, name)
            # Each topic's five top words come from one planted topic, all three found.
            owners = []
            for words in topics:
                owner = [i for i, p in enumerate(planted) if set(words) <= set(p.split())]
                owners.append(owner[0] if owner else -1)
            self.assertEqual(sorted(owners), [0, 1, 2], (name, topics))
            self.assertIn("doc-topic shape: (5, 3)", lines)
            self.assertIn("perplexity positive: True", lines)
        self.assertIn("columns: ['lda0', 'lda1', 'lda2']", outputs["sgmcmc"])
        self.assertIn("columns: ['latentdirichletallocation0', 'latentdirichletallocation1', "
                      "'latentdirichletallocation2']", outputs["sklearn"])


class ParameterNamesTest(unittest.TestCase):
    def test_sklearn_names_stand_for_ours(self):
        X = toy_counts()
        ours = small(alpha=0.3, beta=0.05, step_size_tau=20.0, step_size_kappa=0.6,
                     sampler="sgrld", n_threads=2).fit(X).components_
        theirs = small(doc_topic_prior=0.3, topic_word_prior=0.05, learning_offset=20.0,
                       learning_decay=0.6, learning_method="sgrld", n_jobs=2).fit(X).components_
        np.testing.assert_array_equal(ours, theirs)
        # "batch": every document in each iteration; "online": minibatches of batch_size.
        np.testing.assert_array_equal(small(learning_method="batch").fit(X).components_,
                                      small(batch_size=len(X)).fit(X).components_)
        np.testing.assert_array_equal(small(learning_method="online").fit(X).components_,
                                      small().fit(X).components_)
        with self.assertRaisesRegex(ValueError, "^learning_method must be None, \"online\""):
            small(learning_method="em").fit(X)
        with self.assertRaisesRegex(ValueError, "^n_jobs must not be 0"):
            small(n_jobs=0).fit(X)
        with self.assertRaisesRegex(ValueError, "^doc_topic_prior must be finite|"
                                                "LdaOptions.alpha must be finite and > 0"):
            small(doc_topic_prior=-1.0).fit(X)
        self.assertEqual(small(n_jobs=-1)._threads(), os.cpu_count())
        self.assertEqual(small(n_jobs=3)._threads(), 3)

    def test_variational_settings_warn(self):
        for name in ("perp_tol", "mean_change_tol", "max_doc_update_iter"):
            with self.assertWarnsRegex(UserWarning, "^%s has no effect in sgmcmc.LDA" % name):
                small(**{name: 1}).fit(toy_counts())

    def test_evaluate_every(self):
        X = toy_counts()
        held = (toy_counts(seed=1, docs=10), toy_counts(seed=2, docs=10))
        lda = small(evaluate_every=4).fit(X, held_out=held)
        np.testing.assert_array_equal(lda.trace_[:, 0], [4, 8, 12, 16, 20])
        with self.assertWarnsRegex(UserWarning, "^evaluate_every=4: the perplexity is evaluated "
                                                "on a held-out split"):
            small(evaluate_every=4).fit(X)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            small(evaluate_every=-1).fit(X)  # scikit-learn's default: never, silently


class FeatureNamesTest(unittest.TestCase):
    def test_get_feature_names_out_and_pandas_output(self):
        import pandas as pd
        X = toy_counts()
        lda = small().fit(X)
        self.assertEqual(list(lda.get_feature_names_out()), ["lda0", "lda1", "lda2"])
        lda.set_output(transform="pandas")
        frame = lda.transform(X[:4])
        self.assertIsInstance(frame, pd.DataFrame)
        self.assertEqual(list(frame.columns), ["lda0", "lda1", "lda2"])
        np.testing.assert_allclose(frame.to_numpy().sum(axis=1), 1.0, rtol=1e-12)
        words = pd.DataFrame(X, columns=["w%d" % j for j in range(X.shape[1])])
        fitted = small().set_output(transform="pandas").fit(words)
        self.assertEqual(list(fitted.feature_names_in_), list(words.columns))
        self.assertEqual(list(fitted.fit_transform(words).columns), ["lda0", "lda1", "lda2"])


class VerboseTest(unittest.TestCase):
    def test_progress_bar_and_evaluation_lines(self):
        X = toy_counts()
        held = (toy_counts(seed=1, docs=10), toy_counts(seed=2, docs=10))
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            small(verbose=2, eval_every=10).fit(X, held_out=held)
        self.assertIn("LDA fit", err.getvalue())
        self.assertIn("20/20", err.getvalue())
        lines = out.getvalue().splitlines()
        self.assertEqual(len(lines), 3)
        # The sampler the data chose (toy documents are short: SGRLD), then the evaluations.
        self.assertRegex(lines[0], r"^sgmcmc.LDA: sampler 'sgrld' \(default for a mean document "
                                   r"length of \d+\.?\d* tokens \(< 100: sgrld_fast\)\)$")
        self.assertRegex(lines[1], r"^iteration: 10 of max_iter: 20, perplexity: \d+\.\d{4}$")
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            small().fit(X)
        self.assertEqual((err.getvalue(), out.getvalue()), ("", ""))
        # Progress does not change the numbers.
        with contextlib.redirect_stderr(io.StringIO()):
            a = small(verbose=1).fit(X).components_
        np.testing.assert_array_equal(a, small().fit(X).components_)


if __name__ == "__main__":
    unittest.main()
