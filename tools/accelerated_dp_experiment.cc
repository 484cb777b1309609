#include "tools/accelerated_dp_experiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <utility>
#include <vector>

#include "absl/base/casts.h"
#include "absl/functional/function_ref.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/seconds_since.h"
#include "base/status_macros.h"
#include "data/corpus.h"
#include "data/idx_reader.h"
#include "data/msweb_reader.h"
#include "data/text_reader.h"
#include "data/uci_reader.h"
#include "models/dp/distributed_slice.h"
#include "models/dp/logistic_normal_model.h"
#include "models/dp/neal8.h"
#include "models/dp/parallel.h"
#include "models/simplex/logistic_normal_multinomial.h"
#include "rng/engine.h"
#include "rng/uniform.h"
#include "tools/accelerated_dp_checkpoint.pb.h"
#include "tools/checkpoint_file.h"
#include "tools/tool_support.h"
#include "tools/top_items.h"

namespace sgmcmc::tools {
namespace {

using Clock = std::chrono::steady_clock;

absl::Status AtLeast(const char* name, int64_t value, int64_t least) {
  if (value >= least) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(name, " must be >= ", least, ", got ", value));
}

std::vector<int32_t> InitialLabels(const AcceleratedDpExperimentOptions& options,
                                   const models::CountMatrix& train, const std::string& init) {
  std::vector<int32_t> labels(train.rows(), 0);
  const int k = static_cast<int>(std::min<int64_t>(options.initial_clusters, train.rows()));
  if (init == "random") {
    rng::Engine engine(options.seed, 0x1417);
    for (int32_t& l : labels) l = static_cast<int32_t>(rng::UniformInt(engine, k));
  } else if (init == "kmeans") {
    labels = KMeansLabels(train, k, 10, options.seed);
  }
  return labels;
}

// The seconds of a run's sampling steps (options.clock): this rank's wall clock, or the CPU
// seconds of every rank of `comm` (null: this rank alone, e.g. collapsed on rank 0).
class StepClock {
 public:
  StepClock(const AcceleratedDpExperimentOptions& options, parallel::Communicator* comm)
      : cpu_(options.clock == "cpu"), comm_(comm) {}
  void Start() {
    if (cpu_) {
      cpu_start_ = ThreadCpuSeconds();
    } else {
      wall_start_ = Clock::now();
    }
  }
  void Stop() { own_ += cpu_ ? ThreadCpuSeconds() - cpu_start_ : SecondsSince(wall_start_); }
  // A resumed run's seconds so far (`seconds`, the total over the ranks for the CPU clock)
  // held by `owner` (rank 0), the other ranks' own seconds restarting from 0.
  void Restore(double seconds, bool owner) { own_ = owner ? seconds : 0; }
  // The seconds so far; collective (every rank of comm) with the CPU clock.
  absl::StatusOr<double> Seconds() const {
    if (!cpu_ || comm_ == nullptr) return own_;
    double total[1] = {own_};
    SGMCMC_RETURN_IF_ERROR(comm_->AllReduceSum(absl::MakeSpan(total)));
    return total[0];
  }

 private:
  const bool cpu_;
  parallel::Communicator* const comm_;
  double own_ = 0, cpu_start_ = 0;
  Clock::time_point wall_start_;
};

struct Run {
  std::vector<AcceleratedDpTracePoint>* trace;
  std::string method, init;
  int iterations;
  std::ostream* progress;  // null on ranks > 0
  void Add(int64_t iteration, double seconds, double ll, int features, double alpha) const {
    trace->push_back({method, init, iteration, seconds, ll, features, alpha});
    // About ten lines per run: the trace points that cross a tenth of the iterations.
    const int64_t tenth = std::max(1, iterations / 10);
    const size_t n = trace->size();
    const bool first_of_run = n < 2 || (*trace)[n - 2].method != method ||
                              (*trace)[n - 2].init != init;
    const int64_t previous = first_of_run ? -1 : (*trace)[n - 2].iteration;
    if (progress == nullptr || iteration == 0 ||
        (iteration / tenth == previous / tenth && iteration != iterations)) {
      return;
    }
    *progress << absl::StrFormat(
        "[%s %s] iteration %d/%d, %.3fs sampling, test log predictive %.6g, %d features\n",
        method, init, iteration, iterations, seconds, ll, features)
              << std::flush;
  }
};

// The kind of the tool's checkpoint files (tools/checkpoint_file.h).
constexpr absl::string_view kCheckpointKind = "accelerated_dp";

// A trace point in the checkpoint, and back.
void SaveTracePoint(const AcceleratedDpTracePoint& p, AcceleratedDpCheckpoint::TracePoint& q) {
  q.set_method(p.method);
  q.set_init(p.init);
  q.set_iteration(p.iteration);
  q.set_seconds(p.seconds);
  q.set_test_log_likelihood(p.test_log_likelihood);
  q.set_features(p.features);
  q.set_alpha(p.alpha);
}

AcceleratedDpTracePoint ReadTracePoint(const AcceleratedDpCheckpoint::TracePoint& q) {
  return {q.method(), q.init(), q.iteration(), q.seconds(), q.test_log_likelihood(),
          q.features(), q.alpha()};
}

// The checkpoints inside one run (options.checkpoint_every, stop_after): the run's trace so far
// and its sampler's state, written by rank 0 with the finished runs of `checkpoint`.
class RunCheckpoints {
 public:
  using InProgress = AcceleratedDpCheckpoint::InProgress;

  // The run `key` whose trace points start at trace[trace_begin]; `writer`: this rank writes.
  RunCheckpoints(const AcceleratedDpExperimentOptions& options, const std::string& key,
                 AcceleratedDpCheckpoint& checkpoint, bool writer,
                 std::vector<AcceleratedDpTracePoint>& trace)
      : options_(options),
        key_(key),
        checkpoint_(checkpoint),
        writer_(writer),
        trace_(trace),
        trace_begin_(trace.size()) {
    if (checkpoint.in_progress().run() == key) {
      resume_ = &checkpoint.in_progress();
      last_ = resume_->iteration();
    }
  }

  // The saved state of this run if it was under way, else null.
  const InProgress* resume() const { return resume_; }
  // Resumes the run after `restored`, its sampler's RestoreState from resume(): the clock's
  // seconds (held by `owner`), the saved trace points and a progress line; the iterations
  // done. DataLoss naming the file and the run if the restore failed.
  absl::StatusOr<int> Resume(const absl::Status& restored, StepClock& clock, bool owner) {
    if (!restored.ok()) {
      return absl::DataLossError(absl::StrCat(options_.checkpoint_path, ": the saved state of ",
                                              key_, " does not fit: ", restored.message()));
    }
    clock.Restore(resume_->seconds(), owner);
    for (const AcceleratedDpCheckpoint::TracePoint& q : resume_->trace()) {
      trace_.push_back(ReadTracePoint(q));
    }
    if (writer_ && options_.progress != nullptr) {
      *options_.progress << "[" << key_ << "] resumed at iteration " << resume_->iteration()
                         << "\n";
    }
    return static_cast<int>(resume_->iteration());
  }
  // Whether stop_after ends the run after `done` iterations (called where the sampler can be
  // saved, so the first such point at or after stop_after).
  bool Stops(int64_t done) const {
    return options_.stop_after > 0 && done >= options_.stop_after && done < options_.iterations;
  }
  // Whether to save after `done` iterations (where the sampler can be saved): at the first
  // such point at or after each multiple of checkpoint_every, and where the run stops.
  bool Due(int64_t done) const {
    if (Stops(done)) return true;
    const int64_t every = options_.checkpoint_every;
    return every > 0 && !options_.checkpoint_path.empty() && done < options_.iterations &&
           done / every > last_ / every;
  }
  // Records the run after `done` iterations and `seconds` sampling seconds, `fill` setting its
  // sampler's state; rank 0 writes the file.
  absl::Status Save(int64_t done, double seconds, absl::FunctionRef<void(InProgress&)> fill) {
    last_ = done;
    if (!writer_ || options_.checkpoint_path.empty()) return absl::OkStatus();
    InProgress& saved = *checkpoint_.mutable_in_progress();
    saved.Clear();
    saved.set_run(key_);
    saved.set_iteration(done);
    saved.set_seconds(seconds);
    for (size_t i = trace_begin_; i < trace_.size(); ++i) {
      SaveTracePoint(trace_[i], *saved.add_trace());
    }
    fill(saved);
    resume_ = nullptr;  // `saved` is overwritten: no longer the state read
    return WriteCheckpoint(options_.checkpoint_path, kCheckpointKind,
                           checkpoint_.SerializeAsString());
  }
  void set_stopped() { stopped_ = true; }
  bool stopped() const { return stopped_; }

 private:
  const AcceleratedDpExperimentOptions& options_;
  const std::string key_;
  AcceleratedDpCheckpoint& checkpoint_;
  const bool writer_;
  std::vector<AcceleratedDpTracePoint>& trace_;
  const size_t trace_begin_;
  const InProgress* resume_ = nullptr;
  int64_t last_ = 0;  // iterations at the last save (or the resume)
  bool stopped_ = false;
};

// Where an atom holds log θ: the Dirichlet model's atoms are log θ; the logistic-normal
// model's are [η | log softmax(η)].
int LogProbOffset(const AcceleratedDpExperimentOptions& options, int dimension) {
  return options.likelihood == "logistic_normal" ? dimension : 0;
}

// The `max_features_kept` largest of the K features (atoms row-major, `sizes` each), as θ.
AcceleratedDpFeatures KeptFeatures(const AcceleratedDpExperimentOptions& options,
                                   const models::DpComponentModel& model, const Run& run,
                                   absl::Span<const double> atoms,
                                   absl::Span<const int64_t> sizes) {
  const int d = model.dimension(), a = model.atom_size(), offset = LogProbOffset(options, d);
  std::vector<int> order(sizes.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return sizes[x] > sizes[y]; });
  if (static_cast<int>(order.size()) > options.max_features_kept) {
    order.resize(options.max_features_kept);
  }
  AcceleratedDpFeatures out{run.method, run.init, d, {}, {}};
  for (const int k : order) {
    const double* log_theta = atoms.data() + static_cast<size_t>(k) * a + offset;
    for (int j = 0; j < d; ++j) out.probabilities.push_back(std::exp(log_theta[j]));
    out.sizes.push_back(sizes[k]);
  }
  return out;
}

absl::Status RunParallel(const AcceleratedDpExperimentOptions& options, bool accelerated,
                         const models::CountMatrix& train, const models::CountMatrix& test,
                         absl::Span<const int32_t> initial, parallel::Communicator& comm,
                         const Run& run, RunCheckpoints& checkpoints,
                         std::vector<AcceleratedDpFeatures>* features) {
  SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<models::DpComponentModel> model_ptr,
                          MakeAcceleratedDpModel(options, train.dimension));
  models::DpComponentModel& model = *model_ptr;
  models::DpParallelOptions po;
  po.sync_every = options.sync_every;
  po.accelerated_iterations = accelerated ? options.accelerated_iterations : 0;
  po.num_auxiliary = options.num_auxiliary;
  po.seed = options.seed;
  SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                          models::DpParallelSampler::Create(&comm, &model, &train, po, initial));
  StepClock clock(options, &comm);
  int start = 0;
  if (const RunCheckpoints::InProgress* saved = checkpoints.resume()) {
    SGMCMC_ASSIGN_OR_RETURN(start, checkpoints.Resume(sampler->RestoreState(saved->parallel()),
                                                      clock, comm.rank() == 0));
  } else {
    SGMCMC_ASSIGN_OR_RETURN(const double ll, sampler->TestLogPredictive(test));
    run.Add(0, 0, ll, sampler->num_features(), sampler->alpha());
  }
  if (checkpoints.Stops(start)) {
    checkpoints.set_stopped();
    return absl::OkStatus();
  }
  for (int t = start + 1; t <= options.iterations; ++t) {
    clock.Start();
    SGMCMC_RETURN_IF_ERROR(sampler->Iterate());
    clock.Stop();
    if (!sampler->just_synchronised()) continue;
    SGMCMC_ASSIGN_OR_RETURN(const double ll, sampler->TestLogPredictive(test));
    SGMCMC_ASSIGN_OR_RETURN(const double seconds, clock.Seconds());
    run.Add(t, seconds, ll, sampler->num_features(), sampler->alpha());
    if (checkpoints.Due(t)) {  // at a synchronisation, where the sampler can be saved
      SGMCMC_ASSIGN_OR_RETURN(models::DpParallelState state, sampler->SaveState());
      SGMCMC_RETURN_IF_ERROR(checkpoints.Save(t, seconds, [&](RunCheckpoints::InProgress& p) {
        *p.mutable_parallel() = std::move(state);
      }));
    }
    if (checkpoints.Stops(t)) {
      checkpoints.set_stopped();
      return absl::OkStatus();
    }
  }
  if (comm.rank() == 0) {
    features->push_back(
        KeptFeatures(options, model, run, sampler->atoms(), sampler->feature_counts()));
  }
  return absl::OkStatus();
}

double SumTestLogPredictive(const models::DpNeal8& sampler, const models::CountMatrix& test) {
  double sum = 0;
  for (int64_t i = 0; i < test.rows(); ++i) sum += sampler.LogPredictive(test.row(i));
  return sum;
}

absl::Status RunCollapsed(const AcceleratedDpExperimentOptions& options,
                          const models::CountMatrix& train, const models::CountMatrix& test,
                          absl::Span<const int32_t> initial, const Run& run,
                          RunCheckpoints& checkpoints,
                          std::vector<AcceleratedDpFeatures>* features) {
  SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<models::DpComponentModel> model_ptr,
                          MakeAcceleratedDpModel(options, train.dimension));
  const models::DpComponentModel& model = *model_ptr;
  models::DpNeal8Options no;
  no.num_auxiliary = options.num_auxiliary;
  no.seed = options.seed;
  models::DpNeal8 sampler(&model, &train, no, initial);
  StepClock clock(options, /*comm=*/nullptr);
  int start = 0;
  if (const RunCheckpoints::InProgress* saved = checkpoints.resume()) {
    SGMCMC_ASSIGN_OR_RETURN(
        start, checkpoints.Resume(sampler.RestoreState(saved->collapsed()), clock, /*owner=*/true));
  } else {
    run.Add(0, 0, SumTestLogPredictive(sampler, test), sampler.num_clusters(), sampler.alpha());
  }
  if (checkpoints.Stops(start)) {
    checkpoints.set_stopped();
    return absl::OkStatus();
  }
  for (int t = start + 1; t <= options.iterations; ++t) {
    clock.Start();
    sampler.Sweep();
    clock.Stop();
    SGMCMC_ASSIGN_OR_RETURN(const double seconds, clock.Seconds());
    run.Add(t, seconds, SumTestLogPredictive(sampler, test), sampler.num_clusters(),
            sampler.alpha());
    if (checkpoints.Due(t)) {
      SGMCMC_RETURN_IF_ERROR(checkpoints.Save(t, seconds, [&](RunCheckpoints::InProgress& p) {
        *p.mutable_collapsed() = sampler.SaveState();
      }));
    }
    if (checkpoints.Stops(t)) {
      checkpoints.set_stopped();
      return absl::OkStatus();
    }
  }
  const models::DpClusterTable& clusters = sampler.clusters();
  std::vector<double> atoms;
  std::vector<int64_t> sizes;
  for (int k = 0; k < clusters.num_slots(); ++k) {
    if (!clusters.is_open(k)) continue;
    atoms.insert(atoms.end(), clusters.atom(k), clusters.atom(k) + model.atom_size());
    sizes.push_back(clusters.size(k));
  }
  features->push_back(KeptFeatures(options, model, run, atoms, sizes));
  return absl::OkStatus();
}

absl::Status RunUncollapsed(const AcceleratedDpExperimentOptions& options,
                            const models::CountMatrix& train, const models::CountMatrix& test,
                            absl::Span<const int32_t> initial, parallel::Communicator& comm,
                            const Run& run, RunCheckpoints& checkpoints) {
  SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<models::DpComponentModel> model_ptr,
                          MakeAcceleratedDpModel(options, train.dimension));
  models::DpComponentModel& model = *model_ptr;
  models::DpDistributedSliceOptions so;
  so.seed = options.seed;
  SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                          models::DpDistributedSlice::Create(&comm, &model, &train, so, initial));
  StepClock clock(options, &comm);
  int start = 0;
  if (const RunCheckpoints::InProgress* saved = checkpoints.resume()) {
    SGMCMC_ASSIGN_OR_RETURN(start, checkpoints.Resume(sampler->RestoreState(saved->uncollapsed()),
                                                      clock, comm.rank() == 0));
  }
  if (checkpoints.Stops(start)) {
    checkpoints.set_stopped();
    return absl::OkStatus();
  }
  for (int t = start + 1; t <= options.iterations; ++t) {
    clock.Start();
    SGMCMC_RETURN_IF_ERROR(sampler->Step());
    clock.Stop();
    SGMCMC_ASSIGN_OR_RETURN(const double ll, sampler->TestLogPredictive(test));
    SGMCMC_ASSIGN_OR_RETURN(const double seconds, clock.Seconds());
    run.Add(t, seconds, ll, sampler->num_occupied(), sampler->alpha());
    if (checkpoints.Due(t)) {
      SGMCMC_ASSIGN_OR_RETURN(models::DpDistributedSliceState state, sampler->SaveState());
      SGMCMC_RETURN_IF_ERROR(checkpoints.Save(t, seconds, [&](RunCheckpoints::InProgress& p) {
        *p.mutable_uncollapsed() = std::move(state);
      }));
    }
    if (checkpoints.Stops(t)) {
      checkpoints.set_stopped();
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

// Everything the runs' results depend on, and a fingerprint of the data, for the checkpoint.
std::string CheckpointSettings(const AcceleratedDpExperimentOptions& o,
                               const AcceleratedDpData& data, int workers) {
  Fnv1a hash;
  for (const models::CountMatrix* m : {&data.train, &data.test}) {
    hash.Mix(static_cast<uint64_t>(m->dimension));
    hash.Mix(m->values.size());
    for (const double v : m->values) hash.Mix(absl::bit_cast<uint64_t>(v));
  }
  return absl::StrFormat(
      "workers=%d methods=%s inits=%s iterations=%d sync_every=%d accelerated_iterations=%d "
      "num_auxiliary=%d initial_clusters=%d seed=%d gamma=%.17g likelihood=%s rank=%d "
      "max_features_kept=%d clock=%s data=%d+%d rows x %d/%016x",
      workers, absl::StrJoin(o.methods, ","), absl::StrJoin(o.inits, ","), o.iterations,
      o.sync_every, o.accelerated_iterations, o.num_auxiliary, o.initial_clusters, o.seed,
      o.gamma, o.likelihood, o.logistic_normal_rank, o.max_features_kept, o.clock,
      data.train.rows(), data.test.rows(), data.train.dimension, hash.value());
}

// Appends the trace points from `trace_begin` and the features from `features_begin` of
// `result` (one run's) to `checkpoint`.
void SaveRun(const AcceleratedDpResult& result, size_t trace_begin, size_t features_begin,
             AcceleratedDpCheckpoint& checkpoint) {
  for (size_t i = trace_begin; i < result.trace.size(); ++i) {
    SaveTracePoint(result.trace[i], *checkpoint.add_trace());
  }
  for (size_t i = features_begin; i < result.features.size(); ++i) {
    const AcceleratedDpFeatures& f = result.features[i];
    AcceleratedDpCheckpoint::Features& g = *checkpoint.add_features();
    g.set_method(f.method);
    g.set_init(f.init);
    g.set_dimension(f.dimension);
    g.mutable_probabilities()->Assign(f.probabilities.begin(), f.probabilities.end());
    g.mutable_sizes()->Assign(f.sizes.begin(), f.sizes.end());
  }
}

// Reads the checkpoint at `path` into `checkpoint` (whose settings are this job's) and the
// finished runs' trace and features into `result`. FailedPrecondition naming the file if it
// was written with other settings or data; DataLoss / InvalidArgument if damaged.
absl::Status RestoreCheckpoint(const std::string& path, AcceleratedDpCheckpoint& checkpoint,
                               AcceleratedDpResult& result) {
  SGMCMC_ASSIGN_OR_RETURN(const std::string bytes, ReadCheckpoint(path, kCheckpointKind));
  AcceleratedDpCheckpoint saved;
  if (!saved.ParseFromString(bytes)) {
    return absl::DataLossError(absl::StrCat(path, ": not an AcceleratedDpCheckpoint"));
  }
  if (saved.settings() != checkpoint.settings()) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": written with different settings or data; checkpoint: ", saved.settings(),
        "; this run: ", checkpoint.settings()));
  }
  checkpoint = std::move(saved);
  for (const AcceleratedDpCheckpoint::TracePoint& q : checkpoint.trace()) {
    result.trace.push_back(ReadTracePoint(q));
  }
  for (const AcceleratedDpCheckpoint::Features& g : checkpoint.features()) {
    AcceleratedDpFeatures f;
    f.method = g.method();
    f.init = g.init();
    f.dimension = g.dimension();
    f.probabilities.assign(g.probabilities().begin(), g.probabilities().end());
    f.sizes.assign(g.sizes().begin(), g.sizes().end());
    result.features.push_back(std::move(f));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status AcceleratedDpExperimentOptions::Validate() const {
  // Files: 0 rows means all of them.
  const bool files = !fashion_mnist_dir.empty() || !train_path.empty();
  SGMCMC_RETURN_IF_ERROR(AtLeast("train_points", train_points, files ? 0 : 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("test_points", test_points, files ? 0 : 1));
  if (train_path.empty() != test_path.empty()) {
    return absl::InvalidArgumentError(train_path.empty()
                                          ? "test: needs --train (both corpus files, or neither)"
                                          : "train: needs --test (both corpus files, or neither)");
  }
  if (!train_path.empty() && !fashion_mnist_dir.empty()) {
    return absl::InvalidArgumentError(
        "train: a corpus (--train, --test) or images (--fashion_mnist_dir), not both");
  }
  if (train_path.empty() && (!vocab_path.empty() || text)) {
    return absl::InvalidArgumentError(absl::StrCat(
        text ? "text" : "vocab", ": needs the corpus files --train and --test"));
  }
  if (text && !vocab_path.empty()) {
    return absl::InvalidArgumentError(
        "text: raw text builds its vocabulary (--max_vocabulary); --vocab is for UCI files");
  }
  SGMCMC_RETURN_IF_ERROR(AtLeast("max_vocabulary", max_vocabulary, 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("stop_after_runs", stop_after_runs, 0));
  SGMCMC_RETURN_IF_ERROR(AtLeast("checkpoint_every", checkpoint_every, 0));
  SGMCMC_RETURN_IF_ERROR(AtLeast("stop_after", stop_after, 0));
  SGMCMC_RETURN_IF_ERROR(AtLeast("dimension", dimension, 2));
  SGMCMC_RETURN_IF_ERROR(AtLeast("counts_per_point", counts_per_point, 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("true_components", true_components, 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("iterations", iterations, 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("sync_every", sync_every, 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("accelerated_iterations", accelerated_iterations, 0));
  SGMCMC_RETURN_IF_ERROR(AtLeast("num_auxiliary", num_auxiliary, 1));
  if (num_auxiliary > kMaxAuxiliary) {
    // 10^8 auxiliary atoms grew to 7.8 GB before the first trace point.
    return absl::InvalidArgumentError(absl::StrCat(
        "num_auxiliary must be <= ", kMaxAuxiliary, ", got ", num_auxiliary,
        " (each is an atom of D values per worker; the paper uses 3)"));
  }
  SGMCMC_RETURN_IF_ERROR(AtLeast("initial_clusters", initial_clusters, 1));
  // The synthetic rows are dense counts: bounded like the items of an IDX file.
  const int64_t cells = (int64_t{train_points} + test_points) * dimension;
  if (!files && cells > data::IdxLimits().max_items) {
    return absl::InvalidArgumentError(
        absl::StrCat("train_points + test_points times dimension must be <= ",
                     data::IdxLimits().max_items, ", got ", cells));
  }
  if (!(std::isfinite(gamma) && gamma > 0)) {
    return absl::InvalidArgumentError(absl::StrCat("gamma must be finite and > 0, got ", gamma));
  }
  if (methods.empty()) {
    return absl::InvalidArgumentError("methods must name at least one sampler");
  }
  if (inits.empty()) return absl::InvalidArgumentError("inits must name at least one start");
  for (const std::string& m : methods) {
    if (m != "accelerated" && m != "hybrid" && m != "collapsed" && m != "uncollapsed") {
      return absl::InvalidArgumentError(absl::StrCat(
          "methods: unknown method '", m, "' (accelerated, hybrid, collapsed, uncollapsed)"));
    }
  }
  if (clock != "wall" && clock != "cpu") {
    return absl::InvalidArgumentError(
        absl::StrCat("clock: expected wall or cpu, got '", clock, "'"));
  }
  if (likelihood != "dirichlet" && likelihood != "logistic_normal") {
    return absl::InvalidArgumentError(
        absl::StrCat("likelihood: expected dirichlet or logistic_normal, got '", likelihood, "'"));
  }
  SGMCMC_RETURN_IF_ERROR(AtLeast("logistic_normal_rank", logistic_normal_rank, 0));
  SGMCMC_RETURN_IF_ERROR(AtLeast("max_features_kept", max_features_kept, 0));
  if (max_count < 1 || max_count > 255) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_count must be in [1, 255], got ", max_count));
  }
  for (const std::string& i : inits) {
    if (i != "one" && i != "random" && i != "kmeans") {
      return absl::InvalidArgumentError(
          absl::StrCat("inits: unknown start '", i, "' (one, random, kmeans)"));
    }
  }
  return absl::OkStatus();
}

void SyntheticMixtureCounts(const AcceleratedDpExperimentOptions& options,
                            models::CountMatrix* train, models::CountMatrix* test) {
  std::vector<models::CountMatrix> data = models::SyntheticMultinomialMixture(
      {options.train_points, options.test_points}, options.dimension, options.counts_per_point,
      options.true_components, options.gamma, options.data_seed);
  *train = std::move(data[0]);
  *test = std::move(data[1]);
}

namespace {

// The Fashion-MNIST images (options.fashion_mnist_dir) as counts.
absl::Status LoadImages(const AcceleratedDpExperimentOptions& options, AcceleratedDpData& data) {
  const std::pair<const char*, int> files[2] = {
      {"train-images-idx3-ubyte.gz", options.train_points},
      {"t10k-images-idx3-ubyte.gz", options.test_points}};
  models::CountMatrix* out[2] = {&data.train, &data.test};
  for (int f = 0; f < 2; ++f) {
    const std::string path = absl::StrCat(options.fashion_mnist_dir, "/", files[f].first);
    SGMCMC_ASSIGN_OR_RETURN(data::IdxImages images, data::ReadIdxImages(path));
    if (images.count < files[f].second) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": ", images.count, " images, fewer than the ", files[f].second, " asked for"));
    }
    // Bytes 8..15 of the header hold the rows and columns (data/idx_reader.h).
    if (images.pixels_per_image() < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": byte 8: images of ", images.rows, " x ", images.cols,
                       " pixels, need >= 2 pixels (the counts' dimension)"));
    }
    if (f == 1 && images.pixels_per_image() != data.train.dimension) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": byte 8: images of ", images.rows, " x ", images.cols, " = ",
          images.pixels_per_image(), " pixels, but the training images have ",
          data.train.dimension));
    }
    if (files[f].second > 0) images.count = files[f].second;
    images.pixels.resize(static_cast<size_t>(images.count) * images.pixels_per_image());
    const data::CountMatrix counts = data::ImagesToCounts(images, {options.max_count});
    // An image without a count carries nothing to cluster (a blank or corrupt image, or all
    // its pixels below the first level at this max_count).
    for (int64_t i = 0; i < counts.rows; ++i) {
      int64_t total = 0;
      for (const int32_t c : counts.row(i)) total += c;
      if (total == 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            path, ": byte ", 16 + i * images.pixels_per_image(), ": image ", i,
            " has no count (every pixel below ", (256 + options.max_count) / (options.max_count + 1),
            " at --max_count=", options.max_count, "): an all-zero image"));
      }
    }
    out[f]->dimension = counts.cols;
    out[f]->values.assign(counts.counts.begin(), counts.counts.end());
    if (f == 0) {
      data.image_rows = images.rows;
      data.image_cols = images.cols;
    }
  }
  return absl::OkStatus();
}

// Reads one corpus file of options' format; `vocabulary` (text only) names the words the
// test text may use, else empty.
absl::StatusOr<data::Corpus> ReadCorpusFile(const AcceleratedDpExperimentOptions& options,
                                            const std::string& path, bool training,
                                            const data::MswebVroots* vroots,
                                            data::MswebVroots* vroots_out,
                                            std::vector<std::string>& notes) {
  if (!options.vocab_path.empty()) {
    data::UciReadSummary summary;
    SGMCMC_ASSIGN_OR_RETURN(data::Corpus corpus,
                            data::ReadUciCorpus(path, options.vocab_path, &summary));
    notes.push_back(summary.BriefReport());
    return corpus;
  }
  if (options.text) {
    data::TextCorpusOptions text;
    if (training) text.max_vocabulary_size = options.max_vocabulary;
    data::TextReadSummary summary;
    SGMCMC_ASSIGN_OR_RETURN(data::Corpus corpus, data::ReadTextCorpus(path, text, &summary));
    notes.push_back(absl::StrCat(path, ": ", summary.BriefReport()));
    return corpus;
  }
  SGMCMC_ASSIGN_OR_RETURN(data::MswebData msweb, data::ReadMsweb(path, vroots));
  if (vroots_out != nullptr) *vroots_out = msweb.vroots;
  return std::move(msweb.corpus);
}

// The first `cap` (0: all) documents with a token of `corpus` as dense counts over
// `vocabulary` (by name: `names` maps the corpus's word ids to its columns, -1 to drop).
absl::Status DenseRows(const data::Corpus& corpus, const std::string& path,
                       absl::Span<const int> columns, int dimension, int cap,
                       const char* cap_flag, models::CountMatrix& out,
                       std::vector<std::string>& notes) {
  std::vector<int> kept;
  int64_t empty = 0, unknown = 0;
  for (int d = 0; d < corpus.num_documents(); ++d) {
    bool any = false;
    for (const int32_t w : corpus.document(d)) {
      if (columns[w] >= 0) {
        any = true;
      } else {
        ++unknown;
      }
    }
    if (!any) {
      ++empty;
      continue;
    }
    if (cap == 0 || static_cast<int>(kept.size()) < cap) kept.push_back(d);
  }
  if (unknown > 0) {
    notes.push_back(absl::StrCat(path, ": ", unknown,
                                 " tokens of words outside the training vocabulary dropped"));
  }
  if (empty > 0) {
    notes.push_back(absl::StrCat(path, ": ", empty, " of ", corpus.num_documents(),
                                 " rows without a count dropped"));
  }
  const int64_t with_counts = corpus.num_documents() - empty;
  if (static_cast<int64_t>(kept.size()) < with_counts) {
    notes.push_back(absl::StrCat(path, ": the first ", kept.size(), " of ", with_counts,
                                 " rows with counts used (", cap_flag, "; 0: all)"));
  }
  if (kept.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": no row with a count"));
  }
  out.dimension = dimension;
  out.values.assign(kept.size() * static_cast<size_t>(dimension), 0.0);
  for (size_t r = 0; r < kept.size(); ++r) {
    double* row = out.values.data() + r * dimension;
    for (const int32_t w : corpus.document(kept[r])) {
      if (columns[w] >= 0) row[columns[w]] += 1;
    }
  }
  return absl::OkStatus();
}

// A corpus (options.train_path, test_path) as dense counts over the training vocabulary.
absl::Status LoadCorpus(const AcceleratedDpExperimentOptions& options, AcceleratedDpData& data) {
  data::MswebVroots vroots;
  SGMCMC_ASSIGN_OR_RETURN(
      const data::Corpus train,
      ReadCorpusFile(options, options.train_path, true, nullptr, &vroots, data.notes));
  SGMCMC_ASSIGN_OR_RETURN(
      const data::Corpus test,
      ReadCorpusFile(options, options.test_path, false, &vroots, nullptr, data.notes));
  const int dimension = train.vocabulary_size();
  if (dimension < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.train_path, ": a vocabulary of ", dimension, " words, need >= 2"));
  }
  // Rows that are not in memory yet: bound them before the dense copy.
  const int64_t rows = (options.train_points > 0 ? std::min(options.train_points,
                                                            train.num_documents())
                                                 : train.num_documents()) +
                       (options.test_points > 0 ? std::min(options.test_points,
                                                           test.num_documents())
                                                : test.num_documents());
  if (rows * dimension > kMaxDenseCells) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.train_path, ": ", rows, " rows x ", dimension, " words = ", rows * dimension,
        " dense counts, more than ", kMaxDenseCells,
        " (2 GiB): take fewer rows (--train_points, --test_points) or fewer words"));
  }
  std::vector<int> identity(dimension);
  for (int w = 0; w < dimension; ++w) identity[w] = w;
  SGMCMC_RETURN_IF_ERROR(DenseRows(train, options.train_path, identity, dimension,
                                   options.train_points, "--train_points", data.train,
                                   data.notes));
  // The test words by name (text reads each file's own vocabulary; UCI and msweb share ids).
  std::vector<int> columns(test.vocabulary_size(), -1);
  if (options.text) {
    absl::flat_hash_map<std::string, int> index;
    for (int w = 0; w < dimension; ++w) index[train.vocabulary[w]] = w;
    for (int w = 0; w < test.vocabulary_size(); ++w) {
      const auto it = index.find(test.vocabulary[w]);
      if (it != index.end()) columns[w] = it->second;
    }
  } else if (test.vocabulary_size() != dimension) {
    return absl::InvalidArgumentError(absl::StrCat(options.test_path, ": ",
                                                   test.vocabulary_size(), " words, but ",
                                                   options.train_path, " has ", dimension));
  } else {
    columns = identity;
  }
  SGMCMC_RETURN_IF_ERROR(DenseRows(test, options.test_path, columns, dimension,
                                   options.test_points, "--test_points", data.test, data.notes));
  data.item_names = vroots.titles.empty() ? train.vocabulary : vroots.titles;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<AcceleratedDpData> LoadAcceleratedDpData(
    const AcceleratedDpExperimentOptions& options) {
  AcceleratedDpData data;
  if (!options.train_path.empty()) {
    SGMCMC_RETURN_IF_ERROR(LoadCorpus(options, data));
  } else if (!options.fashion_mnist_dir.empty()) {
    SGMCMC_RETURN_IF_ERROR(LoadImages(options, data));
  } else {
    SyntheticMixtureCounts(options, &data.train, &data.test);
  }
  return data;
}

absl::StatusOr<std::unique_ptr<models::DpComponentModel>> MakeAcceleratedDpModel(
    const AcceleratedDpExperimentOptions& options, int dimension) {
  if (options.likelihood == "dirichlet") {
    return std::make_unique<models::MultinomialDirichletModel>(dimension, options.gamma);
  }
  models::LogisticNormalMultinomialOptions lnm;
  lnm.dimension = dimension;
  lnm.rank = std::min(options.logistic_normal_rank, dimension);
  rng::Engine engine(options.seed, 0x4C4E);
  SGMCMC_ASSIGN_OR_RETURN(models::LogisticNormalMultinomial base,
                          models::LogisticNormalMultinomial::Create(lnm, engine));
  models::DpLogisticNormalOptions dp;
  dp.bank_seed = options.seed;
  return std::make_unique<models::DpLogisticNormalModel>(std::move(base), dp);
}

std::vector<int32_t> KMeansLabels(const models::CountMatrix& data, int k, int iterations,
                                  uint64_t seed) {
  const int64_t n = data.rows();
  const int d = data.dimension;
  std::vector<double> proportions(data.values.size());
  for (int64_t i = 0; i < n; ++i) {
    double total = 0;
    for (int j = 0; j < d; ++j) total += data.row(i)[j];
    for (int j = 0; j < d; ++j) proportions[i * d + j] = data.row(i)[j] / std::max(total, 1.0);
  }
  // Centres: k distinct rows (a partial Fisher-Yates shuffle).
  rng::Engine engine(seed, 0x4B4D);
  std::vector<int64_t> order(n);
  for (int64_t i = 0; i < n; ++i) order[i] = i;
  std::vector<double> centres(static_cast<size_t>(k) * d);
  for (int c = 0; c < k; ++c) {
    std::swap(order[c], order[c + rng::UniformInt(engine, n - c)]);
    std::copy(proportions.begin() + order[c] * d, proportions.begin() + (order[c] + 1) * d,
              centres.begin() + static_cast<size_t>(c) * d);
  }
  std::vector<int32_t> labels(n, 0);
  for (int round = 0; round <= iterations; ++round) {
    for (int64_t i = 0; i < n; ++i) {
      double best = std::numeric_limits<double>::infinity();
      for (int c = 0; c < k; ++c) {
        double dist = 0;
        for (int j = 0; j < d; ++j) {
          const double diff = proportions[i * d + j] - centres[c * d + j];
          dist += diff * diff;
        }
        if (dist < best) {
          best = dist;
          labels[i] = c;
        }
      }
    }
    if (round == iterations) break;
    std::vector<double> sums(centres.size(), 0.0);
    std::vector<int64_t> sizes(k, 0);
    for (int64_t i = 0; i < n; ++i) {
      ++sizes[labels[i]];
      for (int j = 0; j < d; ++j) sums[labels[i] * d + j] += proportions[i * d + j];
    }
    for (int c = 0; c < k; ++c) {
      if (sizes[c] == 0) continue;  // an empty centre stays where it was
      for (int j = 0; j < d; ++j) centres[c * d + j] = sums[c * d + j] / sizes[c];
    }
  }
  return labels;
}

absl::StatusOr<AcceleratedDpResult> RunAcceleratedDpExperiment(
    const AcceleratedDpExperimentOptions& options, parallel::Communicator& comm) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  SGMCMC_ASSIGN_OR_RETURN(AcceleratedDpData data, LoadAcceleratedDpData(options));
  const models::CountMatrix& train = data.train;
  const models::CountMatrix& test = data.test;
  AcceleratedDpResult result;
  result.workers = comm.size();
  result.clock = options.clock;
  result.image_rows = data.image_rows;
  result.image_cols = data.image_cols;
  result.item_names = std::move(data.item_names);
  result.notes = std::move(data.notes);
  const bool clustered_start =
      std::find_if(options.inits.begin(), options.inits.end(),
                   [](const std::string& init) { return init != "one"; }) != options.inits.end();
  if (clustered_start && options.initial_clusters > train.rows()) {
    result.notes.push_back(absl::StrCat(
        "--initial_clusters=", options.initial_clusters, " exceeds the ", train.rows(),
        " training rows: the random and k-means starts use ", train.rows(), " clusters"));
  }
  if (options.progress != nullptr && comm.rank() == 0) {
    for (const std::string& note : result.notes) *options.progress << "note: " << note << "\n";
  }
  // Checkpoint: the runs finished so far (every rank reads it; rank 0 writes it).
  AcceleratedDpCheckpoint checkpoint;
  checkpoint.set_settings(CheckpointSettings(options, data, comm.size()));
  absl::Status read = absl::OkStatus();
  if (options.resume && !options.checkpoint_path.empty() &&
      std::filesystem::exists(options.checkpoint_path)) {
    read = RestoreCheckpoint(options.checkpoint_path, checkpoint, result);
    if (read.ok() && options.progress != nullptr && comm.rank() == 0) {
      *options.progress << "resumed from " << options.checkpoint_path << ": "
                        << checkpoint.finished_runs_size() << " run(s) done"
                        << (checkpoint.in_progress().run().empty()
                                ? ""
                                : absl::StrCat("; ", checkpoint.in_progress().run(),
                                               " at iteration ",
                                               checkpoint.in_progress().iteration()))
                        << "\n";
    }
  }
  // Every rank has read it before rank 0 writes it again; all fail if one could not.
  SGMCMC_RETURN_IF_ERROR(comm.AgreeOnStatus(read));
  const std::set<std::string> finished(checkpoint.finished_runs().begin(),
                                       checkpoint.finished_runs().end());
  int runs_done = static_cast<int>(finished.size());
  for (const std::string& init : options.inits) {
    std::vector<int32_t> initial;
    bool have_initial = false;
    for (const std::string& method : options.methods) {
      const std::string key = absl::StrCat(method, "/", init);
      if (finished.count(key) > 0) continue;
      if (options.stop_after_runs > 0 && runs_done >= options.stop_after_runs) {
        result.complete = false;
        return result;
      }
      if (!have_initial) {
        initial = InitialLabels(options, train, init);
        have_initial = true;
      }
      const size_t trace_before = result.trace.size();
      const size_t features_before = result.features.size();
      const Run run{&result.trace, method, init, options.iterations,
                    comm.rank() == 0 ? options.progress : nullptr};
      RunCheckpoints checkpoints(options, key, checkpoint, comm.rank() == 0, result.trace);
      if (method == "accelerated" || method == "hybrid") {
        SGMCMC_RETURN_IF_ERROR(RunParallel(options, method == "accelerated", train, test, initial,
                                           comm, run, checkpoints, &result.features));
      } else if (method == "uncollapsed") {
        SGMCMC_RETURN_IF_ERROR(
            RunUncollapsed(options, train, test, initial, comm, run, checkpoints));
      } else if (comm.rank() == 0) {  // collapsed: serial
        SGMCMC_RETURN_IF_ERROR(
            RunCollapsed(options, train, test, initial, run, checkpoints, &result.features));
      }
      // Every rank learns whether stop_after stopped the run (collapsed runs on rank 0 alone).
      double stopped[1] = {checkpoints.stopped() ? 1.0 : 0.0};
      SGMCMC_RETURN_IF_ERROR(comm.AllReduceSum(absl::MakeSpan(stopped)));
      if (stopped[0] > 0) {
        result.complete = false;
        return result;
      }
      checkpoint.clear_in_progress();
      if (comm.rank() == 0 && !options.checkpoint_path.empty()) {
        checkpoint.add_finished_runs(key);
        SaveRun(result, trace_before, features_before, checkpoint);
        SGMCMC_RETURN_IF_ERROR(WriteCheckpoint(options.checkpoint_path, kCheckpointKind,
                                               checkpoint.SerializeAsString()));
      }
      ++runs_done;
    }
  }
  return result;
}

std::string AcceleratedDpTraceCsv(const AcceleratedDpResult& result) {
  std::string out = "method,init,iteration,seconds,test_log_likelihood,features,alpha\n";
  for (const AcceleratedDpTracePoint& p : result.trace) {
    absl::StrAppendFormat(&out, "%s,%s,%d,%.6f,%.10g,%d,%.10g\n", p.method, p.init, p.iteration,
                          p.seconds, p.test_log_likelihood, p.features, p.alpha);
  }
  return out;
}

std::string AcceleratedDpSummary(const AcceleratedDpResult& result) {
  // Runs in trace order.
  std::vector<std::pair<std::string, std::string>> runs;
  std::map<std::pair<std::string, std::string>, std::vector<const AcceleratedDpTracePoint*>> points;
  for (const AcceleratedDpTracePoint& p : result.trace) {
    const auto key = std::make_pair(p.method, p.init);
    if (points[key].empty()) runs.push_back(key);
    points[key].push_back(&p);
  }
  // The reference: the best second-half mean of any run (all samplers target the same
  // posterior; a run stuck in a poor mode, like Algorithm 8 in high dimension, must not set it).
  double reference = -std::numeric_limits<double>::infinity();
  for (const auto& key : runs) {
    const auto& ps = points[key];
    double sum = 0;
    for (size_t j = ps.size() / 2; j < ps.size(); ++j) sum += ps[j]->test_log_likelihood;
    reference = std::max(reference, sum / static_cast<double>(ps.size() - ps.size() / 2));
  }
  const double threshold = reference - 0.01 * std::abs(reference);
  std::string out =
      "method,init,final_test_log_likelihood,final_features,seconds,seconds_to_1pct,"
      "iterations_to_1pct\n";

  std::map<std::pair<std::string, std::string>, double> to_1pct;
  for (const auto& key : runs) {
    const auto& ps = points[key];
    double t = std::numeric_limits<double>::quiet_NaN();
    int64_t iterations = -1;
    for (const AcceleratedDpTracePoint* p : ps) {
      if (p->test_log_likelihood >= threshold) {
        t = p->seconds;
        iterations = p->iteration;
        break;
      }
    }
    to_1pct[key] = t;
    absl::StrAppendFormat(&out, "%s,%s,%.10g,%d,%.6f,%.6f,%d\n", key.first, key.second,
                          ps.back()->test_log_likelihood, ps.back()->features, ps.back()->seconds,
                          t, iterations);
  }
  absl::StrAppendFormat(&out,
                        "# reference %.10g (best second-half mean of a run), 1%% threshold "
                        "%.10g\n",
                        reference, threshold);
  for (const auto& key : runs) {
    if (key.first != "accelerated") continue;
    const auto collapsed = to_1pct.find({"collapsed", key.second});
    if (collapsed == to_1pct.end()) continue;
    if (std::isnan(to_1pct[key])) {  // no ratio to report
      absl::StrAppendFormat(&out, "# speedup %s n/a (accelerated never within 1%%)\n",
                            key.second);
    } else if (to_1pct[key] <= 0) {  // within 1% at its first evaluation: no finite ratio
      absl::StrAppendFormat(&out,
                            "# speedup %s n/a (accelerated within 1%% at its first "
                            "evaluation, 0 s)\n",
                            key.second);
    } else if (std::isnan(collapsed->second)) {
      // Collapsed never within 1%: a lower bound from its whole run.
      const double total = points[{"collapsed", key.second}].back()->seconds;
      absl::StrAppendFormat(&out,
                            "# speedup %s >= %.4g (collapsed never within 1%% in %.6fs / "
                            "accelerated %.6fs)\n",
                            key.second, total / to_1pct[key], total, to_1pct[key]);
    } else {
      absl::StrAppendFormat(&out, "# speedup %s %.4g (collapsed %.6fs / accelerated %.6fs)\n",
                            key.second, collapsed->second / to_1pct[key], collapsed->second,
                            to_1pct[key]);
    }
  }
  if (result.clock == "cpu") {
    absl::StrAppend(&out, "# clock cpu: seconds are the sampling steps' CPU seconds summed over ",
                    "the ", result.workers, " rank(s)\n");
  }
  return out;
}

std::string AcceleratedDpFeatureTable(const AcceleratedDpFeatures& features,
                                      const std::vector<std::string>& item_names,
                                      int top_items) {
  std::string out = "feature,size,top_items\n";
  const int d = features.dimension;
  for (size_t k = 0; k < features.sizes.size(); ++k) {
    const absl::Span<const double> theta =
        absl::MakeConstSpan(features.probabilities).subspan(k * d, d);
    const std::vector<int32_t> items = TopItems(theta, top_items);
    std::vector<double> probabilities;
    for (const int32_t w : items) probabilities.push_back(theta[w]);
    absl::StrAppend(&out, k, ",", features.sizes[k], ",",
                    CsvField(TopItemsText(items, probabilities, item_names)), "\n");
  }
  return out;
}

}  // namespace sgmcmc::tools
