#include "tools/dp_mixture_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/check.h"
#include "base/status_macros.h"
#include "eval/cmdstan_csv.h"
#include "eval/evaluation_schedule.h"
#include "models/dp/predictive.h"
#include "tools/checkpoint_file.h"
#include "tools/dp_mixture_checkpoint.pb.h"
#include "tools/tool_support.h"
#include "tools/top_items.h"

namespace sgmcmc::tools {
namespace {

// The kind of this tool's checkpoint files (tools/checkpoint_file.h).
constexpr absl::string_view kCheckpointKind = "dp_mixture";

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The sampler's part of a checkpoint, for either kind of sampler.
void SaveSampler(const models::DpSliceGibbs& sampler, DpMixtureCheckpoint& checkpoint) {
  *checkpoint.mutable_gibbs() = sampler.SaveState();
}
void SaveSampler(const models::DpStochasticSlice& sampler, DpMixtureCheckpoint& checkpoint) {
  *checkpoint.mutable_stochastic() = sampler.SaveState();
}
absl::Status RestoreSampler(const DpMixtureCheckpoint& checkpoint, models::DpSliceGibbs& sampler) {
  if (!checkpoint.has_gibbs()) return absl::InvalidArgumentError("holds no Gibbs sampler state");
  return sampler.RestoreState(checkpoint.gibbs());
}
absl::Status RestoreSampler(const DpMixtureCheckpoint& checkpoint,
                            models::DpStochasticSlice& sampler) {
  if (!checkpoint.has_stochastic()) {
    return absl::InvalidArgumentError("holds no stochastic slice sampler state");
  }
  return sampler.RestoreState(checkpoint.stochastic());
}

// The two kinds of sampler behind one step/draw/checkpoint interface.
class Chain {
 public:
  virtual ~Chain() = default;
  virtual void Step() = 0;
  virtual void Draw(models::DpMixtureDraw& draw) const = 0;
  virtual int64_t steps() const = 0;
  virtual int occupied() const = 0;
  virtual int components() const = 0;
  virtual double alpha() const = 0;
  virtual absl::Span<const int32_t> allocations() const = 0;
  virtual void Save(DpMixtureCheckpoint& checkpoint) const = 0;
  virtual absl::Status Restore(const DpMixtureCheckpoint& checkpoint) = 0;
};

template <typename Sampler>
class SamplerChain final : public Chain {
 public:
  explicit SamplerChain(std::unique_ptr<Sampler> sampler) : sampler_(std::move(sampler)) {}
  void Step() override { sampler_->Step(); }
  void Draw(models::DpMixtureDraw& draw) const override { sampler_->CurrentDraw(draw); }
  int64_t steps() const override { return sampler_->steps(); }
  int occupied() const override { return sampler_->num_occupied(); }
  int components() const override { return sampler_->num_components(); }
  double alpha() const override { return sampler_->alpha(); }
  absl::Span<const int32_t> allocations() const override { return sampler_->allocations(); }
  void Save(DpMixtureCheckpoint& checkpoint) const override { SaveSampler(*sampler_, checkpoint); }
  absl::Status Restore(const DpMixtureCheckpoint& checkpoint) override {
    return RestoreSampler(checkpoint, *sampler_);
  }

 private:
  std::unique_ptr<Sampler> sampler_;
};

absl::StatusOr<std::unique_ptr<Chain>> MakeChain(const data::Corpus& train, DpMethod method,
                                                 const models::DpStochasticOptions& options,
                                                 parallel::ThreadPool* pool) {
  if (method == DpMethod::kGibbs) {
    SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                            models::DpSliceGibbs::Create(&train, options.model, pool));
    return std::unique_ptr<Chain>(new SamplerChain<models::DpSliceGibbs>(std::move(sampler)));
  }
  SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                          models::DpStochasticSlice::Create(&train, options, pool));
  return std::unique_ptr<Chain>(
      new SamplerChain<models::DpStochasticSlice>(std::move(sampler)));
}

// FNV-1a over the users' lengths and tokens and the vocabulary size: the checkpoint's guard
// against resuming on other data.
uint64_t Fingerprint(const data::Corpus& corpus) {
  Fnv1a hash;
  hash.Mix(static_cast<uint64_t>(corpus.vocabulary_size()));
  for (int i = 0; i < corpus.num_documents(); ++i) {
    const absl::Span<const int32_t> tokens = corpus.document(i);
    hash.Mix(tokens.size());
    for (int32_t w : tokens) hash.Mix(static_cast<uint64_t>(w));
  }
  return hash.value();
}

// Everything a run's results depend on (the thread count does not), for the checkpoint.
std::string Settings(const data::Corpus& train, const data::Corpus& test, DpMethod method,
                     uint64_t seed, const DpExperimentOptions& options,
                     const models::DpStochasticOptions& sampler) {
  return absl::StrFormat(
      "method=%s seed=%d iterations=%d eval_every=%d burn_in_fraction=%.17g minibatch=%d "
      "alpha_prior=Gamma(%.17g, %.17g) atom_concentration=%.17g initial_components=%d "
      "atom_step=%.17g stick_step=%.17g train=%d users/%016x test=%d users/%016x",
      DpMethodName(method), seed, options.iterations, options.eval_every, options.burn_in_fraction,
      sampler.minibatch_size, sampler.model.alpha_shape, sampler.model.alpha_rate,
      sampler.model.atom_concentration, sampler.model.initial_components, sampler.atom_step,
      sampler.stick_step, train.num_documents(), Fingerprint(train), test.num_documents(),
      Fingerprint(test));
}

// The tool's part of a checkpoint: the trace, the draws and the timings of `run`.
void SaveRun(const DpRunResult& run, DpMixtureCheckpoint& checkpoint) {
  checkpoint.clear_trace();
  for (const DpTracePoint& p : run.trace) {
    DpMixtureCheckpoint::TracePoint& point = *checkpoint.add_trace();
    point.set_iteration(p.iteration);
    point.set_seconds(p.seconds);
    point.set_log_predictive(p.log_predictive);
    point.set_running_log_predictive(p.running_log_predictive);
    point.set_occupied(p.occupied);
    point.set_components(p.components);
    point.set_alpha(p.alpha);
  }
  checkpoint.mutable_alpha_draws()->Assign(run.alpha_draws.begin(), run.alpha_draws.end());
  checkpoint.mutable_occupied_draws()->Assign(run.occupied_draws.begin(), run.occupied_draws.end());
  checkpoint.mutable_component_draws()->Assign(run.component_draws.begin(),
                                               run.component_draws.end());
  checkpoint.set_seconds(run.seconds);
  checkpoint.set_burn_in_seconds(run.burn_in_seconds);
  checkpoint.clear_clusters();
  for (const DpCluster& c : run.clusters) {
    DpMixtureCheckpoint::Cluster& cluster = *checkpoint.add_clusters();
    cluster.set_component(c.component);
    cluster.set_size(c.size);
    cluster.set_weight(c.weight);
    cluster.mutable_top_items()->Assign(c.top_items.begin(), c.top_items.end());
    cluster.mutable_top_probabilities()->Assign(c.top_probabilities.begin(),
                                                c.top_probabilities.end());
  }
}

void RestoreRun(const DpMixtureCheckpoint& checkpoint, DpRunResult& run) {
  run.trace.clear();
  for (const DpMixtureCheckpoint::TracePoint& p : checkpoint.trace()) {
    DpTracePoint point;
    point.iteration = p.iteration();
    point.seconds = p.seconds();
    point.log_predictive = p.log_predictive();
    point.running_log_predictive = p.running_log_predictive();
    point.occupied = p.occupied();
    point.components = p.components();
    point.alpha = p.alpha();
    run.trace.push_back(point);
  }
  run.alpha_draws.assign(checkpoint.alpha_draws().begin(), checkpoint.alpha_draws().end());
  run.occupied_draws.assign(checkpoint.occupied_draws().begin(), checkpoint.occupied_draws().end());
  run.component_draws.assign(checkpoint.component_draws().begin(),
                             checkpoint.component_draws().end());
  run.seconds = checkpoint.seconds();
  run.burn_in_seconds = checkpoint.burn_in_seconds();
  run.clusters.clear();
  for (const DpMixtureCheckpoint::Cluster& c : checkpoint.clusters()) {
    DpCluster cluster;
    cluster.component = c.component();
    cluster.size = c.size();
    cluster.weight = c.weight();
    cluster.top_items.assign(c.top_items().begin(), c.top_items().end());
    cluster.top_probabilities.assign(c.top_probabilities().begin(), c.top_probabilities().end());
    run.clusters.push_back(std::move(cluster));
  }
}

// METHOD_seedS[_kK]: the run's part of its file names.
std::string RunName(DpMethod method, uint64_t seed, int initial_components) {
  return absl::StrCat(DpMethodName(method), "_seed", seed,
                      initial_components > 0 ? absl::StrCat("_k", initial_components) : "");
}
std::string RunName(const DpRunResult& run) {
  return RunName(run.method, run.seed, run.explicit_start ? run.initial_components : 0);
}

// Whether `value` lies within 10% (at least ±1) of `start`.
bool NearStart(int value, int start) {
  return std::abs(value - start) <= std::max(1, start / 10);
}

}  // namespace

absl::string_view DpMethodName(DpMethod method) {
  switch (method) {
    case DpMethod::kScir:
      return "scir";
    case DpMethod::kSgrld:
      return "sgrld";
    case DpMethod::kGibbs:
      return "gibbs";
  }
  return "unknown";
}

absl::StatusOr<DpMethod> ParseDpMethod(absl::string_view name) {
  for (DpMethod method : {DpMethod::kScir, DpMethod::kSgrld, DpMethod::kGibbs}) {
    if (name == DpMethodName(method)) return method;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown method \"", name, "\" (expected scir, sgrld or gibbs)"));
}

absl::Status DpExperimentOptions::Validate() const {
  if (iterations < 1) {
    return absl::InvalidArgumentError(absl::StrCat("iterations must be >= 1, got ", iterations));
  }
  if (eval_every < 1) {
    return absl::InvalidArgumentError(absl::StrCat("eval_every must be >= 1, got ", eval_every));
  }
  if (!(burn_in_fraction >= 0 && burn_in_fraction < 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("burn_in_fraction must be in [0, 1), got ", burn_in_fraction));
  }
  if (minibatch_size < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("minibatch_size must be >= 1, got ", minibatch_size));
  }
  for (const auto& [name, value] : {std::pair<const char*, double>{"alpha_shape", alpha_shape},
                                    {"alpha_rate", alpha_rate}}) {
    if (!(std::isfinite(value) && value > 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " must be finite and > 0, got ", value));
    }
  }
  for (const auto& [name, value] :
       {std::pair<const char*, double>{"atom_concentration", atom_concentration},
        {"atom_step", atom_step},
        {"stick_step", stick_step}}) {
    if (!(std::isfinite(value) && value >= 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " must be finite and > 0 (or 0: Table 3), got ", value));
    }
  }
  if (initial_components < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "initial_components must be >= 1 (or 0: Table 3), got ", initial_components));
  }
  if (top_items < 1) {
    return absl::InvalidArgumentError(absl::StrCat("top_items must be >= 1, got ", top_items));
  }
  return absl::OkStatus();
}

models::DpStochasticOptions DpMethodOptions(DpMethod method, uint64_t seed,
                                            const DpExperimentOptions& options) {
  models::DpStochasticOptions result = models::DpStochasticPaperOptions(
      method == DpMethod::kSgrld ? models::DpSimplexSampler::kSgrld
                                 : models::DpSimplexSampler::kScir);
  result.minibatch_size = options.minibatch_size;
  result.model.alpha_shape = options.alpha_shape;
  result.model.alpha_rate = options.alpha_rate;
  result.model.seed = seed;
  if (options.atom_concentration > 0) {
    result.model.atom_concentration = options.atom_concentration;
  }
  if (options.atom_step > 0) result.atom_step = options.atom_step;
  if (options.stick_step > 0) result.stick_step = options.stick_step;
  if (options.initial_components > 0) {
    result.model.initial_components = options.initial_components;
  }
  return result;  // Gibbs: a = 0.5, K = 20, as SCIR's
}

double DpRunResult::mean_draw_log_predictive() const {
  double sum = 0;
  int count = 0;
  for (const DpTracePoint& p : trace) {
    if (p.iteration <= burn_in) continue;
    sum += p.log_predictive;
    ++count;
  }
  return count > 0 ? sum / count : trace.back().log_predictive;
}

double DpRunResult::seconds_per_iteration() const {
  return trace.empty() ? 0 : seconds / static_cast<double>(trace.back().iteration);
}

absl::Status DpCheckpointOptions::Validate() const {
  if (every < 0) {
    return absl::InvalidArgumentError(absl::StrCat("checkpoint_every must be >= 0, got ", every));
  }
  if (stop_after < 0) {
    return absl::InvalidArgumentError(absl::StrCat("stop_after must be >= 0, got ", stop_after));
  }
  return absl::OkStatus();
}

absl::Status CheckDpData(const data::Corpus& train, const data::Corpus& test,
                         absl::string_view train_source, absl::string_view test_source) {
  for (const auto& [corpus, source] : {std::pair{&train, train_source}, {&test, test_source}}) {
    if (corpus->num_tokens() == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          source, ": no visits (", corpus->num_documents(), " users, none with a visit)"));
    }
  }
  if (test.vocabulary_size() != train.vocabulary_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(test_source, ": ", test.vocabulary_size(), " words, but ", train_source,
                     " has ", train.vocabulary_size()));
  }
  return absl::OkStatus();
}

std::string DpCheckpointPath(const std::string& directory, DpMethod method, uint64_t seed,
                             int initial_components) {
  return absl::StrCat(directory, "/checkpoint_", RunName(method, seed, initial_components),
                      ".pb");
}

std::vector<DpCluster> DpClustersOfDraw(const models::DpMixtureDraw& draw,
                                        absl::Span<const int32_t> allocations, int top_items) {
  const int k = draw.num_components(), v = draw.vocabulary_size;
  std::vector<int64_t> sizes(k, 0);
  for (const int32_t z : allocations) {
    SGMCMC_CHECK(z >= 0 && z < k) << "allocation " << z << " outside the draw's " << k
                           << " components";
    ++sizes[z];
  }
  std::vector<int> order;
  for (int j = 0; j < k; ++j) {
    if (sizes[j] > 0) order.push_back(j);
  }
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    if (sizes[x] != sizes[y]) return sizes[x] > sizes[y];
    return draw.weights[x] > draw.weights[y];
  });
  std::vector<DpCluster> clusters;
  for (const int j : order) {
    DpCluster cluster;
    cluster.component = j;
    cluster.size = sizes[j];
    cluster.weight = draw.weights[j];
    const absl::Span<const double> log_theta =
        absl::MakeConstSpan(draw.log_atoms).subspan(static_cast<size_t>(j) * v, v);
    cluster.top_items = TopItems(log_theta, std::max(top_items, 1));
    for (const int32_t w : cluster.top_items) {
      cluster.top_probabilities.push_back(std::exp(log_theta[w]));
    }
    clusters.push_back(std::move(cluster));
  }
  return clusters;
}

absl::StatusOr<DpRunResult> RunDpChain(const data::Corpus& train, const data::Corpus& test,
                                       DpMethod method, uint64_t seed,
                                       const DpExperimentOptions& options,
                                       parallel::ThreadPool* pool, std::ostream* progress) {
  return RunDpChain(train, test, method, seed, options, DpCheckpointOptions(), pool, progress);
}

absl::StatusOr<DpRunResult> RunDpChain(const data::Corpus& train, const data::Corpus& test,
                                       DpMethod method, uint64_t seed,
                                       const DpExperimentOptions& options,
                                       const DpCheckpointOptions& checkpoints,
                                       parallel::ThreadPool* pool, std::ostream* progress) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  SGMCMC_RETURN_IF_ERROR(checkpoints.Validate());
  if (test.vocabulary_size() != train.vocabulary_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("test data has ", test.vocabulary_size(), " words, training data ",
                     train.vocabulary_size()));
  }
  DpExperimentOptions capped = options;
  capped.minibatch_size = std::min<int64_t>(options.minibatch_size, train.num_documents());
  const models::DpStochasticOptions sampler_options = DpMethodOptions(method, seed, capped);
  SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<Chain> chain,
                          MakeChain(train, method, sampler_options, pool));

  DpRunResult run;
  run.method = method;
  run.seed = seed;
  run.atom_concentration = sampler_options.model.atom_concentration;
  run.initial_components = sampler_options.model.initial_components;
  run.explicit_start = options.initial_components > 0;
  run.num_users = train.num_documents();
  run.users_per_iteration =
      method == DpMethod::kGibbs ? train.num_documents() : capped.minibatch_size;
  run.burn_in = static_cast<int64_t>(options.burn_in_fraction * options.iterations);
  // The LDA tool's schedule and burn-in rule. Its burn_in is the first iteration whose
  // evaluation enters the running mean; run.burn_in counts the warm-up iterations (CmdStan's
  // num_warmup), whose draws stay out of it, hence + 1.
  SGMCMC_ASSIGN_OR_RETURN(
      eval::EvaluationCadence cadence,
      eval::EvaluationCadence::Create(options.iterations, options.eval_every, run.burn_in + 1));
  // The running mean itself is not the LDA evaluator's (eval::DocumentCompletionPerplexity
  // averages p_dw per held-out token of document-completion splits under LDA topics); here it
  // averages p(x_i | draw) per held-out user under the DP mixture, leftover stick included.
  const double a = sampler_options.model.atom_concentration;
  models::DpPredictiveAverage running(&test, a), single(&test, a);

  DpMixtureCheckpoint checkpoint;
  const std::string settings = Settings(train, test, method, seed, options, sampler_options);
  std::string path;
  if (!checkpoints.directory.empty()) {
    SGMCMC_RETURN_IF_ERROR(CreateOutputDirectory(checkpoints.directory, "checkpoint directory"));
    path = DpCheckpointPath(checkpoints.directory, method, seed, options.initial_components);
  }
  if (checkpoints.resume && !path.empty() && std::filesystem::exists(path)) {
    SGMCMC_ASSIGN_OR_RETURN(const std::string bytes, ReadCheckpoint(path, kCheckpointKind));
    if (!checkpoint.ParseFromString(bytes)) {
      return absl::DataLossError(absl::StrCat(path, ": not a DpMixtureCheckpoint"));
    }
    if (checkpoint.settings() != settings) {
      return absl::FailedPreconditionError(absl::StrCat(
          path, ": written with different settings or data; checkpoint: ", checkpoint.settings(),
          "; this run: ", settings));
    }
    absl::Status s = chain->Restore(checkpoint);
    if (s.ok()) s = cadence.RestoreState(checkpoint.evaluation(), chain->steps());
    if (s.ok()) s = running.RestoreState(checkpoint.running_predictive());
    if (!s.ok()) return absl::InvalidArgumentError(absl::StrCat(path, ": ", s.message()));
    RestoreRun(checkpoint, run);
    if (progress != nullptr) {
      *progress << absl::StrFormat("[%s seed %d] resumed from %s at iteration %d\n",
                                   DpMethodName(method), seed, path, chain->steps());
    }
  }
  auto save = [&]() -> absl::Status {
    if (path.empty()) return absl::OkStatus();
    checkpoint.set_settings(settings);
    chain->Save(checkpoint);
    *checkpoint.mutable_evaluation() = cadence.GetState();
    *checkpoint.mutable_running_predictive() = running.GetState();
    SaveRun(run, checkpoint);
    // Atomic and checksummed: a whole checkpoint, whose damage a resume detects.
    return WriteCheckpoint(path, kCheckpointKind, checkpoint.SerializeAsString());
  };

  models::DpMixtureDraw draw;
  const int64_t progress_every = std::max<int64_t>(1, options.iterations / 10);
  const int64_t end = checkpoints.stop_after > 0
                          ? std::min(options.iterations, checkpoints.stop_after)
                          : options.iterations;
  for (int64_t t = chain->steps() + 1; t <= end; ++t) {
    const Clock::time_point start = Clock::now();
    chain->Step();
    run.seconds += Seconds(start);
    if (t == run.burn_in) run.burn_in_seconds = run.seconds;
    if (t > run.burn_in) {
      run.alpha_draws.push_back(chain->alpha());
      run.occupied_draws.push_back(chain->occupied());
      run.component_draws.push_back(chain->components());
    }
    if (cadence.IsDue(t)) {
      chain->Draw(draw);
      DpTracePoint point;
      point.iteration = t;
      point.seconds = run.seconds;
      if (cadence.BeginEvaluation(t)) running.Reset();
      running.Add(draw);
      point.running_log_predictive = running.MeanLogPredictive();
      if (running.num_draws() == 1) {
        // The draw alone: the same value, bit for bit, as scoring it on its own.
        point.log_predictive = point.running_log_predictive;
      } else {
        single.Reset();
        single.Add(draw);
        point.log_predictive = single.MeanLogPredictive();
      }
      point.occupied = chain->occupied();
      point.components = chain->components();
      point.alpha = chain->alpha();
      run.trace.push_back(point);
    }
    if (progress != nullptr && (t % progress_every == 0 || t == options.iterations) &&
        !run.trace.empty()) {
      const DpTracePoint& p = run.trace.back();
      *progress << absl::StrFormat(
          "[%s seed %d] %d/%d  log pred %.4f (running %.4f)  occupied %d  components %d  "
          "alpha %.3g  %.2fs\n",
          DpMethodName(method), seed, t, options.iterations, p.log_predictive,
          p.running_log_predictive, p.occupied, p.components, p.alpha, run.seconds);
    }
    if (checkpoints.every > 0 && t % checkpoints.every == 0 && t < end) {
      SGMCMC_RETURN_IF_ERROR(save());
    }
  }
  run.iterations_completed = chain->steps();
  if (run.finished(options)) {
    // The last draw's clusters; a finished run resumed again has no draw (it is not part of
    // the sampler's state) and keeps those of its checkpoint.
    if (chain->components() > 0) {
      chain->Draw(draw);
      run.clusters = DpClustersOfDraw(draw, chain->allocations(), options.top_items);
    }
    run.allocations.assign(chain->allocations().begin(), chain->allocations().end());
  }
  SGMCMC_RETURN_IF_ERROR(save());
  return run;
}

std::string DpSummaryTable(const std::vector<DpRunResult>& runs, bool msweb) {
  std::ostringstream out;
  out << absl::StrFormat("%-6s %5s %5s %14s %14s %9s %11s %8s %12s %14s\n", "method", "seed",
                         "start", "log_pred(avg)", "log_pred(draw)", "occupied", "components",
                         "alpha", "ms/iteration", "ns/user/iter");
  std::vector<int> starts;
  bool several_starts = false;  // runs of one method from different starts
  for (const DpRunResult& run : runs) {
    for (const DpRunResult& other : runs) {
      several_starts |= other.method == run.method &&
                        other.initial_components != run.initial_components;
    }
    const DpTracePoint& p = run.final_point();
    const double per_iteration = run.seconds_per_iteration();
    out << absl::StrFormat("%-6s %5d %5d %14.4f %14.4f %9d %11d %8.3g %12.3f %14.1f\n",
                           DpMethodName(run.method), run.seed, run.initial_components,
                           p.running_log_predictive, run.mean_draw_log_predictive(), p.occupied,
                           p.components, p.alpha, 1e3 * per_iteration,
                           1e9 * per_iteration / static_cast<double>(run.users_per_iteration));
    if (std::find(starts.begin(), starts.end(), run.initial_components) == starts.end()) {
      starts.push_back(run.initial_components);
    }
  }
  // Per method (and start, if there are several): mean (min, max) of the final running log
  // predictive, mean occupied.
  for (DpMethod method : {DpMethod::kScir, DpMethod::kSgrld, DpMethod::kGibbs}) {
    for (const int start : starts) {
      double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo, occupied = 0;
      double draw_sum = 0;
      int count = 0;
      for (const DpRunResult& run : runs) {
        if (run.method != method || run.initial_components != start) continue;
        const double lp = run.final_point().running_log_predictive;
        sum += lp;
        lo = std::min(lo, lp);
        hi = std::max(hi, lp);
        occupied += run.final_point().occupied;
        draw_sum += run.mean_draw_log_predictive();
        ++count;
      }
      if (count == 0) continue;
      out << absl::StrFormat("%-6s %smean log predictive %.4f (min %.4f, max %.4f), single-draw "
                             "%.4f, mean occupied %.1f over %d seeds\n",
                             DpMethodName(method),
                             several_starts ? absl::StrCat("start ", start, ": ") : "",
                             sum / count, lo, hi, draw_sum / count, occupied / count, count);
    }
  }
  // SCIR vs SGRLD seed by seed (the paper: SCIR ends better for every seed).
  int compared = 0, scir_better = 0, scir_better_draw = 0;
  double scir_a = 0, sgrld_a = 0;
  for (const DpRunResult& scir : runs) {
    if (scir.method != DpMethod::kScir) continue;
    for (const DpRunResult& sgrld : runs) {
      if (sgrld.method != DpMethod::kSgrld || sgrld.seed != scir.seed ||
          sgrld.explicit_start != scir.explicit_start ||
          (scir.explicit_start && sgrld.initial_components != scir.initial_components)) {
        continue;
      }
      ++compared;
      scir_a = scir.atom_concentration;
      sgrld_a = sgrld.atom_concentration;
      scir_better += scir.final_point().running_log_predictive >
                     sgrld.final_point().running_log_predictive;
      scir_better_draw += scir.mean_draw_log_predictive() > sgrld.mean_draw_log_predictive();
    }
  }
  if (compared > 0) {
    out << "SCIR above SGRLD in log predictive for " << scir_better << " of " << compared
        << (several_starts ? " seed-start pairs" : " seeds") << " (draw-averaged), " << scir_better_draw << " of " << compared
        << " (single draws)\n";
    if (scir_a != sgrld_a) {
      out << "note: different atom priors (SCIR a = " << scir_a << ", SGRLD a = " << sgrld_a
          << ", Table 3), i.e. different models";
      if (msweb) {
        out << ". The paper's ordering is the single-draw score's; on msweb SGRLD's "
               "draw-averaged lead comes from its bias (it beats the exact sampler of its own "
               "model) and its K = 30 start; with one prior (--atom_concentration=0.5) SCIR "
               "leads on both scores: bench/dp_mixture_results.md\n";
      } else {
        out << "; --atom_concentration sets one prior for both\n";
      }
    }
  }
  // Starts: a run whose occupied count stayed at its start, and starts that disagree.
  for (const DpRunResult& run : runs) {
    if (run.occupied_draws.empty()) continue;
    const auto [lo, hi] = std::minmax_element(run.occupied_draws.begin(), run.occupied_draws.end());
    if (NearStart(*lo, run.initial_components) && NearStart(*hi, run.initial_components)) {
      out << absl::StrFormat(
          "warning: %s seed %d: the occupied clusters stayed at %d-%d after burn-in, within 10%% "
          "of the start's %d: the count may follow the start rather than the data; compare "
          "several starts (--initial_components=%d,%d,%d)\n",
          DpMethodName(run.method), run.seed, *lo, *hi, run.initial_components,
          std::max(1, run.initial_components / 4), run.initial_components,
          3 * run.initial_components);
    }
  }
  for (DpMethod method : {DpMethod::kScir, DpMethod::kSgrld, DpMethod::kGibbs}) {
    std::vector<uint64_t> seeds;
    for (const DpRunResult& run : runs) {
      if (run.method == method && std::find(seeds.begin(), seeds.end(), run.seed) == seeds.end()) {
        seeds.push_back(run.seed);
      }
    }
    for (const uint64_t seed : seeds) {
      // The post-burn-in ranges of the runs from each start; disjoint ranges disagree.
      std::vector<std::pair<int, int>> ranges;
      std::string listed;
      for (const DpRunResult& run : runs) {
        if (run.method != method || run.seed != seed || run.occupied_draws.empty()) continue;
        const auto [lo, hi] =
            std::minmax_element(run.occupied_draws.begin(), run.occupied_draws.end());
        ranges.emplace_back(*lo, *hi);
        absl::StrAppend(&listed, listed.empty() ? "" : ", ", "start ", run.initial_components,
                        ": ", *lo, "-", *hi);
      }
      bool disjoint = false;
      for (size_t a = 0; a < ranges.size(); ++a) {
        for (size_t b = a + 1; b < ranges.size(); ++b) {
          disjoint |= ranges[a].second < ranges[b].first || ranges[b].second < ranges[a].first;
        }
      }
      if (disjoint) {
        out << absl::StrFormat(
            "warning: %s seed %d: the starts disagree on the occupied clusters after burn-in "
            "(%s): the chains have not forgotten their starts; run longer, and compare the "
            "starts' held-out log predictive (bench/dp_mixture_results.md, \"Choosing the "
            "start\")\n",
            DpMethodName(method), seed, listed);
      }
    }
  }
  return out.str();
}

absl::Status WriteDpOutputs(const std::vector<DpRunResult>& runs, const std::string& output_dir,
                            const DpOutputNames& names) {
  for (const DpRunResult& run : runs) {
    if (run.trace.empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat(RunName(run), ": no evaluation yet, nothing to write"));
    }
  }
  std::error_code error;
  std::filesystem::create_directories(output_dir, error);
  if (error) {
    return absl::InvalidArgumentError(
        absl::StrCat(output_dir, ": cannot create the directory: ", error.message()));
  }
  auto open = [&](const std::string& name, std::ofstream& file) -> absl::Status {
    const std::string path = absl::StrCat(output_dir, "/", name);
    file.open(path);
    if (!file) return absl::InvalidArgumentError(absl::StrCat(path, ": cannot open"));
    return absl::OkStatus();
  };
  std::ofstream trace;
  SGMCMC_RETURN_IF_ERROR(open("trace.csv", trace));
  trace << "method,seed,iteration,seconds,log_predictive,running_log_predictive,occupied,"
           "components,alpha,initial_components\n";
  for (const DpRunResult& run : runs) {
    for (const DpTracePoint& p : run.trace) {
      trace << absl::StrFormat("%s,%d,%d,%.6g,%.10g,%.10g,%d,%d,%.6g,%d\n",
                               DpMethodName(run.method), run.seed, p.iteration, p.seconds,
                               p.log_predictive, p.running_log_predictive, p.occupied,
                               p.components, p.alpha, run.initial_components);
    }
  }
  std::ofstream summary;
  SGMCMC_RETURN_IF_ERROR(open("summary.csv", summary));
  summary << "method,seed,iterations,running_log_predictive,mean_draw_log_predictive,occupied,"
             "components,alpha,seconds_per_iteration,ns_per_user_iteration,initial_components\n";
  for (const DpRunResult& run : runs) {
    const DpTracePoint& p = run.final_point();
    summary << absl::StrFormat(
        "%s,%d,%d,%.10g,%.10g,%d,%d,%.6g,%.6g,%.6g,%d\n", DpMethodName(run.method), run.seed,
        p.iteration, p.running_log_predictive, run.mean_draw_log_predictive(), p.occupied,
        p.components, p.alpha, run.seconds_per_iteration(),
        1e9 * run.seconds_per_iteration() / static_cast<double>(run.users_per_iteration),
        run.initial_components);
  }
  for (const DpRunResult& run : runs) {
    std::ofstream draws;
    const std::string name = absl::StrCat("draws_", RunName(run), ".csv");
    SGMCMC_RETURN_IF_ERROR(open(name, draws));
    eval::CmdStanCsvOptions options;
    options.model = "dp_multinomial_mixture";
    options.algorithm = std::string(DpMethodName(run.method));
    options.num_samples = static_cast<int64_t>(run.alpha_draws.size());
    options.num_warmup = run.burn_in;
    options.seed = run.seed;
    options.output_file = absl::StrCat(output_dir, "/", name);
    options.extra = {{"lp__", "not computed (written as 0)"}};
    SGMCMC_ASSIGN_OR_RETURN(
        eval::CmdStanCsvWriter writer,
        eval::CmdStanCsvWriter::Create(&draws, {"alpha", "occupied", "components"}, options));
    for (size_t d = 0; d < run.alpha_draws.size(); ++d) {
      const double values[3] = {run.alpha_draws[d], static_cast<double>(run.occupied_draws[d]),
                                static_cast<double>(run.component_draws[d])};
      SGMCMC_RETURN_IF_ERROR(writer.WriteDraw(0.0, values));
    }
    SGMCMC_RETURN_IF_ERROR(writer.Finish(run.burn_in_seconds, run.seconds - run.burn_in_seconds));
  }
  // The clusters of the last draws, and each run's allocations by cluster number.
  std::ofstream clusters;
  SGMCMC_RETURN_IF_ERROR(open("clusters.csv", clusters));
  clusters << "method,seed,initial_components,cluster,size,weight,top_items\n";
  for (const DpRunResult& run : runs) {
    std::vector<int32_t> number;  // component -> cluster number
    for (size_t c = 0; c < run.clusters.size(); ++c) {
      const DpCluster& cluster = run.clusters[c];
      clusters << absl::StrFormat(
          "%s,%d,%d,%d,%d,%.6g,%s\n", DpMethodName(run.method), run.seed,
          run.initial_components, c, cluster.size, cluster.weight,
          CsvField(TopItemsText(cluster.top_items, cluster.top_probabilities, names.item_names)));
      if (cluster.component >= static_cast<int>(number.size())) {
        number.resize(cluster.component + 1, -1);
      }
      number[cluster.component] = static_cast<int32_t>(c);
    }
    std::ofstream allocations;
    SGMCMC_RETURN_IF_ERROR(open(absl::StrCat("allocations_", RunName(run), ".csv"), allocations));
    allocations << "user,cluster\n";
    for (size_t i = 0; i < run.allocations.size(); ++i) {
      const int32_t z = run.allocations[i];
      const int64_t user = i < names.user_ids.size() ? names.user_ids[i]
                                                     : static_cast<int64_t>(i) + 1;
      allocations << user << "," << (z < static_cast<int32_t>(number.size()) ? number[z] : -1)
                  << "\n";
    }
    if (!allocations) {
      return absl::DataLossError(absl::StrCat(output_dir, "/allocations_", RunName(run),
                                              ".csv: writing failed"));
    }
  }
  std::ofstream names_file;
  SGMCMC_RETURN_IF_ERROR(open("runs.txt", names_file));
  std::vector<std::string> methods;
  for (const DpRunResult& run : runs) {
    const std::string name(DpMethodName(run.method));
    if (std::find(methods.begin(), methods.end(), name) == methods.end()) methods.push_back(name);
  }
  for (const std::string& name : methods) names_file << name << "\n";
  if (!trace || !summary || !clusters || !names_file) {
    return absl::DataLossError(absl::StrCat(output_dir, ": writing the outputs failed"));
  }
  return absl::OkStatus();
}

}  // namespace sgmcmc::tools
