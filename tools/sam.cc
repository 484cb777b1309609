// sam: the spherical admixture model (models/sam.h) under SGGMC and gSGNHT (minibatch and full
// batch) and GMC-bGibbs (blockwise Gibbs: θ_d | β by GMC for every document, then one
// full-batch GMC step of β | θ), log-perplexity on held-out documents versus wall time
// (Liu, Zhu & Song 2016, Sec. 5).
//
// Data: --train/--test in the 20news-diff tf-idf format (data/tfidf_reader.h), e.g.
//   bazel run //tools:sam -- --train=../shared/data/20news-diff/diff.train.tfidf1.data.gz
//       --test=../shared/data/20news-diff/diff.test.tfidf1.data.gz --num_topics=20
// or, by default, documents generated from SAM itself (V = 50, K = 4, 500 + 200 documents),
// which runs in well under a minute.
//
// Experiments (--experiments, default all three):
//  - toy: SGGMC and gSGNHT on the slides' circle with N(0, 1000 I) gradient noise;
//    sam_toy_angles.csv (bin centre, exact density, histograms) and the draws (every 10th)
//    as CmdStan CSV, sam_toy_sggmc.csv and sam_toy_gsgnht.csv; KS distances printed.
//  - synthetic: the two-vMF posterior; sam_synthetic_marginals.csv (exact and GMC / SGGMC /
//    gSGNHT marginal histograms of both angles); mode fractions printed.
//  - sam: sam_perplexity.csv (method, iteration, seconds (sampling only, evaluation
//    excluded), log_perplexity of the draws after --burn_in averaged as in the slides, or
//    of the current draw before).
// No plots yet.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "Eigen/SparseCore"
#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "data/corpus.h"
#include "data/tfidf.h"
#include "data/tfidf_reader.h"
#include "data/uci_reader.h"
#include "eval/cmdstan_csv.h"
#include "models/geodesic_toys.h"
#include "models/sam.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"
#include "rng/sphere_uniform.h"
#include "rng/von_mises_fisher.h"
#include "samplers/gmc.h"
#include "samplers/sggmc.h"
#include "samplers/sphere_sampler.h"
#include "tools/tool_support.h"

ABSL_FLAG(std::string, train, "", "training documents (tf-idf format); empty: generated");
ABSL_FLAG(std::string, test, "", "held-out documents (tf-idf format); empty: generated");
ABSL_FLAG(std::string, uci_docword, "",
          "instead of --train/--test: a UCI bag-of-words corpus, turned into tf-idf "
          "(data/tfidf.h); every --test_every-th document is held out");
ABSL_FLAG(std::string, uci_vocab, "", "vocabulary file of --uci_docword");
ABSL_FLAG(int, tfidf_words, 5000, "vocabulary size kept for --uci_docword (largest df)");
ABSL_FLAG(int, test_every, 10, "held-out document interval for --uci_docword");
ABSL_FLAG(int, num_topics, 4, "K");
ABSL_FLAG(double, kappa, 50, "κ, concentration of documents about βθ/‖βθ‖");
ABSL_FLAG(double, sigma, 1, "σ, concentration of topics about μ");
ABSL_FLAG(double, kappa0, 1, "κ₀, concentration of μ about the mean direction m");
ABSL_FLAG(double, alpha, 1, "symmetric Dirichlet α");
ABSL_FLAG(double, step, 0.003, "step size ε of SGGMC and gSGNHT");
ABSL_FLAG(double, friction, 5, "friction C");
ABSL_FLAG(int, batch_size, 20, "minibatch size of the minibatch runs");
ABSL_FLAG(double, gmc_step, 0.003, "leapfrog step of the β | θ GMC step of GMC-bGibbs");
ABSL_FLAG(int, iterations, 1500, "iterations per method");
ABSL_FLAG(int, burn_in, 500, "draws before this iteration are not averaged");
ABSL_FLAG(int, eval_every, 100, "evaluation interval (iterations)");
ABSL_FLAG(int, theta_samples, 100, "Dirichlet samples per document in the perplexity");
ABSL_FLAG(std::string, methods, "sggmc,gsgnht,sggmc_full,gsgnht_full,gmc_bgibbs",
          "comma-separated methods");
ABSL_FLAG(uint64_t, seed, 1, "seed");
ABSL_FLAG(std::string, output_dir, "sam_out", "output directory");
ABSL_FLAG(std::string, experiments, "toy,synthetic,sam", "comma-separated: toy, synthetic, sam");
ABSL_FLAG(int, toy_iterations, 100000, "iterations of each toy chain (L = 100 inner steps)");
ABSL_FLAG(int, synthetic_iterations, 100000,
          "iterations of the synthetic chains (GMC; SGGMC with minibatches runs 10x)");

namespace sgmcmc::tools {
namespace {

Eigen::SparseMatrix<double> Generated(const Eigen::MatrixXd& beta, int count, double kappa,
                                      uint64_t seed) {
  rng::Engine engine(seed);
  const int v = static_cast<int>(beta.rows()), k = static_cast<int>(beta.cols());
  const std::vector<double> alpha(k, 1.0);
  Eigen::MatrixXd docs(v, count);
  Eigen::VectorXd theta(k), mean(v), out(v);
  for (int d = 0; d < count; ++d) {
    rng::DirichletSample(engine, alpha, absl::MakeSpan(theta.data(), k));
    mean = (beta * theta).normalized();
    rng::VonMisesFisherSample(engine, {mean.data(), static_cast<size_t>(v)}, kappa,
                              {out.data(), static_cast<size_t>(v)});
    docs.col(d) = out;
  }
  return docs.sparseView();
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

absl::Status RunMethod(const std::string& method, const Eigen::SparseMatrix<double>& train,
                       const Eigen::SparseMatrix<double>& test,
                       const models::SamHyperparameters& hyper, const Eigen::MatrixXd& beta0,
                       std::string& csv) {
  models::SamTopicModel model(train, hyper);
  models::SamThetaSampling sampling;
  sampling.draws = method == "gmc_bgibbs" ? 1 : 3;
  sampling.burn_in = 3;
  sampling.gmc.step_size = samplers::StepSizeOptions::Constant(0.1);
  sampling.gmc.seed = absl::GetFlag(FLAGS_seed);
  model.EnableThetaSampling(sampling);
  const int64_t d = train.cols();

  std::unique_ptr<samplers::SphereSampler> sampler;
  BetaGivenTheta beta_given_theta(model);
  std::vector<int64_t> all(d);
  for (int64_t i = 0; i < d; ++i) all[i] = i;
  if (method == "gmc_bgibbs") {
    samplers::GmcOptions options;
    options.step_size = samplers::StepSizeOptions::Constant(absl::GetFlag(FLAGS_gmc_step));
    options.leapfrog_steps = 5;
    options.seed = absl::GetFlag(FLAGS_seed);
    SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Gmc::Create(beta_given_theta, beta0, options));
  } else {
    samplers::GeodesicSamplerOptions options;
    options.chain.step_size = samplers::StepSizeOptions::Constant(absl::GetFlag(FLAGS_step));
    options.chain.batch_size =
        absl::EndsWith(method, "_full") ? d : std::min<int64_t>(absl::GetFlag(FLAGS_batch_size), d);
    options.chain.seed = absl::GetFlag(FLAGS_seed);
    options.friction = absl::GetFlag(FLAGS_friction);
    if (absl::StartsWith(method, "sggmc")) {
      SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Sggmc::Create(model, beta0, options));
    } else if (absl::StartsWith(method, "gsgnht")) {
      SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Gsgnht::Create(model, beta0, options));
    } else {
      return absl::InvalidArgumentError(absl::StrCat("--methods: unknown method ", method));
    }
  }
  const int iterations = absl::GetFlag(FLAGS_iterations);
  const int burn_in = absl::GetFlag(FLAGS_burn_in);
  const int every = absl::GetFlag(FLAGS_eval_every);
  std::vector<Eigen::MatrixXd> draws;
  double seconds = 0;
  for (int m = 1; m <= iterations; ++m) {
    const auto start = std::chrono::steady_clock::now();
    if (method == "gmc_bgibbs") model.PrepareBatch(sampler->x(), all);
    sampler->Step();
    seconds += SecondsSince(start);
    if (m > burn_in) draws.push_back(sampler->x());
    if (m % every == 0) {
      const std::vector<Eigen::MatrixXd> current = {sampler->x()};
      const double perplexity = models::SamLogPerplexity(
          draws.empty() ? absl::MakeConstSpan(current) : absl::MakeConstSpan(draws), test,
          hyper, absl::GetFlag(FLAGS_theta_samples), 12345);
      absl::StrAppendFormat(&csv, "%s,%d,%.4f,%.6f\n", method, m, seconds, perplexity);
      std::printf("%-12s it %5d  %7.2fs  log-perplexity %.4f  (%zu draws averaged)\n",
                  method.c_str(), m, seconds, perplexity, draws.size());
      std::fflush(stdout);
    }
  }
  return absl::OkStatus();
}

constexpr int kBins = 100;

int Bin(double theta) {
  const int b = static_cast<int>((theta + M_PI) / (2 * M_PI) * kBins);
  return std::clamp(b, 0, kBins - 1);
}

// The toy of the slides: SGGMC and gSGNHT with N(0, 1000 I) gradient noise (V̂ = 1000,
// ε = 0.002, C = 1.2, L = 100); angle histograms vs the exact density, KS distances, and the
// draws (every 10th) as CmdStan CSV.
absl::Status RunToy(const std::string& dir) {
  const int n = absl::GetFlag(FLAGS_toy_iterations);
  // Exact CDF on a fine grid for the KS distance.
  const int grid = 20000;
  std::vector<double> cdf(grid + 1, 0.0);
  for (int i = 1; i <= grid; ++i) {
    cdf[i] = cdf[i - 1] +
             models::ToyCircle::AngleDensity(-M_PI + (i - 0.5) * 2 * M_PI / grid) * 2 * M_PI / grid;
  }
  Eigen::MatrixXd histogram = Eigen::MatrixXd::Zero(kBins, 2);
  const char* names[] = {"sggmc", "gsgnht"};
  for (int which = 0; which < 2; ++which) {
    models::ToyCircle toy(std::sqrt(1000.0), 17);
    samplers::GeodesicSamplerOptions options;
    options.chain.step_size = samplers::StepSizeOptions::Constant(0.002);
    options.chain.seed = absl::GetFlag(FLAGS_seed);
    options.friction = 1.2;
    options.gradient_noise = 1000;
    options.inner_steps = 100;
    const Eigen::MatrixXd x0 = Eigen::Vector2d(1, 0);
    std::unique_ptr<samplers::SphereSampler> sampler;
    if (which == 0) {
      SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Sggmc::Create(toy, x0, options));
    } else {
      SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Gsgnht::Create(toy, x0, options));
    }
    const std::string path = absl::StrCat(dir, "/sam_toy_", names[which], ".csv");
    std::ofstream file(path);
    eval::CmdStanCsvOptions csv_options;
    csv_options.model = "toy_circle";
    csv_options.algorithm = names[which];
    csv_options.num_samples = n / 10;
    csv_options.thin = 10;
    csv_options.seed = absl::GetFlag(FLAGS_seed);
    csv_options.output_file = path;
    SGMCMC_ASSIGN_OR_RETURN(eval::CmdStanCsvWriter writer,
                            eval::CmdStanCsvWriter::Create(&file, {"x.1", "x.2", "angle"},
                                                           csv_options));
    std::vector<double> u(n);
    const auto start = std::chrono::steady_clock::now();
    for (int m = 0; m < n; ++m) {
      sampler->Step();
      const double angle = std::atan2(sampler->x()(1, 0), sampler->x()(0, 0));
      histogram(Bin(angle), which) += 1;
      const double t = (angle + M_PI) / (2 * M_PI) * grid;
      const int i = std::clamp(static_cast<int>(t), 0, grid - 1);
      u[m] = cdf[i] + (t - i) * (cdf[i + 1] - cdf[i]);
      if (m % 10 == 9) {
        const double draw[] = {sampler->x()(0, 0), sampler->x()(1, 0), angle};
        SGMCMC_RETURN_IF_ERROR(writer.WriteDraw(-models::ToyCircle::AnglePotential(angle), draw));
      }
    }
    SGMCMC_RETURN_IF_ERROR(writer.Finish(0, SecondsSince(start)));
    std::sort(u.begin(), u.end());
    double ks = 0;
    for (int m = 0; m < n; ++m) {
      ks = std::max({ks, std::abs(u[m] - static_cast<double>(m) / n),
                     std::abs(u[m] - static_cast<double>(m + 1) / n)});
    }
    std::printf("toy %-6s: %d iterations x 100 inner steps in %s, KS distance of the angle %.4f\n",
                names[which], n, HumanSeconds(SecondsSince(start)).c_str(), ks);
  }
  std::string csv = "angle,exact,sggmc,gsgnht\n";
  const double width = 2 * M_PI / kBins;
  for (int b = 0; b < kBins; ++b) {
    const double centre = -M_PI + (b + 0.5) * width;
    absl::StrAppendFormat(&csv, "%.6f,%.6f,%.6f,%.6f\n", centre,
                          models::ToyCircle::AngleDensity(centre), histogram(b, 0) / (n * width),
                          histogram(b, 1) / (n * width));
  }
  return WriteFile(dir + "/sam_toy_angles.csv", csv);
}

// The synthetic two-vMF posterior: marginal histograms of θ₁, θ₂ for GMC, SGGMC (minibatch
// 10 of 50, ε = 0.002, L = 1) and gSGNHT (full batch, ε = 0.01, L = 10) vs the exact ones.
absl::Status RunSynthetic(const std::string& dir) {
  const models::TwoVmfPosterior model(
      models::TwoVmfPosterior::Generate(1.0, -0.6, 4.0, 50, 2016), 1.0, 4.0);
  const Eigen::MatrixXd exact = model.ExactMarginals(kBins);
  const int n = absl::GetFlag(FLAGS_synthetic_iterations);
  Eigen::MatrixXd x0(2, 2);
  x0 << 1, 1, 0, 0;
  Eigen::MatrixXd histograms = Eigen::MatrixXd::Zero(kBins, 6);
  const char* names[] = {"gmc", "sggmc", "gsgnht"};
  for (int which = 0; which < 3; ++which) {
    std::unique_ptr<samplers::SphereSampler> sampler;
    int iterations = n;
    if (which == 0) {
      samplers::GmcOptions options;
      options.step_size = samplers::StepSizeOptions::Constant(0.05);
      options.leapfrog_steps = 10;
      options.seed = absl::GetFlag(FLAGS_seed);
      SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Gmc::Create(model, x0, options));
    } else {
      samplers::GeodesicSamplerOptions options;
      options.chain.seed = absl::GetFlag(FLAGS_seed);
      options.friction = 1.0;
      if (which == 1) {
        options.chain.step_size = samplers::StepSizeOptions::Constant(0.002);
        options.chain.batch_size = 10;
        iterations = 10 * n;
        SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Sggmc::Create(model, x0, options));
      } else {
        options.chain.step_size = samplers::StepSizeOptions::Constant(0.01);
        options.chain.batch_size = 50;
        options.inner_steps = 10;
        SGMCMC_ASSIGN_OR_RETURN(sampler, samplers::Gsgnht::Create(model, x0, options));
      }
    }
    const auto start = std::chrono::steady_clock::now();
    double mode_one = 0;
    for (int m = 0; m < iterations; ++m) {
      sampler->Step();
      const double t1 = std::atan2(sampler->x()(1, 0), sampler->x()(0, 0));
      const double t2 = std::atan2(sampler->x()(1, 1), sampler->x()(0, 1));
      histograms(Bin(t1), 2 * which) += 1;
      histograms(Bin(t2), 2 * which + 1) += 1;
      if (t1 > 0.6) mode_one += 1;
    }
    histograms.col(2 * which) /= iterations * 2 * M_PI / kBins;
    histograms.col(2 * which + 1) /= iterations * 2 * M_PI / kBins;
    std::printf("synthetic %-6s: %d iterations in %s, fraction with theta_1 > 0.6 (mode of "
                "v_1 = v_1^(g)): %.4f\n",
                names[which], iterations, HumanSeconds(SecondsSince(start)).c_str(),
                mode_one / iterations);
  }
  double exact_one = 0;
  const int fine = 1000;
  const Eigen::MatrixXd fine_marginals = model.ExactMarginals(fine);
  for (int b = 0; b < fine; ++b) {
    if (-M_PI + (b + 0.5) * 2 * M_PI / fine > 0.6) {
      exact_one += fine_marginals(0, b) * 2 * M_PI / fine;
    }
  }
  std::printf("synthetic exact : fraction with theta_1 > 0.6: %.4f (grid)\n", exact_one);
  std::string csv =
      "angle,exact_v1,gmc_v1,sggmc_v1,gsgnht_v1,exact_v2,gmc_v2,sggmc_v2,gsgnht_v2\n";
  for (int b = 0; b < kBins; ++b) {
    absl::StrAppendFormat(&csv, "%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n",
                          -M_PI + (b + 0.5) * 2 * M_PI / kBins, exact(0, b), histograms(b, 0),
                          histograms(b, 2), histograms(b, 4), exact(1, b), histograms(b, 1),
                          histograms(b, 3), histograms(b, 5));
  }
  return WriteFile(dir + "/sam_synthetic_marginals.csv", csv);
}

absl::Status ValidateFlags() {
  const auto fail = [](absl::string_view flag, absl::string_view want, auto value) {
    return absl::InvalidArgumentError(absl::StrCat("--", flag, " must be ", want, ", got ", value));
  };
  if (absl::GetFlag(FLAGS_num_topics) < 2) {
    return fail("num_topics", ">= 2", absl::GetFlag(FLAGS_num_topics));
  }
  if (absl::GetFlag(FLAGS_iterations) < 1) {
    return fail("iterations", ">= 1", absl::GetFlag(FLAGS_iterations));
  }
  if (absl::GetFlag(FLAGS_eval_every) < 1) {
    return fail("eval_every", ">= 1", absl::GetFlag(FLAGS_eval_every));
  }
  if (absl::GetFlag(FLAGS_burn_in) < 0) return fail("burn_in", ">= 0", absl::GetFlag(FLAGS_burn_in));
  if (absl::GetFlag(FLAGS_theta_samples) < 1) {
    return fail("theta_samples", ">= 1", absl::GetFlag(FLAGS_theta_samples));
  }
  if (absl::GetFlag(FLAGS_batch_size) < 1) {
    return fail("batch_size", ">= 1", absl::GetFlag(FLAGS_batch_size));
  }
  if (!(absl::GetFlag(FLAGS_kappa) >= 0)) return fail("kappa", ">= 0", absl::GetFlag(FLAGS_kappa));
  if (!(absl::GetFlag(FLAGS_sigma) > 0)) return fail("sigma", "> 0", absl::GetFlag(FLAGS_sigma));
  if (!(absl::GetFlag(FLAGS_kappa0) > 0)) return fail("kappa0", "> 0", absl::GetFlag(FLAGS_kappa0));
  if (!(absl::GetFlag(FLAGS_alpha) > 0)) return fail("alpha", "> 0", absl::GetFlag(FLAGS_alpha));
  for (absl::string_view method :
       absl::StrSplit(absl::GetFlag(FLAGS_methods), ',', absl::SkipEmpty())) {
    if (method != "sggmc" && method != "gsgnht" && method != "sggmc_full" &&
        method != "gsgnht_full" && method != "gmc_bgibbs") {
      return absl::InvalidArgumentError(absl::StrCat("--methods: unknown method ", method));
    }
  }
  for (absl::string_view experiment :
       absl::StrSplit(absl::GetFlag(FLAGS_experiments), ',', absl::SkipEmpty())) {
    if (experiment != "toy" && experiment != "synthetic" && experiment != "sam") {
      return absl::InvalidArgumentError(
          absl::StrCat("--experiments: unknown experiment ", experiment));
    }
  }
  if (absl::GetFlag(FLAGS_toy_iterations) < 10) {
    return fail("toy_iterations", ">= 10", absl::GetFlag(FLAGS_toy_iterations));
  }
  if (absl::GetFlag(FLAGS_synthetic_iterations) < 1) {
    return fail("synthetic_iterations", ">= 1", absl::GetFlag(FLAGS_synthetic_iterations));
  }
  return absl::OkStatus();
}

absl::Status Run(const char* /*argv0*/) {
  SGMCMC_RETURN_IF_ERROR(ValidateFlags());
  const std::string dir = FromWorkingDirectory(absl::GetFlag(FLAGS_output_dir));
  SGMCMC_RETURN_IF_ERROR(CreateOutputDirectory(dir, "--output_dir"));
  const std::vector<std::string> experiments =
      absl::StrSplit(absl::GetFlag(FLAGS_experiments), ',', absl::SkipEmpty());
  const auto wants = [&](absl::string_view name) {
    return std::find(experiments.begin(), experiments.end(), name) != experiments.end();
  };
  if (wants("toy")) SGMCMC_RETURN_IF_ERROR(RunToy(dir));
  if (wants("synthetic")) SGMCMC_RETURN_IF_ERROR(RunSynthetic(dir));
  if (!wants("sam")) return absl::OkStatus();
  Eigen::SparseMatrix<double> train, test;
  int k = absl::GetFlag(FLAGS_num_topics);
  if (absl::GetFlag(FLAGS_train).empty() != absl::GetFlag(FLAGS_test).empty()) {
    return absl::InvalidArgumentError("--train and --test go together");
  }
  if (!absl::GetFlag(FLAGS_uci_docword).empty()) {
    if (absl::GetFlag(FLAGS_test_every) < 2) {
      return absl::InvalidArgumentError("--test_every must be >= 2");
    }
    if (absl::GetFlag(FLAGS_tfidf_words) < 2) {
      return absl::InvalidArgumentError("--tfidf_words must be >= 2");
    }
    SGMCMC_ASSIGN_OR_RETURN(
        data::Corpus corpus,
        data::ReadUciCorpus(FromWorkingDirectory(absl::GetFlag(FLAGS_uci_docword)),
                            FromWorkingDirectory(absl::GetFlag(FLAGS_uci_vocab))));
    std::vector<int> train_ids, test_ids;
    for (int d = 0; d < corpus.num_documents(); ++d) {
      (d % absl::GetFlag(FLAGS_test_every) == 0 ? test_ids : train_ids).push_back(d);
    }
    const data::Corpus train_corpus = data::SelectDocuments(corpus, train_ids);
    const data::TfidfVocabulary vocabulary =
        data::ChooseTfidfVocabulary(train_corpus, absl::GetFlag(FLAGS_tfidf_words));
    train = data::TfidfTransform(train_corpus, vocabulary).documents;
    test = data::TfidfTransform(data::SelectDocuments(corpus, test_ids), vocabulary).documents;
    std::printf("tf-idf corpus: V = %zu, %lld training and %lld held-out documents\n",
                vocabulary.words.size(), static_cast<long long>(train.cols()),
                static_cast<long long>(test.cols()));
  } else if (absl::GetFlag(FLAGS_train).empty()) {
    const int v = 50;
    Eigen::MatrixXd truth = Eigen::MatrixXd::Constant(v, k, 0.1);
    for (int i = 0; i < v; ++i) truth(i, i * k / v) = 1.0;
    truth.colwise().normalize();
    train = Generated(truth, 500, absl::GetFlag(FLAGS_kappa), 1);
    test = Generated(truth, 200, absl::GetFlag(FLAGS_kappa), 2);
    models::SamHyperparameters truth_hyper;
    truth_hyper.num_topics = k;
    truth_hyper.kappa = absl::GetFlag(FLAGS_kappa);
    truth_hyper.alpha = 1;
    truth_hyper.m = Eigen::VectorXd::Constant(v, 1 / std::sqrt(static_cast<double>(v)));
    const std::vector<Eigen::MatrixXd> truth_draws = {truth};
    std::printf("generated data: V = %d, K = %d; held-out log-perplexity at the true topics "
                "%.4f\n",
                v, k,
                models::SamLogPerplexity(truth_draws, test, truth_hyper,
                                         absl::GetFlag(FLAGS_theta_samples), 12345));
  } else {
    SGMCMC_ASSIGN_OR_RETURN(data::TfidfCorpus a,
                            data::ReadTfidfCorpus(FromWorkingDirectory(absl::GetFlag(FLAGS_train))));
    SGMCMC_ASSIGN_OR_RETURN(data::TfidfCorpus b,
                            data::ReadTfidfCorpus(FromWorkingDirectory(absl::GetFlag(FLAGS_test))));
    train = std::move(a.documents);
    test = std::move(b.documents);
  }
  models::SamHyperparameters hyper;
  hyper.num_topics = k;
  hyper.kappa = absl::GetFlag(FLAGS_kappa);
  hyper.sigma = absl::GetFlag(FLAGS_sigma);
  hyper.kappa0 = absl::GetFlag(FLAGS_kappa0);
  hyper.alpha = absl::GetFlag(FLAGS_alpha);
  const int v = static_cast<int>(train.rows());
  hyper.m = Eigen::VectorXd::Constant(v, 1 / std::sqrt(static_cast<double>(v)));
  // Start: each topic the normalised mean of a few training documents plus noise.
  rng::Engine engine(absl::GetFlag(FLAGS_seed), 99);
  Eigen::MatrixXd beta0(v, k);
  Eigen::VectorXd noise(v);
  for (int j = 0; j < k; ++j) {
    rng::SphereUniformSample(engine, noise);
    beta0.col(j) = (Eigen::VectorXd(train.col(j % train.cols())) + 0.1 * noise).normalized();
  }
  std::string csv = "method,iteration,seconds,log_perplexity\n";
  for (absl::string_view method :
       absl::StrSplit(absl::GetFlag(FLAGS_methods), ',', absl::SkipEmpty())) {
    SGMCMC_RETURN_IF_ERROR(RunMethod(std::string(method), train, test, hyper, beta0, csv));
  }
  return WriteFile(dir + "/sam_perplexity.csv", csv);
}

}  // namespace
}  // namespace sgmcmc::tools

int main(int argc, char** argv) {
  return sgmcmc::tools::ToolMain(argc, argv,
                                 "SAM under SGGMC, gSGNHT and GMC-bGibbs: held-out "
                                 "log-perplexity versus wall time.",
                                 sgmcmc::tools::Run);
}
