#include "models/sam/sam.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "math/bessel.h"
#include "math/special_functions.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"
#include "rng/von_mises_fisher.h"

namespace sgmcmc::models {

SamTopicModel::SamTopicModel(Eigen::SparseMatrix<double> documents, SamHyperparameters hyper)
    : documents_(std::move(documents)), hyper_(std::move(hyper)) {
  SGMCMC_CHECK(hyper_.num_topics >= 1);
  SGMCMC_CHECK(hyper_.kappa0 > 0 && hyper_.sigma > 0 && hyper_.kappa >= 0 && hyper_.alpha > 0);
  SGMCMC_CHECK(hyper_.m.size() == documents_.rows());
  SGMCMC_CHECK(documents_.rows() >= 2 && documents_.cols() >= 1);
  theta_draws_.assign(documents_.cols(),
                      Eigen::MatrixXd::Constant(hyper_.num_topics, 1, 1.0 / hyper_.num_topics));
}

void SamTopicModel::PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& beta,
                                           Eigen::Ref<Eigen::MatrixXd> out) const {
  // U = log c_V(r), r = ‖s‖, s = κ₀ m + σ Σ_k β_k; dU/dβ_k = -A_V(r) σ s / r.
  const Eigen::VectorXd s = hyper_.kappa0 * hyper_.m + hyper_.sigma * beta.rowwise().sum();
  const double r = s.norm();
  const double a = math::VmfMeanResultantLength(dimension(), r);
  const Eigen::VectorXd col = (-a * hyper_.sigma / r) * s;
  for (int k = 0; k < beta.cols(); ++k) out.col(k) = col;
}

double SamTopicModel::PriorPotential(const Eigen::Ref<const Eigen::MatrixXd>& beta) const {
  const Eigen::VectorXd s = hyper_.kappa0 * hyper_.m + hyper_.sigma * beta.rowwise().sum();
  return math::VmfLogNormalizer(dimension(), s.norm());
}

void SamTopicModel::AddLikelihoodPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& beta,
                                                   absl::Span<const int64_t> batch,
                                                   double scale,
                                                   Eigen::Ref<Eigen::MatrixXd> out) const {
  // Per draw θ (u = βθ): −w (I − ūūᵀ) v θᵀ / ‖u‖ = −w [v (θ/‖u‖)ᵀ − β θθᵀ (uᵀv/‖u‖³)], with
  // ‖u‖² = θᵀGθ (G = βᵀβ) and uᵀv = aᵀθ (a = βᵀv). The sparse parts go straight into `out`;
  // the dense part is summed into the K×K matrix M and applied once as β M.
  const int k = hyper_.num_topics;
  const Eigen::MatrixXd gram = beta.transpose() * beta;
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(k, k);
  Eigen::VectorXd a(k), coef(k), g_theta(k);
  for (int64_t d : batch) {
    const Eigen::MatrixXd& draws = theta_draws_[d];
    const double weight = scale * hyper_.kappa / static_cast<double>(draws.cols());
    a.setZero();
    for (Eigen::SparseMatrix<double>::InnerIterator it(documents_, d); it; ++it) {
      a += it.value() * beta.row(it.index()).transpose();
    }
    coef.setZero();
    for (int n = 0; n < draws.cols(); ++n) {
      const auto theta = draws.col(n);
      g_theta.noalias() = gram * theta;
      const double norm = std::sqrt(theta.dot(g_theta));
      coef += (weight / norm) * theta;
      m.noalias() += (weight * a.dot(theta) / (norm * norm * norm)) * theta * theta.transpose();
    }
    for (Eigen::SparseMatrix<double>::InnerIterator it(documents_, d); it; ++it) {
      out.row(it.index()) -= it.value() * coef.transpose();
    }
  }
  out.noalias() += beta * m;
}

double SamTopicModel::DocumentPotential(const Eigen::Ref<const Eigen::MatrixXd>& beta,
                                        int64_t d) const {
  const Eigen::MatrixXd& draws = theta_draws_[d];
  double total = 0;
  for (int n = 0; n < draws.cols(); ++n) {
    const Eigen::VectorXd u = beta * draws.col(n);
    double u_dot_v = 0;
    for (Eigen::SparseMatrix<double>::InnerIterator it(documents_, d); it; ++it) {
      u_dot_v += u[it.index()] * it.value();
    }
    total -= hyper_.kappa * u_dot_v / u.norm();
  }
  return total / static_cast<double>(draws.cols());
}

void SamTopicModel::SetThetaDraws(int64_t d, const Eigen::Ref<const Eigen::MatrixXd>& draws) {
  SGMCMC_CHECK(d >= 0 && d < num_items());
  SGMCMC_CHECK(draws.rows() == hyper_.num_topics && draws.cols() >= 1);
  theta_draws_[d] = draws;
}

SamTopicModelState SamTopicModel::SaveState() const {
  SamTopicModelState state;
  state.set_num_topics(hyper_.num_topics);
  state.set_num_documents(num_items());
  for (const Eigen::MatrixXd& draws : theta_draws_) {
    state.add_draw_counts(static_cast<int32_t>(draws.cols()));
    state.mutable_theta_draws()->Add(draws.data(), draws.data() + draws.size());
  }
  if (sample_theta_) {
    state.mutable_theta_points()->Add(theta_points_.data(),
                                      theta_points_.data() + theta_points_.size());
    state.mutable_visits()->Add(visits_.begin(), visits_.end());
  }
  return state;
}

absl::Status SamTopicModel::RestoreState(const SamTopicModelState& state) {
  const auto fail = [](auto... what) {
    return absl::InvalidArgumentError(absl::StrCat("SamTopicModelState: ", what...));
  };
  const int k = hyper_.num_topics;
  const int64_t d_count = num_items();
  if (state.num_topics() != k) return fail("num_topics ", state.num_topics(), " != ", k);
  if (state.num_documents() != d_count) {
    return fail("num_documents ", state.num_documents(), " != ", d_count);
  }
  if (state.draw_counts_size() != d_count) {
    return fail("draw_counts has ", state.draw_counts_size(), " entries, want ", d_count);
  }
  int64_t total = 0;
  for (int64_t d = 0; d < d_count; ++d) {
    if (state.draw_counts(d) < 1) {
      return fail("draw_counts[", d, "] = ", state.draw_counts(d), " < 1");
    }
    total += state.draw_counts(d);
  }
  if (state.theta_draws_size() != total * k) {
    return fail("theta_draws has ", state.theta_draws_size(), " numbers, want ", total * k);
  }
  for (int64_t c = 0; c < total; ++c) {
    double sum = 0;
    for (int i = 0; i < k; ++i) {
      const double t = state.theta_draws(c * k + i);
      if (!std::isfinite(t) || t < 0) {
        return fail("theta_draws[", c * k + i, "] = ", t, " is not a finite probability");
      }
      sum += t;
    }
    if (std::abs(sum - 1) > 1e-9) return fail("theta_draws column ", c, " sums to ", sum);
  }
  const bool has_points = state.theta_points_size() > 0 || state.visits_size() > 0;
  if (has_points != sample_theta_) {
    return fail(sample_theta_ ? "no theta_points, but theta sampling is enabled"
                              : "theta_points given, but theta sampling is not enabled");
  }
  if (sample_theta_) {
    if (state.theta_points_size() != d_count * k || state.visits_size() != d_count) {
      return fail("theta_points / visits have ", state.theta_points_size(), " / ",
                  state.visits_size(), " entries, want ", d_count * k, " / ", d_count);
    }
    for (int64_t d = 0; d < d_count; ++d) {
      double norm2 = 0;
      for (int i = 0; i < k; ++i) {
        const double x = state.theta_points(d * k + i);
        if (!std::isfinite(x)) return fail("theta_points[", d * k + i, "] is not finite");
        norm2 += x * x;
      }
      if (std::abs(std::sqrt(norm2) - 1) > 1e-9) {
        return fail("theta_points column ", d, " has norm ", std::sqrt(norm2));
      }
    }
  }
  const double* next = state.theta_draws().data();
  for (int64_t d = 0; d < d_count; ++d) {
    theta_draws_[d] = Eigen::Map<const Eigen::MatrixXd>(next, k, state.draw_counts(d));
    next += static_cast<int64_t>(k) * state.draw_counts(d);
  }
  if (sample_theta_) {
    theta_points_ = Eigen::Map<const Eigen::MatrixXd>(state.theta_points().data(), k, d_count);
    visits_.assign(state.visits().begin(), state.visits().end());
  }
  return absl::OkStatus();
}

void SamTopicModel::EnableThetaSampling(const SamThetaSampling& sampling) {
  SGMCMC_CHECK(sampling.draws >= 1 && sampling.burn_in >= 0);
  SGMCMC_CHECK(sampling.gmc.Validate().ok());
  sample_theta_ = true;
  sampling_ = sampling;
  theta_points_ = Eigen::MatrixXd::Constant(hyper_.num_topics, num_items(),
                                            1 / std::sqrt(static_cast<double>(hyper_.num_topics)));
  visits_.assign(num_items(), 0);
}

void SamTopicModel::PrepareBatch(const Eigen::Ref<const Eigen::MatrixXd>& beta,
                                 absl::Span<const int64_t> batch) const {
  if (!sample_theta_) return;
  std::vector<int64_t> distinct(batch.begin(), batch.end());
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const Eigen::MatrixXd gram = beta.transpose() * beta;
  const auto sample = [&](int64_t i) { SampleTheta(beta, gram, distinct[i]); };
  if (pool_ == nullptr || pool_->num_threads() == 1) {
    for (int64_t i = 0; i < static_cast<int64_t>(distinct.size()); ++i) sample(i);
  } else {
    pool_->ParallelFor(0, static_cast<int64_t>(distinct.size()), sample);
  }
}

void SamTopicModel::SampleTheta(const Eigen::Ref<const Eigen::MatrixXd>& beta,
                                const Eigen::MatrixXd& gram, int64_t d) const {
  const int k = hyper_.num_topics;
  Eigen::VectorXd a = Eigen::VectorXd::Zero(k);
  for (Eigen::SparseMatrix<double>::InnerIterator it(documents_, d); it; ++it) {
    a += it.value() * beta.row(it.index()).transpose();
  }
  const SamThetaPosterior posterior =
      SamThetaPosterior::FromGram(std::move(a), gram, hyper_.kappa, hyper_.alpha);
  samplers::GmcOptions options = sampling_.gmc;
  options.stream = (static_cast<uint64_t>(d) << 32) + visits_[d]++;
  auto gmc = samplers::Gmc::Create(posterior, theta_points_.col(d), options);
  SGMCMC_CHECK(gmc.ok()) << gmc.status();
  for (int i = 0; i < sampling_.burn_in; ++i) (*gmc)->Step();
  Eigen::MatrixXd draws(k, sampling_.draws);
  for (int n = 0; n < sampling_.draws; ++n) {
    (*gmc)->Step();
    draws.col(n) = (*gmc)->x().col(0).cwiseProduct((*gmc)->x().col(0));
  }
  theta_points_.col(d) = (*gmc)->x().col(0);
  theta_draws_[d] = std::move(draws);
}

SamPerplexityAccumulator::SamPerplexityAccumulator(const Eigen::SparseMatrix<double>& documents,
                                                   const SamHyperparameters& hyper,
                                                   int theta_samples, uint64_t seed)
    : documents_(documents),
      hyper_(hyper),
      log_sums_(Eigen::VectorXd::Zero(documents.cols())),
      log_c_(math::VmfLogNormalizer(static_cast<int>(documents.rows()), hyper.kappa)) {
  SGMCMC_CHECK(theta_samples >= 1 && documents.cols() >= 1);
  const int k = hyper_.num_topics;
  const std::vector<double> alpha(k, hyper_.alpha);
  thetas_.reserve(documents.cols());
  for (int64_t d = 0; d < documents.cols(); ++d) {
    rng::Engine engine(seed, static_cast<uint64_t>(d));
    Eigen::MatrixXd thetas(k, theta_samples);
    for (int s = 0; s < theta_samples; ++s) {
      rng::DirichletSample(engine, alpha, absl::MakeSpan(thetas.col(s).data(), k));
    }
    thetas_.push_back(std::move(thetas));
  }
}

void SamPerplexityAccumulator::Add(const Eigen::Ref<const Eigen::MatrixXd>& beta) {
  const int k = hyper_.num_topics;
  SGMCMC_CHECK(beta.rows() == documents_.rows() && beta.cols() == k);
  const Eigen::MatrixXd gram = beta.transpose() * beta;
  const int samples = static_cast<int>(thetas_[0].cols());
  std::vector<double> per_theta(samples);
  Eigen::VectorXd a(k);
  Eigen::MatrixXd g_theta(k, samples);
  for (int64_t d = 0; d < documents_.cols(); ++d) {
    // vᵀβθ / ‖βθ‖ for all θ_s at once: (βᵀv)ᵀθ and ‖βθ‖ = √(θᵀGθ), G = βᵀβ.
    a.setZero();
    for (Eigen::SparseMatrix<double>::InnerIterator it(documents_, d); it; ++it) {
      a += it.value() * beta.row(it.index()).transpose();
    }
    const Eigen::MatrixXd& thetas = thetas_[d];
    g_theta.noalias() = gram * thetas;
    for (int s = 0; s < samples; ++s) {
      per_theta[s] =
          hyper_.kappa * a.dot(thetas.col(s)) / std::sqrt(thetas.col(s).dot(g_theta.col(s)));
    }
    const double log_p = math::LogSumExp(per_theta) - std::log(static_cast<double>(samples));
    if (draws_ == 0) {
      log_sums_[d] = log_p;
    } else {
      const double high = std::max(log_sums_[d], log_p);
      log_sums_[d] = high + std::log1p(std::exp(-std::abs(log_sums_[d] - log_p)));
    }
  }
  ++draws_;
}

double SamPerplexityAccumulator::LogPerplexity() const {
  SGMCMC_CHECK(draws_ >= 1);
  const double log_m = std::log(static_cast<double>(draws_));
  double total = 0;
  for (int64_t d = 0; d < log_sums_.size(); ++d) total += log_c_ + log_sums_[d] - log_m;
  return -total / static_cast<double>(log_sums_.size());
}

SamPerplexityState SamPerplexityAccumulator::SaveState() const {
  SamPerplexityState state;
  state.set_num_documents(log_sums_.size());
  state.set_draws(draws_);
  if (draws_ > 0) {
    state.mutable_log_sums()->Add(log_sums_.data(), log_sums_.data() + log_sums_.size());
  }
  return state;
}

absl::Status SamPerplexityAccumulator::RestoreState(const SamPerplexityState& state) {
  const auto fail = [](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat("SamPerplexityState: ", what));
  };
  if (state.num_documents() != log_sums_.size()) {
    return fail(absl::StrCat("num_documents ", state.num_documents(), " != ", log_sums_.size()));
  }
  if (state.draws() < 0) return fail(absl::StrCat("draws ", state.draws(), " < 0"));
  const int64_t want = state.draws() == 0 ? 0 : log_sums_.size();
  if (state.log_sums_size() != want) {
    return fail(absl::StrCat("log_sums has ", state.log_sums_size(), " entries, want ", want));
  }
  for (int i = 0; i < state.log_sums_size(); ++i) {
    if (!std::isfinite(state.log_sums(i))) {
      return fail(absl::StrCat("log_sums[", i, "] is not finite: ", state.log_sums(i)));
    }
  }
  draws_ = state.draws();
  for (int i = 0; i < state.log_sums_size(); ++i) log_sums_[i] = state.log_sums(i);
  return absl::OkStatus();
}

double SamLogPerplexity(absl::Span<const Eigen::MatrixXd> betas,
                        const Eigen::SparseMatrix<double>& documents,
                        const SamHyperparameters& hyper, int theta_samples, uint64_t seed) {
  SGMCMC_CHECK(!betas.empty());
  SamPerplexityAccumulator accumulator(documents, hyper, theta_samples, seed);
  for (const Eigen::MatrixXd& beta : betas) accumulator.Add(beta);
  return accumulator.LogPerplexity();
}

SamThetaPosterior::SamThetaPosterior(const Eigen::Ref<const Eigen::MatrixXd>& beta,
                                     const Eigen::Ref<const Eigen::VectorXd>& document,
                                     double kappa, double alpha)
    : a_(beta.transpose() * document),
      g_(beta.transpose() * beta),
      kappa_(kappa),
      alpha_(alpha) {
  SGMCMC_CHECK(beta.cols() >= 2 && document.size() == beta.rows());
}

SamThetaPosterior SamThetaPosterior::FromGram(Eigen::VectorXd beta_t_document,
                                              Eigen::MatrixXd gram, double kappa,
                                              double alpha) {
  return SamThetaPosterior(GramTag{}, std::move(beta_t_document), std::move(gram), kappa,
                           alpha);
}

SamThetaPosterior::SamThetaPosterior(GramTag, Eigen::VectorXd beta_t_document,
                                     Eigen::MatrixXd gram, double kappa, double alpha)
    : a_(std::move(beta_t_document)), g_(std::move(gram)), kappa_(kappa), alpha_(alpha) {
  SGMCMC_CHECK(a_.size() >= 2 && g_.rows() == a_.size() && g_.cols() == a_.size());
}

void SamThetaPosterior::PriorPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                               Eigen::Ref<Eigen::MatrixXd> out) const {
  // U = -(2α - 1) Σ log|x_i| - κ aᵀθ / √(θᵀGθ), θ = x∘x; ∂U/∂x = 2 x∘∂U/∂θ for the second.
  const Eigen::VectorXd theta = x.col(0).cwiseProduct(x.col(0));
  const Eigen::VectorXd g_theta = g_ * theta;
  const double n = std::sqrt(theta.dot(g_theta));
  const double a_theta = a_.dot(theta);
  const Eigen::VectorXd d_theta = -kappa_ * (a_ / n - (a_theta / (n * n * n)) * g_theta);
  out.col(0) = 2 * x.col(0).cwiseProduct(d_theta) - (2 * alpha_ - 1) * x.col(0).cwiseInverse();
}

void SamThetaPosterior::AddLikelihoodPotentialGradient(const Eigen::Ref<const Eigen::MatrixXd>&,
                                                       absl::Span<const int64_t>, double,
                                                       Eigen::Ref<Eigen::MatrixXd>) const {}

double SamThetaPosterior::Potential(const Eigen::Ref<const Eigen::MatrixXd>& x) const {
  const Eigen::VectorXd theta = x.col(0).cwiseProduct(x.col(0));
  const double n = std::sqrt(theta.dot(g_ * theta));
  double u = -kappa_ * a_.dot(theta) / n;
  for (int i = 0; i < x.rows(); ++i) u -= (2 * alpha_ - 1) * std::log(std::abs(x(i, 0)));
  return u;
}

Eigen::SparseMatrix<double> SampleSamDocuments(const Eigen::MatrixXd& beta, int count,
                                               double kappa, uint64_t seed) {
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

}  // namespace sgmcmc::models
