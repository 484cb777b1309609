"""Sampler step functions over NumPy arrays (python/py_samplers.h has the contract).

Euclidean samplers (SGLD, pSGLD, SGHMC) take a gradient callback computed in NumPy:

    def gradient(theta, batch, scale, out):   # out[:] = -grad log p(theta) - scale * sum_i ...
        np.copyto(out, theta)                 # standard normal target
    chain = sgmcmc.samplers.sgld(gradient, np.zeros(100), step_size=1e-2, seed=3)
    for _ in range(1000):
        chain.step()                          # chain.theta (a read-only view) moves in place

The callback's arrays are views of the sampler's buffers, valid during the call only; `batch`
holds the minibatch's item ids (drawn by the sampler from its engine; num_items=1 and
batch_size=1, the defaults, mean full-batch gradients with scale 1). A NaN or inf left in
`out` raises ValueError naming the step and the first non-finite index, with theta unchanged.

Simplex samplers (SCIR, SGRLD) are stepped with dense scaled counts (rows x cols float64,
read in place) and write ω into a caller's array:

    chain = sgmcmc.samplers.scir(rows=1, cols=5, alpha=0.5, seed=2)
    omega = np.empty((1, 5))
    chain.step(counts, 0.1); chain.simplex(omega)

or with the scaled counts of a C++ count model, minibatches drawn by a stepper:

    model = sgmcmc.samplers.CategoricalDirichlet([800, 100, 100, 0, 0], alpha=0.1)
    stepper = sgmcmc.samplers.CountModelStepper(model, batch_size=10, seed=1, stream=0)
    stepper.step(chain, 0.1)

The step size schedule is h (1 + m/tau)^(-kappa) with step_size_tau set, else constant h.
Engine(seed, stream) is the library's Philox stream (rng/engine.h), filling arrays in place.
"""

import numbers

import numpy as np

from sgmcmc import _inputs
from sgmcmc import _sgmcmc

Engine = _sgmcmc.Engine
EuclideanChain = _sgmcmc.EuclideanChain
SimplexChain = _sgmcmc.SimplexChain
CountModel = _sgmcmc.CountModel
CategoricalDirichlet = _sgmcmc.CategoricalDirichlet
CountModelStepper = _sgmcmc.CountModelStepper


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


def _num_items(num_items):
    return _inputs.check_int("num_items", num_items, 1, _inputs.INT64_MAX)


def _simplex(rows, cols, alpha, seed):
    return (_inputs.check_int("rows", rows, 1, _inputs.INT32_MAX),
            _inputs.check_int("cols", cols, 2, _inputs.INT32_MAX), _alpha(alpha),
            _inputs.check_seed("seed", seed))


def sgld(gradient, theta0, num_items=1, step_size=1e-3, step_size_tau=None,
         step_size_kappa=0.0, batch_size=1, seed=1, stream=0):
    """SGLD (Welling & Teh 2011; samplers/sgld.h) from theta0 (float64 vector)."""
    return _sgmcmc.sgld(_gradient(gradient), _theta0(theta0), _num_items(num_items), _chain(
        step_size, step_size_tau, step_size_kappa, batch_size, seed, stream))


def psgld(gradient, theta0, num_items=1, step_size=1e-3, step_size_tau=None,
          step_size_kappa=0.0, batch_size=1, seed=1, stream=0, alpha=0.99, regularizer=1e-5):
    """pSGLD (Li et al. 2016; samplers/psgld.h): RMSprop-preconditioned SGLD."""
    return _sgmcmc.psgld(_gradient(gradient), _theta0(theta0), _num_items(num_items), _chain(
        step_size, step_size_tau, step_size_kappa, batch_size, seed, stream), alpha, regularizer)


def sghmc(gradient, theta0, num_items=1, step_size=1e-3, step_size_tau=None,
          step_size_kappa=0.0, batch_size=1, seed=1, stream=0, friction=1.0,
          gradient_noise=0.0):
    """SGHMC (Chen et al. 2014; samplers/sghmc.h) with friction C and noise estimate B."""
    return _sgmcmc.sghmc(_gradient(gradient), _theta0(theta0), _num_items(num_items), _chain(
        step_size, step_size_tau, step_size_kappa, batch_size, seed, stream), friction,
        gradient_noise)


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
    """SCIR (Baker et al. 2018; samplers/scir.h) on rows simplices of dimension cols;
    alpha: one Dirichlet parameter (symmetric) or cols of them."""
    return _sgmcmc.scir(*_simplex(rows, cols, alpha, seed))


def sgrld(rows, cols, alpha=0.1, seed=0):
    """SGRLD (Patterson & Teh 2013; samplers/sgrld.h), expanded-mean parameterisation."""
    return _sgmcmc.sgrld(*_simplex(rows, cols, alpha, seed))
