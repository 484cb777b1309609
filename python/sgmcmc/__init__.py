"""sgmcmc: stochastic-gradient MCMC samplers and LDA from Python.

A thin layer over the C++ library (the extension module sgmcmc._sgmcmc, built by Bazel from
//python:sgmcmc/_sgmcmc.so): every computation runs in C++; this package converts inputs and
follows scikit-learn's conventions.

    import sgmcmc
    kos = sgmcmc.datasets.load_kos(seed=1)
    lda = sgmcmc.LDA(n_components=50, random_state=1, verbose=1).fit(kos.train)  # progress bar
    print(lda.perplexity(kos.test_observed))

Errors from the C++ side are Python exceptions carrying the absl::Status message (ValueError
for InvalidArgument, FileNotFoundError for NotFound, ...). Long calls release the GIL and stop
on Ctrl-C (KeyboardInterrupt).
"""

from sgmcmc import datasets
from sgmcmc import diagnostics
from sgmcmc import samplers
from sgmcmc._sgmcmc import format_topics
from sgmcmc.lda import LDA
from sgmcmc.sampling import Samples, sample

__all__ = ["LDA", "Samples", "datasets", "diagnostics", "format_topics", "sample", "samplers"]
__version__ = "0.1.0"
