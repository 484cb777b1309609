// The diagnostics part of the _sgmcmc extension: effective sample size (eval/ess.h), split
// R-hat (eval/rhat.h) and the kernel Stein discrepancy (eval/kernel_stein_discrepancy.h) on
// NumPy arrays of draws, and draws in the CmdStan CSV layout (eval/cmdstan_csv.h, written;
// eval/cmdstan_csv_reader.h, read). sgmcmc.diagnostics (python/sgmcmc/diagnostics.py) is the
// Python face.
//
// Draws for ESS and R-hat: (n,) one chain, (chains, n) several, or (chains, n, d) d
// parameters at once (ArviZ's (chain, draw, *shape) order), giving one value per parameter.
// Inputs are read (converted to C-contiguous float64 once if they are not).
//
// Cost: that of the library functions; the GIL is released while they run.
#ifndef SGMCMC_PYTHON_PY_EVAL_H_
#define SGMCMC_PYTHON_PY_EVAL_H_

#include "pybind11/pybind11.h"

namespace sgmcmc::python {

void RegisterDiagnostics(pybind11::module_& m);

}  // namespace sgmcmc::python

#endif  // SGMCMC_PYTHON_PY_EVAL_H_
