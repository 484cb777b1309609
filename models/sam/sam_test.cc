#include "models/sam/sam.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "Eigen/SparseCore"
#include "eval/ess.h"
#include "eval/ks_dirichlet.h"
#include "gtest/gtest.h"
#include "parallel/thread_pool.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"
#include "rng/sphere_uniform.h"
#include "rng/von_mises_fisher.h"
#include "samplers/gmc.h"
#include "samplers/sggmc.h"

namespace sgmcmc::models {
namespace {

// `status` is InvalidArgument and its message contains `text`.
void ExpectInvalid(const absl::Status& status, const std::string& text) {
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << text;
  EXPECT_NE(status.message().find(text), absl::string_view::npos) << status.message();
}

constexpr int kV = 6;
constexpr int kK = 3;

Eigen::MatrixXd RandomUnitColumns(int rows, int cols, uint64_t seed) {
  rng::Engine engine(seed);
  Eigen::MatrixXd x(rows, cols);
  Eigen::VectorXd col(rows);
  for (int k = 0; k < cols; ++k) {
    rng::SphereUniformSample(engine, col);
    x.col(k) = col;
  }
  return x;
}

SamTopicModel MakeModel() {
  Eigen::MatrixXd dense = RandomUnitColumns(kV, 4, 3).cwiseAbs();
  for (int d = 0; d < 4; ++d) {
    dense(d, d) = 0;  // some zeros, as in tf-idf
    dense.col(d).normalize();
  }
  SamHyperparameters hyper;
  hyper.num_topics = kK;
  hyper.kappa0 = 3;
  hyper.sigma = 4;
  hyper.kappa = 7;
  hyper.alpha = 0.5;
  hyper.m = Eigen::VectorXd::Constant(kV, 1 / std::sqrt(double{kV}));
  SamTopicModel model(dense.sparseView(), hyper);
  Eigen::MatrixXd draws(kK, 2);
  draws << 0.2, 0.5, 0.3, 0.1, 0.5, 0.4;
  model.SetThetaDraws(1, draws);
  return model;
}

// Central difference of f along the ambient direction w in column k.
template <typename F>
double Directional(F f, const Eigen::MatrixXd& x, int k, const Eigen::VectorXd& w) {
  const double h = 1e-6;
  Eigen::MatrixXd plus = x, minus = x;
  plus.col(k) += h * w;
  minus.col(k) -= h * w;
  return (f(plus) - f(minus)) / (2 * h);
}

TEST(SamTest, TopicGradientsMatchFiniteDifferences) {
  const SamTopicModel model = MakeModel();
  const Eigen::MatrixXd beta = RandomUnitColumns(kV, kK, 5);
  Eigen::MatrixXd prior(kV, kK), like = Eigen::MatrixXd::Zero(kV, kK);
  model.PriorPotentialGradient(beta, prior);
  const std::vector<int64_t> batch = {1, 2, 1};
  model.AddLikelihoodPotentialGradient(beta, batch, 0.5, like);
  const Eigen::MatrixXd w = RandomUnitColumns(kV, kK, 9);
  for (int k = 0; k < kK; ++k) {
    const double fd_prior = Directional(
        [&](const Eigen::MatrixXd& b) { return model.PriorPotential(b); }, beta, k, w.col(k));
    EXPECT_NEAR(prior.col(k).dot(w.col(k)), fd_prior, 1e-6 * (1 + std::abs(fd_prior)));
    const double fd_like = Directional(
        [&](const Eigen::MatrixXd& b) {
          return 0.5 * (2 * model.DocumentPotential(b, 1) + model.DocumentPotential(b, 2));
        },
        beta, k, w.col(k));
    EXPECT_NEAR(like.col(k).dot(w.col(k)), fd_like, 1e-6 * (1 + std::abs(fd_like)));
  }
}

TEST(SamTest, ThetaPosteriorGradientMatchesFiniteDifferences) {
  const Eigen::MatrixXd beta = RandomUnitColumns(kV, kK, 5);
  const Eigen::VectorXd v = RandomUnitColumns(kV, 1, 6).col(0);
  const SamThetaPosterior model(beta, v, 7.0, 0.8);
  const Eigen::MatrixXd x = Eigen::Vector3d(0.6, -0.48, 0.64);
  Eigen::MatrixXd grad(kK, 1);
  model.PriorPotentialGradient(x, grad);
  const Eigen::VectorXd w = Eigen::Vector3d(0.3, 0.7, -0.2);
  const double fd = Directional([&](const Eigen::MatrixXd& y) { return model.Potential(y); },
                                x, 0, w);
  EXPECT_NEAR(grad.col(0).dot(w), fd, 1e-6 * (1 + std::abs(fd)));
}

// κ = 0: π(θ | β, v) is Dir(α); with α = 2, K = 3, θ₁ ~ Beta(2, 4), whose CDF is
// 1 - (1 - t)⁵ - 5t(1 - t)⁴. GMC through the squared map, KS with the ESS as sample size.
TEST(SamTest, GmcThroughSquaredMapSamplesDirichletWhenFlat) {
  const Eigen::MatrixXd beta = RandomUnitColumns(kV, kK, 5);
  const Eigen::VectorXd v = RandomUnitColumns(kV, 1, 6).col(0);
  const SamThetaPosterior model(beta, v, 0.0, 2.0);
  samplers::GmcOptions options;
  options.step_size = samplers::StepSizeOptions::Constant(0.1);
  options.leapfrog_steps = 8;
  options.seed = 41;
  auto gmc = samplers::Gmc::Create(model, Eigen::MatrixXd(Eigen::Vector3d::Constant(
                                              1 / std::sqrt(3.0))),
                                   options);
  ASSERT_TRUE(gmc.ok());
  const int n = 50000;
  std::vector<double> theta1(n), u(n);
  for (int m = 0; m < n; ++m) {
    (*gmc)->Step();
    const double t = (*gmc)->x()(0, 0) * (*gmc)->x()(0, 0);
    theta1[m] = t;
    u[m] = 1 - std::pow(1 - t, 5) - 5 * t * std::pow(1 - t, 4);
  }
  const double ess = std::min<double>(eval::EffectiveSampleSize(theta1), n);
  const double ks = eval::KsDistanceToUniform(absl::MakeSpan(u));
  std::printf("SAM theta via GMC, kappa = 0: KS of theta_1 vs Beta(2, 4) = %.4f, ESS = %.0f, "
              "acceptance %.3f\n",
              ks, ess, static_cast<double>((*gmc)->accepted()) / n);
  EXPECT_LT(std::sqrt(ess) * ks, 2.5);
}


// Algorithm 3 end to end on synthetic data: SGGMC on β with θ_d refreshed by GMC per
// minibatch. The held-out log-perplexity of the posterior draws must fall from the random
// start's to within 2% (of |log-perplexity|) of the true topics' (measured: 26.34 → -10.54
// vs -10.64, 1.0%).
TEST(SamTest, SggmcWithGmcThetaLearnsSyntheticTopics) {
  const int v = 20, k = 2;
  Eigen::MatrixXd truth(v, k);
  for (int i = 0; i < v; ++i) {
    truth(i, 0) = i < 10 ? 1.0 : 0.1;
    truth(i, 1) = i < 10 ? 0.1 : 1.0;
  }
  truth.colwise().normalize();
  const double kappa = 50;
  SamHyperparameters hyper;
  hyper.num_topics = k;
  hyper.kappa0 = 1;
  hyper.sigma = 1;
  hyper.kappa = kappa;
  hyper.alpha = 1;
  hyper.m = Eigen::VectorXd::Constant(v, 1 / std::sqrt(static_cast<double>(v)));
  SamTopicModel model(SampleSamDocuments(truth, 200, kappa, 1), hyper);
  const Eigen::SparseMatrix<double> test = SampleSamDocuments(truth, 100, kappa, 2);
  SamThetaSampling sampling;
  sampling.draws = 3;
  sampling.burn_in = 3;
  sampling.gmc.step_size = samplers::StepSizeOptions::Constant(0.1);
  model.EnableThetaSampling(sampling);

  const Eigen::MatrixXd beta0 = RandomUnitColumns(v, k, 77);
  samplers::GeodesicSamplerOptions options;
  options.chain.step_size = samplers::StepSizeOptions::Constant(0.003);
  options.chain.batch_size = 20;
  options.chain.seed = 5;
  options.friction = 5;
  auto sggmc = samplers::Sggmc::Create(model, beta0, options);
  ASSERT_TRUE(sggmc.ok());
  std::vector<Eigen::MatrixXd> draws;
  for (int m = 0; m < 3000; ++m) {
    (*sggmc)->Step();
    if (m >= 1000 && m % 20 == 0) draws.push_back((*sggmc)->x());
  }
  const Eigen::MatrixXd start[] = {beta0}, true_beta[] = {truth};
  const double initial = SamLogPerplexity(start, test, hyper, 200, 9);
  const double sampled = SamLogPerplexity(draws, test, hyper, 200, 9);
  const double exact = SamLogPerplexity(true_beta, test, hyper, 200, 9);
  std::printf("SAM synthetic: held-out log-perplexity start %.3f, SGGMC draws %.3f, true "
              "topics %.3f\n",
              initial, sampled, exact);
  EXPECT_LT(sampled, initial);
  EXPECT_LT(std::abs(sampled - exact), 0.02 * std::abs(exact));
  // PrepareBatch left three simplex draws for visited documents.
  const Eigen::MatrixXd& theta = model.theta_draws(0);
  ASSERT_EQ(theta.cols(), 3);
  for (int n = 0; n < 3; ++n) {
    EXPECT_NEAR(theta.col(n).sum(), 1.0, 1e-9);
    EXPECT_GE(theta.col(n).minCoeff(), 0.0);
  }
}

// K topics on V words, uniform m, concentration κ; other hyperparameters at their defaults.
SamHyperparameters SmallHyper(int v, int k, double kappa) {
  SamHyperparameters hyper;
  hyper.num_topics = k;
  hyper.kappa = kappa;
  hyper.m = Eigen::VectorXd::Constant(v, 1 / std::sqrt(static_cast<double>(v)));
  return hyper;
}

// A small SAM set-up from `seed`: V = 12, K = 3, κ = 20, `count` documents generated from
// random topics, and a random β.
struct SmallSam {
  SmallSam(int count, uint64_t seed)
      : hyper(SmallHyper(12, 3, 20)),
        docs(SampleSamDocuments(RandomUnitColumns(12, 3, seed).cwiseAbs(), count, 20, seed)),
        beta(RandomUnitColumns(12, 3, seed + 1)) {}
  SamHyperparameters hyper;
  Eigen::SparseMatrix<double> docs;
  Eigen::MatrixXd beta;
};

// PrepareBatch over a thread pool: every document has its own stream and state, so the θ
// draws and GMC points after several minibatches (with a repeated document) are bit-identical
// for 1, 2 and 3 threads.
TEST(SamTest, PrepareBatchBitIdenticalAcrossThreadCounts) {
  const SmallSam sam(30, 21);
  SamThetaSampling sampling;
  sampling.gmc.seed = 8;
  const std::vector<int64_t> batches[] = {{0, 5, 7, 29, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
  std::vector<Eigen::MatrixXd> reference;
  for (int threads : {1, 2, 3}) {
    SamTopicModel model(sam.docs, sam.hyper);
    model.EnableThetaSampling(sampling);
    parallel::ThreadPool pool(threads);
    model.SetThreadPool(&pool);
    for (int pass = 0; pass < 2; ++pass) {
      for (const auto& batch : batches) model.PrepareBatch(sam.beta, batch);
    }
    for (int64_t d = 0; d < 30; ++d) {
      if (threads == 1) {
        reference.push_back(model.theta_draws(d));
      } else {
        ASSERT_TRUE(model.theta_draws(d) == reference[d]) << threads << " threads, doc " << d;
      }
    }
  }
  EXPECT_EQ(reference[5].cols(), sampling.draws);
  EXPECT_EQ(reference[10].cols(), 1);  // never visited
}

// SaveState / RestoreState: a copy restored into a fresh model continues bit-identically;
// states that do not fit or hold bad numbers are rejected, naming the field, and leave the
// model unchanged.
TEST(SamTest, ModelStateRoundTripsAndRejectsBadStates) {
  const SmallSam sam(10, 31);
  SamThetaSampling sampling;
  sampling.gmc.seed = 2;
  const std::vector<int64_t> batch = {1, 4, 4, 9};
  SamTopicModel a(sam.docs, sam.hyper), b(sam.docs, sam.hyper);
  a.EnableThetaSampling(sampling);
  b.EnableThetaSampling(sampling);
  a.PrepareBatch(sam.beta, batch);
  const SamTopicModelState saved = a.SaveState();
  ASSERT_TRUE(b.RestoreState(saved).ok());
  a.PrepareBatch(sam.beta, batch);
  b.PrepareBatch(sam.beta, batch);
  for (int64_t d = 0; d < 10; ++d) EXPECT_TRUE(a.theta_draws(d) == b.theta_draws(d)) << d;
  EXPECT_EQ(a.SaveState().SerializeAsString(), b.SaveState().SerializeAsString());

  const std::string before = b.SaveState().SerializeAsString();
  const auto rejects = [&](const SamTopicModelState& state, const std::string& what) {
    ExpectInvalid(b.RestoreState(state), what);
    EXPECT_EQ(b.SaveState().SerializeAsString(), before) << what;
  };
  SamTopicModelState bad = saved;
  bad.set_num_topics(4);
  rejects(bad, "num_topics 4 != 3");
  bad = saved;
  bad.set_draw_counts(2, 0);
  rejects(bad, "draw_counts[2] = 0 < 1");
  bad = saved;
  bad.mutable_theta_draws()->RemoveLast();
  rejects(bad, "theta_draws has");
  bad = saved;
  bad.set_theta_draws(1, std::numeric_limits<double>::quiet_NaN());
  rejects(bad, "theta_draws[1] = nan is not a finite probability");
  bad = saved;
  bad.set_theta_draws(0, bad.theta_draws(0) + 0.01);
  rejects(bad, "theta_draws column 0 sums to");
  bad = saved;
  bad.set_theta_points(4, bad.theta_points(4) * 1.01);
  rejects(bad, "theta_points column 1 has norm");
  bad = saved;
  bad.set_theta_points(0, std::numeric_limits<double>::infinity());
  rejects(bad, "theta_points[0] is not finite");
  bad = saved;
  bad.clear_theta_points();
  bad.clear_visits();
  rejects(bad, "no theta_points, but theta sampling is enabled");
  SamTopicModel plain(sam.docs, sam.hyper);
  ExpectInvalid(plain.RestoreState(saved), "theta_points given, but theta sampling is not enabled");
}

// The accumulator equals SamLogPerplexity of all draws added (to rounding: running
// log-sum-exp), round-trips through its state, and rejects a state of another size or with
// non-finite sums.
TEST(SamTest, PerplexityAccumulatorMatchesBatchAndRoundTrips) {
  const int v = 10, k = 3;
  const Eigen::MatrixXd truth = RandomUnitColumns(v, k, 41).cwiseAbs();
  const SamHyperparameters hyper = SmallHyper(v, k, 30);
  const Eigen::SparseMatrix<double> docs = SampleSamDocuments(truth, 15, 30, 6);
  std::vector<Eigen::MatrixXd> betas;
  for (int m = 0; m < 4; ++m) betas.push_back(RandomUnitColumns(v, k, 50 + m));
  SamPerplexityAccumulator first(docs, hyper, 7, 11), second(docs, hyper, 7, 11);
  first.Add(betas[0]);
  first.Add(betas[1]);
  ASSERT_TRUE(second.RestoreState(first.SaveState()).ok());
  for (int m = 2; m < 4; ++m) {
    first.Add(betas[m]);
    second.Add(betas[m]);
  }
  EXPECT_EQ(first.draws(), 4);
  EXPECT_EQ(first.LogPerplexity(), second.LogPerplexity());
  const double batch = SamLogPerplexity(betas, docs, hyper, 7, 11);
  EXPECT_NEAR(first.LogPerplexity(), batch, 1e-12 * std::abs(batch));

  SamPerplexityState bad = first.SaveState();
  bad.set_log_sums(3, std::numeric_limits<double>::infinity());
  ExpectInvalid(second.RestoreState(bad), "log_sums[3] is not finite");
  bad = first.SaveState();
  bad.set_num_documents(16);
  ExpectInvalid(second.RestoreState(bad), "num_documents 16 != 15");
  bad = first.SaveState();
  bad.mutable_log_sums()->RemoveLast();
  ExpectInvalid(second.RestoreState(bad), "log_sums has 14 entries, want 15");
  EXPECT_EQ(second.LogPerplexity(), first.LogPerplexity());  // unchanged by the failures
}

}  // namespace
}  // namespace sgmcmc::models
