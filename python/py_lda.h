// The LDA part of the _sgmcmc extension: class LdaChain (models::Lda driven from Python, with
// the posterior mean of the topics over the kept samples and the lda tool's evaluation
// protocol), fold-in and perplexity of new documents, and corpus loading. sgmcmc.LDA
// (python/sgmcmc/lda.py) is the scikit-learn estimator over it.
//
// Posterior mean: the library's (models::Lda::PosteriorMeanTopics, LdaOptions::mean_burn_in =
// burn_in, mean_every = thin: the states after m iterations, m >= burn_in, every thin-th),
// so components_ is the lda tool's topic_matrix_mean_RUN.tsv; LdaChain optionally stores the
// kept samples themselves. transform is eval::FoldIn (deterministic fold-in with φ fixed);
// perplexity splits each document for document completion (every 10th token held out, or the
// given held-out part) and scores it by eval::DocumentCompletionPerplexity (Gibbs sweeps, one
// evaluation) or eval::FoldInPerplexity (the point estimate).
//
// Threads: results are bit-identical for any number of threads (models/lda/lda.h). Long calls
// release the GIL and check for Ctrl-C between iterations (KeyboardInterrupt; the chain
// keeps the iterations completed).
//
// Cost: that of models::Lda::Step per iteration (with its O(K V) per kept sample for the mean),
// plus O(K V) per stored sample; the evaluations as in eval/perplexity.h and eval/fold_in.h.
#ifndef SGMCMC_PYTHON_PY_LDA_H_
#define SGMCMC_PYTHON_PY_LDA_H_

#include "pybind11/pybind11.h"

namespace sgmcmc::python {

void RegisterLda(pybind11::module_& m);

}  // namespace sgmcmc::python

#endif  // SGMCMC_PYTHON_PY_LDA_H_
