"""sgmcmc.sample: a sampling loop over any sampler of sgmcmc.samplers, returning draws.

    def grad_log_density(theta):                 # N(mu, diag(sd^2))
        return -(theta - mu) / sd**2
    result = sgmcmc.sample(grad_log_density, np.zeros(2), sampler="sghmc", n_samples=1000,
                           thin=5, n_chains=4, seed=1, step_size=0.05)
    result.draws          # (chain, draw, 2); ArviZ's order
    result.sample_stats   # {"step_size": (chain, draw), "iteration": ..., "thermostat": ...}

The callable is the gradient of the LOG density (sample negates it into the potential
gradient the samplers take):
  * Euclidean samplers (sgld, psgld, sghmc, sgnht, hamcmc): grad_log_density(theta) ->
    ∇log π(θ), prior included, shape of theta (full batch: num_items=None). With num_items=N
    and batch_size=n (minibatches): grad_log_density(theta, batch) -> Σ_{i ∈ batch}
    ∇log p(x_i | θ), the plain sum over the batch's item ids (the samplers scale it by N/n),
    and grad_log_prior(theta) -> ∇log p(θ) (optional; None: a flat prior).
  * Sphere samplers (sggmc, gsgnht): the same on x in ambient coordinates, theta0 = x0 of
    shape (d,) or (d, K) with unit columns; draws (chain, draw, d) or (chain, draw, d, K).
  * Simplex samplers (scir, sgrld): the first argument is the SCALED COUNTS instead: an array
    (rows, cols) (or (cols,) for one simplex) of fixed counts, whose target is Dirichlet(alpha
    + counts) per row, or a callable counts(omega) -> such an array (the minibatch estimate
    (N/n) Σ_{i ∈ S} counts of item i, given the current ω); theta0 is alpha, the Dirichlet
    prior (a number or cols of them). Draws are ω, (chain, draw, *counts shape).

Chains: chain c uses seed `seed` and stream c (simplex samplers, which have no streams: seed
+ c), so chains are independent and reproducible; processes=k runs them in a
multiprocessing pool of k processes (the chains pickle; the callables must too: module-level
functions), with the same draws as processes=None. Each chain first runs burn_in iterations,
then keeps every thin-th state, n_samples of them.
"""

import multiprocessing
import numbers

import numpy as np

from sgmcmc import _inputs
from sgmcmc import samplers


class Samples:
    """Draws of n_chains chains and their sample statistics.

    draws: (chain, draw, *parameter shape) float64. sample_stats: name -> (chain, draw)
    arrays: "step_size" (the step of the iteration that produced the draw), "iteration"
    (iterations run when the draw was taken), and "thermostat" for sgnht (ζ) and gsgnht (ξ).
    attrs: sampler, seed, thin, burn_in, n_samples and the sampler's settings, as
    InferenceData attributes. to_dataset() / to_netcdf(path) write ArviZ's InferenceData
    layout (sgmcmc.arviz).
    """

    def __init__(self, draws, sample_stats, attrs):
        self.draws = draws
        self.sample_stats = sample_stats
        self.attrs = attrs

    @property
    def sampler(self):
        return self.attrs["sampler"]

    def __repr__(self):
        return "Samples(sampler=%r, draws shape %s, sample_stats %s)" % (
            self.sampler, self.draws.shape, sorted(self.sample_stats))

    def to_datasets(self, var_name="theta"):
        """{"posterior": xarray.Dataset, "sample_stats": xarray.Dataset} (sgmcmc.arviz)."""
        from sgmcmc import arviz
        return arviz.to_datasets(self, var_name)

    def to_netcdf(self, path, var_name="theta"):
        """Writes the InferenceData groups to a netCDF file arviz.from_netcdf reads."""
        from sgmcmc import arviz
        return arviz.to_netcdf(self, path, var_name)


class _PotentialGradient:
    """The samplers' likelihood callback gradient(theta, batch, scale, out): out = -scale *
    grad_log_density(theta) (full batch: the whole density is the one item's "likelihood",
    prior zero) or -scale * grad_log_density(theta, batch) (the sum over the batch), checked
    for shape. Honouring `scale` keeps pSGLD right (it passes -1/n). A class (not a closure)
    so that chains pickle."""

    def __init__(self, grad_log_density, stochastic, shape, name="grad_log_density"):
        self.grad_log_density = grad_log_density
        self.stochastic = stochastic
        self.shape = shape
        self.name = name

    def value(self, theta, *args):
        x = theta.reshape(self.shape) if theta.shape != self.shape else theta
        value = np.asarray(self.grad_log_density(x, *args), dtype=np.float64)
        if value.shape != self.shape:
            raise ValueError("%s must return an array of shape %s (the parameter's), got %s"
                             % (self.name, self.shape, value.shape))
        return value.reshape(-1) if len(self.shape) == 1 else value

    def __call__(self, theta, batch, scale, out):
        value = self.value(theta, batch) if self.stochastic else self.value(theta)
        np.multiply(value.reshape(out.shape), -scale, out=out)


class _PriorGradient(_PotentialGradient):
    """prior_gradient(theta, out): out = -grad_log_prior(theta)."""

    def __call__(self, theta, out):
        np.negative(self.value(theta).reshape(out.shape), out=out)


class _FixedCounts:
    def __init__(self, counts):
        self.counts = counts

    def __call__(self, omega):
        return self.counts


def _stats_names(sampler):
    return ("step_size", "iteration") + (("thermostat",) if sampler in ("sgnht", "gsgnht")
                                         else ())


def _run_chain(task):
    """(draws, stats) of one chain: burn_in iterations, then n_samples draws every thin."""
    kind, chain, counts, step_size, shape, n_samples, thin, burn_in, stats_names = task
    draws = np.empty((n_samples,) + shape)
    stats = {name: np.empty(n_samples) for name in stats_names}
    stats["iteration"] = np.empty(n_samples, dtype=np.int64)
    if kind == "simplex":
        omega = np.empty((chain.rows, chain.cols))
        iteration = 0

        def advance(steps):
            nonlocal iteration
            for _ in range(steps):
                chain.simplex(omega)
                chain.step(_simplex_counts(counts(omega.reshape(shape)), omega.shape), step_size)
                iteration += 1
    else:
        def advance(steps):
            chain.run(steps)
    advance(burn_in)
    for i in range(n_samples):
        advance(thin)
        if kind == "simplex":
            chain.simplex(omega)
            draws[i] = omega.reshape(shape)
            stats["step_size"][i] = step_size
            stats["iteration"][i] = iteration
            continue
        draws[i] = chain.theta.reshape(shape) if kind == "euclidean" else chain.x.reshape(shape)
        stats["step_size"][i] = chain.last_step_size
        stats["iteration"][i] = chain.iteration
        if "thermostat" in stats:
            stats["thermostat"][i] = chain.thermostat
    return draws, stats


def _simplex_counts(counts, shape):
    counts = np.asarray(counts)
    if counts.size != shape[0] * shape[1] or counts.ndim > 2 or (
            counts.ndim == 2 and counts.shape != shape):
        raise ValueError("counts must have shape %s%s, got %s" % (
            shape, " or (%d,)" % shape[1] if shape[0] == 1 else "", counts.shape))
    return counts.reshape(shape)


def sample(grad_log_density, theta0, sampler="sgld", n_samples=1000, thin=1, n_chains=4,
           seed=0, burn_in=0, num_items=None, batch_size=1, step_size=1e-2,
           step_size_tau=None, step_size_kappa=0.0, processes=None, grad_log_prior=None,
           **options):
    """Runs n_chains chains of `sampler` and returns their Samples (module docstring).

    sampler: one of sgmcmc.samplers.SAMPLERS ("sgld", "psgld", "sghmc", "sgnht", "hamcmc",
    "scir", "sgrld", "sggmc", "gsgnht"). options: that sampler's own settings (friction,
    gradient_noise, diffusion, initial_thermostat, memory, gamma, damping, warmup_step, alpha
    and regularizer for psgld, inner_steps), as in sgmcmc.samplers. theta0 may also hold one
    initial point per chain: shape (n_chains, *parameter shape).
    """
    if sampler not in samplers.SAMPLERS:
        raise ValueError("sampler must be one of %s, got %r" % (samplers.SAMPLERS, sampler))
    n_samples = _inputs.check_int("n_samples", n_samples, 1, _inputs.INT32_MAX)
    thin = _inputs.check_int("thin", thin, 1, _inputs.INT32_MAX)
    n_chains = _inputs.check_int("n_chains", n_chains, 1, 1 << 16)
    burn_in = _inputs.check_int("burn_in", burn_in, 0, _inputs.INT64_MAX)
    seed = _inputs.check_seed("seed", seed)
    if processes is not None:
        processes = _inputs.check_int("processes", processes, 1, 1 << 10)
    tasks = []
    if sampler in samplers.SIMPLEX:
        counts = grad_log_density
        if not callable(counts):
            fixed = np.asarray(counts, dtype=np.float64)
            if fixed.ndim not in (1, 2):
                raise ValueError("counts must have shape (rows, cols) or (cols,), got %s"
                                 % (fixed.shape,))
            counts = _FixedCounts(fixed)
            shape = fixed.shape
        else:
            shape = options.pop("shape", None)
            if shape is None:
                raise TypeError("a counts callable needs shape=(rows, cols) (or (cols,))")
            shape = tuple(shape)
        rows, cols = (1, shape[0]) if len(shape) == 1 else shape
        if options:
            raise TypeError("unexpected options for %s: %s" % (sampler, sorted(options)))
        h = _inputs.check_real("step_size", step_size)
        for c in range(n_chains):
            chain = getattr(samplers, sampler)(rows, cols, alpha=theta0,
                                               seed=(seed + c) % (_inputs.UINT64_MAX + 1))
            tasks.append(("simplex", chain, counts, h, shape, n_samples, thin, burn_in,
                          _stats_names(sampler)))
    else:
        if not callable(grad_log_density):
            raise TypeError("grad_log_density must be callable, got %r" % (grad_log_density,))
        theta0 = np.asarray(theta0, dtype=np.float64)
        sphere = sampler in samplers.SPHERE
        if sphere and theta0.ndim not in (1, 2):
            raise ValueError("x0 (theta0) must have shape (d,) or (d, K), got %s"
                             % (theta0.shape,))
        if not sphere and theta0.ndim not in (1, 2):
            raise ValueError("theta0 must have shape (D,) or (n_chains, D), got %s"
                             % (theta0.shape,))
        per_chain = not sphere and theta0.ndim == 2
        if per_chain and len(theta0) != n_chains:
            raise ValueError("theta0 holds %d initial points for %d chains"
                             % (len(theta0), n_chains))
        shape = theta0.shape[1:] if per_chain else theta0.shape
        stochastic = num_items is not None
        gradient = _PotentialGradient(grad_log_density, stochastic, shape)
        if grad_log_prior is not None:
            if sphere:
                raise TypeError("grad_log_prior is for the Euclidean samplers; fold the sphere "
                                "prior into grad_log_density")
            if not callable(grad_log_prior):
                raise TypeError("grad_log_prior must be callable, got %r" % (grad_log_prior,))
            options["prior_gradient"] = _PriorGradient(grad_log_prior, False, shape,
                                                       "grad_log_prior")
        for c in range(n_chains):
            start = np.array(theta0[c] if per_chain else theta0, dtype=np.float64)
            kwargs = dict(num_items=num_items if stochastic else 1,
                          batch_size=batch_size if stochastic else 1, step_size=step_size,
                          step_size_tau=step_size_tau, step_size_kappa=step_size_kappa,
                          seed=seed, stream=c, **options)
            chain = getattr(samplers, sampler)(gradient, start, **kwargs)
            tasks.append(("sphere" if sphere else "euclidean", chain, None, None, shape,
                          n_samples, thin, burn_in, _stats_names(sampler)))
    if processes is None or processes == 1:
        results = [_run_chain(task) for task in tasks]
    else:
        with multiprocessing.get_context("fork").Pool(min(processes, n_chains)) as pool:
            results = pool.map(_run_chain, tasks)
    draws = np.stack([r[0] for r in results])
    stats = {name: np.stack([r[1][name] for r in results]) for name in results[0][1]}
    attrs = dict(sampler=sampler, seed=seed, thin=thin, burn_in=burn_in, n_samples=n_samples,
                 step_size=step_size, batch_size=batch_size,
                 num_items=0 if num_items is None else num_items)
    attrs.update({k: v for k, v in options.items()
                  if isinstance(v, (numbers.Real, str)) and not isinstance(v, bool)})
    if step_size_tau is not None:
        attrs.update(step_size_tau=step_size_tau, step_size_kappa=step_size_kappa)
    return Samples(draws, stats, attrs)
