// The LDA part of the _sgmcmc extension: class LdaChain (models::Lda driven from Python, with
// the posterior mean of the topics over the kept samples and the lda tool's evaluation
// protocol), fold-in and perplexity of new documents, and corpus loading. sgmcmc.LDA
// (python/sgmcmc/lda.py) is the scikit-learn estimator over it.
//
// Posterior mean: models::Lda yields the current topics π^(m); LdaChain keeps the running
// mean of π^(m) over the kept iterations m (after burn_in, every thin-th) and, optionally,
// the kept samples themselves. Fold-in (transform) and perplexity use
// eval::DocumentCompletionPerplexity (eval/perplexity.h) with φ fixed: transform runs its
// Gibbs sweeps over whole documents (no held-out part) and returns η̂; perplexity splits each
// document for document completion (every 10th token held out) and scores one evaluation.
//
// Threads: results are bit-identical for any number of threads (models/lda.h). Long calls
// release the GIL and check for Ctrl-C between iterations (KeyboardInterrupt; the chain
// keeps the iterations completed).
//
// Cost: that of models::Lda::Step per iteration, plus O(K V) per kept iteration for the mean
// (and the copy of a stored sample); the evaluations as in eval/perplexity.h.
#ifndef SGMCMC_PYTHON_PY_LDA_H_
#define SGMCMC_PYTHON_PY_LDA_H_

#include "pybind11/pybind11.h"

namespace sgmcmc::python {

void RegisterLda(pybind11::module_& m);

}  // namespace sgmcmc::python

#endif  // SGMCMC_PYTHON_PY_LDA_H_
