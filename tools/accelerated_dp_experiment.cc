#include "tools/accelerated_dp_experiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <ostream>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/seconds_since.h"
#include "base/status_macros.h"
#include "data/idx_reader.h"
#include "models/dp/distributed_slice.h"
#include "models/dp/logistic_normal_model.h"
#include "models/dp/neal8.h"
#include "models/dp/parallel.h"
#include "models/simplex/logistic_normal_multinomial.h"
#include "rng/engine.h"
#include "rng/uniform.h"
#include "tools/tool_support.h"

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
                         const Run& run, std::vector<AcceleratedDpFeatures>* features) {
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
  SGMCMC_ASSIGN_OR_RETURN(double ll, sampler->TestLogPredictive(test));
  run.Add(0, 0, ll, sampler->num_features(), sampler->alpha());
  for (int t = 1; t <= options.iterations; ++t) {
    clock.Start();
    SGMCMC_RETURN_IF_ERROR(sampler->Iterate());
    clock.Stop();
    if (!sampler->just_synchronised()) continue;
    SGMCMC_ASSIGN_OR_RETURN(ll, sampler->TestLogPredictive(test));
    SGMCMC_ASSIGN_OR_RETURN(const double seconds, clock.Seconds());
    run.Add(t, seconds, ll, sampler->num_features(), sampler->alpha());
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
                          std::vector<AcceleratedDpFeatures>* features) {
  SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<models::DpComponentModel> model_ptr,
                          MakeAcceleratedDpModel(options, train.dimension));
  const models::DpComponentModel& model = *model_ptr;
  models::DpNeal8Options no;
  no.num_auxiliary = options.num_auxiliary;
  no.seed = options.seed;
  models::DpNeal8 sampler(&model, &train, no, initial);
  StepClock clock(options, /*comm=*/nullptr);
  run.Add(0, 0, SumTestLogPredictive(sampler, test), sampler.num_clusters(), sampler.alpha());
  for (int t = 1; t <= options.iterations; ++t) {
    clock.Start();
    sampler.Sweep();
    clock.Stop();
    SGMCMC_ASSIGN_OR_RETURN(const double seconds, clock.Seconds());
    run.Add(t, seconds, SumTestLogPredictive(sampler, test), sampler.num_clusters(),
            sampler.alpha());
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
                            const Run& run) {
  SGMCMC_ASSIGN_OR_RETURN(std::unique_ptr<models::DpComponentModel> model_ptr,
                          MakeAcceleratedDpModel(options, train.dimension));
  models::DpComponentModel& model = *model_ptr;
  models::DpDistributedSliceOptions so;
  so.seed = options.seed;
  SGMCMC_ASSIGN_OR_RETURN(auto sampler,
                          models::DpDistributedSlice::Create(&comm, &model, &train, so, initial));
  StepClock clock(options, &comm);
  for (int t = 1; t <= options.iterations; ++t) {
    clock.Start();
    SGMCMC_RETURN_IF_ERROR(sampler->Step());
    clock.Stop();
    SGMCMC_ASSIGN_OR_RETURN(const double ll, sampler->TestLogPredictive(test));
    SGMCMC_ASSIGN_OR_RETURN(const double seconds, clock.Seconds());
    run.Add(t, seconds, ll, sampler->num_occupied(), sampler->alpha());
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status AcceleratedDpExperimentOptions::Validate() const {
  SGMCMC_RETURN_IF_ERROR(AtLeast("train_points", train_points, 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("test_points", test_points, 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("dimension", dimension, 2));
  SGMCMC_RETURN_IF_ERROR(AtLeast("counts_per_point", counts_per_point, 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("true_components", true_components, 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("iterations", iterations, 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("sync_every", sync_every, 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("accelerated_iterations", accelerated_iterations, 0));
  SGMCMC_RETURN_IF_ERROR(AtLeast("num_auxiliary", num_auxiliary, 1));
  SGMCMC_RETURN_IF_ERROR(AtLeast("initial_clusters", initial_clusters, 1));
  // The synthetic rows are dense counts: bounded like the items of an IDX file.
  const int64_t cells = (int64_t{train_points} + test_points) * dimension;
  if (fashion_mnist_dir.empty() && cells > data::IdxLimits().max_items) {
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
  SGMCMC_RETURN_IF_ERROR(NameFlags(data::IdxCountOptions{max_count}.Validate(),
                                   {{"IdxCountOptions.max_count", "max_count"}}));
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

absl::Status LoadAcceleratedDpData(const AcceleratedDpExperimentOptions& options,
                                   models::CountMatrix* train, models::CountMatrix* test) {
  if (options.fashion_mnist_dir.empty()) {
    SyntheticMixtureCounts(options, train, test);
    return absl::OkStatus();
  }
  const std::pair<const char*, int> files[2] = {
      {"train-images-idx3-ubyte.gz", options.train_points},
      {"t10k-images-idx3-ubyte.gz", options.test_points}};
  models::CountMatrix* out[2] = {train, test};
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
    if (f == 1 && images.pixels_per_image() != train->dimension) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": byte 8: images of ", images.rows, " x ", images.cols, " = ",
          images.pixels_per_image(), " pixels, but the training images have ", train->dimension));
    }
    images.count = files[f].second;
    images.pixels.resize(static_cast<size_t>(images.count) * images.pixels_per_image());
    const data::CountMatrix counts = data::ImagesToCounts(images, {options.max_count});
    out[f]->dimension = counts.cols;
    out[f]->values.assign(counts.counts.begin(), counts.counts.end());
  }
  return absl::OkStatus();
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
  models::CountMatrix train, test;
  SGMCMC_RETURN_IF_ERROR(LoadAcceleratedDpData(options, &train, &test));
  AcceleratedDpResult result;
  result.workers = comm.size();
  result.clock = options.clock;
  for (const std::string& init : options.inits) {
    const std::vector<int32_t> initial = InitialLabels(options, train, init);
    for (const std::string& method : options.methods) {
      const Run run{&result.trace, method, init, options.iterations,
                    comm.rank() == 0 ? options.progress : nullptr};
      if (method == "accelerated" || method == "hybrid") {
        SGMCMC_RETURN_IF_ERROR(RunParallel(options, method == "accelerated", train, test, initial,
                                           comm, run, &result.features));
      } else if (method == "uncollapsed") {
        SGMCMC_RETURN_IF_ERROR(RunUncollapsed(options, train, test, initial, comm, run));
      } else if (comm.rank() == 0) {  // collapsed: serial
        SGMCMC_RETURN_IF_ERROR(RunCollapsed(options, train, test, initial, run, &result.features));
      }
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

}  // namespace sgmcmc::tools
