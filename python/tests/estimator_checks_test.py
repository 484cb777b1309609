"""scikit-learn's estimator checks (sklearn.utils.estimator_checks) on sgmcmc.LDA itself.

sklearn generates real-valued X; LDA samples integer word counts and, with its default
real_counts="round", rounds non-negative real X to the nearest integers (documented in
sgmcmc.LDA), so every check runs on LDA's own code and must pass: parameters, cloning,
pickling, idempotence, n_features_in_, dtypes, sparse formats, NaN/inf, negative and empty
input errors, get_feature_names_out and set_output.

check_methods_subset_invariance and check_methods_sample_order_invariance hold for any
n_components: transform is the deterministic fold-in of eval/fold_in.h, each row a function
of its own document only (tested with K > 1 in lda_test.py,
test_transform_of_a_row_depends_only_on_that_row).
"""

import unittest
import warnings

from sklearn.utils import estimator_checks
from sklearn.utils.estimator_checks import check_estimator

import sgmcmc


FEATURE_NAME_CHECKS = ("check_get_feature_names_out_error",
                       "check_transformer_get_feature_names_out",
                       "check_transformer_get_feature_names_out_pandas",
                       "check_set_output_transform", "check_set_output_transform_pandas",
                       "check_global_ouptut_transform_pandas")


def small(**overrides):
    params = dict(n_components=3, max_iter=10, gibbs_sweeps=4, eval_sweeps=4, batch_size=10,
                  n_threads=1)
    params.update(overrides)
    return sgmcmc.LDA(**params)


def run_checks(estimator):
    """{check name: None if it passed, else the exception}."""
    results = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for instance, check in check_estimator(estimator, generate_only=True):
            name = getattr(check, "func", check).__name__
            try:
                check(instance)
                results.setdefault(name, None)
            except Exception as error:  # recorded; the test asserts on the set
                results[name] = error
    return results


class EstimatorChecksTest(unittest.TestCase):
    def test_every_check_passes_with_the_defaults(self):
        results = run_checks(small())
        # 33 checks in scikit-learn 1.2 for a transformer (more with set_output's).
        self.assertGreaterEqual(len(results), 33)
        failed = {name: repr(error)[:300] for name, error in results.items()
                  if error is not None}
        self.assertEqual(failed, {})

    def test_feature_names_and_set_output_checks(self):
        # scikit-learn's own checks of get_feature_names_out and set_output, which
        # check_estimator (1.2) does not run; the pandas ones need python3-pandas.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for check in FEATURE_NAME_CHECKS:
                with self.subTest(check=check):
                    getattr(estimator_checks, check)("LDA", small())

    def test_check_estimator_itself_raises_nothing(self):
        # The way a user runs it: any failing check raises.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_estimator(small())

    def test_refusing_real_counts_fails_the_real_valued_checks(self):
        # The option is a real choice: with real_counts="error" sklearn's real-valued test
        # matrices are refused with the CountVectorizer hint.
        results = run_checks(small(real_counts="error"))
        self.assertIn("needs integer word counts (use CountVectorizer)",
                      str(results["check_fit2d_1sample"]))


if __name__ == "__main__":
    unittest.main()
