#include "python/py_lda.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "data/corpus_config.pb.h"
#include "data/corpus_loader.h"
#include "data/split.h"
#include "eval/evaluation_schedule.h"
#include "eval/fold_in.h"
#include "eval/perplexity.h"
#include "models/lda/lda.h"
#include "models/lda/state.pb.h"
#include "models/lda/topics.h"
#include "parallel/thread_pool.h"
#include "pybind11/numpy.h"
#include "pybind11/stl.h"
#include "python/py_arrays.h"
#include "python/py_corpus.h"
#include "python/py_samplers.h"
#include "python/py_status.h"

namespace sgmcmc::python {
namespace py = pybind11;
namespace {

// Inputs are converted (copied) once if they are not already of this type: they are read,
// never updated in place.
using Int64Input = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;
using DoubleInput = py::array_t<double, py::array::c_style | py::array::forcecast>;

template <typename T>
absl::Span<const T> Span(const py::array_t<T, py::array::c_style | py::array::forcecast>& a) {
  return absl::MakeConstSpan(a.data(), a.size());
}

data::Corpus CorpusFromArrays(const Int64Input& indptr, const Int64Input& indices,
                              const DoubleInput& counts, int num_words) {
  return ValueOrThrow(CorpusFromCsr(Span(indptr), Span(indices), Span(counts), num_words));
}

// A corpus from the CSR tuple (indptr, indices, counts, num_words) of sgmcmc._inputs.
data::Corpus CorpusFromTuple(const py::handle& csr) {
  py::tuple t = py::reinterpret_borrow<py::tuple>(csr);
  return CorpusFromArrays(t[0].cast<Int64Input>(), t[1].cast<Int64Input>(),
                          t[2].cast<DoubleInput>(), t[3].cast<int>());
}

py::tuple CsrTuple(const data::Corpus& corpus) {
  CsrCounts csr = CorpusToCsr(corpus);
  const auto nnz = static_cast<int64_t>(csr.indices.size());
  return py::make_tuple(NewArray(csr.indptr, {static_cast<int64_t>(csr.indptr.size())}),
                        NewArray(csr.indices, {nnz}), NewArray(csr.data, {nnz}),
                        csr.num_words);
}

// Threads beyond this only cost their creation (results are the same for any count); a
// mistyped huge n_threads would otherwise hang creating them.
constexpr int kMaxThreads = 1024;

int ResolveThreads(int threads) {
  if (threads < 0) ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
                       "n_threads must be >= 1 (or 0/None for every core), got ", threads)));
  if (threads > kMaxThreads) {
    ThrowIfError(absl::InvalidArgumentError(
        absl::StrCat("n_threads must be at most ", kMaxThreads, ", got ", threads)));
  }
  return threads > 0 ? threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// The tuned preset of an estimator sampler name ("scir": scir_fast, "sgrld": sgrld_fast);
// ValueError for another name.
models::LdaPreset PresetOfSampler(const std::string& sampler) {
  if (sampler == "scir") return models::LdaPreset::kScirFast;
  if (sampler != "sgrld") {
    ThrowIfError(absl::InvalidArgumentError(
        absl::StrCat("sampler must be \"scir\" or \"sgrld\", got \"", sampler, "\"")));
  }
  return models::LdaPreset::kSgrldFast;
}

// The estimator's sampler name of a default preset (scir_fast or sgrld_fast).
std::string SamplerOfPreset(models::LdaPreset preset) {
  return models::LdaPresetOptions(preset).sampler == models::LdaSampler::kScir ? "scir"
                                                                                : "sgrld";
}

models::LdaOptions MakeOptions(const std::string& sampler, int num_topics, double alpha,
                               double beta, double h, double tau, double kappa, int batch_size,
                               int gibbs_sweeps, uint64_t seed) {
  models::LdaOptions options;
  if (sampler == "scir") {
    options.sampler = models::LdaSampler::kScir;
  } else if (sampler == "sgrld") {
    options.sampler = models::LdaSampler::kSgrld;
  } else {
    ThrowIfError(absl::InvalidArgumentError(
        absl::StrCat("sampler must be \"scir\" or \"sgrld\", got \"", sampler, "\"")));
  }
  options.num_topics = num_topics;
  options.alpha = alpha;
  options.beta = beta;
  options.step_size = samplers::StepSizeOptions::PolynomialDecay(h, tau, kappa);
  options.minibatch_size = batch_size;
  options.gibbs_sweeps = gibbs_sweeps;
  options.seed = seed;
  ThrowIfError(options.Validate());
  return options;
}

void CheckTopics(absl::Span<const double> topics, int num_topics, int num_words) {
  if (topics.size() != static_cast<size_t>(num_topics) * num_words) {
    ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
        "X has ", num_words, " columns (words) but the topics have ",
        num_topics > 0 ? topics.size() / num_topics : 0, " (", topics.size(), " entries for ",
        num_topics, " topics)")));
  }
}

// Every entry finite and >= 0 (a ValueError naming the first that is not): the evaluators'
// topic tables CHECK this, which would end the Python process.
void CheckTopicValues(absl::Span<const double> topics, int num_words) {
  for (size_t i = 0; i < topics.size(); ++i) {
    if (!(topics[i] >= 0) || !std::isfinite(topics[i])) {
      ThrowIfError(absl::InvalidArgumentError(
          absl::StrCat("topics[", i / num_words, ", ", i % num_words, "] = ", topics[i],
                       " must be finite and >= 0")));
    }
  }
}

// A perplexity over no held-out tokens is 0/0: an error, never a NaN.
void RequireHeldOutTokens(const data::Corpus& held_out, absl::string_view what) {
  if (held_out.num_tokens() > 0) return;
  ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
      what, " has no held-out tokens (every 10th token of each document is held out), so "
            "the perplexity is undefined")));
}

// The document-completion perplexity of one evaluation with the topics fixed: Gibbs sweeps
// (eval/perplexity.h, the lda tool's trace column) or the point-estimate fold-in
// (eval/fold_in.h, the tool's point_trace columns).
double FixedTopicsPerplexity(const py::handle& topics_array, int num_topics,
                             const data::DocumentCompletionSplit& split, double alpha,
                             int sweeps, uint64_t seed, int threads, bool fold_in) {
  const absl::Span<const double> topics = DoubleView(topics_array, "topics");
  CheckTopics(topics, num_topics, split.observed.vocabulary_size());
  CheckTopicValues(topics, split.observed.vocabulary_size());
  RequireHeldOutTokens(split.held_out, "X");
  parallel::ThreadPool pool(ResolveThreads(threads));
  if (fold_in) {
    eval::FoldInOptions options;
    options.alpha = alpha;
    eval::FoldInPerplexity evaluator =
        ValueOrThrow(eval::FoldInPerplexity::Create(split, num_topics, options));
    absl::StatusOr<double> value;
    {
      py::gil_scoped_release release;
      value = evaluator.Evaluate(topics, &pool);
    }
    return ValueOrThrow(std::move(value));
  }
  eval::DocumentCompletionPerplexity evaluator =
      ValueOrThrow(eval::DocumentCompletionPerplexity::Create(
          split, eval::ProtocolPerplexityOptions(num_topics, alpha, sweeps, seed)));
  py::gil_scoped_release release;
  return evaluator.Evaluate(topics, &pool);
}

// models::Lda driven from Python; see py_lda.h.
class LdaChain {
 public:
  LdaChain(models::LdaOptions options, int threads, int64_t burn_in, int64_t thin,
           bool store_samples)
      : options_(std::move(options)),
        threads_(ResolveThreads(threads)),
        burn_in_(burn_in),
        thin_(thin),
        store_samples_(store_samples) {
    if (burn_in < -1) {
      ThrowIfError(absl::InvalidArgumentError(
          absl::StrCat("burn_in must be >= 0 (or None for half of max_iter), got ", burn_in)));
    }
    if (thin < 1) {
      ThrowIfError(absl::InvalidArgumentError(absl::StrCat("thin must be >= 1, got ", thin)));
    }
  }

  // A new chain on the documents of X, `iterations` steps; with a held-out split, the lda
  // tool's evaluation protocol (tools/lda_run.h) records the perplexity trace.
  void Fit(const Int64Input& indptr, const Int64Input& indices, const DoubleInput& counts,
           int num_words, int64_t iterations, std::optional<py::tuple> held_out,
           int64_t eval_every, int eval_sweeps, py::object progress) {
    if (iterations < 1) {
      ThrowIfError(absl::InvalidArgumentError(
          absl::StrCat("max_iter must be >= 1, got ", iterations)));
    }
    data::Corpus corpus = CorpusFromArrays(indptr, indices, counts, num_words);
    std::optional<eval::EvaluationSchedule> schedule;
    const int64_t burn_in = burn_in_ >= 0 ? burn_in_ : eval::DefaultBurnIn(iterations);
    if (held_out.has_value()) {
      if (held_out->size() != 2) {
        ThrowIfError(absl::InvalidArgumentError(
            "held_out must be (observed CSR arrays, held-out CSR arrays)"));
      }
      data::DocumentCompletionSplit split{CorpusFromTuple((*held_out)[0]),
                                          CorpusFromTuple((*held_out)[1])};
      RequireHeldOutTokens(split.held_out, "held_out[1]");
      eval::EvaluationScheduleOptions eval_options;
      eval_options.iterations = iterations;
      eval_options.eval_every = eval_every;
      eval_options.burn_in = burn_in;
      eval_options.eval_sweeps = eval_sweeps;
      eval_options.num_topics = options_.num_topics;
      eval_options.alpha = options_.alpha;
      eval_options.seed = options_.seed;
      schedule.emplace(ValueOrThrow(eval::EvaluationSchedule::Create(split, eval_options)));
    }
    Reset();
    fit_burn_in_ = burn_in;
    corpus_documents_ = 0;
    Attach(std::move(corpus));
    schedule_ = std::move(schedule);
    Run(iterations, progress);
  }

  // Continues the chain (or starts it) on the documents of X: one pass of
  // ceil(D / batch_size) steps, the expected counts scaled by total_samples / n
  // (LdaOptions::corpus_documents; 0: X's own D / n, X standing for the corpus). Without an
  // explicit burn_in every iteration is kept.
  void PartialFit(const Int64Input& indptr, const Int64Input& indices,
                  const DoubleInput& counts, int num_words, int64_t total_samples,
                  py::object progress) {
    if (total_samples < 0) {
      ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
          "total_samples must be >= 1 (or None for the rows of X), got ", total_samples)));
    }
    data::Corpus corpus = CorpusFromArrays(indptr, indices, counts, num_words);
    corpus_documents_ = total_samples;
    if (!lda_ && !state_.has_value()) fit_burn_in_ = std::max<int64_t>(burn_in_, 0);
    schedule_.reset();
    const int batch = std::min(options_.minibatch_size, std::max(1, corpus.num_documents()));
    const int64_t steps = (corpus.num_documents() + batch - 1) / batch;
    Attach(std::move(corpus));
    Run(std::max<int64_t>(steps, 1), progress);
  }

  int64_t iteration() const { return lda_ ? lda_->iteration() : state_ ? state_->iteration() : 0; }
  int num_topics() const { return options_.num_topics; }
  int num_words() const { return num_words_; }
  // Samples in the library's posterior mean (models::Lda::posterior_mean_samples).
  int64_t num_kept() const {
    return lda_ ? lda_->posterior_mean_samples() : state_ ? state_->posterior_mean_samples() : 0;
  }

  py::array_t<double> Topics() const {
    RequireFitted();
    std::vector<double> topics(static_cast<size_t>(options_.num_topics) * num_words_);
    if (lda_) {
      lda_->Topics(absl::MakeSpan(topics));
    } else {
      topics = last_topics_;
    }
    return NewArray(topics, {options_.num_topics, num_words_});
  }

  // models::Lda::PosteriorMeanTopics (or the restored state's).
  py::array_t<double> MeanTopics() const {
    RequireFitted();
    if (num_kept() == 0) {
      ThrowIfError(absl::FailedPreconditionError(absl::StrCat(
          "no sample kept yet: ", iteration(), " iterations run, burn_in ", fit_burn_in_)));
    }
    std::vector<double> mean(static_cast<size_t>(options_.num_topics) * num_words_);
    if (lda_) {
      lda_->PosteriorMeanTopics(absl::MakeSpan(mean));
    } else {
      mean.assign(state_->posterior_mean().begin(), state_->posterior_mean().end());
    }
    return NewArray(mean, {options_.num_topics, num_words_});
  }

  py::array_t<double> Samples() const {
    const size_t size = static_cast<size_t>(options_.num_topics) * num_words_;
    return NewArray(samples_, {static_cast<int64_t>(samples_.size() / std::max<size_t>(1, size)),
                               options_.num_topics, num_words_});
  }

  // Columns iteration, step_size, perplexity (this evaluation), running_perplexity: the
  // lda tool's trace CSV without the timing columns.
  py::array_t<double> Trace() const {
    return NewArray(trace_, {static_cast<int64_t>(trace_.size() / 4), 4});
  }

  // Pickling: the options, the chain's checkpoint and the accumulated results; a restored
  // chain continues bit-identically with the next partial_fit.
  py::tuple GetState() const {
    std::string state;
    if (lda_) {
      state = lda_->State().SerializeAsString();
    } else if (state_) {
      state = state_->SerializeAsString();
    }
    return py::make_tuple(threads_, burn_in_, thin_, store_samples_, py::bytes(state),
                          num_words_, fit_burn_in_, samples_, trace_, TopicsOrEmpty());
  }

  static LdaChain FromState(const py::tuple& t, const models::LdaOptions& options) {
    if (t.size() != 10) ThrowIfError(absl::DataLossError("pickled LDA chain has the wrong size"));
    LdaChain chain(options, t[0].cast<int>(), t[1].cast<int64_t>(), t[2].cast<int64_t>(),
                   t[3].cast<bool>());
    const std::string state = t[4].cast<std::string>();
    if (!state.empty()) {
      models::LdaState parsed;
      if (!parsed.ParseFromString(state)) {
        ThrowIfError(absl::DataLossError("pickled LDA state is not a models.LdaState"));
      }
      chain.state_ = std::move(parsed);
    }
    chain.num_words_ = t[5].cast<int>();
    chain.fit_burn_in_ = t[6].cast<int64_t>();
    chain.samples_ = t[7].cast<std::vector<double>>();
    chain.trace_ = t[8].cast<std::vector<double>>();
    chain.last_topics_ = t[9].cast<std::vector<double>>();
    // A pickle from another K or V (or a damaged one) must not reach the array shapes.
    const size_t matrix = static_cast<size_t>(options.num_topics) * std::max(0, chain.num_words_);
    if (chain.num_words_ < 0 || (!chain.last_topics_.empty() && chain.last_topics_.size() != matrix) ||
        (matrix == 0 ? !chain.samples_.empty() : chain.samples_.size() % matrix != 0) ||
        chain.trace_.size() % 4 != 0 ||
        (chain.state_.has_value() && !chain.state_->posterior_mean().empty() &&
         static_cast<size_t>(chain.state_->posterior_mean_size()) != matrix)) {
      ThrowIfError(absl::DataLossError(absl::StrCat(
          "pickled LDA chain does not match ", options.num_topics, " topics and ",
          chain.num_words_, " words (", chain.last_topics_.size(), " topic entries, ",
          chain.samples_.size(), " sample entries, ", chain.trace_.size(), " trace entries)")));
    }
    return chain;
  }

 private:
  std::vector<double> TopicsOrEmpty() const {
    if (!lda_) return last_topics_;
    std::vector<double> topics(static_cast<size_t>(options_.num_topics) * num_words_);
    lda_->Topics(absl::MakeSpan(topics));
    return topics;
  }

  void RequireFitted() const {
    if (!lda_ && last_topics_.empty()) {
      ThrowIfError(absl::FailedPreconditionError("the chain has not run yet: call fit first"));
    }
  }

  void Reset() {
    lda_.reset();
    corpus_.reset();
    state_.reset();
    schedule_.reset();
    samples_.clear();
    trace_.clear();
    last_topics_.clear();
  }

  // Moves the chain onto `corpus` (a new models::Lda over it, restoring the previous chain's
  // state if there is one).
  void Attach(data::Corpus corpus) {
    if ((lda_ || state_) && corpus.vocabulary_size() != num_words_) {
      ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
          "X has ", corpus.vocabulary_size(), " columns (words), the model was fitted with ",
          num_words_)));
    }
    if (corpus.num_documents() < 1) {
      ThrowIfError(absl::InvalidArgumentError("X has no documents (rows)"));
    }
    if (corpus.vocabulary_size() < 2) {
      ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
          "X has n_features = ", corpus.vocabulary_size(),
          " word(s) (columns); LDA needs at least 2")));
    }
    if (!pool_) pool_ = std::make_unique<parallel::ThreadPool>(threads_);
    auto owned = std::make_unique<data::Corpus>(std::move(corpus));
    models::LdaOptions options = options_;
    options.minibatch_size = std::min(options.minibatch_size, owned->num_documents());
    options.mean_burn_in = fit_burn_in_;
    options.mean_every = thin_;
    options.corpus_documents = corpus_documents_;
    auto lda = std::make_unique<models::Lda>(
        ValueOrThrow(models::Lda::Create(*owned, options, pool_.get())));
    if (lda_) state_ = lda_->State();
    if (state_) ThrowIfError(lda->Restore(*state_));
    state_.reset();
    lda_ = std::move(lda);
    corpus_ = std::move(owned);
    num_words_ = corpus_->vocabulary_size();
    last_topics_.clear();
  }

  // `iterations` steps; `progress` (None, or a callable) is called after each with the
  // iteration number and the running held-out perplexity evaluated at it (NaN if none was);
  // an exception it raises stops the run as Ctrl-C does.
  void Run(int64_t iterations, const py::object& progress) {
    std::vector<double> topics(static_cast<size_t>(options_.num_topics) * num_words_);
    // Before every step (a chain that overflowed in an earlier call must not reach the Gibbs
    // sweep's CHECK) and after the last.
    for (int64_t i = 0; i < iterations; ++i) {
      ThrowIfError(CheckFiniteSgrldState(lda_->sampler(), "LDA"));
      const size_t evaluations = trace_.size();
      {
        py::gil_scoped_release release;
        const int64_t kept = lda_->posterior_mean_samples();
        lda_->Step();
        AfterStep(lda_->posterior_mean_samples() > kept, topics);
      }
      CheckSignals();
      if (!progress.is_none()) {
        // The trace row's running perplexity (its last column).
        progress(lda_->iteration(),
                 trace_.size() > evaluations ? trace_.back() : std::nan(""));
      }
    }
    ThrowIfError(CheckFiniteSgrldState(lda_->sampler(), "LDA"));
  }

  // The stored sample (when the step added one to the library's posterior mean) and the trace
  // after iteration m.
  void AfterStep(bool kept, std::vector<double>& topics) {
    const int64_t m = lda_->iteration();
    const bool keep = kept && store_samples_;
    const bool evaluate = schedule_.has_value() && schedule_->IsDue(m);
    if (!keep && !evaluate) return;
    lda_->Topics(absl::MakeSpan(topics));
    if (keep) samples_.insert(samples_.end(), topics.begin(), topics.end());
    if (evaluate) {
      schedule_->Evaluate(m, topics, pool_.get());
      const eval::DocumentCompletionPerplexity& perplexity = schedule_->perplexity();
      trace_.insert(trace_.end(), {static_cast<double>(m), lda_->step_size(m - 1),
                                   perplexity.last_perplexity(), perplexity.perplexity()});
    }
  }

  models::LdaOptions options_;
  int threads_;
  int64_t burn_in_;      // -1: half of the fit's iterations
  // The posterior mean's LdaOptions::mean_burn_in (mean_every is thin_).
  int64_t thin_;
  bool store_samples_;
  int64_t fit_burn_in_ = 0;
  int64_t corpus_documents_ = 0;  // LdaOptions::corpus_documents of the next Attach
  std::unique_ptr<parallel::ThreadPool> pool_;
  std::unique_ptr<data::Corpus> corpus_;  // the corpus lda_ runs on
  std::unique_ptr<models::Lda> lda_;
  std::optional<models::LdaState> state_;  // a restored chain before its next corpus
  std::optional<eval::EvaluationSchedule> schedule_;
  int num_words_ = 0;
  std::vector<double> samples_;
  std::vector<double> trace_;
  std::vector<double> last_topics_;  // the topics of an unpickled chain
};

}  // namespace

void RegisterLda(py::module_& m) {
  py::class_<LdaChain>(m, "LdaChain", "models::Lda driven from Python (python/py_lda.h).")
      .def(py::init([](const std::string& sampler, int num_topics, double alpha, double beta,
                       double h, double tau, double kappa, int batch_size, int gibbs_sweeps,
                       uint64_t seed, int threads, int64_t burn_in, int64_t thin,
                       bool store_samples) {
             return LdaChain(MakeOptions(sampler, num_topics, alpha, beta, h, tau, kappa,
                                         batch_size, gibbs_sweeps, seed),
                             threads, burn_in, thin, store_samples);
           }),
           py::arg("sampler"), py::arg("num_topics"), py::arg("alpha"), py::arg("beta"),
           py::arg("step_size"), py::arg("step_size_tau"), py::arg("step_size_kappa"),
           py::arg("batch_size"), py::arg("gibbs_sweeps"), py::arg("seed"), py::arg("threads"),
           py::arg("burn_in"), py::arg("thin"), py::arg("store_samples"))
      .def("fit", &LdaChain::Fit, py::arg("indptr"), py::arg("indices"), py::arg("counts"),
           py::arg("num_words"), py::arg("iterations"), py::arg("held_out") = py::none(),
           py::arg("eval_every") = 0, py::arg("eval_sweeps") = eval::kDefaultEvalSweeps,
           py::arg("progress") = py::none())
      .def("partial_fit", &LdaChain::PartialFit, py::arg("indptr"), py::arg("indices"),
           py::arg("counts"), py::arg("num_words"), py::arg("total_samples") = 0,
           py::arg("progress") = py::none())
      .def_property_readonly("iteration", &LdaChain::iteration)
      .def_property_readonly("num_kept", &LdaChain::num_kept)
      .def_property_readonly("num_words", &LdaChain::num_words)
      .def("topics", &LdaChain::Topics, "The current sample π (K x V).")
      .def("mean_topics", &LdaChain::MeanTopics, "Posterior mean of π over the kept samples.")
      .def("samples", &LdaChain::Samples, "The kept samples (n x K x V; empty unless stored).")
      .def("trace", &LdaChain::Trace,
           "Evaluations: iteration, step_size, perplexity, running_perplexity per row.")
      .def("get_state", &LdaChain::GetState)
      .def_static("from_state", [](const py::tuple& state, const std::string& sampler,
                                   int num_topics, double alpha, double beta, double h,
                                   double tau, double kappa, int batch_size, int gibbs_sweeps,
                                   uint64_t seed) {
        return LdaChain::FromState(state, MakeOptions(sampler, num_topics, alpha, beta, h, tau,
                                                      kappa, batch_size, gibbs_sweeps, seed));
      });

  m.def(
      "lda_default_beta",
      [](const std::string& sampler, int64_t entries, int num_topics, int num_words) {
        if (entries < 0 || num_topics < 1 || num_words < 1) {
          ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
              "lda_default_beta: need entries >= 0, num_topics >= 1 and num_words >= 1, got ",
              entries, ", ", num_topics, ", ", num_words)));
        }
        const models::LdaPreset preset = PresetOfSampler(sampler);
        if (preset == models::LdaPreset::kSgrldFast) return models::LdaPresetOptions(preset).beta;
        return models::ScirBetaByDensity(entries, num_topics, num_words);
      },
      py::arg("sampler"), py::arg("entries"), py::arg("num_topics"), py::arg("num_words"),
      "The estimator's default topic-word β: sgrld_fast's for SGRLD; for SCIR 0.2 x entries / "
      "(K V) within [0.01, 0.1] (models::ScirBetaByDensity).");
  m.def(
      "lda_default_alpha",
      [](int num_topics) {
        if (num_topics < 1) {
          ThrowIfError(absl::InvalidArgumentError(
              absl::StrCat("lda_default_alpha: need num_topics >= 1, got ", num_topics)));
        }
        return models::DefaultLdaAlpha(num_topics);
      },
      py::arg("num_topics"),
      "The estimator's default document-topic α: K α = 0.05 K within [5, 10], α <= 0.1 "
      "(0.1 up to K = 50, 0.05 at K = 100-200, 0.01 at K = 1000; models::DefaultLdaAlpha).");
  m.def(
      "lda_preset_schedule",
      [](const std::string& sampler) {
        const models::LdaPreset preset = PresetOfSampler(sampler);
        const samplers::StepSizeOptions step = models::LdaPresetOptions(preset).step_size;
        return py::make_tuple(step.h, step.tau, step.kappa);
      },
      py::arg("sampler"),
      "The step-size schedule (h, tau, kappa) of h (1 + m/tau)^(-kappa) of the sampler's tuned "
      "preset: scir_fast for \"scir\", sgrld_fast for \"sgrld\" (models::LdaPresetOptions).");
  m.def(
      "lda_default_sampler",
      [](double mean_document_length, int64_t entries, int num_topics, int num_words,
         bool streamed) {
        if (!(mean_document_length >= 0) || entries < 0 || num_topics < 1 || num_words < 1) {
          ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
              "lda_default_sampler: need mean_document_length >= 0, entries >= 0, "
              "num_topics >= 1 and num_words >= 1, got ",
              mean_document_length, ", ", entries, ", ", num_topics, ", ", num_words)));
        }
        if (streamed) {
          const models::LdaDensityDefault chosen =
              models::DefaultLdaSettingsByDensity(entries, num_topics, num_words);
          const double density = static_cast<double>(entries) /
                                 (static_cast<double>(num_topics) * num_words);
          return py::make_tuple(
              SamplerOfPreset(chosen.preset),
              absl::StrCat("a stream of ", absl::SixDigits(density),
                           " document-word entries per topic-word cell (NNZ ", entries, " / (K ",
                           num_topics, " x V ", num_words, ")), ",
                           density >= models::kSgrldMinEntriesPerCell ? ">= " : "< ",
                           models::kSgrldMinEntriesPerCell, ": ",
                           models::LdaPresetName(chosen.preset)));
        }
        const models::LdaPreset preset = models::DefaultInMemoryLdaPreset(
            mean_document_length, entries, num_topics, num_words);
        if (static_cast<double>(entries) <
            models::kScirMaxInMemoryEntriesPerCell * num_topics * num_words) {
          return py::make_tuple(
              SamplerOfPreset(preset),
              absl::StrCat("sparse counts, ",
                           absl::SixDigits(static_cast<double>(entries) /
                                           (static_cast<double>(num_topics) * num_words)),
                           " document-word entries per topic-word cell (NNZ ", entries, " / (K ",
                           num_topics, " x V ", num_words, ")), < ",
                           models::kScirMaxInMemoryEntriesPerCell, ": ",
                           models::LdaPresetName(preset)));
        }
        return py::make_tuple(
            SamplerOfPreset(preset),
            absl::StrCat("a mean document length of ", absl::SixDigits(mean_document_length),
                         " tokens (", preset == models::LdaPreset::kScirFast ? ">= " : "< ",
                         models::kScirMinMeanDocumentLength, ": ",
                         models::LdaPresetName(preset), ")"));
      },
      py::arg("mean_document_length"), py::arg("entries"), py::arg("num_topics"),
      py::arg("num_words"), py::arg("streamed"),
      "The estimator's default sampler and why, as the lda tool's: for data held in memory by "
      "the density of the counts, then the documents' mean length "
      "(models::DefaultInMemoryLdaPreset), for a stream by the density of the counts "
      "(models::DefaultLdaSettingsByDensity). Returns (sampler, reason).");
  m.def(
      "lda_fold_in",
      [](const py::handle& topics_array, int num_topics, const Int64Input& indptr,
         const Int64Input& indices, const DoubleInput& counts, int num_words, double alpha,
         int threads) {
        const absl::Span<const double> topics = DoubleView(topics_array, "topics");
        CheckTopics(topics, num_topics, num_words);
        const data::Corpus documents = CorpusFromArrays(indptr, indices, counts, num_words);
        eval::FoldInOptions options;
        options.alpha = alpha;
        const eval::FoldIn fold_in =
            ValueOrThrow(eval::FoldIn::Create(documents, num_topics, options));
        parallel::ThreadPool pool(ResolveThreads(threads));
        std::vector<double> theta(static_cast<size_t>(documents.num_documents()) * num_topics);
        absl::Status status;
        {
          py::gil_scoped_release release;
          status = fold_in.Transform(topics, absl::MakeSpan(theta), &pool);
        }
        ThrowIfError(status);
        return NewArray(theta, {documents.num_documents(), num_topics});
      },
      "θ̂ (D x K) of the documents of X by the deterministic fold-in with the topics fixed "
      "(eval::FoldIn).");
  m.def(
      "lda_perplexity",
      [](const py::handle& topics, int num_topics, const Int64Input& indptr,
         const Int64Input& indices, const DoubleInput& counts, int num_words,
         std::optional<py::tuple> held_out, double alpha, int sweeps, uint64_t seed,
         int threads, const std::string& method) {
        if (method != "completion" && method != "fold_in") {
          ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
              "method must be \"completion\" or \"fold_in\", got \"", method, "\"")));
        }
        data::Corpus corpus = CorpusFromArrays(indptr, indices, counts, num_words);
        data::DocumentCompletionSplit split;
        if (held_out.has_value()) {
          split = {std::move(corpus), CorpusFromTuple(*held_out)};
        } else {
          split = data::SplitForDocumentCompletion(corpus);
        }
        return FixedTopicsPerplexity(topics, num_topics, split, alpha, sweeps, seed, threads,
                                     /*fold_in=*/method == "fold_in");
      },
      py::arg("topics"), py::arg("num_topics"), py::arg("indptr"), py::arg("indices"),
      py::arg("counts"), py::arg("num_words"), py::arg("held_out"), py::arg("alpha"),
      py::arg("sweeps"), py::arg("seed"), py::arg("threads"), py::arg("method"),
      "Document-completion perplexity of X (every 10th token held out, or the held-out part "
      "given as CSR arrays) with fixed topics: by Gibbs sweeps (\"completion\") or by the "
      "point-estimate fold-in (\"fold_in\").");
  m.def(
      "load_uci_split",
      [](const std::string& docword, const std::string& vocab, uint64_t seed) {
        data::CorpusConfig config;
        config.mutable_uci()->set_docword(docword);
        config.mutable_uci()->set_vocab(vocab);
        data::CorpusAndSplit loaded = ValueOrThrow(
            data::LoadCorpusAndSplit(config, data::HeldOutOptions(), seed, /*argv0=*/""));
        py::dict out;
        out["train"] = CsrTuple(loaded.train);
        out["test_observed"] = CsrTuple(loaded.test.observed);
        out["test_held_out"] = CsrTuple(loaded.test.held_out);
        out["vocabulary"] = loaded.train.vocabulary;
        out["description"] = loaded.description;
        return out;
      },
      py::arg("docword"), py::arg("vocab"), py::arg("seed") = 1,
      "A UCI corpus split as the lda tool splits it (10% test documents drawn with the seed).");
  m.def(
      "format_topics",
      [](const py::handle& topics_array, const py::object& num_topics_arg,
         const std::vector<std::string>& vocabulary, const py::object& top_words_arg) {
        const int num_topics = IntegerArg<int>(num_topics_arg, "format_topics: num_topics");
        const int top_words = IntegerArg<int>(top_words_arg, "format_topics: top_words");
        const absl::Span<const double> topics = DoubleView(topics_array, "topics");
        if (num_topics < 1 || vocabulary.empty()) {
          ThrowIfError(absl::InvalidArgumentError(absl::StrCat(
              "need at least one topic and one word, got num_topics = ", num_topics, " and ",
              vocabulary.size(), " words in vocabulary")));
        }
        CheckTopics(topics, num_topics, static_cast<int>(vocabulary.size()));
        CheckTopicValues(topics, static_cast<int>(vocabulary.size()));
        if (top_words < 1) {
          ThrowIfError(absl::InvalidArgumentError(
              absl::StrCat("top_words must be >= 1, got ", top_words)));
        }
        return models::FormatTopics(
            models::SummarizeTopics(topics, num_topics, static_cast<int>(vocabulary.size()),
                                    top_words),
            vocabulary);
      },
      py::arg("topics"), py::arg("num_topics"), py::arg("vocabulary"), py::arg("top_words") = 10,
      "The lda tool's topics_RUN.txt text for topics (K x V).");
}

}  // namespace sgmcmc::python
