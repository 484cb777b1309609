#include "models/mf/alpha_stable_mf.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "rng/generalized_gamma.h"
#include "rng/normal.h"
#include "rng/stable.h"
#include "rng/uniform.h"
#include "samplers/sampler.h"

namespace sgmcmc::models {
namespace {

bool PositiveFinite(double x) { return x > 0 && std::isfinite(x); }

double Sign(double x) { return x < 0 ? -1.0 : 1.0; }

// Draws of Phi used to estimate its median for the start of the chain.
constexpr int kMedianDraws = 1001;
// The largest P / sigma2 an entry starts with (an Exp(1) variable exceeds 10 with probability
// 4.5e-5).
constexpr double kMaxInitialPowerRatio = 10;
// Standard deviation of the log-normal spread of the initial W, H around their level.
constexpr double kInitLogSd = 0.5;

template <typename Range>
double Median(const Range& range) {
  std::vector<double> values(range.begin(), range.end());
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

}  // namespace

absl::Status AlphaStableMfOptions::Validate() const {
  if (sources.empty()) return absl::InvalidArgumentError("sources must not be empty");
  for (size_t s = 0; s < sources.size(); ++s) {
    const AlphaStableSource& src = sources[s];
    if (!(src.alpha > 0 && src.alpha < 2)) {
      return absl::InvalidArgumentError(
          absl::StrCat("sources[", s, "].alpha must be in (0, 2), got ", src.alpha));
    }
    if (src.rank < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("sources[", s, "].rank must be >= 1, got ", src.rank));
    }
    for (double v : {src.a_w, src.b_w, src.a_h, src.b_h}) {
      if (!PositiveFinite(v)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "sources[", s, "]: a_w, b_w, a_h, b_h must be finite and > 0, got ", v));
      }
    }
  }
  return absl::OkStatus();
}

double AlphaStableMixingScale(double alpha) {
  return 2 * std::pow(std::cos(M_PI * alpha / 4), 2 / alpha);
}

double AlphaStableMixingSample(rng::Engine& engine, double alpha) {
  return AlphaStableMixingScale(alpha) * rng::StableSample(engine, alpha / 2, 1);
}

double GeneralizedGammaPotential(double x, double a, double b, double c) {
  return -(a * c - 1) * std::log(x) + b * std::pow(x, c);
}

double GeneralizedGammaPotentialDerivative(double x, double a, double b, double c) {
  return (-(a * c - 1) + b * c * std::pow(x, c)) / x;
}

double ComplexGaussianPotential(double power, double variance) {
  return std::log(M_PI * variance) + power / variance;
}

double ComplexGaussianPotentialDerivative(double power, double variance) {
  return (1 - power / variance) / variance;
}

absl::StatusOr<std::unique_ptr<AlphaStableMf>> AlphaStableMf::Create(
    const Eigen::MatrixXd& power, const AlphaStableMfOptions& options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  if (power.rows() < 1 || power.cols() < 1) {
    return absl::InvalidArgumentError("power must be non-empty");
  }
  for (Eigen::Index j = 0; j < power.cols(); ++j) {
    for (Eigen::Index i = 0; i < power.rows(); ++i) {
      if (!(power(i, j) >= 0 && std::isfinite(power(i, j)))) {
        return absl::InvalidArgumentError(absl::StrCat("power(", i, ", ", j,
                                                       ") must be finite and >= 0, got ",
                                                       power(i, j)));
      }
    }
  }
  for (size_t s = 0; s < options.sources.size(); ++s) {
    const Eigen::MatrixXd& w = options.sources[s].fixed_w;
    if (w.size() == 0) continue;
    if (w.rows() != power.rows() || w.cols() != options.sources[s].rank) {
      return absl::InvalidArgumentError(absl::StrCat("sources[", s, "].fixed_w must be ",
                                                     power.rows(), " x ", options.sources[s].rank,
                                                     ", got ", w.rows(), " x ", w.cols()));
    }
    if (!(w.array() > 0).all() || !w.allFinite()) {
      return absl::InvalidArgumentError(
          absl::StrCat("sources[", s, "].fixed_w must have finite entries > 0"));
    }
  }
  return std::unique_ptr<AlphaStableMf>(new AlphaStableMf(power, options));
}

double AlphaStableMf::CoordinatePriorPotential(double t, double a, double b, double c) const {
  const double x = Factor(t);
  return GeneralizedGammaPotential(x, a, b, c) - (log_parametrized_ ? t : 0.0);
}

AlphaStableMf::AlphaStableMf(const Eigen::MatrixXd& power, const AlphaStableMfOptions& options)
    : options_(options),
      log_parametrized_(options.parametrization == AlphaStableParametrization::kLog),
      power_(power),
      rows_(static_cast<int>(power.rows())),
      cols_(static_cast<int>(power.cols())) {
  for (const AlphaStableSource& src : options_.sources) {
    if (src.fixed_w.size() == 0) {
      w_offset_.push_back(dimension_);
      dimension_ += rows_ * src.rank;
    } else {
      w_offset_.push_back(-1);
    }
    h_offset_.push_back(dimension_);
    dimension_ += cols_ * src.rank;
    phi_.push_back(Eigen::MatrixXd::Constant(rows_, cols_, AlphaStableMixingScale(src.alpha)));
  }
}

Eigen::MatrixXd AlphaStableMf::W(absl::Span<const double> theta, int s) const {
  const AlphaStableSource& src = options_.sources[s];
  if (w_offset_[s] < 0) return src.fixed_w;
  Eigen::MatrixXd w(rows_, src.rank);
  for (int i = 0; i < rows_; ++i) {
    for (int k = 0; k < src.rank; ++k) w(i, k) = Factor(theta[w_offset_[s] + i * src.rank + k]);
  }
  return w;
}

Eigen::MatrixXd AlphaStableMf::H(absl::Span<const double> theta, int s) const {
  const int rank = options_.sources[s].rank;
  Eigen::MatrixXd h(rank, cols_);
  for (int j = 0; j < cols_; ++j) {
    for (int k = 0; k < rank; ++k) h(k, j) = Factor(theta[h_offset_[s] + j * rank + k]);
  }
  return h;
}

void AlphaStableMf::SetFactors(int s, const Eigen::MatrixXd& w, const Eigen::MatrixXd& h,
                               absl::Span<double> theta) const {
  const int rank = options_.sources[s].rank;
  SGMCMC_CHECK_EQ(static_cast<int>(theta.size()), dimension_);
  SGMCMC_CHECK(h.rows() == rank && h.cols() == cols_) << "SetFactors: H has the wrong shape";
  if (w_offset_[s] >= 0) {
    SGMCMC_CHECK(w.rows() == rows_ && w.cols() == rank) << "SetFactors: W has the wrong shape";
    for (int i = 0; i < rows_; ++i) {
      for (int k = 0; k < rank; ++k) theta[w_offset_[s] + i * rank + k] = Coordinate(w(i, k));
    }
  }
  for (int j = 0; j < cols_; ++j) {
    for (int k = 0; k < rank; ++k) theta[h_offset_[s] + j * rank + k] = Coordinate(h(k, j));
  }
}

void AlphaStableMf::PriorPotentialGradient(absl::Span<const double> theta,
                                           absl::Span<double> out) const {
  for (int s = 0; s < num_sources(); ++s) {
    const AlphaStableSource& src = options_.sources[s];
    const double c = -2 / src.alpha;
    auto fill = [&](int offset, int count, double a, double b) {
      for (int d = offset; d < offset + count; ++d) {
        const double x = Factor(theta[d]);
        // Log: d/du [GG potential(e^u) - u] (the Jacobian e^u of W = e^u).
        out[d] = log_parametrized_
                     ? x * GeneralizedGammaPotentialDerivative(x, a, b, c) - 1
                     : Sign(theta[d]) * GeneralizedGammaPotentialDerivative(x, a, b, c);
      }
    };
    if (w_offset_[s] >= 0) fill(w_offset_[s], rows_ * src.rank, src.a_w, src.b_w);
    fill(h_offset_[s], cols_ * src.rank, src.a_h, src.b_h);
  }
}

void AlphaStableMf::AddLikelihoodPotentialGradient(absl::Span<const double> theta,
                                                   absl::Span<const int64_t> batch, double scale,
                                                   absl::Span<double> out) const {
  const int num_src = num_sources();
  // Per source: d sigma2 / d V_s at the current entry. S is small (1 or 2).
  double dvar_dv[8];
  SGMCMC_CHECK_LE(num_src, 8) << "AlphaStableMf supports at most 8 sources";
  for (int64_t id : batch) {
    const int i = static_cast<int>(id / cols_);
    const int j = static_cast<int>(id % cols_);
    double variance = 0;
    for (int s = 0; s < num_src; ++s) {
      const AlphaStableSource& src = options_.sources[s];
      const double* h = theta.data() + h_offset_[s] + static_cast<size_t>(j) * src.rank;
      double sum = 0;
      if (w_offset_[s] >= 0) {
        const double* w = theta.data() + w_offset_[s] + static_cast<size_t>(i) * src.rank;
        for (int k = 0; k < src.rank; ++k) sum += Factor(w[k]) * Factor(h[k]);
      } else {
        for (int k = 0; k < src.rank; ++k) sum += src.fixed_w(i, k) * Factor(h[k]);
      }
      const double exponent = 2 / src.alpha;
      const double part = phi_[s](i, j) * std::pow(sum, exponent);
      variance += part;
      dvar_dv[s] = exponent * part / sum;
    }
    const double g = scale * ComplexGaussianPotentialDerivative(power_(i, j), variance);
    for (int s = 0; s < num_src; ++s) {
      const AlphaStableSource& src = options_.sources[s];
      const double gv = g * dvar_dv[s];
      const size_t h_base = h_offset_[s] + static_cast<size_t>(j) * src.rank;
      if (w_offset_[s] >= 0) {
        const size_t w_base = w_offset_[s] + static_cast<size_t>(i) * src.rank;
        for (int k = 0; k < src.rank; ++k) {
          const double w = theta[w_base + k], h = theta[h_base + k];
          // d W / d theta_W is sign(theta_W) (mirrored) or W (log).
          out[w_base + k] += gv * FactorDerivative(w) * Factor(h);
          out[h_base + k] += gv * FactorDerivative(h) * Factor(w);
        }
      } else {
        for (int k = 0; k < src.rank; ++k) {
          out[h_base + k] += gv * FactorDerivative(theta[h_base + k]) * src.fixed_w(i, k);
        }
      }
    }
  }
}

Eigen::MatrixXd AlphaStableMf::SourceVariance(absl::Span<const double> theta, int s) const {
  const Eigen::MatrixXd v = W(theta, s) * H(theta, s);
  return phi_[s].array() * v.array().pow(2 / options_.sources[s].alpha);
}

double AlphaStableMf::MetropolisPhi(absl::Span<const double> theta, rng::Engine& engine,
                                    int stride, int64_t phase) {
  SGMCMC_CHECK_GE(stride, 1) << "MetropolisPhi: stride";
  const int num_src = num_sources();
  std::vector<Eigen::MatrixXd> base(num_src);  // V_s^(2 / alpha_s)
  Eigen::MatrixXd variance = Eigen::MatrixXd::Zero(rows_, cols_);
  for (int s = 0; s < num_src; ++s) {
    base[s] = (W(theta, s) * H(theta, s)).array().pow(2 / options_.sources[s].alpha);
    variance.array() += phi_[s].array() * base[s].array();
  }
  int64_t accepted = 0, proposed = 0;
  const int64_t entries = static_cast<int64_t>(rows_) * cols_;
  for (int s = 0; s < num_src; ++s) {
    const double alpha = options_.sources[s].alpha;
    for (int64_t n = phase % stride; n < entries; n += stride) {
      const int i = static_cast<int>(n % rows_), j = static_cast<int>(n / rows_);
      ++proposed;
      const double proposal = AlphaStableMixingSample(engine, alpha);
      const double old_part = phi_[s](i, j) * base[s](i, j);
      const double new_variance = variance(i, j) - old_part + proposal * base[s](i, j);
      const double log_ratio = ComplexGaussianPotential(power_(i, j), variance(i, j)) -
                               ComplexGaussianPotential(power_(i, j), new_variance);
      if (std::log(rng::UniformDouble(engine)) < log_ratio && new_variance > 0 &&
          std::isfinite(new_variance)) {
        phi_[s](i, j) = proposal;
        variance(i, j) = new_variance;
        ++accepted;
      }
    }
  }
  return proposed == 0 ? 0.0 : static_cast<double>(accepted) / static_cast<double>(proposed);
}

double AlphaStableMf::LogJoint(absl::Span<const double> theta) const {
  double log_joint = 0;
  for (int s = 0; s < num_sources(); ++s) {
    const AlphaStableSource& src = options_.sources[s];
    const double c = -2 / src.alpha;
    if (w_offset_[s] >= 0) {
      for (int d = w_offset_[s]; d < w_offset_[s] + rows_ * src.rank; ++d) {
        log_joint -= CoordinatePriorPotential(theta[d], src.a_w, src.b_w, c);
      }
    }
    for (int d = h_offset_[s]; d < h_offset_[s] + cols_ * src.rank; ++d) {
      log_joint -= CoordinatePriorPotential(theta[d], src.a_h, src.b_h, c);
    }
  }
  Eigen::MatrixXd variance = Eigen::MatrixXd::Zero(rows_, cols_);
  for (int s = 0; s < num_sources(); ++s) variance += SourceVariance(theta, s);
  for (int j = 0; j < cols_; ++j) {
    for (int i = 0; i < rows_; ++i) {
      log_joint -= ComplexGaussianPotential(power_(i, j), variance(i, j));
    }
  }
  return log_joint;
}

SyntheticAlphaStableData GenerateAlphaStableData(int rows, int cols,
                                                 const AlphaStableSource& source,
                                                 rng::Engine& engine) {
  const double c = -2 / source.alpha;
  SyntheticAlphaStableData out;
  out.w.resize(rows, source.rank);
  out.h.resize(source.rank, cols);
  for (int k = 0; k < source.rank; ++k) {
    for (int i = 0; i < rows; ++i) {
      out.w(i, k) = rng::GeneralizedGammaPowerSample(engine, source.a_w, source.b_w, c);
    }
    for (int j = 0; j < cols; ++j) {
      out.h(k, j) = rng::GeneralizedGammaPowerSample(engine, source.a_h, source.b_h, c);
    }
  }
  const Eigen::MatrixXd v = out.w * out.h;
  out.power.resize(rows, cols);
  for (int j = 0; j < cols; ++j) {
    for (int i = 0; i < rows; ++i) {
      const double variance =
          AlphaStableMixingSample(engine, source.alpha) * std::pow(v(i, j), 2 / source.alpha);
      // X = sqrt(variance / 2) (z1 + i z2): |X|^2 = variance (z1^2 + z2^2) / 2.
      const double z1 = rng::NormalSample(engine), z2 = rng::NormalSample(engine);
      out.power(i, j) = variance * (z1 * z1 + z2 * z2) / 2;
    }
  }
  return out;
}

absl::Status AlphaStableMfRunOptions::Validate() const {
  if (absl::Status s = sampler.Validate(); !s.ok()) return s;
  if (average_last < 1 || average_last > sampler.iterations) {
    return absl::InvalidArgumentError(absl::StrCat("average_last must be in [1, iterations = ",
                                                   sampler.iterations, "], got ",
                                                   average_last));
  }
  if (phi_stride < 1) {
    return absl::InvalidArgumentError(absl::StrCat("phi_stride must be >= 1, got ", phi_stride));
  }
  if (phi_warmup_sweeps < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("phi_warmup_sweeps must be >= 0, got ", phi_warmup_sweeps));
  }
  if (sampler.batch_size < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("batch_size must be >= 0 (0: N / 10), got ", sampler.batch_size));
  }
  if (checkpoint_every < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("checkpoint_every must be >= 0, got ", checkpoint_every));
  }
  if (stop_after < 0) {
    return absl::InvalidArgumentError(absl::StrCat("stop_after must be >= 0, got ", stop_after));
  }
  return absl::OkStatus();
}

namespace {

// Appends the column-major entries of `m` to `out`.
void AppendMatrix(const Eigen::MatrixXd& m, google::protobuf::RepeatedField<double>& out) {
  out.Add(m.data(), m.data() + m.size());
}

// Reads matrices of the shapes of `out` from `values` (their total size, checked by the caller).
void ReadMatrices(const google::protobuf::RepeatedField<double>& values,
                  std::vector<Eigen::MatrixXd>& out) {
  int64_t offset = 0;
  for (Eigen::MatrixXd& m : out) {
    std::copy(values.begin() + offset, values.begin() + offset + m.size(), m.data());
    offset += m.size();
  }
}

AlphaStableMfResult Incomplete() {
  AlphaStableMfResult result;
  result.complete = false;
  return result;
}

int64_t TotalSize(const std::vector<Eigen::MatrixXd>& matrices) {
  int64_t total = 0;
  for (const Eigen::MatrixXd& m : matrices) total += m.size();
  return total;
}

// The chain's state after `done` sweeps; `sums` holds the running sums in its mean_* fields.
AlphaStableMfChainState SaveChain(int64_t done, const samplers::EuclideanSampler& sampler,
                                  const rng::Engine& metropolis, const AlphaStableMf& model,
                                  const AlphaStableMfResult& sums, double accepted) {
  AlphaStableMfChainState state;
  state.set_iteration(done);
  *state.mutable_sampler() = sampler.SaveState();
  state.set_metropolis_position(metropolis.position());
  for (int s = 0; s < model.num_sources(); ++s) {
    AppendMatrix(model.phi(s), *state.mutable_phi());
    AppendMatrix(sums.mean_v[s], *state.mutable_sum_v());
    AppendMatrix(sums.mean_w[s], *state.mutable_sum_w());
    AppendMatrix(sums.mean_gain[s], *state.mutable_sum_gain());
  }
  state.set_accepted(accepted);
  state.set_seconds(sums.seconds);
  return state;
}

// Restores SaveChain's `state` of a run of `iterations` sweeps. InvalidArgument naming the
// field (AlphaStableMfChainState.x, or SamplerState.x) if it does not fit the model and the
// run, before anything is changed.
absl::Status RestoreChain(const AlphaStableMfChainState& state, int iterations,
                          samplers::EuclideanSampler& sampler, rng::Engine& metropolis,
                          AlphaStableMf& model, AlphaStableMfResult& sums, double& accepted) {
  auto invalid = [](absl::string_view field, auto... what) {
    return absl::InvalidArgumentError(
        absl::StrCat("AlphaStableMfChainState.", field, " ", what...));
  };
  if (state.iteration() < 0 || state.iteration() > iterations) {
    return invalid("iteration", "must be in [0, ", iterations, "], got ", state.iteration());
  }
  if (state.sampler().iteration() != state.iteration()) {
    return invalid("sampler.iteration", "must equal iteration ", state.iteration(), ", got ",
                   state.sampler().iteration());
  }
  std::vector<Eigen::MatrixXd> phi;
  for (int s = 0; s < model.num_sources(); ++s) phi.push_back(model.phi(s));
  const std::pair<absl::string_view, std::pair<int64_t, int64_t>> sizes[] = {
      {"phi", {state.phi_size(), TotalSize(phi)}},
      {"sum_v", {state.sum_v_size(), TotalSize(sums.mean_v)}},
      {"sum_w", {state.sum_w_size(), TotalSize(sums.mean_w)}},
      {"sum_gain", {state.sum_gain_size(), TotalSize(sums.mean_gain)}}};
  for (const auto& [field, size] : sizes) {
    if (size.first != size.second) {
      return invalid(field, "has ", size.first, " values, the model needs ", size.second);
    }
  }
  for (int i = 0; i < state.phi_size(); ++i) {
    if (!PositiveFinite(state.phi(i))) {
      return invalid(absl::StrCat("phi[", i, "]"), "must be finite and > 0, got ", state.phi(i));
    }
  }
  if (absl::Status s = sampler.RestoreState(state.sampler()); !s.ok()) return s;
  metropolis.Seek(state.metropolis_position());
  ReadMatrices(state.phi(), phi);
  for (int s = 0; s < model.num_sources(); ++s) model.mutable_phi(s) = phi[s];
  ReadMatrices(state.sum_v(), sums.mean_v);
  ReadMatrices(state.sum_w(), sums.mean_w);
  ReadMatrices(state.sum_gain(), sums.mean_gain);
  accepted = state.accepted();
  sums.seconds = state.seconds();
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<AlphaStableMfResult> RunAlphaStableMf(AlphaStableMf& model,
                                                     const AlphaStableMfRunOptions& run) {
  if (absl::Status s = run.Validate(); !s.ok()) return s;
  const int num_src = model.num_sources();
  const int rows = model.rows(), cols = model.cols();
  MfRunOptions sampler_options = run.sampler;
  if (sampler_options.batch_size == 0) {
    sampler_options.batch_size = std::max<int64_t>(1, model.num_items() / 10);
  }

  // Start: Phi from the prior, W and H at the data's scale (the sampler is created from it
  // also when resuming, then restored).
  rng::Engine metropolis_engine(run.sampler.seed, /*stream=*/2);
  for (int s = 0; s < num_src; ++s) {
    for (double& phi : model.mutable_phi(s).reshaped()) {
      phi = AlphaStableMixingSample(metropolis_engine, model.source(s).alpha);
    }
  }
  rng::Engine init_engine(run.sampler.seed, /*stream=*/1);
  std::vector<double> theta0(static_cast<size_t>(model.dimension()));
  const double median_power = Median(model.power().reshaped());
  for (int s = 0; s < num_src; ++s) {
    const AlphaStableSource& src = model.source(s);
    std::vector<double> phis(kMedianDraws);
    for (double& phi : phis) phi = AlphaStableMixingSample(init_engine, src.alpha);
    const double level = std::pow(
        median_power / (std::log(2.0) * num_src * Median(phis)), src.alpha / 2);
    auto jitter = [&] { return std::exp(kInitLogSd * rng::NormalSample(init_engine)); };
    Eigen::MatrixXd w(rows, src.rank), h(src.rank, cols);
    const bool fixed = src.fixed_w.size() != 0;
    const double h_level =
        fixed ? level / (src.rank * src.fixed_w.mean()) : std::sqrt(level / src.rank);
    for (double& x : w.reshaped()) x = std::sqrt(level / src.rank) * jitter();
    for (double& x : h.reshaped()) x = h_level * jitter();
    model.SetFactors(s, w, h, absl::MakeSpan(theta0));
  }
  if (!run.initial_theta.empty()) {
    if (static_cast<int>(run.initial_theta.size()) != model.dimension()) {
      return absl::InvalidArgumentError(absl::StrCat("initial_theta must have length ",
                                                     model.dimension(), ", got ",
                                                     run.initial_theta.size()));
    }
    theta0 = run.initial_theta;
  }
  // No entry starts with P / sigma2 > kMaxInitialPowerRatio:
  // Phi^s_ij >= P_ij / (kMaxInitialPowerRatio S (V^s_ij)^(2 / alpha_s)). The prior proposal of
  // the Metropolis step rarely reaches the Phi that an outlying |X_ij|^2 needs (the prior's
  // tail is x^(-alpha / 2)), and a prior draw left in place gives P / sigma2 up to ~1e6 and
  // likelihood gradients as large, which throw W, H off. Other entries keep their prior draw.
  for (int s = 0; s < num_src; ++s) {
    const Eigen::ArrayXXd base =
        (model.W(theta0, s) * model.H(theta0, s)).array().pow(2 / model.source(s).alpha);
    Eigen::MatrixXd& phi = model.mutable_phi(s);
    phi = phi.array().max(model.power().array() / (kMaxInitialPowerRatio * num_src * base));
  }
  for (int sweep = 0; run.resume == nullptr && sweep < run.phi_warmup_sweeps; ++sweep) {
    model.MetropolisPhi(theta0, metropolis_engine);
  }
  absl::StatusOr<std::unique_ptr<samplers::EuclideanSampler>> sampler =
      MakeMatrixFactorizationSampler(model, theta0, sampler_options);
  if (!sampler.ok()) return sampler.status();

  AlphaStableMfResult result;
  for (int s = 0; s < num_src; ++s) {
    result.mean_v.push_back(Eigen::MatrixXd::Zero(rows, cols));
    result.mean_w.push_back(Eigen::MatrixXd::Zero(rows, model.source(s).rank));
    result.mean_gain.push_back(Eigen::MatrixXd::Zero(rows, cols));
  }
  using Clock = std::chrono::steady_clock;
  double accepted = 0;
  const int iterations = run.sampler.iterations;
  int64_t start = 0;
  if (run.resume != nullptr) {
    if (absl::Status s = RestoreChain(*run.resume, iterations, **sampler, metropolis_engine,
                                      model, result, accepted);
        !s.ok()) {
      return s;
    }
    start = run.resume->iteration();
  }
  // Whether stop_after stops the run after `done` sweeps; then the state is saved.
  auto stops = [&](int64_t done) {
    return run.stop_after > 0 && done >= run.stop_after && done < iterations;
  };
  auto save = [&](int64_t done) -> absl::Status {
    if (!run.checkpoint) return absl::OkStatus();
    return run.checkpoint(SaveChain(done, **sampler, metropolis_engine, model, result, accepted));
  };
  if (stops(start)) {
    if (absl::Status s = save(start); !s.ok()) return s;
    return Incomplete();
  }
  for (int t = static_cast<int>(start) + 1; t <= iterations; ++t) {
    const Clock::time_point start = Clock::now();
    accepted += model.MetropolisPhi((*sampler)->theta(), metropolis_engine, run.phi_stride, t);
    (*sampler)->Step();
    result.seconds += std::chrono::duration<double>(Clock::now() - start).count();
    absl::Span<const double> theta = (*sampler)->theta();
    for (double x : theta) {
      if (!std::isfinite(x)) {
        return absl::InternalError(absl::StrCat(MfMethodName(run.sampler.method),
                                                " diverged at iteration ", t,
                                                " (non-finite W or H); lower step_size"));
      }
    }
    if (t > iterations - run.average_last) {
      std::vector<Eigen::MatrixXd> variances(num_src);
      Eigen::MatrixXd total = Eigen::MatrixXd::Zero(rows, cols);
      for (int s = 0; s < num_src; ++s) {
        const Eigen::MatrixXd w = model.W(theta, s);
        const Eigen::MatrixXd v = w * model.H(theta, s);
        result.mean_v[s] += v;
        result.mean_w[s] += w;
        variances[s] = model.phi(s).array() * v.array().pow(2 / model.source(s).alpha);
        total += variances[s];
      }
      for (int s = 0; s < num_src; ++s) {
        result.mean_gain[s].array() += variances[s].array() / total.array();
      }
    }
    const bool stop = stops(t);
    if (stop || (run.checkpoint_every > 0 && t % run.checkpoint_every == 0 && t < iterations)) {
      if (absl::Status s = save(t); !s.ok()) return s;
    }
    if (stop) return Incomplete();
  }
  for (int s = 0; s < num_src; ++s) {
    result.mean_v[s] /= run.average_last;
    result.mean_w[s] /= run.average_last;
    result.mean_gain[s] /= run.average_last;
  }
  result.acceptance_rate = accepted / iterations;
  result.seconds_per_sample = result.seconds / iterations;
  return result;
}

}  // namespace sgmcmc::models
