// The _sgmcmc extension module: the C++ library's LDA, samplers and diagnostics for Python
// (package sgmcmc, python/sgmcmc/). Each part registers itself from its own file; this file
// only names the module. Errors raise the Python exception of their absl::Status code
// (python/py_status.h).
#include "pybind11/pybind11.h"
#include "python/py_eval.h"
#include "python/py_lda.h"
#include "python/py_samplers.h"

PYBIND11_MODULE(_sgmcmc, m) {
  m.doc() = "sgmcmc's C++ library (stochastic-gradient MCMC) for Python; see the sgmcmc package.";
  sgmcmc::python::RegisterLda(m);
  sgmcmc::python::RegisterSamplers(m);
  sgmcmc::python::RegisterDiagnostics(m);
}
