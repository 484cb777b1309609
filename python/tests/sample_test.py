"""sgmcmc.sample and the samplers for a user's own model: statistical validation against
exact laws (Gaussian for the Euclidean samplers, Dirichlet for the simplex ones, von
Mises-Fisher and uniform on the sphere for the geodesic ones), pickling of chains and
engines, and a multi-chain run through multiprocessing.

Tolerances: a mean is within 5 standard errors sd / sqrt(ESS) of the exact value (ESS the
bulk ESS of the pooled chains, sgmcmc.diagnostics.ess_bulk; a false failure about 6e-7 per
comparison) plus the sampler's stated discretisation bias bound; a variance ratio within
5 sqrt(2 / ESS) plus that bound. Fixed seeds make each run deterministic.
"""

import pickle
import unittest

import numpy as np

import sgmcmc
from sgmcmc import diagnostics
from sgmcmc import samplers

MU = np.array([1.0, -2.0])
SD = np.array([1.0, 0.5])


def gaussian_grad_log_density(theta):
    return -(theta - MU) / SD**2


def half_gaussian(theta):
    return 0.5 * gaussian_grad_log_density(theta)


def lambda_free_half_likelihood(theta, batch):
    return len(batch) * 0.125 * gaussian_grad_log_density(theta)


def standard_normal_potential(theta, batch, scale, out):
    np.copyto(out, theta)


def check_moments(test, draws, mean, var, bias, label):
    """draws (chain, draw, d): mean and variance per coordinate against the exact ones."""
    ess = diagnostics.ess_bulk(draws)
    flat = draws.reshape(-1, draws.shape[-1])
    sd = np.sqrt(var)
    for k in range(draws.shape[-1]):
        se_mean = sd[k] / np.sqrt(ess[k])
        test.assertLess(abs(flat[:, k].mean() - mean[k]), 5 * se_mean + bias * sd[k],
                        "%s: mean of coordinate %d (ESS %.0f)" % (label, k, ess[k]))
        ratio = flat[:, k].var() / var[k]
        test.assertLess(abs(ratio - 1), 5 * np.sqrt(2 / ess[k]) + bias,
                        "%s: variance ratio %.4f of coordinate %d (ESS %.0f)"
                        % (label, ratio, k, ess[k]))


class GaussianTest(unittest.TestCase):
    # Settings and the discretisation bias bound each is held to: SGLD's stationary variance
    # on N(m, s^2) is s^2 / (1 - h / (2 s^2)): h = 0.01, s = 0.5 gives 2%; SGHMC's and
    # SGNHT's O(h) bias at h = 0.05 is of the same size; pSGLD's dropped Gamma term (see
    # below) and HAMCMC's quasi-Newton preconditioner add O(h) terms: 0.05 for all.
    SETTINGS = {
        "sgld": dict(step_size=0.01, thin=20),
        # With an exact gradient pSGLD's V (the RMSprop average of squared gradients) tends to
        # 0 near the mode and G = 1/(lambda + sqrt V) blows up with lambda = 1e-5; with
        # lambda = 1, G stays in [1/3, 1] (E|g|^2 = 1/s^2 at stationarity) and varies slowly
        # (alpha = 0.99): SGLD with a slowly varying step, the dropped Gamma term O(1 - alpha).
        "psgld": dict(step_size=0.02, thin=20, alpha=0.99, regularizer=1.0),
        "sghmc": dict(step_size=0.05, thin=10, friction=1.0),
        "sgnht": dict(step_size=0.05, thin=10, diffusion=1.0),
        "hamcmc": dict(step_size=0.02, thin=10, memory=2, gamma=0.5, warmup_step=0.01),
    }

    def test_euclidean_samplers_on_a_gaussian(self):
        for sampler, settings in self.SETTINGS.items():
            with self.subTest(sampler=sampler):
                settings = dict(settings)
                thin = settings.pop("thin")
                result = sgmcmc.sample(gaussian_grad_log_density, np.zeros(2), sampler=sampler,
                                       n_samples=1000, thin=thin, n_chains=4, seed=7,
                                       burn_in=500, **settings)
                self.assertEqual(result.draws.shape, (4, 1000, 2))
                self.assertEqual(result.sample_stats["iteration"][0, -1], 500 + 1000 * thin)
                check_moments(self, result.draws, MU, SD**2, 0.05, sampler)
                self.assertLess(diagnostics.rhat(result.draws).max(), 1.05)

    def test_minibatch_gradients_and_a_separate_prior(self):
        # Half of the log density as the likelihood, half as the prior: the same Gaussian,
        # and for pSGLD the split the preconditioner needs.
        for sampler, settings in (("sgld", dict(step_size=0.01)),
                                  ("psgld", dict(step_size=0.02, regularizer=1.0))):
            with self.subTest(sampler=sampler):
                result = sgmcmc.sample(
                    lambda_free_half_likelihood, np.zeros(2), sampler=sampler, n_samples=800,
                    thin=20, n_chains=4, seed=3, burn_in=500, num_items=4, batch_size=2,
                    grad_log_prior=half_gaussian, **settings)
                check_moments(self, result.draws, MU, SD**2, 0.05, sampler + " minibatch")

    def test_statistics_and_errors(self):
        result = sgmcmc.sample(gaussian_grad_log_density, np.zeros((3, 2)), sampler="sgnht",
                               n_samples=5, thin=2, n_chains=3, seed=1, step_size=0.01)
        self.assertEqual(sorted(result.sample_stats), ["iteration", "step_size", "thermostat"])
        np.testing.assert_array_equal(result.sample_stats["iteration"][1], [2, 4, 6, 8, 10])
        np.testing.assert_array_equal(result.sample_stats["step_size"], 0.01)
        with self.assertRaisesRegex(ValueError, "^sampler must be one of"):
            sgmcmc.sample(gaussian_grad_log_density, np.zeros(2), sampler="nuts")
        with self.assertRaisesRegex(ValueError, "grad_log_density must return an array of "
                                                r"shape \(2,\)"):
            sgmcmc.sample(lambda t: np.zeros(3), np.zeros(2), n_samples=2)
        with self.assertRaisesRegex(ValueError, "theta0 holds 2 initial points for 4 chains"):
            sgmcmc.sample(gaussian_grad_log_density, np.zeros((2, 2)), n_chains=4)
        with self.assertRaisesRegex(TypeError, "grad_log_density must be callable"):
            sgmcmc.sample(3, np.zeros(2))


class SimplexTest(unittest.TestCase):
    def test_scir_and_sgrld_on_a_dirichlet(self):
        # Fixed counts n: the target is Dirichlet(alpha + n) per row, mean a_j / A, variance
        # m_j (1 - m_j) / (A + 1). SCIR's transition is exact (bias 0); SGRLD's Euler step at
        # h = 0.01 is held to 0.05.
        counts = np.array([[3.0, 1.0, 0.0], [0.0, 2.0, 5.0]])
        a = counts + 0.5
        mean = a / a.sum(axis=1, keepdims=True)
        var = mean * (1 - mean) / (a.sum(axis=1, keepdims=True) + 1)
        for sampler, h, thin, bias in (("scir", 0.5, 2, 0.0), ("sgrld", 0.01, 20, 0.05)):
            with self.subTest(sampler=sampler):
                result = sgmcmc.sample(counts, 0.5, sampler=sampler, n_samples=1000, thin=thin,
                                       n_chains=4, seed=11, burn_in=200, step_size=h)
                self.assertEqual(result.draws.shape, (4, 1000, 2, 3))
                np.testing.assert_allclose(result.draws.sum(axis=3), 1.0, rtol=1e-12)
                check_moments(self, result.draws.reshape(4, 1000, 6), mean.ravel(),
                              var.ravel(), bias, sampler)

    def test_counts_callable(self):
        calls = []

        def counts(omega):
            calls.append(omega.copy())
            return np.array([2.0, 0.0, 1.0])

        result = sgmcmc.sample(counts, [0.5, 0.5, 0.5], sampler="scir", n_samples=3,
                               n_chains=1, shape=(3,), step_size=0.5)
        self.assertEqual(result.draws.shape, (1, 3, 3))
        self.assertEqual(len(calls), 3)
        self.assertEqual(calls[0].shape, (3,))


def vmf_grad(x):
    return 4.0 * np.array([0.0, 0.0, 1.0])


def uniform_grad(x):
    return np.zeros(3)


class SphereTest(unittest.TestCase):
    def test_geodesic_samplers_on_von_mises_fisher_and_uniform(self):
        # vMF(mu = e3, kappa = 4) on S^2: t = mu'x has density prop. to exp(kappa t) on
        # [-1, 1]: E t = coth kappa - 1/kappa, Var t = 1/kappa^2 - 1/sinh^2 kappa; the other
        # coordinates have mean 0. Uniform: mean 0, E x_i^2 = 1/3 (variance 1/3). The
        # splitting is second order: bias O(h^2) at h = 0.1, held to 0.03.
        kappa = 4.0
        vmf_mean = np.array([0.0, 0.0, 1 / np.tanh(kappa) - 1 / kappa])
        t_var = 1 / kappa**2 - 1 / np.sinh(kappa)**2
        x0 = np.array([1.0, 0.0, 0.0])
        for sampler in ("sggmc", "gsgnht"):
            with self.subTest(sampler=sampler, target="vmf"):
                result = sgmcmc.sample(vmf_grad, x0, sampler=sampler, n_samples=1000, thin=5,
                                       n_chains=4, seed=5, burn_in=200, step_size=0.1)
                self.assertEqual(result.draws.shape, (4, 1000, 3))
                np.testing.assert_allclose(np.linalg.norm(result.draws, axis=2), 1.0,
                                           rtol=1e-9)
                ess = diagnostics.ess_bulk(result.draws)
                flat = result.draws.reshape(-1, 3)
                sd = np.sqrt([(1 - vmf_mean[2]**2 - t_var) / 2] * 2 + [t_var])
                for k in range(3):
                    self.assertLess(abs(flat[:, k].mean() - vmf_mean[k]),
                                    5 * sd[k] / np.sqrt(ess[k]) + 0.03, (sampler, k))
            with self.subTest(sampler=sampler, target="uniform"):
                result = sgmcmc.sample(uniform_grad, x0, sampler=sampler, n_samples=1000,
                                       thin=5, n_chains=4, seed=6, burn_in=200, step_size=0.3)
                check_moments(self, result.draws, np.zeros(3), np.full(3, 1 / 3), 0.03,
                              sampler + " uniform")
        gsgnht = sgmcmc.sample(uniform_grad, x0, sampler="gsgnht", n_samples=3, n_chains=1)
        self.assertIn("thermostat", gsgnht.sample_stats)


class PickleTest(unittest.TestCase):
    def test_chains_continue_bit_identically_after_pickling(self):
        x0 = np.array([0.0, 1.0, 0.0])
        makers = {
            "sgld": lambda: samplers.sgld(standard_normal_potential, np.ones(3), step_size=0.1),
            "psgld": lambda: samplers.psgld(standard_normal_potential, np.ones(3)),
            "sghmc": lambda: samplers.sghmc(standard_normal_potential, np.ones(3), seed=4),
            "sgnht": lambda: samplers.sgnht(standard_normal_potential, np.ones(3), seed=5),
            "hamcmc": lambda: samplers.hamcmc(standard_normal_potential, np.ones(3), seed=6),
            "sggmc": lambda: samplers.sggmc(sphere_potential, x0, seed=7),
            "gsgnht": lambda: samplers.gsgnht(sphere_potential, x0, seed=8),
        }
        for name, make in makers.items():
            with self.subTest(sampler=name):
                chain = make()
                chain.run(10)
                copy = pickle.loads(pickle.dumps(chain))
                chain.run(10)
                copy.run(10)
                self.assertEqual(copy.iteration, 20)
                if hasattr(chain, "theta"):
                    np.testing.assert_array_equal(chain.theta, copy.theta)
                else:
                    np.testing.assert_array_equal(chain.x, copy.x)
        with self.assertRaisesRegex(Exception, "pickle|lambda|local"):
            pickle.dumps(samplers.sgld(lambda t, b, s, o: None, np.ones(2)))

    def test_simplex_chain_save_restore_and_pickle(self):
        counts = np.array([[2.0, 0.0, 1.0]])
        for make in (samplers.scir, samplers.sgrld):
            with self.subTest(sampler=make.__name__):
                chain = make(1, 3, alpha=0.3, seed=2)
                for _ in range(5):
                    chain.step(counts, 0.1)
                state = chain.save_state()
                copy = pickle.loads(pickle.dumps(chain))
                other = make(1, 3, alpha=0.3, seed=2)
                other.restore_state(state)
                a, b, c = np.empty((1, 3)), np.empty((1, 3)), np.empty((1, 3))
                for target in (chain, copy, other):
                    target.step(counts, 0.1)
                chain.simplex(a)
                copy.simplex(b)
                other.simplex(c)
                np.testing.assert_array_equal(a, b)
                np.testing.assert_array_equal(a, c)
                self.assertEqual(copy.name, make.__name__)
        with self.assertRaisesRegex(ValueError, "SimplexSamplerState"):
            samplers.scir(1, 3).restore_state(b"\xff\xff")
        with self.assertRaisesRegex(ValueError, ""):
            samplers.scir(2, 3).restore_state(samplers.scir(1, 3).save_state())

    def test_engine_pickles_with_its_position(self):
        engine = samplers.Engine(3, 4)
        engine.normal(np.empty(7))
        copy = pickle.loads(pickle.dumps(engine))
        self.assertEqual((copy.seed, copy.stream, copy.position),
                         (engine.seed, engine.stream, engine.position))
        a, b = np.empty(5), np.empty(5)
        engine.normal(a)
        copy.normal(b)
        np.testing.assert_array_equal(a, b)

    def test_multiprocessing_run_equals_sequential(self):
        sequential = sgmcmc.sample(gaussian_grad_log_density, np.zeros(2), sampler="sghmc",
                                   n_samples=50, thin=3, n_chains=4, seed=2, step_size=0.05)
        pooled = sgmcmc.sample(gaussian_grad_log_density, np.zeros(2), sampler="sghmc",
                               n_samples=50, thin=3, n_chains=4, seed=2, step_size=0.05,
                               processes=2)
        np.testing.assert_array_equal(sequential.draws, pooled.draws)
        self.assertFalse(np.array_equal(sequential.draws[0], sequential.draws[1]))


def sphere_potential(x, batch, scale, out):
    out[:] = -x  # any smooth extension; the samplers project


if __name__ == "__main__":
    unittest.main()
