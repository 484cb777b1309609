"""Stochastic-gradient MCMC samplers over NumPy: step functions and a sampling loop.

Conventions (the C++ library's; every formula below is what the code does):

  Potential. U(θ) = -log p(θ) - Σ_{i=1..N} log p(x_i | θ), the negative log posterior up to
  a constant. A step uses the unbiased minibatch estimate of its gradient,
      ∇Ũ(θ) = -∇log p(θ) - (N/n) Σ_{i ∈ S} ∇log p(x_i | θ),
  S a minibatch of n = batch_size item ids in [0, N) drawn by the sampler from its own
  random stream (seed, stream), N = num_items.

  The gradient callback of the step functions, gradient(theta, batch, scale, out), must write
  into `out` the PRIOR term -∇log p(θ) (the library adds none) plus the likelihood sum over
  `batch` multiplied by `scale`: -∇log p(θ) - scale Σ_{i ∈ batch} ∇log p(x_i | θ). The
  sampler passes scale = N/n, so this is ∇Ũ(θ). Or pass the prior separately,
  prior_gradient(theta, out) writing -∇log p(θ), and leave it out of `gradient`: pSGLD needs
  that split when the prior is not flat, because it also calls `gradient` with scale = -1/n
  to get the minibatch mean ḡ of the log-likelihood gradients for its preconditioner (a prior
  inside `gradient` would enter ḡ). num_items=1 and
  batch_size=1 (the defaults) mean a full-batch gradient: batch = [0], scale = 1, and the
  callback writes -∇log π(θ) of the whole target. theta, batch and out are NumPy arrays that
  Python owns, refilled for every call (keeping them is safe; they are overwritten by the
  next call). A NaN or inf left in `out` raises ValueError naming the step and the first
  non-finite index, with θ unchanged.

    def gradient(theta, batch, scale, out):          # N(0, I) target: U = |θ|²/2
        np.copyto(out, theta)
    chain = sgmcmc.samplers.sgld(gradient, np.zeros(100), step_size=1e-2, seed=3)
    chain.run(1000)                                  # chain.theta: a read-only view

  Step size. h_m = step_size (1 + m/step_size_tau)^(-step_size_kappa) at iteration m (m from
  0) with step_size_tau set, else the constant step_size.

  SGLD (Welling & Teh 2011):   θ ← θ - h ∇Ũ(θ) + √(2h) ξ,  ξ ~ N(0, I).
  pSGLD (Li et al. 2016):      V ← αV + (1-α) ḡ∘ḡ (ḡ the minibatch mean of the per-item
                               log-likelihood gradients), G = diag(1/(λ + √V)),
                               θ ← θ - h G ∇Ũ(θ) + √(2h) G^{1/2} ξ (the Γ correction dropped:
                               an O(h) and O(1-α) bias).
  SGHMC (Chen et al. 2014, eq. 15, unit mass; friction C, gradient-noise estimate B):
                               p ← p - h ∇Ũ(θ) - h C p + N(0, 2(C - B) h I),  θ ← θ + h p,
                               p starts at N(0, I). B = 0 injects all of C as noise.
  SGNHT (Ding et al. 2014, unit mass; diffusion A):
                               p ← p - ζ h p - h ∇Ũ(θ) + √(2Ah) ξ,  θ ← θ + h p,
                               ζ ← ζ + (pᵀp/D - 1) h, ζ starts at initial_thermostat.
  HAMCMC (Simsekli et al. 2016, eq. 10; memory M): θ_t = θ_{t-M} - ε_t H_t ∇Ũ(θ_{t-M})
                               + √(2ε_t) S_t z, H_t the L-BFGS inverse Hessian of the M-1
                               latest pairs (damping λ), after 2M SGLD warm-up steps of
                               step warmup_step.

  Simplex samplers (SCIR, Baker et al. 2018; SGRLD, Patterson & Teh 2013) sample ω on rows
  simplices of dimension cols with a Dirichlet(α) prior. They take the SCALED COUNTS
  ĉ = (N/n) Σ_{i ∈ S} (counts of item i), shape (rows, cols), not a gradient: with fixed
  counts n the target is Dirichlet(α + n) per row. SCIR's CIR transition is exact for any
  h (no discretisation error); SGRLD's Euler step has an O(h) bias.

    chain = sgmcmc.samplers.scir(rows=1, cols=5, alpha=0.5, seed=2)
    omega = np.empty((1, 5))
    chain.step(counts, 0.1); chain.simplex(omega)

  or with the scaled counts of a C++ count model, minibatches drawn by a stepper:

    model = sgmcmc.samplers.CategoricalDirichlet([800, 100, 100, 0, 0], alpha=0.1)
    stepper = sgmcmc.samplers.CountModelStepper(model, batch_size=10, seed=1, stream=0)
    stepper.step(chain, 0.1)

  Geodesic samplers on spheres (SGGMC and gSGNHT, Liu, Zhu & Song 2016; friction C,
  gradient-noise estimate V̂, L inner steps) sample x on K unit spheres S^{d-1} (x of shape
  (d, K), or (d,) for one) with density π_H(x) with respect to the surface measure. The
  callback gradient(x, batch, scale, out) writes -∇_x log p(x) - scale Σ_{i ∈ batch}
  ∇_x log p(y_i | x) in ambient coordinates (any smooth extension off the sphere; the
  samplers project onto the tangent space). One inner step is A-B-O-B-A: geodesic flow for
  h/2, v ← e^{-Ch/2} v (gSGNHT: e^{-ξh/2} v), v ← v + Λ(x)[-h ∇Ũ + N(0, (2C - hV̂)h I)].

Chains and engines pickle (so multiprocessing works): a chain pickles as its constructor's
arguments plus its checkpoint (save_state), so its gradient callable must itself pickle (a
module-level function or a class instance, not a lambda); a restored chain continues
bit-identically. Engine(seed, stream) is the library's Philox stream, filling arrays in place.

sample(...) runs n_chains chains and returns their draws (chain, draw, *parameter shape) with
per-draw sample statistics, for any of the samplers above (see its docstring).
"""

import numbers

import numpy as np

from sgmcmc import _inputs
from sgmcmc import _sgmcmc

Engine = _sgmcmc.Engine
EuclideanChain = _sgmcmc.EuclideanChain
SimplexChain = _sgmcmc.SimplexChain
SphereChain = _sgmcmc.SphereChain
CountModel = _sgmcmc.CountModel
CategoricalDirichlet = _sgmcmc.CategoricalDirichlet
CountModelStepper = _sgmcmc.CountModelStepper

EUCLIDEAN = ("sgld", "psgld", "sghmc", "sgnht", "hamcmc")
SIMPLEX = ("scir", "sgrld")
SPHERE = ("sggmc", "gsgnht")
SAMPLERS = EUCLIDEAN + SIMPLEX + SPHERE


def _chain(step_size, step_size_tau, step_size_kappa, batch_size, seed, stream):
    return _sgmcmc.ChainOptions(
        _inputs.check_real("step_size", step_size),
        None if step_size_tau is None else _inputs.check_real("step_size_tau", step_size_tau),
        _inputs.check_real("step_size_kappa", step_size_kappa),
        _inputs.check_int("batch_size", batch_size, 1, _inputs.INT64_MAX),
        _inputs.check_seed("seed", seed), _inputs.check_seed("stream", stream))


def _theta0(theta0):
    """theta0 itself (read in place by the extension), if it is not an array of another
    shape than a vector: a (2, 2) array was flattened silently into D = 4."""
    if isinstance(theta0, np.ndarray) and theta0.ndim != 1:
        raise ValueError("theta0 must be a vector (1-D), got shape %s" % (theta0.shape,))
    return theta0


def _gradient(gradient):
    """gradient, if it is callable: pybind11 listed its overloads for anything else."""
    if not callable(gradient):
        raise TypeError("gradient must be a callable gradient(theta, batch, scale, out), got %r"
                        % (gradient,))
    return gradient


def _prior(prior_gradient):
    if prior_gradient is not None and not callable(prior_gradient):
        raise TypeError("prior_gradient must be None or a callable prior_gradient(theta, out), "
                        "got %r" % (prior_gradient,))
    return prior_gradient


def _num_items(num_items):
    return _inputs.check_int("num_items", num_items, 1, _inputs.INT64_MAX)


def _simplex(rows, cols, alpha, seed):
    return (_inputs.check_int("rows", rows, 1, _inputs.INT32_MAX),
            _inputs.check_int("cols", cols, 2, _inputs.INT32_MAX), _alpha(alpha),
            _inputs.check_seed("seed", seed))


def _remember(chain, factory, kwargs):
    """Keeps the constructor's arguments on the chain, for pickling (_rebuild)."""
    kwargs = dict(kwargs)
    for key in ("theta0", "x0"):
        if key in kwargs:
            kwargs[key] = np.array(kwargs[key], dtype=np.float64, copy=True)
    chain._recipe = (factory, kwargs)
    return chain


def _rebuild(recipe, state):
    factory, kwargs = recipe
    chain = globals()[factory](**kwargs)
    chain.restore_state(state)
    return chain


def _reduce_chain(chain):
    recipe = getattr(chain, "_recipe", None)
    if recipe is None:
        raise TypeError("this %s was not made by sgmcmc.samplers (its constructor arguments "
                        "are unknown), so it cannot be pickled" % type(chain).__name__)
    return (_rebuild, (recipe, chain.save_state()))


def _make_engine(seed, stream, position):
    engine = Engine(seed, stream)
    engine.seek(position)
    return engine


for _cls in (EuclideanChain, SimplexChain, SphereChain):
    _cls.__reduce__ = _reduce_chain
Engine.__reduce__ = lambda engine: (_make_engine, (engine.seed, engine.stream, engine.position))


def sgld(gradient, theta0, num_items=1, prior_gradient=None, step_size=1e-3, step_size_tau=None,
         step_size_kappa=0.0, batch_size=1, seed=1, stream=0):
    """SGLD (Welling & Teh 2011): θ ← θ - h ∇Ũ(θ) + √(2h) ξ, from theta0 (float64 vector).
    gradient(theta, batch, scale, out) writes ∇Ũ(θ) (module docstring: prior included,
    likelihood times scale = N/n)."""
    chain = _sgmcmc.sgld(_gradient(gradient), _theta0(theta0), _num_items(num_items), _chain(
        step_size, step_size_tau, step_size_kappa, batch_size, seed, stream),
        _prior(prior_gradient))
    return _remember(chain, "sgld", locals_of(locals()))


def locals_of(values):
    return {k: v for k, v in values.items() if k != "chain"}


def psgld(gradient, theta0, num_items=1, prior_gradient=None, step_size=1e-3, step_size_tau=None,
          step_size_kappa=0.0, batch_size=1, seed=1, stream=0, alpha=0.99, regularizer=1e-5):
    """pSGLD (Li et al. 2016): SGLD preconditioned by G = diag(1/(λ + √V)), V the RMSprop
    average (decay alpha) of the squared minibatch-mean log-likelihood gradient, λ =
    regularizer; the Γ correction is dropped (module docstring)."""
    chain = _sgmcmc.psgld(_gradient(gradient), _theta0(theta0), _num_items(num_items), _chain(
        step_size, step_size_tau, step_size_kappa, batch_size, seed, stream), alpha, regularizer,
        _prior(prior_gradient))
    return _remember(chain, "psgld", locals_of(locals()))


def sghmc(gradient, theta0, num_items=1, prior_gradient=None, step_size=1e-3, step_size_tau=None,
          step_size_kappa=0.0, batch_size=1, seed=1, stream=0, friction=1.0,
          gradient_noise=0.0):
    """SGHMC (Chen et al. 2014, eq. 15), unit mass: p ← p - h∇Ũ(θ) - hCp + N(0, 2(C - B)h),
    θ ← θ + hp, with C = friction and B = gradient_noise (an estimate of the gradient noise
    variance, 0 <= B < C); p starts at N(0, I)."""
    chain = _sgmcmc.sghmc(_gradient(gradient), _theta0(theta0), _num_items(num_items), _chain(
        step_size, step_size_tau, step_size_kappa, batch_size, seed, stream), friction,
        gradient_noise, _prior(prior_gradient))
    return _remember(chain, "sghmc", locals_of(locals()))


def sgnht(gradient, theta0, num_items=1, prior_gradient=None, step_size=1e-3, step_size_tau=None,
          step_size_kappa=0.0, batch_size=1, seed=1, stream=0, diffusion=1.0,
          initial_thermostat=1.0):
    """SGNHT (Ding et al. 2014), unit mass: p ← p - ζhp - h∇Ũ(θ) + √(2Ah) ξ, θ ← θ + hp,
    ζ ← ζ + (pᵀp/D - 1)h, with A = diffusion and ζ starting at initial_thermostat; the
    thermostat absorbs the unknown gradient-noise variance. chain.thermostat is ζ."""
    chain = _sgmcmc.sgnht(_gradient(gradient), _theta0(theta0), _num_items(num_items), _chain(
        step_size, step_size_tau, step_size_kappa, batch_size, seed, stream), diffusion,
        initial_thermostat, _prior(prior_gradient))
    return _remember(chain, "sgnht", locals_of(locals()))


def hamcmc(gradient, theta0, num_items=1, prior_gradient=None, step_size=1e-3, step_size_tau=None,
           step_size_kappa=0.0, batch_size=1, seed=1, stream=0, memory=2, gamma=1.0,
           damping=1.0, warmup_step=1e-3):
    """HAMCMC (Simsekli et al. 2016, eq. 10): the L-BFGS-preconditioned Langevin move from
    θ_{t-M}, M = memory (>= 2), H⁰ = gamma I, damping λ, after 2M SGLD warm-up steps of step
    warmup_step (module docstring). Two gradients per iteration."""
    chain = _sgmcmc.hamcmc(_gradient(gradient), _theta0(theta0), _num_items(num_items), _chain(
        step_size, step_size_tau, step_size_kappa, batch_size, seed, stream), memory, gamma,
        damping, warmup_step, _prior(prior_gradient))
    return _remember(chain, "hamcmc", locals_of(locals()))


def _alpha(alpha):
    if isinstance(alpha, numbers.Real):
        return [float(alpha)]
    try:
        values = np.asarray(alpha, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("alpha must be a number or a vector of numbers, got %r"
                        % (alpha,)) from None
    if values.ndim != 1:
        raise ValueError("alpha must be a number or a vector (1-D) of numbers, got shape %s"
                         % (values.shape,))
    return [float(a) for a in values]


def scir(rows, cols, alpha=0.1, seed=0):
    """SCIR (Baker et al. 2018) on rows simplices of dimension cols; alpha: one Dirichlet
    parameter (symmetric) or cols of them. Exact CIR transition: with fixed counts n the
    chain targets Dirichlet(alpha + n) for any step size."""
    chain = _sgmcmc.scir(*_simplex(rows, cols, alpha, seed))
    return _remember(chain, "scir", locals_of(locals()))


def sgrld(rows, cols, alpha=0.1, seed=0):
    """SGRLD (Patterson & Teh 2013), expanded-mean parameterisation (an Euler step: O(h)
    bias)."""
    chain = _sgmcmc.sgrld(*_simplex(rows, cols, alpha, seed))
    return _remember(chain, "sgrld", locals_of(locals()))


def _geodesic(step_size, step_size_tau, step_size_kappa, batch_size, seed, stream, friction,
              gradient_noise, inner_steps):
    return _sgmcmc.GeodesicOptions(
        _chain(step_size, step_size_tau, step_size_kappa, batch_size, seed, stream),
        _inputs.check_real("friction", friction),
        _inputs.check_real("gradient_noise", gradient_noise), inner_steps)


def sggmc(gradient, x0, num_items=1, step_size=1e-2, step_size_tau=None, step_size_kappa=0.0,
          batch_size=1, seed=1, stream=0, friction=1.0, gradient_noise=0.0, inner_steps=1):
    """SGGMC (Liu, Zhu & Song 2016, Algorithm 1) on K unit spheres S^{d-1}: x0 of shape (d,)
    or (d, K) with unit columns; gradient(x, batch, scale, out) with x, out of shape (d, K)
    writes the ambient potential gradient (module docstring). chain.x is a (d, K) copy."""
    chain = _sgmcmc.sggmc(_gradient(gradient), x0, _num_items(num_items), _geodesic(
        step_size, step_size_tau, step_size_kappa, batch_size, seed, stream, friction,
        gradient_noise, inner_steps))
    return _remember(chain, "sggmc", locals_of(locals()))


def gsgnht(gradient, x0, num_items=1, step_size=1e-2, step_size_tau=None, step_size_kappa=0.0,
           batch_size=1, seed=1, stream=0, friction=1.0, gradient_noise=0.0, inner_steps=1):
    """gSGNHT (Liu, Zhu & Song 2016, Algorithm 2): SGGMC with a thermostat ξ (starting at
    friction) in place of the fixed friction; chain.thermostat is ξ."""
    chain = _sgmcmc.gsgnht(_gradient(gradient), x0, _num_items(num_items), _geodesic(
        step_size, step_size_tau, step_size_kappa, batch_size, seed, stream, friction,
        gradient_noise, inner_steps))
    return _remember(chain, "gsgnht", locals_of(locals()))
