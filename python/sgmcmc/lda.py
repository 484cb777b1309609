"""sgmcmc.LDA: online LDA by SCIR or SGRLD (models/lda/lda.h) as a scikit-learn estimator.

The estimator follows scikit-learn's conventions (get_params/set_params, fit returning self,
fitted attributes ending in "_", n_features_in_, transform, partial_fit); with scikit-learn
installed it derives from sklearn.base.BaseEstimator and TransformerMixin, without it from
an equivalent stand-in. Every computation is C++ (sgmcmc._sgmcmc.LdaChain, python/py_lda.h).

Differences from sklearn.decomposition.LatentDirichletAllocation:
  * components_ is the posterior mean of the topic matrix π over the kept samples (rows on
    the simplex), not variational pseudo-counts: models::Lda's streamed posterior mean, which
    the `lda` tool writes to topic_matrix_mean_RUN.tsv; last_sample_ is the chain's final π,
    the tool's topic_matrix_RUN.tsv.
  * transform(X) is the deterministic fold-in of eval/fold_in.h (θ̂ the fixed point with
    components_ fixed): a document's row depends only on that document.
  * X must hold non-negative integer counts (a word count matrix); other values raise
    ValueError naming the entry.
  * perplexity(X) is a document-completion perplexity (every 10th token of each document
    held out, the rest folded in with components_ fixed): by default by Gibbs sweeps
    (eval/perplexity.h, one evaluation of the `lda` tool's trace column "perplexity"), with
    method="fold_in" the point estimate's (eval/fold_in.h, the tool's point_trace column
    "fold_in_perplexity_mean" for the posterior mean).
  * random_state follows scikit-learn: None draws a fresh seed for each fit from NumPy's
    global RandomState (np.random.seed makes it reproducible), an int is the seed, a
    RandomState draws it. The seed used is seed_; the library is deterministic (same seed,
    same numbers, for any n_threads).
"""

import inspect
import numbers

import numpy as np

from sgmcmc import _inputs
from sgmcmc import _sgmcmc

try:
    from sklearn.base import BaseEstimator, TransformerMixin
    from sklearn.utils.validation import check_is_fitted
    _HAVE_SKLEARN = True
except ImportError:  # pragma: no cover - exercised by the fallback test
    _HAVE_SKLEARN = False

    class BaseEstimator:
        """get_params/set_params with scikit-learn's contract, for installs without it."""

        @classmethod
        def _get_param_names(cls):
            signature = inspect.signature(cls.__init__)
            return sorted(p.name for p in signature.parameters.values()
                          if p.name != "self" and p.kind != p.VAR_KEYWORD)

        def get_params(self, deep=True):
            return {name: getattr(self, name) for name in self._get_param_names()}

        def set_params(self, **params):
            valid = self._get_param_names()
            for name, value in params.items():
                if name not in valid:
                    raise ValueError("Invalid parameter %r for estimator %s. Valid parameters "
                                     "are: %r." % (name, type(self).__name__, valid))
                setattr(self, name, value)
            return self

        def __repr__(self):
            return "%s(%s)" % (type(self).__name__, ", ".join(
                "%s=%r" % item for item in self.get_params().items()))

    class TransformerMixin:
        def fit_transform(self, X, y=None, **fit_params):
            return self.fit(X, y, **fit_params).transform(X)

    class NotFittedError(ValueError, AttributeError):
        pass

    def check_is_fitted(estimator, attributes=None):
        if not any(name.endswith("_") and not name.startswith("__")
                   for name in vars(estimator)):
            raise NotFittedError("This %s instance is not fitted yet. Call 'fit' with "
                                 "appropriate arguments before using this estimator."
                                 % type(estimator).__name__)


def _seed(random_state):
    """The library seed of a scikit-learn random_state: an int itself; None (NumPy's global
    RandomState, as sklearn.utils.check_random_state) or a RandomState: a draw from it."""
    if random_state is None:
        random_state = np.random.mtrand._rand
    if isinstance(random_state, numbers.Integral):
        if random_state < 0 or random_state >= 2**64:
            raise ValueError("random_state must be in [0, 2^64), got %d" % random_state)
        return int(random_state)
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(np.iinfo(np.int32).max))
    raise ValueError("random_state must be None, an int or a numpy.random.RandomState, got %r"
                     % (random_state,))


class LDA(TransformerMixin, BaseEstimator):
    """Latent Dirichlet allocation sampled by SCIR or SGRLD (Baker et al. 2018; Patterson & Teh
    2013), with the document-topic proportions collapsed by Gibbs sweeps.

    Parameters (defaults: the "scir_fast" preset of models/lda/lda.h with K = 10):
      n_components: number of topics K (>= 1).
      sampler: "scir" or "sgrld".
      alpha, beta: symmetric document-topic and topic-word Dirichlet parameters (> 0).
      batch_size: documents per iteration (clamped to the number of documents).
      step_size, step_size_tau, step_size_kappa: the schedule h (1 + m/tau)^(-kappa).
      gibbs_sweeps: Gibbs sweeps per document per iteration (the last half averaged).
      max_iter: iterations of fit.
      total_samples: partial_fit's corpus size D: each minibatch of n documents of a chunk
        counts as D/n times its expected counts (LdaOptions::corpus_documents), as
        scikit-learn's total_samples. None (the default, unlike scikit-learn's 1e6): the
        chunk's own number of rows, i.e. each chunk stands for the whole corpus (the
        behaviour before total_samples existed). fit always scales by its X's rows.
      burn_in: the first kept sample is the state after burn_in iterations (at least 1;
        None: max_iter // 2, the lda tool's default; partial_fit: 0), as
        LdaOptions::mean_burn_in. Also the burn-in of the held-out perplexity's running mean.
      thin: keep every thin-th iteration from burn_in on (LdaOptions::mean_every).
      store_samples: keep the samples themselves in samples_ (n x K x V; memory!).
      eval_every: with fit(X, held_out=...), evaluate every this many iterations (None: 5%).
      eval_sweeps: Gibbs sweeps per document of perplexity(method="completion") and of the
        held-out evaluations of fit (transform's fold-in needs none).
      n_threads: worker threads (None: every core); results do not depend on it.
      random_state: seed (int), None (a fresh seed for each fit, drawn from NumPy's global
        RandomState, as scikit-learn) or a numpy RandomState (draws the seed).

    Attributes after fit: components_ (K x V posterior mean), last_sample_ (K x V), samples_
    (if stored), seed_ (the library seed of the fit, drawn when random_state is not an int;
    perplexity's Gibbs sweeps use it too), n_iter_, n_samples_kept_, n_features_in_, and with held_out, trace_ (rows:
    iteration, step_size, perplexity, running_perplexity; the lda tool's trace CSV without
    its timing columns) and perplexity_ (the last running perplexity, the tool's summary).
    """

    def __init__(self, n_components=10, sampler="scir", alpha=0.1, beta=0.1, batch_size=50,
                 step_size=0.5, step_size_tau=10.0, step_size_kappa=0.33, gibbs_sweeps=20,
                 max_iter=1000, total_samples=None, burn_in=None, thin=1, store_samples=False, eval_every=None,
                 eval_sweeps=20, n_threads=None, random_state=None):
        self.n_components = n_components
        self.sampler = sampler
        self.alpha = alpha
        self.beta = beta
        self.batch_size = batch_size
        self.step_size = step_size
        self.step_size_tau = step_size_tau
        self.step_size_kappa = step_size_kappa
        self.gibbs_sweeps = gibbs_sweeps
        self.max_iter = max_iter
        self.total_samples = total_samples
        self.burn_in = burn_in
        self.thin = thin
        self.store_samples = store_samples
        self.eval_every = eval_every
        self.eval_sweeps = eval_sweeps
        self.n_threads = n_threads
        self.random_state = random_state

    # -- input handling -------------------------------------------------------------------

    def _check_X(self, X, reset):
        if _HAVE_SKLEARN:
            X = self._validate_data(X, accept_sparse="csr", dtype=np.float64, reset=reset)
        arrays = _inputs.csr_arrays(X)
        if reset:
            self.n_features_in_ = arrays[3]
        elif arrays[3] != self.n_features_in_:
            raise ValueError("X has %d features, but %s is expecting %d features as input."
                             % (arrays[3], type(self).__name__, self.n_features_in_))
        return arrays

    def _chain_params(self):
        """The parameters a chain is built with, checked (TypeError/ValueError naming the
        parameter): sampler, K, alpha, beta, h, tau, kappa, batch size, sweeps, burn_in
        (-1: None), thin, store_samples. A running chain keeps them (partial_fit, pickling)."""
        if not isinstance(self.sampler, str):
            raise TypeError("sampler must be \"scir\" or \"sgrld\", got %r" % (self.sampler,))
        real = _inputs.check_real
        return (self.sampler, _inputs.check_int("n_components", self.n_components, 1,
                                                _inputs.INT32_MAX),
                real("alpha", self.alpha), real("beta", self.beta),
                real("step_size", self.step_size), real("step_size_tau", self.step_size_tau),
                real("step_size_kappa", self.step_size_kappa),
                # Clamped to the number of documents anyway.
                min(_inputs.check_int("batch_size", self.batch_size, 1, _inputs.INT64_MAX),
                    _inputs.INT32_MAX),
                _inputs.check_int("gibbs_sweeps", self.gibbs_sweeps, 1, _inputs.INT32_MAX),
                -1 if self.burn_in is None else _inputs.check_int(
                    "burn_in", self.burn_in, 0, _inputs.INT64_MAX),
                _inputs.check_int("thin", self.thin, 1, _inputs.INT64_MAX),
                bool(self.store_samples))

    def _threads(self):
        return 0 if self.n_threads is None else _inputs.check_int(
            "n_threads", self.n_threads, 0, _inputs.INT32_MAX)

    def _options(self):
        return self._chain_options[:9] + (self.seed_,)

    def _new_chain(self):
        self._chain_options = self._chain_params()
        self.seed_ = _seed(self.random_state)
        burn_in, thin, store_samples = self._chain_options[9:]
        return _sgmcmc.LdaChain(*self._options(), threads=self._threads(), burn_in=burn_in,
                                thin=thin, store_samples=store_samples)

    def _collect(self):
        """The fitted attributes from the chain."""
        chain = self._chain
        self.n_iter_ = chain.iteration
        self.n_samples_kept_ = chain.num_kept
        self.last_sample_ = chain.topics()
        self.components_ = chain.mean_topics() if chain.num_kept > 0 else self.last_sample_
        if self.store_samples:
            self.samples_ = chain.samples()
        trace = chain.trace()
        if len(trace):
            self.trace_ = trace
            self.perplexity_ = float(trace[-1, 3])

    # -- estimator API --------------------------------------------------------------------

    def fit(self, X, y=None, held_out=None):
        """Runs max_iter iterations on the documents of X (documents x words counts).

        held_out: optional (X_observed, X_held_out), the two parts of test documents split
        for document completion (e.g. datasets.load_kos's test_observed / test_held_out):
        the perplexity is then evaluated as the lda tool does (trace_, perplexity_).
        Ctrl-C stops the run: the attributes describe the iterations completed, and the
        KeyboardInterrupt propagates.
        """
        arrays = self._check_X(X, reset=True)
        held = None
        if held_out is not None:
            observed, held_back = held_out
            held = (self._check_X(observed, reset=False), self._check_X(held_back, reset=False))
        iterations = _inputs.check_int("max_iter", self.max_iter, 1, _inputs.INT64_MAX)
        eval_every = 0 if self.eval_every is None else _inputs.check_int(
            "eval_every", self.eval_every, 0, _inputs.INT64_MAX)
        eval_sweeps = _inputs.check_int("eval_sweeps", self.eval_sweeps, 1, _inputs.INT32_MAX)
        self._chain = self._new_chain()
        try:
            self._chain.fit(*arrays, iterations=iterations, held_out=held,
                            eval_every=eval_every, eval_sweeps=eval_sweeps)
        except KeyboardInterrupt:
            if self._chain.iteration > 0:
                self._collect()
            raise
        self._collect()
        return self

    def partial_fit(self, X, y=None):
        """One pass of ceil(D / batch_size) iterations on X, continuing the chain (online).

        The expected counts of a minibatch of n documents are scaled by total_samples / n
        (X a chunk of a corpus of total_samples documents); with total_samples=None by D / n,
        X standing for the corpus.
        """
        total_samples = self.total_samples
        if total_samples is not None and (
                isinstance(total_samples, bool) or not isinstance(total_samples, numbers.Real)
                or not 1 <= total_samples <= _inputs.INT64_MAX
                or total_samples != int(total_samples)):
            raise ValueError("total_samples must be None or an int >= 1 and < 2^63, got %r"
                             % (total_samples,))
        first = not hasattr(self, "_chain")
        if not first:
            self._check_unchanged()
        arrays = self._check_X(X, reset=first)
        if first:
            self._chain = self._new_chain()
        try:
            self._chain.partial_fit(*arrays, total_samples=int(total_samples or 0))
        finally:
            if self._chain.iteration > 0:
                self._collect()
        return self

    def _check_unchanged(self):
        """ValueError if a parameter the running chain was built with has been set to another
        value since (the chain would silently go on with the old one)."""
        names = ("sampler", "n_components", "alpha", "beta", "step_size", "step_size_tau",
                 "step_size_kappa", "batch_size", "gibbs_sweeps", "burn_in", "thin",
                 "store_samples")
        for name, old, new in zip(names, self._chain_options, self._chain_params()):
            if old != new:
                raise ValueError("%s is %r, but the chain partial_fit continues was started "
                                 "with %r; call fit to start a new chain"
                                 % (name, getattr(self, name), old))

    def transform(self, X):
        """Topic proportions θ̂ (D x K) of the documents of X by the deterministic fold-in
        with components_ fixed (eval::FoldIn: the fixed point of the EM update, the posterior
        mode of θ); rows sum to 1, and each row depends only on its own document."""
        check_is_fitted(self)
        arrays = self._check_X(X, reset=False)
        return _sgmcmc.lda_fold_in(self.components_, self.components_.shape[0], *arrays,
                                   _inputs.check_real("alpha", self.alpha), self._threads())

    def perplexity(self, X, method="completion", held_out=None):
        """Document-completion perplexity with components_ fixed (lower is better).

        Without held_out, every 10th token of each document of X is held out and the rest
        observed; with held_out, X is the observed part and held_out the held-out part of the
        same documents (as fit's held_out). method="completion": θ by Gibbs sweeps
        (eval/perplexity.h, eval_sweeps sweeps, seeded by random_state; one evaluation of the
        lda tool's trace column "perplexity"). method="fold_in": the point-estimate
        perplexity (eval/fold_in.h: θ̂ by the deterministic fold-in; the tool's point_trace
        column "fold_in_perplexity_mean" when components_ is the tool's posterior mean).
        """
        check_is_fitted(self)
        arrays = self._check_X(X, reset=False)
        held = None if held_out is None else self._check_X(held_out, reset=False)
        return _sgmcmc.lda_perplexity(
            self.components_, self.components_.shape[0], *arrays, held,
            _inputs.check_real("alpha", self.alpha),
            _inputs.check_int("eval_sweeps", self.eval_sweeps, 1, _inputs.INT32_MAX), self.seed_,
            self._threads(), method)

    def score(self, X, y=None):
        """-log perplexity(X) (method "completion"): higher is better, for model selection."""
        return -float(np.log(self.perplexity(X)))

    def top_words(self, vocabulary, n=10):
        """The lda tool's topics text (top words per topic) for components_."""
        check_is_fitted(self)
        return _sgmcmc.format_topics(self.components_, self.components_.shape[0],
                                     [str(word) for word in vocabulary],
                                     _inputs.check_int("n", n, 1, _inputs.INT32_MAX))

    # -- pickling: the chain's checkpoint, so partial_fit continues bit-identically --------

    def __getstate__(self):
        state = super().__getstate__() if hasattr(super(), "__getstate__") else dict(vars(self))
        state = dict(state)
        if "_chain" in state:
            state["_chain"] = state["_chain"].get_state()
        return state

    def __setstate__(self, state):
        state = dict(state)
        chain = state.pop("_chain", None)
        if hasattr(super(), "__setstate__"):
            super().__setstate__(state)
        else:
            self.__dict__.update(state)
        if chain is not None:
            if "_chain_options" not in state:  # pickled before _chain_options existed
                self._chain_options = self._chain_params()
            self._chain = _sgmcmc.LdaChain.from_state(chain, *self._options())

    def _more_tags(self):
        return {"requires_positive_X": True, "X_types": ["2darray", "sparse"],
                "preserves_dtype": [np.float64]}
