"""ArviZ's diagnostics (bulk/tail ESS, rank-normalised split R-hat) and its InferenceData
netCDF layout.

The reference values are computed here, independently of sgmcmc.diagnostics, from the
formulas of Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021), "Rank-normalization,
folding, and localization: an improved R-hat for assessing convergence of MCMC" (Bayesian
Analysis 16(2)), with ArviZ's conventions for what the paper leaves open (split chains drop
the middle draw of an odd chain; Blom's offset 3/8 in the rank normalisation; the tail ESS
at NumPy's linear quantiles 5% and 95%; the last positive even autocorrelation counted once;
τ̂ floored at 1/log10(mn)): direct-sum autocovariances instead of the library's FFT, the
Geyer sequence written over explicit pairs, ranks by sorting. Agreement to 1e-10 relative.

The netCDF test checks a written file against ArviZ's documented InferenceData schema
(schema.md: groups, chain/draw as the first dimensions with coordinates, no variable named
like a dimension, the created_at / inference_library / inference_library_version attributes).
"""

import datetime
import os
import tempfile
import unittest

import numpy as np
from scipy import special

import sgmcmc
from sgmcmc import arviz
from sgmcmc import diagnostics
from sgmcmc import samplers
from diagnostics_test import ar1  # AR(1) chains from the library's engine


# -- independent reference implementation -------------------------------------------------

def ref_autocov(chain):
    n = len(chain)
    c = chain - chain.mean()
    return np.array([np.dot(c[:n - t], c[t:]) / n for t in range(n)])


def ref_ess(x):
    """Vehtari et al. (2021) eq. 10-11 with Geyer's initial monotone sequence over pairs."""
    m, n = x.shape
    if x.max() - x.min() < np.finfo(float).resolution:
        return float(m * n)
    gamma = np.mean([ref_autocov(c) for c in x], axis=0)
    w = np.mean([np.var(c, ddof=1) for c in x])
    var_plus = (n - 1) / n * w + (np.var(x.mean(axis=1), ddof=1) if m > 1 else 0.0)
    rho = 1.0 - (w - gamma) / var_plus
    rho[0] = 1.0  # by definition (the formula gives 1 - (W - gamma_0)/var+ = 1 - O(B/n))
    # Geyer's initial positive sequence: pairs (rho_2k, rho_2k+1), k = 0, 1, ..., evaluated
    # while the previous pair's sum was positive and the lags exist (2k - 1 < n - 3).
    evaluated = [(rho[0], rho[1])]
    while 2 * len(evaluated) - 1 < n - 3 and sum(evaluated[-1]) > 0:
        k = len(evaluated)
        evaluated.append((rho[2 * k], rho[2 * k + 1]))
    last = len(evaluated) - 1
    # The pairs before the last one evaluated are summed in full, made monotone
    # (P_j <- min(P_j, P_j-1)); the last one contributes its even term once: if positive, or
    # if the pair was kept (a negative pair sum is dropped).
    sums = [a + b for a, b in evaluated[:last]]
    for j in range(1, len(sums)):
        sums[j] = min(sums[j], sums[j - 1])
    even = evaluated[last][0]
    kept = last == 0 or sum(evaluated[last]) >= 0
    tail_term = even if (even > 0 or kept) else 0.0
    tau = -1.0 + 2.0 * sum(sums) + tail_term
    return float(m * n / max(tau, 1.0 / np.log10(m * n)))


def ref_split(x):
    half = x.shape[1] // 2
    return np.vstack([x[:, :half], x[:, -half:]])


def ref_ranks(x):
    flat = x.ravel()
    order = np.argsort(flat, kind="mergesort")
    ranks = np.empty(len(flat))
    sorted_values = flat[order]
    i = 0
    while i < len(flat):
        j = i
        while j + 1 < len(flat) and sorted_values[j + 1] == sorted_values[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2.0 + 1.0   # average of ranks i+1 .. j+1
        i = j + 1
    return ranks.reshape(x.shape)


def ref_z(x):
    return special.ndtri((ref_ranks(x) - 3.0 / 8.0) / (x.size - 2 * 3.0 / 8.0 + 1.0))


def ref_rhat_plain(x):
    m, n = x.shape
    b_over_n = np.var(x.mean(axis=1), ddof=1)
    w = np.mean(np.var(x, axis=1, ddof=1))
    return float(np.sqrt(((n - 1) / n * w + b_over_n) / w))


def ref_quantile(x, p):
    s = np.sort(x.ravel())
    h = (len(s) - 1) * p
    lo = int(np.floor(h))
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (h - lo) * (s[hi] - s[lo])


def ref_bulk(x):
    return ref_ess(ref_z(ref_split(x)))


def ref_tail(x):
    return min(ref_ess(ref_split((x <= ref_quantile(x, p)).astype(float))) for p in (0.05, 0.95))


def ref_rank_rhat(x):
    split = ref_split(x)
    folded = np.abs(split - np.median(split))
    return max(ref_rhat_plain(ref_z(split)), ref_rhat_plain(ref_z(folded)))


def shifted(x, offset):
    return x + np.asarray(offset)[:, None]


def test_sets():
    heavy = ar1(0.3, 400, 4, seed=5)
    return {
        "ar1 0.5, 4 x 1000": ar1(0.5, 1000, 4, seed=1),
        "ar1 0.95, 4 x 501 (odd)": ar1(0.95, 501, 4, seed=2),
        "ar1 -0.4 (antithetic), 2 x 300": ar1(-0.4, 300, 2, seed=3),
        "one chain 0.8 x 800": ar1(0.8, 800, 1, seed=4),
        "shifted chains": shifted(ar1(0.6, 600, 4, seed=6), [0, 0, 0.5, 1.5]),
        "heavy tails (cubed)": heavy ** 3,
        "ties (rounded)": np.round(ar1(0.7, 500, 3, seed=7) * 2) / 2,
        "short 2 x 7": ar1(0.2, 7, 2, seed=8),
    }


class DiagnosticsMatchArvizDefinitionsTest(unittest.TestCase):
    def test_bulk_tail_rhat_to_1e_10(self):
        for name, x in test_sets().items():
            with self.subTest(data=name):
                self.assertAlmostEqual(diagnostics.ess_bulk(x) / ref_bulk(x), 1.0, delta=1e-10)
                self.assertAlmostEqual(diagnostics.ess_tail(x) / ref_tail(x), 1.0, delta=1e-10)
                if x.shape[0] >= 2:
                    self.assertAlmostEqual(diagnostics.rhat(x) / ref_rank_rhat(x), 1.0,
                                           delta=1e-10)
                else:
                    self.assertTrue(np.isnan(diagnostics.rhat(x)))

    def test_reference_against_closed_forms(self):
        # The reference itself: ESS of AR(1) -> mn(1 - phi)/(1 + phi) (bulk ESS is invariant
        # to the monotone rank transform up to noise); 4 x 5000 draws, 10% tolerance (the
        # estimator's relative sd here is about 3%).
        x = ar1(0.5, 5000, 4, seed=9)
        self.assertAlmostEqual(ref_ess(x) / (4 * 5000 / 3), 1.0, delta=0.1)
        self.assertAlmostEqual(ref_bulk(x) / (4 * 5000 / 3), 1.0, delta=0.1)
        self.assertEqual(ref_ess(np.ones((2, 10))), 20.0)
        self.assertLess(abs(ref_rank_rhat(x) - 1.0), 0.01)

    def test_which_estimator(self):
        # ess is the unsplit, non-rank-normalised estimator; ess_bulk ArviZ's default. They
        # differ on chains that disagree (split and rank normalisation penalise it).
        x = shifted(ar1(0.6, 600, 4, seed=6), [0, 0, 0.5, 1.5])
        self.assertNotAlmostEqual(diagnostics.ess(x), diagnostics.ess_bulk(x), delta=1.0)
        self.assertGreater(diagnostics.rhat(x), 1.05)
        per = diagnostics.ess_bulk(np.stack([x, -x], axis=2))
        self.assertEqual(per.shape, (2,))
        self.assertAlmostEqual(per[0] / per[1], 1.0, delta=1e-12)

    def test_ksd_standard_error_is_nan_for_v_and_u(self):
        x = np.empty((50, 2))
        samplers.Engine(8).normal(x.ravel())
        self.assertTrue(np.isnan(diagnostics.ksd(x, -x)["standard_error"]))
        self.assertTrue(np.isnan(diagnostics.ksd(x, -x, statistic="u")["standard_error"]))
        self.assertGreater(diagnostics.ksd(x, -x, statistic="linear")["standard_error"], 0)


def gaussian_grad(theta):
    return -theta


class InferenceDataLayoutTest(unittest.TestCase):
    def test_netcdf_follows_the_schema_and_round_trips(self):
        import netCDF4
        result = sgmcmc.sample(gaussian_grad, np.zeros(3), sampler="sgnht", n_samples=40,
                               n_chains=2, seed=4, step_size=0.05)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "run.nc")
            self.assertEqual(result.to_netcdf(path), path)
            with netCDF4.Dataset(path) as handle:
                self.assertEqual(sorted(handle.groups), ["posterior", "sample_stats"])
            groups = arviz.read_netcdf(path)
        posterior, stats = groups["posterior"], groups["sample_stats"]
        self.assertEqual(posterior["theta"].dims, ("chain", "draw", "theta_dim_0"))
        np.testing.assert_array_equal(posterior["theta"].values, result.draws)
        for group in (posterior, stats):
            for name, variable in group.data_vars.items():
                self.assertEqual(variable.dims[:2], ("chain", "draw"), name)
                self.assertNotIn(name, group.dims)
                for dim in variable.dims:
                    np.testing.assert_array_equal(group[dim].values,
                                                  np.arange(group.dims[dim]))
            self.assertEqual(group.attrs["inference_library"], "sgmcmc")
            self.assertEqual(group.attrs["inference_library_version"], sgmcmc.__version__)
            created = datetime.datetime.fromisoformat(group.attrs["created_at"])
            self.assertIsNotNone(created.tzinfo)
            self.assertEqual(group.attrs["sampler"], "sgnht")
        self.assertEqual(sorted(stats.data_vars), ["iteration", "step_size", "thermostat"])
        np.testing.assert_array_equal(stats["thermostat"].values,
                                      result.sample_stats["thermostat"])
        self.assertEqual(dict(posterior.dims), {"chain": 2, "draw": 40, "theta_dim_0": 3})

    def test_sphere_and_simplex_shapes(self):
        result = sgmcmc.sample(np.array([[3.0, 1.0, 0.0]]), 0.5, sampler="scir",
                               n_samples=10, n_chains=2, step_size=0.5)
        self.assertEqual(result.draws.shape, (2, 10, 1, 3))
        datasets = result.to_datasets(var_name="omega")
        self.assertEqual(datasets["posterior"]["omega"].dims,
                         ("chain", "draw", "omega_dim_0", "omega_dim_1"))
        with self.assertRaisesRegex(ValueError, "collides"):
            result.to_datasets(var_name="step_size")


if __name__ == "__main__":
    unittest.main()
