// The sampler part of the _sgmcmc extension: the random engine (rng/engine.h), the Euclidean
// samplers SGLD, pSGLD and SGHMC (samplers/sgld.h, psgld.h, sghmc.h) over a gradient
// computed in Python (NumPy), and the simplex samplers SCIR and SGRLD (samplers/scir.h,
// sgrld.h) stepped with counts from NumPy. sgmcmc.samplers (python/sgmcmc/samplers.py) is the
// Python face.
//
// Memory: a chain's `theta` is a read-only NumPy view of the sampler's own vector, updated in
// place by step(), and the view keeps the chain alive. The gradient callback receives
// Python-owned arrays (theta and batch read-only, out writable) that the model refills for
// every call and copies back from: a callback that keeps them can never reach freed memory.
// Simplex counts of shape (rows, cols) are read in place (float64) or converted once (integer
// dtypes); simplex() writes ω into a caller's float64, C-contiguous (rows, cols) array
// (python/py_arrays.h raises TypeError / ValueError otherwise, rather than working on a
// silent copy).
//
// Gradient callback: grad(theta, batch, scale, out) must write into `out` the stochastic
// potential gradient -∇log p(θ) - scale Σ_{i ∈ batch} ∇log p(x_i | θ) (batch: int64 item
// ids drawn by the sampler from its engine, scale = N / n); the model's separate prior term is
// zero, the callback carries it. An exception in the callback propagates out of step() (that
// step is then incomplete). A NaN or inf written into `out` raises ValueError naming the step
// (the sampler's iteration) and the first non-finite index; the samplers compute the gradient
// before they move θ, so θ and the iteration count stay as before that step.
//
// Cost: one Python call per gradient (about a microsecond plus the NumPy work) on top of the
// sampler's O(D) step; python/benchmarks/step_overhead.py measures the overhead per step.
#ifndef SGMCMC_PYTHON_PY_SAMPLERS_H_
#define SGMCMC_PYTHON_PY_SAMPLERS_H_

#include "absl/status/status.h"
#include "pybind11/pybind11.h"
#include "samplers/simplex_sampler.h"

namespace sgmcmc::python {

void RegisterSamplers(pybind11::module_& m);

// InvalidArgument unless every row of an SGRLD state (stored as θ) sums to a finite value.
// SGRLD's Euler step overflows for absurd step sizes or counts (h = 1e300, counts of 1e308):
// θ turns NaN silently, and an LDA chain would abort in its next Gibbs sweep (a CHECK on the
// topics). SCIR's exact step needs no check (OK). `what` starts the message. O(rows x cols).
absl::Status CheckFiniteSgrldState(const samplers::SimplexSampler& sampler, const char* what);

}  // namespace sgmcmc::python

#endif  // SGMCMC_PYTHON_PY_SAMPLERS_H_
