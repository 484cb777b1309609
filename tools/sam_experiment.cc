#include "tools/sam_experiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <ios>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "Eigen/Dense"
#include "Eigen/SparseCore"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "base/status_macros.h"
#include "data/corpus.h"
#include "data/tfidf.h"
#include "data/tfidf_reader.h"
#include "data/uci_reader.h"
#include "eval/cmdstan_csv.h"
#include "eval/kernel_stein_discrepancy.h"
#include "models/sam/sam.h"
#include "parallel/thread_pool.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"
#include "rng/sphere_uniform.h"
#include "rng/uniform.h"
#include "rng/von_mises_fisher.h"
#include "samplers/geodesic_toys.h"
#include "samplers/gmc.h"
#include "samplers/sggmc.h"
#include "samplers/sphere_sampler.h"
#include "tools/checkpoint_file.h"
#include "tools/sam_checkpoint.pb.h"

namespace sgmcmc::tools {
namespace {

// The kind of this tool's checkpoint files (tools/checkpoint_file.h).
constexpr absl::string_view kCheckpointKind = "sam";

constexpr int kBins = kSamAngleBins;

template <typename... Args>
void Log(const SamOptions& options, const absl::FormatSpec<Args...>& format,
         const Args&... args) {
  if (options.log == nullptr) return;
  *options.log << absl::StrFormat(format, args...);
  options.log->flush();
}

// A CmdStan CSV writer on `file` for the draws of `algorithm` on `model`, recorded as
// <output_dir>/<file_name>.
absl::StatusOr<eval::CmdStanCsvWriter> OpenDrawsCsv(
    std::ostream* file, const SamOptions& options, const std::string& model,
    const std::string& algorithm, const std::string& file_name, std::vector<std::string> names,
    int64_t num_samples, int64_t thin, int64_t num_warmup) {
  eval::CmdStanCsvOptions csv_options;
  csv_options.model = model;
  csv_options.algorithm = algorithm;
  csv_options.num_samples = num_samples;
  csv_options.num_warmup = num_warmup;
  csv_options.thin = thin;
  csv_options.seed = options.seed;
  csv_options.output_file = absl::StrCat(options.output_dir, "/", file_name);
  return eval::CmdStanCsvWriter::Create(file, std::move(names), csv_options);
}


// β | θ for GMC-bGibbs: the collapsed prior plus every document at its current single θ draw.
class BetaGivenTheta final : public samplers::SpherePotentialModel {
 public:
  explicit BetaGivenTheta(const models::SamTopicModel& model) : model_(model) {}
  int dimension() const override { return model_.dimension(); }
  int num_spheres() const override { return model_.num_spheres(); }
  int64_t num_items() const override { return model_.num_items(); }
  void PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                              Eigen::Ref<Eigen::MatrixXd> out) const override {
    model_.PriorPotentialGradient(x, out);
  }
  void AddLikelihoodPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                      absl::Span<const int64_t> batch, double scale,
                                      Eigen::Ref<Eigen::MatrixXd> out) const override {
    model_.AddLikelihoodPotentialGradient(x, batch, scale, out);
  }
  double Potential(const Eigen::Ref<const Eigen::MatrixXd>& x) const override {
    double u = model_.PriorPotential(x);
    for (int64_t d = 0; d < model_.num_items(); ++d) u += model_.DocumentPotential(x, d);
    return u;
  }

 private:
  const models::SamTopicModel& model_;
};

// {"beta.1.1", "beta.2.1", ..., "beta.V.K"}: CmdStan's names of a V×K matrix, column-major.
std::vector<std::string> MatrixParameterNames(const std::string& name, int rows, int cols) {
  std::vector<std::string> names;
  names.reserve(static_cast<size_t>(rows) * cols);
  for (int k = 1; k <= cols; ++k) {
    for (int i = 1; i <= rows; ++i) names.push_back(absl::StrCat(name, ".", i, ".", k));
  }
  return names;
}

// FNV-1a over a sparse matrix's shape, column starts, rows and value bits.
uint64_t Fingerprint(const Eigen::SparseMatrix<double>& documents) {
  Fnv1a hash;
  hash.Mix(static_cast<uint64_t>(documents.rows()));
  hash.Mix(static_cast<uint64_t>(documents.cols()));
  for (int64_t j = 0; j < documents.outerSize(); ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(documents, j); it; ++it) {
      uint64_t bits;
      std::memcpy(&bits, &it.value(), sizeof(bits));
      hash.Mix(static_cast<uint64_t>(j));
      hash.Mix(static_cast<uint64_t>(it.row()));
      hash.Mix(bits);
    }
  }
  return hash.value();
}

// Everything a method's draws depend on (not the thread count, checkpoint or output options),
// for the checkpoint: a resume with other settings or data is refused.
std::string RunSettings(const SamOptions& o, const std::string& method,
                        const Eigen::SparseMatrix<double>& train,
                        const Eigen::SparseMatrix<double>& test) {
  return absl::StrFormat(
      "method=%s seed=%d iterations=%d burn_in=%d eval_every=%d average_every=%d beta_thin=%d "
      "K=%d kappa=%.17g sigma=%.17g kappa0=%.17g alpha=%.17g step=%.17g friction=%.17g "
      "batch_size=%d gmc_step=%.17g theta=%d,%d,%.17g,%d theta_samples=%d "
      "train=%dx%d:%016x test=%dx%d:%016x",
      method, o.seed, o.iterations, o.burn_in, o.eval_every, o.average_every, o.beta_thin,
      o.num_topics, o.kappa, o.sigma, o.kappa0, o.alpha, o.step, o.friction, o.batch_size,
      o.gmc_step, o.theta_draws, o.theta_burn_in, o.theta_step, o.theta_leapfrog_steps,
      o.theta_samples, train.rows(), train.cols(), Fingerprint(train), test.rows(), test.cols(),
      Fingerprint(test));
}

absl::Status RunMethod(const SamOptions& options, const std::string& method,
                       const Eigen::SparseMatrix<double>& train,
                       const Eigen::SparseMatrix<double>& test,
                       const models::SamHyperparameters& hyper, const Eigen::MatrixXd& beta0,
                       parallel::ThreadPool* pool, SamPerplexityResult& result) {
  models::SamTopicModel model(train, hyper);
  models::SamThetaSampling sampling;
  sampling.draws = method == "gmc_bgibbs" ? 1 : options.theta_draws;
  sampling.burn_in = options.theta_burn_in;
  sampling.gmc.step_size = samplers::StepSizeOptions::Constant(options.theta_step);
  sampling.gmc.leapfrog_steps = options.theta_leapfrog_steps;
  sampling.gmc.seed = options.seed;
  model.EnableThetaSampling(sampling);
  model.SetThreadPool(pool);
  const int64_t d = train.cols();

  std::unique_ptr<samplers::SphereSampler> sampler;
  BetaGivenTheta beta_given_theta(model);
  std::vector<int64_t> all(d);
  for (int64_t i = 0; i < d; ++i) all[i] = i;
  if (method == "gmc_bgibbs") {
    samplers::GmcOptions gmc;
    gmc.step_size = samplers::StepSizeOptions::Constant(options.gmc_step);
    gmc.leapfrog_steps = 5;
    gmc.seed = options.seed;
    SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Gmc::Create(beta_given_theta, beta0, gmc));
  } else {
    samplers::GeodesicSamplerOptions geodesic;
    geodesic.chain.step_size = samplers::StepSizeOptions::Constant(options.step);
    geodesic.chain.batch_size =
        absl::EndsWith(method, "_full") ? d : std::min<int64_t>(options.batch_size, d);
    geodesic.chain.seed = options.seed;
    geodesic.friction = options.friction;
    if (absl::StartsWith(method, "sggmc")) {
      SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Sggmc::Create(model, beta0, geodesic));
    } else if (absl::StartsWith(method, "gsgnht")) {
      SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Gsgnht::Create(model, beta0, geodesic));
    } else {
      return absl::InvalidArgumentError(absl::StrCat("methods: unknown method ", method));
    }
  }
  // β draws after burn_in, every beta_thin-th.
  std::ostringstream beta_file;
  std::optional<eval::CmdStanCsvWriter> beta_writer;
  if (options.beta_thin > 0) {
    SGMCMC_ASSIGN_OR_RETURN(
        beta_writer,
        OpenDrawsCsv(&beta_file, options, "sam", method, absl::StrCat("sam_beta_", method, ".csv"),
                     MatrixParameterNames("beta", model.dimension(), model.num_spheres()),
                     std::max(0, options.iterations - options.burn_in) / options.beta_thin,
                     options.beta_thin, options.burn_in));
  }
  models::SamPerplexityAccumulator averaged(test, hyper, options.theta_samples, 12345);
  double seconds = 0;
  int first = 1;
  const size_t first_row = result.rows.size();
  const std::string checkpoint_path =
      absl::StrCat(options.output_dir, "/sam_checkpoint_", method, ".pb");
  const std::string settings = RunSettings(options, method, train, test);
  if (options.resume && std::filesystem::exists(checkpoint_path)) {
    SGMCMC_ASSIGN_OR_RETURN(const std::string bytes,
                            ReadCheckpoint(checkpoint_path, kCheckpointKind));
    SamRunCheckpoint checkpoint;
    if (!checkpoint.ParseFromString(bytes)) {
      return absl::DataLossError(absl::StrCat(checkpoint_path, ": not a SamRunCheckpoint"));
    }
    const auto fail = [&](const absl::Status& status) {
      return absl::Status(status.code(), absl::StrCat(checkpoint_path, ": ", status.message()));
    };
    if (checkpoint.method() != method || checkpoint.seed() != options.seed) {
      return fail(absl::InvalidArgumentError(
          absl::StrCat("written by method ", checkpoint.method(), " seed ", checkpoint.seed(),
                       ", resuming method ", method, " seed ", options.seed)));
    }
    if (checkpoint.settings() != settings) {
      return fail(absl::FailedPreconditionError(
          absl::StrCat("written with different settings or data; checkpoint: ",
                       checkpoint.settings(), "; this run: ", settings)));
    }
    if (checkpoint.iteration() < 0 || checkpoint.iteration() > options.iterations ||
        !std::isfinite(checkpoint.seconds()) || checkpoint.seconds() < 0) {
      return fail(absl::InvalidArgumentError(
          absl::StrCat("iteration ", checkpoint.iteration(), " not in [0, ", options.iterations,
                       "] or seconds ", checkpoint.seconds(), " not finite and >= 0")));
    }
    if (checkpoint.beta_csv().empty() == beta_writer.has_value()) {
      return fail(absl::InvalidArgumentError("beta_csv does not match --beta_thin"));
    }
    if (absl::Status s = sampler->RestoreState(checkpoint.sampler()); !s.ok()) return fail(s);
    if (absl::Status s = model.RestoreState(checkpoint.model()); !s.ok()) return fail(s);
    if (absl::Status s = averaged.RestoreState(checkpoint.perplexity()); !s.ok()) return fail(s);
    for (const SamRunCheckpoint::Row& row : checkpoint.rows()) {
      result.rows.push_back({method, row.iteration(), row.seconds(), row.log_perplexity()});
    }
    if (beta_writer) {
      beta_file.str(checkpoint.beta_csv());
      beta_file.seekp(0, std::ios_base::end);
    }
    first = checkpoint.iteration() + 1;
    seconds = checkpoint.seconds();
    Log(options, "%-12s resumed at iteration %d from %s\n", method, checkpoint.iteration(),
        checkpoint_path);
  }
  const auto save = [&](int iteration) {
    SamRunCheckpoint checkpoint;
    checkpoint.set_method(method);
    checkpoint.set_seed(options.seed);
    checkpoint.set_settings(settings);
    checkpoint.set_iteration(iteration);
    checkpoint.set_seconds(seconds);
    *checkpoint.mutable_sampler() = sampler->SaveState();
    *checkpoint.mutable_model() = model.SaveState();
    *checkpoint.mutable_perplexity() = averaged.SaveState();
    for (size_t i = first_row; i < result.rows.size(); ++i) {
      SamRunCheckpoint::Row* row = checkpoint.add_rows();
      row->set_iteration(result.rows[i].iteration);
      row->set_seconds(result.rows[i].seconds);
      row->set_log_perplexity(result.rows[i].log_perplexity);
    }
    if (beta_writer) checkpoint.set_beta_csv(beta_file.str());
    return WriteCheckpoint(checkpoint_path, kCheckpointKind, checkpoint.SerializeAsString());
  };
  for (int m = first; m <= options.iterations; ++m) {
    if (options.stop_after > 0 && m > options.stop_after) {
      result.stopped = true;
      return save(m - 1);
    }
    const auto start = std::chrono::steady_clock::now();
    if (method == "gmc_bgibbs") model.PrepareBatch(sampler->x(), all);
    sampler->Step();
    seconds += SecondsSince(start);
    if (m > options.burn_in && (m - options.burn_in) % options.average_every == 0) {
      averaged.Add(sampler->x());
    }
    if (beta_writer && m > options.burn_in && (m - options.burn_in) % options.beta_thin == 0) {
      const Eigen::MatrixXd& beta = sampler->x();
      SGMCMC_RETURN_IF_ERROR(beta_writer->WriteDraw(-model.PriorPotential(beta),
                                                    absl::MakeConstSpan(beta.data(), beta.size())));
    }
    if (m % options.eval_every == 0) {
      const std::vector<Eigen::MatrixXd> current = {sampler->x()};
      const double perplexity =
          averaged.draws() > 0
              ? averaged.LogPerplexity()
              : models::SamLogPerplexity(current, test, hyper, options.theta_samples, 12345);
      result.rows.push_back({method, m, seconds, perplexity});
      Log(options, "%-12s it %5d  %7.2fs  log-perplexity %.4f  (%lld draws averaged)\n", method, m,
          seconds, perplexity, static_cast<long long>(averaged.draws()));
    }
    if (options.checkpoint_every > 0 &&
        (m % options.checkpoint_every == 0 || m == options.iterations)) {
      SGMCMC_RETURN_IF_ERROR(save(m));
    }
  }
  if (beta_writer) {
    SGMCMC_RETURN_IF_ERROR(beta_writer->Finish(0, seconds));
    result.beta_csv.emplace_back(absl::StrCat("sam_beta_", method, ".csv"), beta_file.str());
  }
  return absl::OkStatus();
}

int Bin(double theta) {
  const int b = static_cast<int>((theta + M_PI) / (2 * M_PI) * kBins);
  return std::clamp(b, 0, kBins - 1);
}

constexpr const char* kToyNames[] = {"sggmc", "gsgnht"};

}  // namespace

absl::Status SamOptions::Validate() const {
  const auto fail = [](absl::string_view field, absl::string_view want, auto value) {
    return absl::InvalidArgumentError(absl::StrCat(field, " must be ", want, ", got ", value));
  };
  if (num_topics < 2) return fail("num_topics", ">= 2", num_topics);
  // The gradient's K x K Gram matrices: K = 100000 was a bad_alloc.
  if (num_topics > kMaxSamTopics) {
    return fail("num_topics", absl::StrCat("<= ", kMaxSamTopics), num_topics);
  }
  if (iterations < 1) return fail("iterations", ">= 1", iterations);
  if (eval_every < 1) return fail("eval_every", ">= 1", eval_every);
  if (burn_in < 0) return fail("burn_in", ">= 0", burn_in);
  if (theta_samples < 1) return fail("theta_samples", ">= 1", theta_samples);
  if (batch_size < 1) return fail("batch_size", ">= 1", batch_size);
  if (theta_draws < 1) return fail("theta_draws", ">= 1", theta_draws);
  if (theta_burn_in < 0) return fail("theta_burn_in", ">= 0", theta_burn_in);
  if (!(theta_step > 0)) return fail("theta_step", "> 0", theta_step);
  if (theta_leapfrog_steps < 1) {
    return fail("theta_leapfrog_steps", ">= 1", theta_leapfrog_steps);
  }
  if (beta_thin < 0) return fail("beta_thin", ">= 0", beta_thin);
  if (average_every < 1) return fail("average_every", ">= 1", average_every);
  if (checkpoint_every < 0) return fail("checkpoint_every", ">= 0", checkpoint_every);
  if (stop_after < 0) return fail("stop_after", ">= 0", stop_after);
  SGMCMC_RETURN_IF_ERROR(CheckThreadCount("num_threads", num_threads));
  if (!(kappa >= 0)) return fail("kappa", ">= 0", kappa);
  if (!(sigma > 0)) return fail("sigma", "> 0", sigma);
  if (!(kappa0 > 0)) return fail("kappa0", "> 0", kappa0);
  if (!(alpha > 0)) return fail("alpha", "> 0", alpha);
  // Infinite concentrations and steps would reach the variate generators' CHECKs.
  for (const auto& [field, value] : {std::pair<absl::string_view, double>{"kappa", kappa},
                                     {"sigma", sigma},
                                     {"kappa0", kappa0},
                                     {"alpha", alpha},
                                     {"theta_step", theta_step},
                                     {"step", step},
                                     {"gmc_step", gmc_step}}) {
    if (!std::isfinite(value)) return fail(field, "finite", value);
  }
  if (methods.empty()) return absl::InvalidArgumentError("methods must name at least one method");
  if (experiments.empty()) {
    return absl::InvalidArgumentError("experiments must name at least one experiment");
  }
  for (const std::string& method : methods) {
    if (method != "sggmc" && method != "gsgnht" && method != "sggmc_full" &&
        method != "gsgnht_full" && method != "gmc_bgibbs") {
      return absl::InvalidArgumentError(absl::StrCat("methods: unknown method ", method));
    }
  }
  for (const std::string& experiment : experiments) {
    if (experiment != "toy" && experiment != "synthetic" && experiment != "sam") {
      return absl::InvalidArgumentError(
          absl::StrCat("experiments: unknown experiment ", experiment));
    }
  }
  if (toy_iterations < 10) return fail("toy_iterations", ">= 10", toy_iterations);
  if (synthetic_iterations < 1) {
    return fail("synthetic_iterations", ">= 1", synthetic_iterations);
  }
  if (train.empty() != test.empty()) {
    return absl::InvalidArgumentError("train and test go together");
  }
  if (!uci_docword.empty()) {
    if (test_every < 2) return absl::InvalidArgumentError("test_every must be >= 2");
    if (tfidf_words < 2) return absl::InvalidArgumentError("tfidf_words must be >= 2");
  }
  return absl::OkStatus();
}

bool SamOptions::Wants(const std::string& name) const {
  return std::find(experiments.begin(), experiments.end(), name) != experiments.end();
}

absl::StatusOr<double> SphereDrawsKsd(const samplers::SpherePotentialModel& model,
                                      absl::Span<const double> draws) {
  const int p = model.dimension();
  const int values = p * model.num_spheres();
  std::vector<int64_t> batch(model.num_items());
  for (int64_t i = 0; i < model.num_items(); ++i) batch[i] = i;
  std::vector<double> scores(draws.size());
  Eigen::MatrixXd grad(p, model.num_spheres());
  for (size_t start = 0; start + values <= draws.size(); start += values) {
    const Eigen::Map<const Eigen::MatrixXd> x(&draws[start], p, model.num_spheres());
    samplers::StochasticSphereGradient(model, x, batch, grad);
    for (int k = 0; k < values; ++k) scores[start + k] = -grad.data()[k];
  }
  eval::KernelSteinOptions ksd;
  ksd.sphere_dimension = p;
  SGMCMC_ASSIGN_OR_RETURN(const eval::KsdEstimate estimate,
                          eval::KernelSteinDiscrepancy(draws, scores, values, {}, ksd));
  return estimate.value();
}

namespace {

// Keeps `target` (<= iterations) evenly spaced draws of `x` (column-major, as SphereDrawsKsd
// takes it) out of `iterations` calls: those of calls m + 1 = floor((j + 1) iterations /
// target), j = 0..target - 1, i.e. every (iterations / target)-th when that divides. Chains
// of different lengths get the same number of draws (the KSD's V statistic depends on it).
class KsdDraws {
 public:
  KsdDraws(int64_t iterations, int64_t target)
      : iterations_(iterations), target_(std::min(target, iterations)) {}
  void Offer(int64_t m, const Eigen::MatrixXd& x) {
    if (kept_ < target_ && m + 1 == (kept_ + 1) * iterations_ / target_) {
      draws_.insert(draws_.end(), x.data(), x.data() + x.size());
      ++kept_;
    }
  }
  const std::vector<double>& draws() const { return draws_; }
  int64_t kept() const { return kept_; }
  int64_t every() const { return iterations_ / target_; }

 private:
  int64_t iterations_, target_;
  int64_t kept_ = 0;
  std::vector<double> draws_;
};

}  // namespace

absl::StatusOr<SamToyResult> RunSamToy(const SamOptions& options) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  const int n = options.toy_iterations;
  SamToyResult result;
  result.iterations = n;
  // Exact CDF on a fine grid for the KS distance.
  const int grid = 20000;
  std::vector<double> cdf(grid + 1, 0.0);
  for (int i = 1; i <= grid; ++i) {
    cdf[i] = cdf[i - 1] +
             samplers::ToyCircle::AngleDensity(-M_PI + (i - 0.5) * 2 * M_PI / grid) * 2 * M_PI / grid;
  }
  Eigen::MatrixXd histogram = Eigen::MatrixXd::Zero(kBins, 2);
  for (int which = 0; which < 2; ++which) {
    samplers::ToyCircle toy(std::sqrt(1000.0), 17);
    samplers::GeodesicSamplerOptions geodesic;
    geodesic.chain.step_size = samplers::StepSizeOptions::Constant(0.002);
    geodesic.chain.seed = options.seed;
    geodesic.friction = 1.2;
    geodesic.gradient_noise = 1000;
    geodesic.inner_steps = 100;
    const Eigen::MatrixXd x0 = Eigen::Vector2d(1, 0);
    std::unique_ptr<samplers::SphereSampler> sampler;
    if (which == 0) {
      SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Sggmc::Create(toy, x0, geodesic));
    } else {
      SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Gsgnht::Create(toy, x0, geodesic));
    }
    std::ostringstream file;
    SGMCMC_ASSIGN_OR_RETURN(eval::CmdStanCsvWriter writer,
                            OpenDrawsCsv(&file, options, "toy_circle", kToyNames[which],
                                         absl::StrCat("sam_toy_", kToyNames[which], ".csv"),
                                         {"x.1", "x.2", "angle"}, n / 10, 10, 0));
    std::vector<double> u(n);
    KsdDraws ksd_draws(n, kSamKsdDraws);
    const auto start = std::chrono::steady_clock::now();
    for (int m = 0; m < n; ++m) {
      sampler->Step();
      ksd_draws.Offer(m, sampler->x());
      const double angle = std::atan2(sampler->x()(1, 0), sampler->x()(0, 0));
      histogram(Bin(angle), which) += 1;
      const double t = (angle + M_PI) / (2 * M_PI) * grid;
      const int i = std::clamp(static_cast<int>(t), 0, grid - 1);
      u[m] = cdf[i] + (t - i) * (cdf[i + 1] - cdf[i]);
      if (m % 10 == 9) {
        const double draw[] = {sampler->x()(0, 0), sampler->x()(1, 0), angle};
        SGMCMC_RETURN_IF_ERROR(writer.WriteDraw(-samplers::ToyCircle::AnglePotential(angle), draw));
      }
    }
    SGMCMC_RETURN_IF_ERROR(writer.Finish(0, SecondsSince(start)));
    result.draws_csv[which] = file.str();
    std::sort(u.begin(), u.end());
    double ks = 0;
    for (int m = 0; m < n; ++m) {
      ks = std::max({ks, std::abs(u[m] - static_cast<double>(m) / n),
                     std::abs(u[m] - static_cast<double>(m + 1) / n)});
    }
    result.ks[which] = ks;
    SGMCMC_ASSIGN_OR_RETURN(result.ksd[which],
                            SphereDrawsKsd(samplers::ToyCircle(), ksd_draws.draws()));
    result.ksd_draws = static_cast<int>(ksd_draws.draws().size() / 2);
    Log(options,
        "toy %-6s: %d iterations x 100 inner steps in %s, KS distance of the angle %.4f, KSD "
        "%.4f (%d draws, thinned by %d)\n",
        kToyNames[which], n, HumanSeconds(SecondsSince(start)), ks, result.ksd[which],
        result.ksd_draws, static_cast<int>(ksd_draws.every()));
  }
  // The same number of exact draws (inverse CDF of the angle on the grid) for scale.
  {
    rng::Engine engine(options.seed, kSamToyExactStream);
    std::vector<double> exact(2 * static_cast<size_t>(result.ksd_draws));
    for (int i = 0; i < result.ksd_draws; ++i) {
      const double v = rng::UniformDouble(engine);
      const int cell = static_cast<int>(std::upper_bound(cdf.begin(), cdf.end(), v * cdf[grid]) -
                                        cdf.begin()) - 1;
      const int j = std::clamp(cell, 0, grid - 1);
      const double within = (v * cdf[grid] - cdf[j]) / (cdf[j + 1] - cdf[j]);
      const double angle = -M_PI + (j + within) * 2 * M_PI / grid;
      exact[2 * i] = std::cos(angle);
      exact[2 * i + 1] = std::sin(angle);
    }
    SGMCMC_ASSIGN_OR_RETURN(result.ksd_exact, SphereDrawsKsd(samplers::ToyCircle(), exact));
    Log(options, "toy exact : KSD %.4f of %d iid draws of the exact law (the floor at this n)\n",
        result.ksd_exact, result.ksd_draws);
  }
  result.histogram = std::move(histogram);
  return result;
}

OutputFiles SamToyOutputFiles(const SamToyResult& result) {
  const int n = result.iterations;
  std::string csv = "angle,exact,sggmc,gsgnht\n";
  const double width = 2 * M_PI / kBins;
  for (int b = 0; b < kBins; ++b) {
    const double centre = -M_PI + (b + 0.5) * width;
    absl::StrAppendFormat(&csv, "%.6f,%.6f,%.6f,%.6f\n", centre,
                          samplers::ToyCircle::AngleDensity(centre),
                          result.histogram(b, 0) / (n * width),
                          result.histogram(b, 1) / (n * width));
  }
  return {{"sam_toy_sggmc.csv", result.draws_csv[0]},
          {"sam_toy_gsgnht.csv", result.draws_csv[1]},
          {"sam_toy_angles.csv", std::move(csv)}};
}

absl::StatusOr<SamSyntheticResult> RunSamSynthetic(const SamOptions& options) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  const samplers::TwoVmfPosterior model(
      samplers::TwoVmfPosterior::Generate(1.0, -0.6, 4.0, 50, 2016), 1.0, 4.0);
  SamSyntheticResult result;
  result.exact = model.ExactMarginals(kBins);
  const int n = options.synthetic_iterations;
  Eigen::MatrixXd x0(2, 2);
  x0 << 1, 1, 0, 0;
  Eigen::MatrixXd histograms = Eigen::MatrixXd::Zero(kBins, 6);
  const char* names[] = {"gmc", "sggmc", "gsgnht"};
  for (int which = 0; which < 3; ++which) {
    std::unique_ptr<samplers::SphereSampler> sampler;
    int iterations = n;
    if (which == 0) {
      samplers::GmcOptions gmc;
      gmc.step_size = samplers::StepSizeOptions::Constant(0.05);
      gmc.leapfrog_steps = 10;
      gmc.seed = options.seed;
      SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Gmc::Create(model, x0, gmc));
    } else {
      samplers::GeodesicSamplerOptions geodesic;
      geodesic.chain.seed = options.seed;
      geodesic.friction = 1.0;
      if (which == 1) {
        geodesic.chain.step_size = samplers::StepSizeOptions::Constant(0.002);
        geodesic.chain.batch_size = 10;
        iterations = 10 * n;
        SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Sggmc::Create(model, x0, geodesic));
      } else {
        geodesic.chain.step_size = samplers::StepSizeOptions::Constant(0.01);
        geodesic.chain.batch_size = 50;
        geodesic.inner_steps = 10;
        SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Gsgnht::Create(model, x0, geodesic));
      }
    }
    // n / 10 draws from every chain: every 10th, every 100th of SGGMC's 10 n.
    const int thin = iterations / n * 10;
    std::ostringstream file;
    SGMCMC_ASSIGN_OR_RETURN(
        eval::CmdStanCsvWriter writer,
        OpenDrawsCsv(&file, options, "two_vmf_posterior", names[which],
                     absl::StrCat("sam_synthetic_", names[which], ".csv"),
                     {"x.1.1", "x.2.1", "x.1.2", "x.2.2", "theta.1", "theta.2"}, n / 10, thin, 0));
    const auto start = std::chrono::steady_clock::now();
    double mode_one = 0;
    // As many draws for SGGMC's 10x longer chain as for the others.
    KsdDraws ksd_draws(iterations, std::min(options.synthetic_iterations, kSamKsdDraws));
    for (int m = 0; m < iterations; ++m) {
      sampler->Step();
      const Eigen::MatrixXd& x = sampler->x();
      ksd_draws.Offer(m, x);
      const double t1 = std::atan2(x(1, 0), x(0, 0));
      const double t2 = std::atan2(x(1, 1), x(0, 1));
      histograms(Bin(t1), 2 * which) += 1;
      histograms(Bin(t2), 2 * which + 1) += 1;
      if (t1 > 0.6) mode_one += 1;
      if (m % thin == thin - 1) {
        const double draw[] = {x(0, 0), x(1, 0), x(0, 1), x(1, 1), t1, t2};
        SGMCMC_RETURN_IF_ERROR(writer.WriteDraw(-model.Potential(x), draw));
      }
    }
    SGMCMC_RETURN_IF_ERROR(writer.Finish(0, SecondsSince(start)));
    result.draws_csv[which] = file.str();
    histograms.col(2 * which) /= iterations * 2 * M_PI / kBins;
    histograms.col(2 * which + 1) /= iterations * 2 * M_PI / kBins;
    result.mode_fraction[which] = mode_one / iterations;
    SGMCMC_ASSIGN_OR_RETURN(result.ksd[which], SphereDrawsKsd(model, ksd_draws.draws()));
    result.ksd_draws[which] = static_cast<int>(ksd_draws.kept());
    Log(options,
        "synthetic %-6s: %d iterations in %s, fraction with theta_1 > 0.6 (mode of "
        "v_1 = v_1^(g)): %.4f, KSD %.4f (%d draws, thinned by %d)\n",
        names[which], iterations, HumanSeconds(SecondsSince(start)), mode_one / iterations,
        result.ksd[which], static_cast<int>(ksd_draws.kept()),
        static_cast<int>(ksd_draws.every()));
  }
  double exact_one = 0;
  const int fine = 1000;
  const Eigen::MatrixXd fine_marginals = model.ExactMarginals(fine);
  for (int b = 0; b < fine; ++b) {
    if (-M_PI + (b + 0.5) * 2 * M_PI / fine > 0.6) {
      exact_one += fine_marginals(0, b) * 2 * M_PI / fine;
    }
  }
  result.exact_mode_fraction = exact_one;
  Log(options, "synthetic exact : fraction with theta_1 > 0.6: %.4f (grid)\n", exact_one);
  result.histograms = std::move(histograms);
  return result;
}

OutputFiles SamSyntheticOutputFiles(const SamSyntheticResult& result) {
  const Eigen::MatrixXd& exact = result.exact;
  const Eigen::MatrixXd& histograms = result.histograms;
  std::string csv =
      "angle,exact_v1,gmc_v1,sggmc_v1,gsgnht_v1,exact_v2,gmc_v2,sggmc_v2,gsgnht_v2\n";
  for (int b = 0; b < kBins; ++b) {
    absl::StrAppendFormat(&csv, "%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n",
                          -M_PI + (b + 0.5) * 2 * M_PI / kBins, exact(0, b), histograms(b, 0),
                          histograms(b, 2), histograms(b, 4), exact(1, b), histograms(b, 1),
                          histograms(b, 3), histograms(b, 5));
  }
  return {{"sam_synthetic_gmc.csv", result.draws_csv[0]},
          {"sam_synthetic_sggmc.csv", result.draws_csv[1]},
          {"sam_synthetic_gsgnht.csv", result.draws_csv[2]},
          {"sam_synthetic_marginals.csv", std::move(csv)}};
}

absl::StatusOr<SamData> LoadSamData(const SamOptions& options) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  SamData data;
  const int k = options.num_topics;
  if (!options.uci_docword.empty()) {
    SGMCMC_ASSIGN_OR_RETURN(data::Corpus corpus,
                            data::ReadUciCorpus(options.uci_docword, options.uci_vocab));
    std::vector<int> train_ids, test_ids;
    for (int d = 0; d < corpus.num_documents(); ++d) {
      (d % options.test_every == 0 ? test_ids : train_ids).push_back(d);
    }
    const data::Corpus train_corpus = data::SelectDocuments(corpus, train_ids);
    const data::TfidfVocabulary vocabulary =
        data::ChooseTfidfVocabulary(train_corpus, options.tfidf_words);
    data.train = data::TfidfTransform(train_corpus, vocabulary).documents;
    data.test =
        data::TfidfTransform(data::SelectDocuments(corpus, test_ids), vocabulary).documents;
    Log(options, "tf-idf corpus: V = %zu, %lld training and %lld held-out documents\n",
        vocabulary.words.size(), static_cast<long long>(data.train.cols()),
        static_cast<long long>(data.test.cols()));
  } else if (options.train.empty()) {
    const int v = 50;
    Eigen::MatrixXd truth = Eigen::MatrixXd::Constant(v, k, 0.1);
    for (int i = 0; i < v; ++i) truth(i, i * k / v) = 1.0;
    truth.colwise().normalize();
    data.train = models::SampleSamDocuments(truth, 500, options.kappa, 1);
    data.test = models::SampleSamDocuments(truth, 200, options.kappa, 2);
    models::SamHyperparameters truth_hyper;
    truth_hyper.num_topics = k;
    truth_hyper.kappa = options.kappa;
    truth_hyper.alpha = 1;
    truth_hyper.m = Eigen::VectorXd::Constant(v, 1 / std::sqrt(static_cast<double>(v)));
    const std::vector<Eigen::MatrixXd> truth_draws = {truth};
    Log(options,
        "generated data: V = %d, K = %d; held-out log-perplexity at the true topics %.4f\n", v,
        k, models::SamLogPerplexity(truth_draws, data.test, truth_hyper, options.theta_samples,
                                    12345));
  } else {
    SGMCMC_ASSIGN_OR_RETURN(data::TfidfCorpus a, data::ReadTfidfCorpus(options.train));
    SGMCMC_ASSIGN_OR_RETURN(data::TfidfCorpus b, data::ReadTfidfCorpus(options.test));
    if (b.documents.rows() != a.documents.rows()) {
      return absl::InvalidArgumentError(
          absl::StrCat(options.test, ":1: V = ", b.documents.rows(), ", but the training file ",
                       options.train, " has V = ", a.documents.rows()));
    }
    for (const auto& [path, corpus] : {std::pair{&options.train, &a}, {&options.test, &b}}) {
      if (corpus->documents.cols() == 0) {
        return absl::InvalidArgumentError(absl::StrCat(*path, ":1: no documents (D = 0)"));
      }
    }
    data.train = std::move(a.documents);
    data.test = std::move(b.documents);
  }
  return data;
}

absl::StatusOr<SamPerplexityResult> RunSamPerplexity(const SamOptions& options,
                                                     const SamData& data) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  const Eigen::SparseMatrix<double>& train = data.train;
  if (train.cols() == 0 || data.test.cols() == 0 || data.test.rows() != train.rows()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SamData: need >= 1 training and >= 1 held-out document over one vocabulary, got V x D ",
        train.rows(), " x ", train.cols(), " and ", data.test.rows(), " x ", data.test.cols()));
  }
  const int k = options.num_topics;
  models::SamHyperparameters hyper;
  hyper.num_topics = k;
  hyper.kappa = options.kappa;
  hyper.sigma = options.sigma;
  hyper.kappa0 = options.kappa0;
  hyper.alpha = options.alpha;
  const int v = static_cast<int>(train.rows());
  hyper.m = Eigen::VectorXd::Constant(v, 1 / std::sqrt(static_cast<double>(v)));
  // Start: each topic the normalised mean of a few training documents plus noise.
  rng::Engine engine(options.seed, 99);
  Eigen::MatrixXd beta0(v, k);
  Eigen::VectorXd noise(v);
  for (int j = 0; j < k; ++j) {
    rng::SphereUniformSample(engine, noise);
    beta0.col(j) = (Eigen::VectorXd(train.col(j % train.cols())) + 0.1 * noise).normalized();
  }
  SamPerplexityResult result;
  std::unique_ptr<parallel::ThreadPool> pool;
  if (options.num_threads > 1) pool = std::make_unique<parallel::ThreadPool>(options.num_threads);
  for (const std::string& method : options.methods) {
    SGMCMC_RETURN_IF_ERROR(
        RunMethod(options, method, train, data.test, hyper, beta0, pool.get(), result));
    if (result.stopped) break;
  }
  return result;
}

OutputFiles SamPerplexityOutputFiles(const SamPerplexityResult& result) {
  std::string csv = "method,iteration,seconds,log_perplexity\n";
  for (const SamPerplexityRow& row : result.rows) {
    absl::StrAppendFormat(&csv, "%s,%d,%.4f,%.6f\n", row.method, row.iteration, row.seconds,
                          row.log_perplexity);
  }
  OutputFiles files = result.beta_csv;
  files.emplace_back("sam_perplexity.csv", std::move(csv));
  return files;
}

}  // namespace sgmcmc::tools
