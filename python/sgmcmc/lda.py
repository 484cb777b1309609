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
  * LDA samples integer word counts: non-negative real X (tf-idf, scikit-learn's test
    matrices) is rounded to the nearest integer by default (real_counts="round"; "scale"
    rescales each row first; "error" refuses non-integers with "needs integer word counts
    (use CountVectorizer)"). Negative entries raise ValueError naming the entry.
  * scikit-learn's parameter names (doc_topic_prior, topic_word_prior, learning_method,
    learning_offset, learning_decay, evaluate_every, n_jobs, verbose, ...) are accepted, so
    swapping `from sklearn.decomposition import LatentDirichletAllocation` for
    `from sgmcmc import LDA as LatentDirichletAllocation` is enough for a working script;
    verbose=1 shows a progress bar (tqdm).
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
import os
import warnings

import numpy as np

from sgmcmc import _inputs
from sgmcmc import _sgmcmc

try:
    from sklearn.base import BaseEstimator, TransformerMixin
    from sklearn.utils.validation import check_is_fitted
    _HAVE_SKLEARN = True
    try:
        from sklearn.base import ClassNamePrefixFeaturesOutMixin
    except ImportError:  # scikit-learn < 1.1
        ClassNamePrefixFeaturesOutMixin = None
except ImportError:  # pragma: no cover - exercised by the fallback test
    _HAVE_SKLEARN = False
    ClassNamePrefixFeaturesOutMixin = None

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


if ClassNamePrefixFeaturesOutMixin is None:
    class ClassNamePrefixFeaturesOutMixin:
        """get_feature_names_out as scikit-learn's mixin: "lda0", "lda1", ..."""

        def get_feature_names_out(self, input_features=None):
            check_is_fitted(self, "components_")
            prefix = type(self).__name__.lower()
            return np.asarray(["%s%d" % (prefix, k) for k in range(self._n_features_out)],
                              dtype=object)

try:
    import tqdm as _tqdm
except ImportError:  # pragma: no cover - python3-tqdm is in third_party/debian_packages.txt
    _tqdm = None

_REAL_COUNTS = ("round", "scale", "error")
_NO_EFFECT = ("perp_tol", "mean_change_tol", "max_doc_update_iter")


def _to_counts(X, real_counts):
    """X (a float64 ndarray or CSR matrix, already validated) as the counts LDA samples:
    real_counts "round": nearest integers; "scale": each row divided by its smallest positive
    entry, then rounded; "error": unchanged (C++ rejects non-integers). ValueError for
    negative entries, naming the first."""
    if real_counts not in _REAL_COUNTS:
        raise ValueError("real_counts must be one of %s, got %r" % (_REAL_COUNTS, real_counts))
    dense = not hasattr(X, "indptr")
    values = X if dense else X.data
    if values.size and values.min() < 0:
        first = np.argwhere(X < 0)[0] if dense else None
        if first is None:
            row = np.searchsorted(X.indptr, np.flatnonzero(X.data < 0)[0], side="right") - 1
            first = (row, X.indices[np.flatnonzero(X.data < 0)[0]])
        raise ValueError("Negative values in data passed to LDA: X[%d, %d] = %g is not a "
                         "non-negative count" % (first[0], first[1], X[first[0], first[1]]))
    if real_counts == "error" or np.all(values == np.rint(values)):
        return X
    X = X.copy()
    if real_counts == "scale":
        if dense:
            positive = np.where(X > 0, X, np.inf).min(axis=1, keepdims=True)
            X /= np.where(np.isfinite(positive), positive, 1.0)
        else:
            for row in range(X.shape[0]):
                chunk = X.data[X.indptr[row]:X.indptr[row + 1]]
                if np.any(chunk > 0):
                    chunk /= chunk[chunk > 0].min()
    if dense:
        np.rint(X, out=X)
    else:
        np.rint(X.data, out=X.data)
    if real_counts == "scale":
        largest = X.max() if X.shape[0] and X.shape[1] else 0
        if largest > _inputs.INT32_MAX:
            row = int(np.argmax((X.max(axis=1).toarray().ravel() if not dense
                                 else X.max(axis=1))))
            raise ValueError("real_counts=\"scale\": row %d's largest entry is %g times its "
                             "smallest positive one, more than the largest count of one "
                             "entry (2^31 - 1); use \"round\" or rescale X" % (row, largest))
    return X


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


class LDA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Latent Dirichlet allocation sampled by SCIR or SGRLD (Baker et al. 2018; Patterson & Teh
    2013), with the document-topic proportions collapsed by Gibbs sweeps.

    Parameters (defaults: the "scir_fast" or "sgrld_fast" preset of models/lda/lda.h, chosen
    by the data as the lda tool chooses, with K = 10 and β by the counts):
      n_components: number of topics K (>= 1).
      sampler: "scir", "sgrld" or None (the default): by the data, as the lda tool's default
        preset (bench/README.md). fit: by the documents' mean length, "scir" from 100 tokens
        per document on, "sgrld" below (on short documents SGRLD ended lower at a third to a
        quarter of the time, on long ones SCIR ended 0.5-1.6% lower at 2-3 times the time),
        except "scir" for counts sparse for K, below 0.5 entries per topic-word cell (SGRLD
        ended 3-11% worse there; models::DefaultInMemoryLdaPreset). partial_fit, a stream:
        by the density of its first chunk's counts, NNZ / (K V) with NNZ scaled to
        total_samples, "sgrld" from 2 entries per topic-word cell on, "scir" below
        (models::DefaultLdaSettingsByDensity). The
        sampler used is sampler_ after fitting, and sampler_reason_ says why (printed with
        verbose >= 1).
      alpha, beta: symmetric document-topic and topic-word Dirichlet parameters (> 0).
        alpha None (the default): by K, as the tools' default (models::DefaultLdaAlpha,
        bench/README.md "α at large K"): K α = 0.05 K within [5, 10], α at most 0.1 (0.1 up
        to K = 50, 0.05 at K = 100-200, 0.01 at K = 1000; on text at K = 500-1000 its held-out
        perplexity ended 13-22% below 0.1's). The α used is doc_topic_prior_ after fitting.
        beta None (the default): by the counts, as the tools' default by density
        (models::DefaultLdaSettingsByDensity, bench/README.md "The default by density on
        real text"): for SCIR 0.2 x NNZ / (K V) within [0.01, 0.1], NNZ the non-zero
        entries of fit's X (of partial_fit's first chunk, times total_samples / its rows);
        for SGRLD sgrld_fast's 0.01. The β used is topic_word_prior_ after fitting.
      batch_size: documents per iteration (clamped to the number of documents).
      step_size, step_size_tau, step_size_kappa: the schedule h (1 + m/tau)^(-kappa); each
        None (the default): the sampler's tuned preset's, (0.5, 10, 0.33) for SCIR
        (scir_fast), (0.1, 100, 0.6) for SGRLD (sgrld_fast). step_size_schedule_ after
        fitting holds the (h, tau, kappa) used.
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
        fit refuses burn_in > max_iter (no sample would be kept) and warns at burn_in ==
        max_iter (one sample, the last).
      thin: keep every thin-th iteration from burn_in on (LdaOptions::mean_every).
      store_samples: keep the samples themselves in samples_ (n x K x V; memory!).
      eval_every: with fit(X, held_out=...), evaluate every this many iterations (None: 5%).
      eval_sweeps: Gibbs sweeps per document of perplexity(method="completion") and of the
        held-out evaluations of fit (transform's fold-in needs none).
      n_threads: worker threads (None: every core); results do not depend on it.
      random_state: seed (int), None (a fresh seed for each fit, drawn from NumPy's global
        RandomState, as scikit-learn) or a numpy RandomState (draws the seed).
      real_counts: what X's non-integer entries become; LDA samples integer word counts.
        "round" (the default): each entry rounded to the nearest integer (integer counts
          pass unchanged; a tf-idf matrix's entries below 0.5 vanish). The default, so that
          scikit-learn's check_estimator (real-valued test matrices) passes.
        "scale": each row divided by its smallest positive entry, then rounded: the rarest
          weight of a tf-idf row becomes one token and the others keep their ratios.
        "error": a non-integer entry raises ValueError "X[i, j] = 0.53 is not a non-negative
          integer count: LDA needs integer word counts (use CountVectorizer)".
        Negative entries raise ValueError in every mode.

    scikit-learn's LatentDirichletAllocation names, accepted so that swapping the import is
    enough (None: not given; the name it stands for applies):
      doc_topic_prior, topic_word_prior: alpha and beta (scikit-learn's default for both is
        1/n_components; here the given value, else alpha / beta).
      learning_method: the sampler choice: "scir" or "sgrld" select the sampler; "online"
        keeps `sampler` with minibatches of batch_size documents; "batch" uses every
        document in each iteration (scikit-learn's default; here None: as "online").
      learning_offset, learning_decay: scikit-learn's step-size schedule
        (learning_offset + t)^(-learning_decay): here step_size_tau and step_size_kappa of
        h (1 + m/tau)^(-kappa) (h = step_size).
      evaluate_every: evaluate every this many iterations (> 0; scikit-learn's -1 or 0:
        never): eval_every for fit(X, held_out=...); without held_out the evaluation needs a
        held-out split, which fit does not have: a UserWarning says so.
      n_jobs: threads (scikit-learn's meaning: None one, -1 every core, -2 all but one, ...);
        given, it replaces n_threads.
      verbose: 0 silent; >= 1 a progress bar (tqdm) over fit's iterations with the running
        held-out perplexity when it is evaluated; >= 2 also one line per evaluation.
      perp_tol, mean_change_tol, max_doc_update_iter: scikit-learn's variational stopping
        rules, which a sampler has no use for: accepted, and a UserWarning if given.

    Attributes after fit: components_ (K x V posterior mean), last_sample_ (K x V), samples_
    (if stored), sampler_ (the sampler used), sampler_reason_ (why, when sampler was None),
    alpha_reason_ (why α is not 0.1, when alpha and doc_topic_prior were None),
    step_size_schedule_ ((h, tau, kappa) used), doc_topic_prior_ and topic_word_prior_ (the
    α and β used), seed_ (the library seed of the fit, drawn when random_state is not an int;
    perplexity's Gibbs sweeps use it too), n_iter_, n_samples_kept_, n_features_in_,
    feature_names_in_ (X a pandas DataFrame), and with held_out, trace_ (rows: iteration,
    step_size, perplexity, running_perplexity; the lda tool's trace CSV without its timing
    columns) and perplexity_ (the last running perplexity, the tool's summary).
    get_feature_names_out() names the K output columns "lda0" ... (so
    set_output(transform="pandas") works).
    """

    def __init__(self, n_components=10, sampler=None, alpha=None, beta=None, batch_size=50,
                 step_size=None, step_size_tau=None, step_size_kappa=None, gibbs_sweeps=20,
                 max_iter=1000, total_samples=None, burn_in=None, thin=1, store_samples=False,
                 eval_every=None, eval_sweeps=20, n_threads=None, random_state=None,
                 real_counts="round", doc_topic_prior=None, topic_word_prior=None,
                 learning_method=None, learning_decay=None, learning_offset=None,
                 evaluate_every=None, n_jobs=None, verbose=0, perp_tol=None,
                 mean_change_tol=None, max_doc_update_iter=None):
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
        self.real_counts = real_counts
        self.doc_topic_prior = doc_topic_prior
        self.topic_word_prior = topic_word_prior
        self.learning_method = learning_method
        self.learning_decay = learning_decay
        self.learning_offset = learning_offset
        self.evaluate_every = evaluate_every
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.perp_tol = perp_tol
        self.mean_change_tol = mean_change_tol
        self.max_doc_update_iter = max_doc_update_iter

    @property
    def _n_features_out(self):
        return self.components_.shape[0]

    # -- scikit-learn's names ---------------------------------------------------------------

    def _alpha(self):
        if self.doc_topic_prior is not None:
            return self.doc_topic_prior
        if self.alpha is not None:
            return self.alpha
        # None: by K (models::DefaultLdaAlpha).
        return _sgmcmc.lda_default_alpha(
            _inputs.check_int("n_components", self.n_components, 1, _inputs.INT32_MAX))

    def _beta(self):
        if self.topic_word_prior is not None:
            return self.topic_word_prior
        if self.beta is not None:
            return self.beta
        # None: resolved from the counts when the chain was started (_resolve_defaults).
        return getattr(self, "_data_beta", None)

    def _resolve_defaults(self, arrays, documents, streamed):
        """The defaults that follow the data (sampler, beta, step-size schedule left None),
        stored so that a running chain's parameters stay the same for later partial_fit chunks
        and pickles. The sampler: as the lda tool's, by the documents' mean length for fit
        (models::DefaultLdaPreset), by the density of the counts for partial_fit, a stream
        (models::DefaultLdaSettingsByDensity); then β by the counts (_sgmcmc.lda_default_beta)
        and the schedule of the sampler's tuned preset. `documents`: the corpus size the counts
        stand for (X's rows, or total_samples)."""
        self._data_sampler = self._data_beta = self._data_schedule = None
        self.sampler_reason_ = self.alpha_reason_ = None
        indptr, _, counts, num_words = arrays
        rows = len(indptr) - 1
        entries = int(np.count_nonzero(counts))
        if rows > 0 and documents != rows:
            entries = int(round(entries * float(documents) / rows))
        k = _inputs.check_int("n_components", self.n_components, 1, _inputs.INT32_MAX)
        sampler = self._sampler()
        if sampler is None:
            mean_length = float(np.sum(counts)) / rows if rows > 0 else 0.0
            sampler, reason = _sgmcmc.lda_default_sampler(mean_length, entries, k,
                                                          max(num_words, 1), streamed)
            self._data_sampler = sampler
            self.sampler_reason_ = "sampler %r (default for %s)" % (sampler, reason)
        if self.alpha is None and self.doc_topic_prior is None and self._alpha() != 0.1:
            self.alpha_reason_ = ("alpha %g (default for K = %d: K alpha = 0.05 K within [5, 10], "
                                  "alpha <= 0.1; models::DefaultLdaAlpha)" % (self._alpha(), k))
        # Another sampler value: any β and schedule, so that the chain's own check names it.
        known = sampler if sampler in ("scir", "sgrld") else "scir"
        if self.topic_word_prior is None and self.beta is None:
            self._data_beta = _sgmcmc.lda_default_beta(known, entries, k, max(num_words, 1))
        self._data_schedule = _sgmcmc.lda_preset_schedule(known)

    def _explicit_sampler(self):
        """The sampler the parameters name (learning_method "scir"/"sgrld", else sampler), or
        None."""
        if self.learning_method in ("scir", "sgrld"):
            return self.learning_method
        if self.learning_method not in (None, "online", "batch"):
            raise ValueError("learning_method must be None, \"online\", \"batch\", \"scir\" or "
                             "\"sgrld\", got %r" % (self.learning_method,))
        return self.sampler

    def _sampler(self):
        sampler = self._explicit_sampler()
        # None: resolved from the data when the chain was started (_resolve_defaults).
        return getattr(self, "_data_sampler", None) if sampler is None else sampler

    def _schedule(self):
        """(h, tau, kappa): the given values, else the sampler's preset's."""
        preset = getattr(self, "_data_schedule", None) or (None, None, None)
        tau = self.learning_offset if self.learning_offset is not None else self.step_size_tau
        kappa = self.learning_decay if self.learning_decay is not None else self.step_size_kappa
        return (preset[0] if self.step_size is None else self.step_size,
                preset[1] if tau is None else tau, preset[2] if kappa is None else kappa)

    # -- input handling -------------------------------------------------------------------

    def _check_X(self, X, reset):
        if _HAVE_SKLEARN:
            X = self._validate_data(X, accept_sparse="csr", dtype=np.float64, reset=reset)
            X = _to_counts(X, self.real_counts)
        elif self.real_counts != "error":
            X = X if hasattr(X, "indptr") else np.asarray(X, dtype=np.float64)
            if X.ndim == 2:
                import scipy.sparse as sp
                X = _to_counts(sp.csr_matrix(X, dtype=np.float64), self.real_counts)
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
        sampler = self._sampler()
        if not isinstance(sampler, str):
            raise TypeError("sampler must be None, \"scir\" or \"sgrld\", got %r" % (sampler,))
        real = _inputs.check_real
        h, tau, kappa = self._schedule()
        batch_size = _inputs.check_int("batch_size", self.batch_size, 1, _inputs.INT64_MAX)
        if self.learning_method == "batch":
            batch_size = _inputs.INT32_MAX
        return (sampler, _inputs.check_int("n_components", self.n_components, 1,
                                           _inputs.INT32_MAX),
                real("doc_topic_prior" if self.doc_topic_prior is not None else "alpha",
                     self._alpha()),
                real("topic_word_prior" if self.topic_word_prior is not None else "beta",
                     self._beta()),
                real("step_size", h),
                real("learning_offset" if self.learning_offset is not None else "step_size_tau",
                     tau),
                real("learning_decay" if self.learning_decay is not None else
                     "step_size_kappa", kappa),
                # Clamped to the number of documents anyway.
                min(batch_size, _inputs.INT32_MAX),
                _inputs.check_int("gibbs_sweeps", self.gibbs_sweeps, 1, _inputs.INT32_MAX),
                -1 if self.burn_in is None else _inputs.check_int(
                    "burn_in", self.burn_in, 0, _inputs.INT64_MAX),
                _inputs.check_int("thin", self.thin, 1, _inputs.INT64_MAX),
                bool(self.store_samples))

    def _threads(self):
        if self.n_jobs is not None:
            n_jobs = _inputs.check_int("n_jobs", self.n_jobs, -_inputs.INT32_MAX,
                                       _inputs.INT32_MAX)
            if n_jobs == 0:
                raise ValueError("n_jobs must not be 0 (None: one thread, -1: every core)")
            cores = os.cpu_count() or 1
            return n_jobs if n_jobs > 0 else max(1, cores + 1 + n_jobs)
        return 0 if self.n_threads is None else _inputs.check_int(
            "n_threads", self.n_threads, 0, _inputs.INT32_MAX)

    def _warn_no_effect(self):
        for name in _NO_EFFECT:
            if getattr(self, name) is not None:
                warnings.warn("%s has no effect in sgmcmc.LDA (a sampler, not scikit-learn's "
                              "variational EM); accepted for compatibility" % name,
                              UserWarning, stacklevel=3)

    def _say_defaults(self):
        """With verbose >= 1, the sampler chosen from the data and α chosen by K, and why (as
        the lda tool says)."""
        if _inputs.check_int("verbose", self.verbose, 0, _inputs.INT32_MAX) >= 1:
            for reason in (self.sampler_reason_, getattr(self, "alpha_reason_", None)):
                if reason is not None:
                    print("sgmcmc.LDA: %s" % reason, flush=True)

    def _progress(self, total, description):
        """The chain's progress callback for verbose >= 1 (None otherwise) and its closer."""
        verbose = _inputs.check_int("verbose", self.verbose, 0, _inputs.INT32_MAX)
        if verbose == 0:
            return None, lambda: None
        if _tqdm is not None:
            bar = _tqdm.tqdm(total=total, desc=description, unit="it")
        else:  # pragma: no cover
            bar = None
        state = {"last": 0}

        def progress(iteration, perplexity):
            if bar is not None:
                bar.update(1)
                if perplexity == perplexity:  # not NaN
                    bar.set_postfix(perplexity="%.2f" % perplexity, refresh=False)
            if perplexity == perplexity and (verbose >= 2 or bar is None):
                print("iteration: %d of max_iter: %d, perplexity: %.4f"
                      % (iteration, total, perplexity), flush=True)
            elif bar is None and iteration * 10 // total > state["last"]:
                state["last"] = iteration * 10 // total
                print("iteration: %d of max_iter: %d" % (iteration, total), flush=True)

        return progress, (bar.close if bar is not None else lambda: None)

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
        # The priors the chain runs with (scikit-learn's names; beta=None resolved).
        self.sampler_ = self._chain_options[0]
        self.doc_topic_prior_ = self._chain_options[2]
        self.topic_word_prior_ = self._chain_options[3]
        self.step_size_schedule_ = tuple(self._chain_options[4:7])
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
            if not isinstance(held_out, (tuple, list)) or len(held_out) != 2:
                raise TypeError("held_out must be a pair (X_observed, X_held_out) of count "
                                "matrices (the two parts of the test documents, e.g. "
                                "load_kos's test_observed, test_held_out), got %s"
                                % type(held_out).__name__)
            observed, held_back = held_out
            held = (self._check_X(observed, reset=False), self._check_X(held_back, reset=False))
        iterations = _inputs.check_int("max_iter", self.max_iter, 1, _inputs.INT64_MAX)
        self._check_burn_in(iterations)
        eval_every = 0 if self.eval_every is None else _inputs.check_int(
            "eval_every", self.eval_every, 0, _inputs.INT64_MAX)
        if self.evaluate_every is not None:
            evaluate_every = _inputs.check_int("evaluate_every", self.evaluate_every,
                                               -_inputs.INT64_MAX, _inputs.INT64_MAX)
            if evaluate_every > 0:
                eval_every = evaluate_every
                if held is None:
                    warnings.warn("evaluate_every=%d: the perplexity is evaluated on a "
                                  "held-out split; pass fit(X, held_out=(X_observed, "
                                  "X_held_out)) to have it (trace_, perplexity_)"
                                  % evaluate_every, UserWarning, stacklevel=2)
        eval_sweeps = _inputs.check_int("eval_sweeps", self.eval_sweeps, 1, _inputs.INT32_MAX)
        self._warn_no_effect()
        self._resolve_defaults(arrays, len(arrays[0]) - 1, streamed=False)
        self._chain = self._new_chain()
        self._say_defaults()
        progress, close = self._progress(iterations, "LDA fit")
        try:
            self._chain.fit(*arrays, iterations=iterations, held_out=held,
                            eval_every=eval_every, eval_sweeps=eval_sweeps, progress=progress)
        except KeyboardInterrupt:
            if self._chain.iteration > 0:
                self._collect()
            raise
        finally:
            close()
        self._collect()
        return self

    def _check_burn_in(self, iterations):
        """ValueError if burn_in > max_iter (the states after burn_in iterations and later
        are kept: none would be); a warning if burn_in == max_iter (one sample, the last:
        components_ equals last_sample_)."""
        if self.burn_in is None or isinstance(self.burn_in, bool) or not isinstance(
                self.burn_in, numbers.Integral):
            return  # None, or a type error raised with the other chain parameters
        if self.burn_in > iterations:
            raise ValueError("burn_in=%d must be at most max_iter=%d: the states after burn_in "
                             "iterations and later are kept, so none would be"
                             % (self.burn_in, iterations))
        if self.burn_in == iterations:
            warnings.warn("burn_in=%d equals max_iter: the posterior mean is of one sample, "
                          "the last (components_ equals last_sample_)" % iterations,
                          UserWarning, stacklevel=3)

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
            self._resolve_defaults(arrays, int(total_samples or (len(arrays[0]) - 1)),
                                   streamed=True)
            self._chain = self._new_chain()
            self._say_defaults()
        self._warn_no_effect()
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
                                 % (name, new, old))

    def transform(self, X):
        """Topic proportions θ̂ (D x K) of the documents of X by the deterministic fold-in
        with components_ fixed (eval::FoldIn: the fixed point of the EM update, the posterior
        mode of θ); rows sum to 1, and each row depends only on its own document."""
        check_is_fitted(self)
        arrays = self._check_X(X, reset=False)
        return _sgmcmc.lda_fold_in(self.components_, self.components_.shape[0], *arrays,
                                   _inputs.check_real("alpha", self._alpha()), self._threads())

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
            _inputs.check_real("alpha", self._alpha()),
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
