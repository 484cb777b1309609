"""scikit-learn's estimator checks (sklearn.utils.estimator_checks) on sgmcmc.LDA.

sklearn generates real-valued X, and LDA takes word counts: every check that fits would stop
at "X[0, 0] = 0.53 is not a non-negative integer count". So the suite runs on
IntegerCountsLDA, which validates X exactly as LDA does and then rounds it to counts; all
of sklearn's conventions (parameters, cloning, pickling, idempotence, n_features_in_, dtypes,
sparse formats, NaN/inf and empty-input errors, ...) are exercised on LDA's code. LDA itself
must pass the checks that do not fit (listed in NO_FIT_CHECKS).

What does not apply:
  * real-valued X (above): LDA raises ValueError naming the entry, hence IntegerCountsLDA.

check_methods_subset_invariance and check_methods_sample_order_invariance hold for any
n_components: transform is the deterministic fold-in of eval/fold_in.h, each row a function
of its own document only (tested with K > 1 in lda_test.py,
test_transform_of_a_row_depends_only_on_that_row).
"""

import unittest
import warnings

import numpy as np
from sklearn.utils.estimator_checks import check_estimator

import sgmcmc

NO_FIT_CHECKS = {"check_no_attributes_set_in_init", "check_parameters_default_constructible",
                 "check_get_params_invariance", "check_set_params", "check_transformers_unfitted",
                 "check_estimator_get_tags_default_keys", "check_estimators_empty_data_messages",
                 "check_complex_data", "check_fit1d", "check_fit_non_negative"}


class IntegerCountsLDA(sgmcmc.LDA):
    def _check_X(self, X, reset):
        X = self._validate_data(X, accept_sparse="csr", dtype=np.float64, reset=reset)
        X = X.copy()
        if hasattr(X, "data"):
            X.data = np.rint(X.data)
        else:
            X = np.rint(X)
        return super()._check_X(X, reset)


def small(cls):
    return cls(n_components=3, max_iter=10, gibbs_sweeps=4, eval_sweeps=4, batch_size=10,
               n_threads=1)


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
    def test_all_checks_pass_on_counts(self):
        results = run_checks(small(IntegerCountsLDA))
        self.assertGreater(len(results), 30)
        failed = {name: repr(error)[:300] for name, error in results.items()
                  if error is not None}
        self.assertEqual(failed, {})

    def test_lda_passes_the_checks_that_do_not_fit(self):
        results = run_checks(small(sgmcmc.LDA))
        for name in NO_FIT_CHECKS:
            self.assertIsNone(results[name], name)


if __name__ == "__main__":
    unittest.main()
