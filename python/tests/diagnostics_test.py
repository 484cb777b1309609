"""Tests of sgmcmc.diagnostics: ESS, split R-hat and KSD on NumPy draws agree with their
closed forms, and CmdStan CSV files round-trip, with the C++ errors as Python exceptions."""

import os
import tempfile
import unittest

import numpy as np

from sgmcmc import diagnostics
from sgmcmc import samplers


def ar1(phi, n, chains, seed):
    """AR(1) chains x_t = phi x_{t-1} + sqrt(1 - phi^2) e_t from the library's engine."""
    noise = np.empty(chains * n)
    samplers.Engine(seed).normal(noise)
    noise = noise.reshape(chains, n)
    x = np.empty((chains, n))
    x[:, 0] = noise[:, 0]
    for t in range(1, n):
        x[:, t] = phi * x[:, t - 1] + np.sqrt(1 - phi * phi) * noise[:, t]
    return x


class DiagnosticsTest(unittest.TestCase):
    def test_ess_of_ar1_chains(self):
        # ESS of AR(1) with phi = 0.5 is m n (1 - phi) / (1 + phi) = 4 * 5000 / 3 = 6667; the
        # estimator's relative sd at this length is a few percent (eval/ess_test.cc); 15%.
        draws = ar1(0.5, 5000, 4, seed=3)
        self.assertAlmostEqual(diagnostics.ess(draws) / (4 * 5000 / 3), 1.0, delta=0.15)
        one = diagnostics.ess(draws[0])
        self.assertIsInstance(one, float)
        self.assertAlmostEqual(one / (5000 / 3), 1.0, delta=0.25)

    def test_per_parameter_results_for_three_dimensional_draws(self):
        draws = np.stack([ar1(0.5, 2000, 2, seed=1), ar1(0.9, 2000, 2, seed=2)], axis=2)
        ess = diagnostics.ess(draws)
        self.assertEqual(ess.shape, (2,))
        self.assertEqual(ess[0], diagnostics.ess(np.ascontiguousarray(draws[:, :, 0])))
        self.assertGreater(ess[0], 2 * ess[1])
        rhat = diagnostics.split_rhat(draws)
        self.assertEqual(rhat.shape, (2,))

    def test_split_rhat_flags_disagreeing_chains(self):
        draws = ar1(0.5, 2000, 4, seed=5)
        # Well-mixed chains: |R-hat - 1| is O(1/n); 0.01 is the usual alarm threshold.
        self.assertLess(abs(diagnostics.split_rhat(draws) - 1), 0.01)
        draws[0] += 3.0
        self.assertGreater(diagnostics.split_rhat(draws), 1.1)

    def test_ksd_separates_right_and_wrong_targets(self):
        x = np.empty((400, 2))
        samplers.Engine(8).normal(x.ravel())
        right = diagnostics.ksd(x, -x)               # scores of N(0, I)
        wrong = diagnostics.ksd(x, -(x - 1.0))       # scores of N(1, I)
        self.assertGreater(wrong["ksd"], 3 * right["ksd"])
        self.assertEqual(right["num_pairs"], 400 * 401 // 2)
        linear = diagnostics.ksd(x, -x, statistic="linear")
        self.assertGreater(linear["standard_error"], 0)
        with self.assertRaisesRegex(ValueError, "beta"):
            diagnostics.ksd(x, -x, beta=0.5)
        with self.assertRaisesRegex(ValueError, "statistic must be"):
            diagnostics.ksd(x, -x, statistic="w")

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, "at least 4 draws"):
            diagnostics.ess(np.zeros(3))
        with self.assertRaisesRegex(ValueError, "shape"):
            diagnostics.split_rhat(np.zeros((2, 2, 2, 2)))

    def test_vectors_of_another_shape_raise(self):
        # weights of shape (n, 1) or (1, n) (and lp likewise) were flattened silently.
        x = np.random.default_rng(0).standard_normal((6, 2))
        weights = np.arange(1.0, 7.0)
        expected = diagnostics.ksd(x, -x, weights=weights)
        for statistic in ("v", "u", "linear"):
            for shape in ((6, 1), (1, 6), (2, 3)):
                with self.subTest(statistic=statistic, shape=shape), self.assertRaisesRegex(
                        ValueError, r"^ksd: weights must have shape \(n,\) = \(6,\), got "
                        r"\(%d, %d\)$" % shape):
                    diagnostics.ksd(x, -x, weights=weights.reshape(shape), statistic=statistic)
        with self.assertRaisesRegex(ValueError, r"^ksd: weights must have shape \(n,\) = "
                                    r"\(6,\), got \(5,\)$"):
            diagnostics.ksd(x, -x, weights=weights[:5])
        # (standard_error is NaN for the V statistic: assert_equal treats NaN as equal.)
        np.testing.assert_equal(diagnostics.ksd(x, -x, weights=list(weights)), expected)
        directory = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        path = os.path.join(directory, "draws.csv")
        with self.assertRaisesRegex(ValueError, r"^write_cmdstan_csv: lp must have shape "
                                    r"\(n,\) = \(6,\), got \(6, 1\)$"):
            diagnostics.write_cmdstan_csv(path, x, lp=np.zeros((6, 1)))

    def test_integers_raise_naming_them(self):
        # Out-of-range seeds and counts were pybind11 TypeErrors listing the overloads.
        path = os.path.join(tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR")), "draws.csv")
        draws = np.zeros((3, 2))
        cases = [
            (ValueError, "^seed must be >= 0, got -1$", dict(seed=-1)),
            (ValueError, "^seed must be at most 18446744073709551615", dict(seed=2**64)),
            (ValueError, "^num_warmup must be at most 9223372036854775807", dict(num_warmup=2**63)),
            (ValueError, "^thin must be >= 1, got 0$", dict(thin=0)),
            (ValueError, "^chain_id must be at most 2147483647", dict(chain_id=2**31)),
            (TypeError, "^significant_digits must be an int, got 6.0$",
             dict(significant_digits=6.0)),
        ]
        for error, message, kwargs in cases:
            with self.subTest(kwargs=kwargs), self.assertRaisesRegex(error, message):
                diagnostics.write_cmdstan_csv(path, draws, **kwargs)

    def test_complex_draws_raise(self):
        # The float64 conversion dropped the imaginary parts silently.
        draws = np.arange(20.0) + 1j
        for statistic in (diagnostics.ess, diagnostics.split_rhat):
            with self.assertRaisesRegex(TypeError, "^draws must be real numbers"):
                statistic(draws)
        with self.assertRaisesRegex(TypeError, "^scores must be real numbers"):
            diagnostics.ksd(np.ones((4, 2)), np.ones((4, 2)) * 1j)

    def test_cmdstan_csv_round_trip(self):
        directory = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        path = os.path.join(directory, "draws.csv")
        draws = np.array([[0.1, 1 / 3], [-1e-300, 2.0], [np.inf, -0.0]])
        diagnostics.write_cmdstan_csv(path, draws, lp=np.array([-1.0, -2.0, -3.0]),
                                      algorithm="sgld", seed=7, significant_digits=17)
        columns, values, config = diagnostics.read_cmdstan_csv(path)
        self.assertEqual(columns, ["lp__", "theta.1", "theta.2"])
        np.testing.assert_array_equal(values[:, 1:], draws)
        np.testing.assert_array_equal(values[:, 0], [-1, -2, -3])
        self.assertEqual(config["algorithm"], "sgld")
        self.assertEqual(config["seed"], "7")
        with open(path, "a") as f:
            f.write("1,2\n")
        with self.assertRaisesRegex(ValueError, r"draws.csv:\d+: expected 3 values, got 2"):
            diagnostics.read_cmdstan_csv(path)
        with self.assertRaises(FileNotFoundError):
            diagnostics.read_cmdstan_csv(path + ".absent")
        # A binary file was a UnicodeDecodeError without the file's name.
        with open(path, "wb") as f:
            f.write(b"\x00\xff\xfe,lp__\n1,2\n")
        with self.assertRaisesRegex(ValueError, r"draws.csv: not a CmdStan CSV file"):
            diagnostics.read_cmdstan_csv(path)
        with self.assertRaisesRegex(ValueError, "significant_digits"):
            diagnostics.write_cmdstan_csv(path, draws, significant_digits=30)


if __name__ == "__main__":
    unittest.main()
