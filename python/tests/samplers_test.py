"""Tests of sgmcmc.samplers: in-place NumPy views, determinism by (seed, stream), the
stationary moments of SGLD and SCIR on targets with known laws, and the array checks."""

import os
import subprocess
import sys
import textwrap
import unittest

import numpy as np

import sgmcmc
from sgmcmc import samplers


def standard_normal_gradient(theta, batch, scale, out):
    np.copyto(out, theta)


class EngineTest(unittest.TestCase):
    def test_fills_in_place_and_reproduces(self):
        a, b = np.zeros(1000), np.zeros(1000)
        engine = samplers.Engine(seed=5, stream=2)
        engine.normal(a)
        self.assertEqual((engine.seed, engine.stream), (5, 2))
        self.assertGreater(engine.position, 0)
        samplers.Engine(5, 2).normal(b)
        np.testing.assert_array_equal(a, b)
        samplers.Engine(5, 3).normal(b)
        self.assertFalse(np.array_equal(a, b))
        u = np.zeros(1000)
        engine.uniform(u)
        self.assertTrue(np.all((u >= 0) & (u < 1)))

    def test_rejects_arrays_it_cannot_fill_in_place(self):
        engine = samplers.Engine(1)
        with self.assertRaisesRegex(TypeError, "out must have dtype float64"):
            engine.normal(np.zeros(4, dtype=np.float32))
        with self.assertRaisesRegex(ValueError, "out must be C-contiguous"):
            engine.normal(np.zeros(8)[::2])
        frozen = np.zeros(4)
        frozen.flags.writeable = False
        with self.assertRaisesRegex(ValueError, "out must be writable"):
            engine.normal(frozen)
        with self.assertRaisesRegex(TypeError, "numpy.ndarray"):
            engine.normal([0.0, 1.0])


class EuclideanTest(unittest.TestCase):
    def test_theta_is_a_view_updated_in_place(self):
        chain = samplers.sgld(standard_normal_gradient, np.ones(5), step_size=0.1, seed=2)
        theta = chain.theta
        before = theta.copy()
        chain.step()
        self.assertFalse(np.array_equal(theta, before))
        np.testing.assert_array_equal(theta, chain.theta)
        self.assertFalse(theta.flags.writeable)
        self.assertEqual(chain.iteration, 1)
        self.assertEqual(chain.name, "sgld")

    def test_same_seed_and_stream_same_chain(self):
        runs = []
        for stream in (0, 0, 1):
            chain = samplers.sghmc(standard_normal_gradient, np.zeros(3), step_size=0.05,
                                   seed=9, stream=stream, friction=2.0)
            chain.run(50)
            runs.append(chain.theta.copy())
        np.testing.assert_array_equal(runs[0], runs[1])
        self.assertFalse(np.array_equal(runs[0], runs[2]))

    def test_checkpoint_round_trip(self):
        chain = samplers.psgld(standard_normal_gradient, np.zeros(4), step_size=0.01, seed=3)
        chain.run(10)
        state = chain.save_state()
        chain.run(10)
        other = samplers.psgld(standard_normal_gradient, np.zeros(4), step_size=0.01, seed=3)
        other.restore_state(state)
        other.run(10)
        np.testing.assert_array_equal(chain.theta, other.theta)
        with self.assertRaisesRegex(ValueError, "SamplerState"):
            other.restore_state(b"\xff\xff")

    def test_sgld_stationary_moments_on_a_standard_normal(self):
        # SGLD with step h on N(0, I) is an AR(1) process with variance 1 / (1 - h/2) and
        # lag-1 correlation 1 - h; 20000 steps x 100 coordinates with h = 0.05 give about
        # 100 * 20000 * h/2 = 5e4 effective draws: SE(mean) 0.0045, SE(var) 0.0063. The
        # tolerances are 5 SE.
        h = 0.05
        chain = samplers.sgld(standard_normal_gradient, np.zeros(100), step_size=h, seed=11)
        chain.run(500)
        draws = np.empty((20000, 100))
        for i in range(len(draws)):
            chain.step()
            draws[i] = chain.theta
        self.assertLess(abs(draws.mean()), 5 * 0.0045)
        self.assertLess(abs(draws.var() - 1 / (1 - h / 2)), 5 * 0.0063)

    def test_minibatches_come_from_the_sampler(self):
        seen = []

        def gradient(theta, batch, scale, out):
            seen.append((batch.copy(), scale))
            np.copyto(out, theta)

        samplers.sgld(gradient, np.zeros(2), num_items=10, batch_size=4, seed=1).run(3)
        self.assertEqual(len(seen), 3)
        for batch, scale in seen:
            self.assertEqual(len(batch), 4)
            self.assertTrue(np.all((batch >= 0) & (batch < 10)))
            self.assertEqual(scale, 2.5)

    def test_errors(self):
        with self.assertRaisesRegex(TypeError, "theta0 must have dtype float64"):
            samplers.sgld(standard_normal_gradient, np.zeros(3, dtype=np.int64))
        with self.assertRaisesRegex(ValueError, "batch_size"):
            samplers.sgld(standard_normal_gradient, np.zeros(3), num_items=2, batch_size=5)

        def broken(theta, batch, scale, out):
            raise ZeroDivisionError("from the gradient")

        chain = samplers.sgld(broken, np.zeros(3))
        with self.assertRaisesRegex(ZeroDivisionError, "from the gradient"):
            chain.step()

    def test_non_finite_gradient_raises_naming_the_step_and_index(self):
        # A callback that writes NaN/inf used to turn theta into NaN silently.
        def blows_up_at_step_3(theta, batch, scale, out):
            np.copyto(out, theta)
            calls.append(1)
            if len(calls) == 4:
                out[2] = np.inf
                out[5] = np.nan

        for make in (lambda g: samplers.sgld(g, np.ones(6), step_size=1e-2, seed=1),
                     lambda g: samplers.psgld(g, np.ones(6), step_size=1e-2, seed=1),
                     lambda g: samplers.sghmc(g, np.ones(6), step_size=1e-2, seed=1)):
            calls = []
            chain = make(blows_up_at_step_3)
            chain.run(3)
            before = chain.theta.copy()
            with self.assertRaisesRegex(ValueError, r"^the gradient callback wrote a non-finite "
                                                    r"value at step 3: out\[2\] = inf "):
                chain.step()
            np.testing.assert_array_equal(chain.theta, before)
            self.assertEqual(chain.iteration, 3)
            self.assertTrue(np.all(np.isfinite(chain.theta)))

        def nan_at_index_5(theta, batch, scale, out):
            np.copyto(out, theta)
            out[5] = np.nan

        # run() loops in C++: the error stops it at the first step.
        chain = samplers.sgld(nan_at_index_5, np.ones(6), seed=1)
        with self.assertRaisesRegex(ValueError, r"at step 0: out\[5\] = nan"):
            chain.run(10)
        self.assertEqual(chain.iteration, 0)


def run_isolated(code):
    """(returncode, stdout, stderr) of `code` run by a fresh interpreter with this test's
    sys.path: a crash (abort, segmentation fault) is a failed assertion on the return code,
    not a dead test runner."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout, done.stderr


class MemorySafetyTest(unittest.TestCase):
    """Python code that keeps or tampers with the arrays it is handed must not crash the
    interpreter. Each case runs in a subprocess; the crashes found are the cases."""

    def assert_runs(self, code, expected_stdout):
        returncode, stdout, stderr = run_isolated(code)
        self.assertEqual((returncode, stdout.strip()), (0, expected_stdout), stderr[-2000:])

    def test_callback_keeping_its_arrays_after_the_chain_is_deleted(self):
        # The callback's arrays were views of the sampler's buffers: writing to a kept `out`
        # after `del chain` aborted with "free(): invalid size" (exit 134), 3 of 3 runs.
        for make in ("sgld", "psgld", "sghmc"):
            with self.subTest(sampler=make):
                self.assert_runs("""
                    import gc
                    import numpy as np
                    from sgmcmc import samplers
                    kept = []
                    def gradient(theta, batch, scale, out):
                        kept.extend([theta, batch, out])
                        np.copyto(out, theta)
                    chain = samplers.%s(gradient, np.ones(1000), num_items=50, batch_size=5)
                    chain.run(20)
                    del chain
                    gc.collect()
                    junk = [np.ones(1000) for _ in range(100)]  # reuse the freed memory
                    total = 0.0
                    for array in kept:
                        if array.flags.writeable:
                            array[:] = 7
                        total += float(array.sum())
                    print(len(kept) >= 60, np.isfinite(total))
                    """ % make, "True True")

    def test_callback_tampering_with_out(self):
        # Resized (ndarray.resize reallocates an array that owns its data) or made read-only:
        # an error or the next call's fresh buffer, never a write past the end.
        self.assert_runs("""
            import numpy as np
            from sgmcmc import samplers
            def shrinks(theta, batch, scale, out):
                out.resize(1, refcheck=False)
            chain = samplers.sgld(shrinks, np.ones(1000))
            try:
                chain.step()
            except ValueError as error:
                print(error)
            frozen = []
            def freezes(theta, batch, scale, out):
                np.copyto(out, theta)
                out.flags.writeable = False
                frozen.append(out)
            chain = samplers.sgld(freezes, np.ones(10))
            chain.run(3)
            print(chain.iteration, len(frozen))
            """, "the gradient callback resized out (write the gradient into it with out[:] = "
                 "... or numpy.copyto)\n3 3")

    def test_theta_view_outlives_the_chain(self):
        # chain.theta is a view of the sampler's vector that keeps the chain alive.
        self.assert_runs("""
            import gc
            import numpy as np
            from sgmcmc import samplers
            chain = samplers.sgld(lambda t, b, s, o: np.copyto(o, t), np.ones(1000))
            theta = chain.theta
            del chain
            gc.collect()
            junk = [np.zeros(1000) for _ in range(100)]
            print(float(theta.sum()) == 1000.0)
            """, "True")

    def test_kept_out_is_overwritten_not_shared(self):
        kept = []

        def gradient(theta, batch, scale, out):
            kept.append(out)
            np.copyto(out, theta)

        chain = samplers.sgld(gradient, np.ones(3), step_size=0.1, seed=1)
        chain.run(2)
        # Writing into a kept `out` between steps changes nothing in the chain: `out` is
        # refilled from the sampler's buffer for every call and copied back after it.
        before = chain.theta.copy()
        kept[0][:] = 1e300
        other = samplers.sgld(lambda t, b, s, o: np.copyto(o, t), np.ones(3), step_size=0.1,
                              seed=1)
        other.run(2)
        np.testing.assert_array_equal(before, other.theta)
        chain.step()
        other.step()
        np.testing.assert_array_equal(chain.theta, other.theta)


class SimplexTest(unittest.TestCase):
    def test_scir_stationary_mean_with_fixed_counts(self):
        # With fixed counts n, SCIR's stationary law is Dirichlet(alpha + n) exactly (the CIR
        # transition is exact). alpha + n = (1.5, 2.5, 3.5): mean (0.2, 1/3, 0.467), sd of
        # the first coordinate sqrt(0.2 * 0.8 / 8.5) = 0.137. 20 independent rows x 3000
        # steps at h = 0.5 (lag-1 correlation about exp(-h) = 0.61, ESS about 0.24 per
        # step): about 1.4e4 effective draws, SE 0.0012; tolerance 5 SE = 0.006.
        rows = 20
        chain = samplers.scir(rows=rows, cols=3, alpha=0.5, seed=4)
        counts = np.tile([1.0, 2.0, 3.0], (rows, 1))
        omega, total = np.empty((rows, 3)), np.zeros((rows, 3))
        for _ in range(200):
            chain.step(counts, 0.5)
        for _ in range(3000):
            chain.step(counts, 0.5)
            chain.simplex(omega)
            total += omega
        mean = total.sum(axis=0) / (3000 * rows)
        np.testing.assert_allclose(mean, np.array([1.5, 2.5, 3.5]) / 7.5, atol=0.006)
        np.testing.assert_allclose(omega.sum(axis=1), 1.0, rtol=1e-12)
        self.assertEqual(chain.steps(0), 3200)

    def test_scir_with_a_cxx_count_model(self):
        # Baker et al.'s sparse experiment: posterior Dir(800.1, 100.1, 100.1, 0.1 x 7). SCIR
        # with minibatch counts keeps the posterior mean; the sd of omega_1 is
        # sqrt(0.8 * 0.2 / 1002) = 0.0126, inflated at most a few times by the minibatch
        # noise; 4000 steps at h = 0.5 (ESS about 0.25 per step) give SE < 0.002: the
        # tolerance 0.01 is 5 SE.
        model = samplers.CategoricalDirichlet([800, 100, 100] + [0] * 7, alpha=0.1)
        self.assertEqual((model.num_simplices, model.dimension, model.num_items), (1, 10, 1000))
        posterior = np.array(model.posterior_concentration())
        chain = samplers.scir(rows=1, cols=10, alpha=model.prior_concentration(), seed=6)
        stepper = samplers.CountModelStepper(model, batch_size=100, seed=6, stream=1)
        omega, total = np.empty((1, 10)), np.zeros(10)
        for _ in range(200):
            stepper.step(chain, 0.5)
        for _ in range(4000):
            stepper.step(chain, 0.5)
            chain.simplex(omega)
            total += omega[0]
        np.testing.assert_allclose(total / 4000, posterior / posterior.sum(), atol=0.01)
        self.assertGreater(stepper.engine_position, 0)
        with self.assertRaisesRegex(ValueError, "the chain has 1 x 3 simplices, the model 1 x 10"):
            stepper.step(samplers.scir(rows=1, cols=3), 0.5)
        with self.assertRaisesRegex(ValueError, "category_counts|at least 2"):
            samplers.CategoricalDirichlet([5], alpha=0.1)

    def test_sgrld_steps_and_checks(self):
        chain = samplers.sgrld(rows=2, cols=4, alpha=[0.1, 0.2, 0.3, 0.4], seed=1)
        counts = np.ones((2, 4))
        chain.step(counts, 0.01)
        omega = np.empty((2, 4))
        chain.simplex(omega)
        np.testing.assert_allclose(omega.sum(axis=1), 1.0, rtol=1e-12)
        with self.assertRaisesRegex(ValueError, r"counts\[1, 2\] = -1 must be finite and >= 0"):
            bad = counts.copy()
            bad[1, 2] = -1
            chain.step(bad, 0.01)
        # Shapes are checked in full: (4, 2) or (8,) counts of a 2 x 4 chain were read as 2 x 4.
        with self.assertRaisesRegex(ValueError, r"^counts must have shape \(2, 4\), got \(4,\)$"):
            chain.step(np.ones(4), 0.01)
        with self.assertRaisesRegex(ValueError, r"^counts must have shape \(2, 4\), got \(4, 2\)"):
            chain.step(np.ones((4, 2)), 0.01)
        with self.assertRaisesRegex(ValueError, r"^counts must have shape \(2, 4\), got \(8,\)"):
            chain.step(np.ones(8), 0.01)
        with self.assertRaisesRegex(ValueError, r"^out must have shape \(2, 4\), got \(4, 2\)"):
            chain.simplex(np.empty((4, 2)))
        with self.assertRaisesRegex(ValueError, r"^out must have shape \(2, 4\), got \(8,\)"):
            chain.simplex(np.empty(8))
        with self.assertRaisesRegex(TypeError, "^counts must hold real numbers .* got dtype "
                                               "complex128"):
            chain.step(np.ones((2, 4), dtype=complex), 0.01)
        with self.assertRaisesRegex(TypeError, "^counts must be a numpy.ndarray of real numbers, "
                                               "got list"):
            chain.step([[1.0] * 4] * 2, 0.01)
        with self.assertRaisesRegex(ValueError, "h must be finite and > 0"):
            chain.step(counts, 0.0)
        with self.assertRaisesRegex(ValueError, "C-contiguous"):
            chain.simplex(np.empty((4, 2)).T)
        with self.assertRaisesRegex(ValueError, "alpha"):
            samplers.scir(rows=1, cols=3, alpha=-1.0)


class ArgumentErrorTest(unittest.TestCase):
    def test_bad_arguments_raise_naming_them(self):
        # A None model was dereferenced (segmentation fault); seeds out of range were pybind11
        # signature dumps.
        with self.assertRaisesRegex(TypeError, "^model must be a CountModel"):
            samplers.CountModelStepper(None, batch_size=1, seed=1, stream=0)
        with self.assertRaisesRegex(ValueError, "^seed must be >= 0, got -1$"):
            samplers.sgld(lambda t, b, s, o: None, np.zeros(2), seed=-1)
        with self.assertRaisesRegex(ValueError, "^stream must be at most 18446744073709551615"):
            samplers.sghmc(lambda t, b, s, o: None, np.zeros(2), stream=2**64)
        with self.assertRaisesRegex(ValueError, "^rows must be >= 1, got 0$"):
            samplers.scir(0, 5)
        with self.assertRaisesRegex(TypeError, "^alpha must be a number or a vector"):
            samplers.sgrld(1, 5, alpha="a")
        with self.assertRaisesRegex(ValueError, r"^theta0 must be a vector \(1-D\), got shape"):
            samplers.psgld(lambda t, b, s, o: None, np.zeros((2, 2)))

    def test_integers_of_the_cpp_classes_raise_naming_them(self):
        # Seeds, streams, positions and counts out of their C++ type's range (or not ints)
        # were pybind11 TypeErrors listing the overloads without naming the argument.
        model = samplers.CategoricalDirichlet([5, 5], alpha=0.1)
        chain = samplers.sgld(standard_normal_gradient, np.zeros(2))
        cases = [
            (ValueError, "^Engine: seed must be >= 0, got -1$", lambda: samplers.Engine(-1)),
            (ValueError, "^Engine: stream must be at most 18446744073709551615, "
             "got 18446744073709551616$",
             lambda: samplers.Engine(1, 2**64)),
            (TypeError, "^Engine: seed must be an int, got 1.5$", lambda: samplers.Engine(1.5)),
            (ValueError, "^Engine.seek: position must be >= 0, got -1$",
             lambda: samplers.Engine(1).seek(-1)),
            (ValueError, "^CountModelStepper: seed must be >= 0, got -1$",
             lambda: samplers.CountModelStepper(model, batch_size=1, seed=-1, stream=0)),
            (ValueError, "^CountModelStepper: stream must be >= 0, got -2$",
             lambda: samplers.CountModelStepper(model, batch_size=1, seed=1, stream=-2)),
            (ValueError, "^CountModelStepper: batch_size must be at most 9223372036854775807",
             lambda: samplers.CountModelStepper(model, batch_size=2**63, seed=1, stream=0)),
            (ValueError, "^EuclideanChain.run: steps must be at most 9223372036854775807, "
             "got 1180591620717411303424$", lambda: chain.run(2**70)),
            (ValueError, "^EuclideanChain.run: steps must be >= 0, got -1$",
             lambda: chain.run(-1)),
            (TypeError, "^EuclideanChain.run: steps must be an int, got True$",
             lambda: chain.run(True)),
            (ValueError, "^SimplexChain.steps: row must be at most 0, got 1099511627776$",
             lambda: samplers.scir(1, 3).steps(2**40)),
            (ValueError, r"^CategoricalDirichlet: category_counts\[1\] must be at most "
             "9223372036854775807", lambda: samplers.CategoricalDirichlet([1, 2**63], 0.1)),
            (TypeError, r"^CategoricalDirichlet: category_counts\[0\] must be an int, got 1.5$",
             lambda: samplers.CategoricalDirichlet(np.array([1.5, 2.0]), 0.1)),
        ]
        for error, message, call in cases:
            with self.subTest(message=message), self.assertRaisesRegex(error, message):
                call()
        # Valid calls are unchanged: numpy integers and the largest values convert.
        engine = samplers.Engine(np.uint64(2**64 - 1), stream=np.int64(3))
        self.assertEqual((engine.seed, engine.stream), (2**64 - 1, 3))
        engine.seek(7)
        self.assertEqual(engine.position, 7)
        chain.run(np.int32(3))
        chain.run(0)
        self.assertEqual(chain.iteration, 3)
        self.assertEqual(samplers.scir(2, 3).steps(1), 0)
        self.assertEqual(samplers.CategoricalDirichlet(np.array([3, 4]), 0.5).num_items, 7)

    def test_integer_counts_are_converted(self):
        # Counts are only read: int64 counts (np.bincount's) are converted once, as the
        # README promises for inputs that are only read, and step like their float64 copy.
        a, b = samplers.scir(2, 3, seed=4), samplers.scir(2, 3, seed=4)
        counts = np.array([[3, 0, 1], [0, 2, 5]], dtype=np.int64)
        a.step(counts, 0.3)
        b.step(counts.astype(np.float64), 0.3)
        wa, wb = np.empty((2, 3)), np.empty((2, 3))
        a.simplex(wa)
        b.simplex(wb)
        np.testing.assert_array_equal(wa, wb)
        with self.assertRaisesRegex(ValueError, r"counts\[0, 1\] = -1 must be finite and >= 0"):
            a.step(np.array([[1, -1, 0], [0, 0, 0]]), 0.3)

    def test_non_callable_gradient(self):
        for make in (samplers.sgld, samplers.psgld, samplers.sghmc):
            with self.assertRaisesRegex(TypeError, r"^gradient must be a callable "
                                                   r"gradient\(theta, batch, scale, out\), "
                                                   r"got 3$"):
                make(3, np.zeros(2))

    def test_sgrld_overflow_raises_and_keeps_the_state(self):
        # Counts of 1e308 overflowed SGRLD's Euler step: omega became NaN silently.
        chain = samplers.sgrld(1, 5, seed=3)
        chain.step(np.ones((1, 5)), 0.1)
        before, after = np.empty((1, 5)), np.empty((1, 5))
        chain.simplex(before)
        with self.assertRaisesRegex(ValueError, "^step: SGRLD's state overflowed"):
            chain.step(np.full((1, 5), 1e308), 0.1)
        chain.simplex(after)
        np.testing.assert_array_equal(before, after)


if __name__ == "__main__":
    unittest.main()
