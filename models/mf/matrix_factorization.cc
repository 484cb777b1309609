#include "models/mf/matrix_factorization.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "base/check.h"
#include "data/ratings.h"
#include "parallel/communicator.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "rng/uniform.h"
#include "samplers/hamcmc.h"
#include "samplers/psgld.h"
#include "samplers/sgld.h"
#include "samplers/step_size.h"

namespace sgmcmc::models {
namespace {

bool Positive(double x) { return x > 0 && std::isfinite(x); }

}  // namespace

int MfBlockBegin(int n, int num_blocks, int p) {
  return static_cast<int>(static_cast<int64_t>(n) * p / num_blocks);
}

int MfBlockOf(int n, int num_blocks, int x) {
  int p = static_cast<int>(static_cast<int64_t>(x) * num_blocks / n);
  while (p + 1 < num_blocks && MfBlockBegin(n, num_blocks, p + 1) <= x) ++p;
  while (p > 0 && MfBlockBegin(n, num_blocks, p) > x) --p;
  return p;
}

absl::Status MatrixFactorizationOptions::Validate() const {
  if (rank < 1) {
    return absl::InvalidArgumentError(absl::StrCat("rank must be >= 1, got ", rank));
  }
  if (!Positive(sigma_w) || !Positive(sigma_h) || !Positive(sigma_x)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sigma_w, sigma_h, sigma_x must be finite and > 0, got ", sigma_w, ", ", sigma_h, ", ",
        sigma_x));
  }
  if (num_blocks < 1) {
    return absl::InvalidArgumentError(absl::StrCat("num_blocks must be >= 1, got ", num_blocks));
  }
  return absl::OkStatus();
}

MatrixFactorization::MatrixFactorization(const MatrixFactorizationOptions& options,
                                         int num_rows, int num_cols,
                                         parallel::Communicator* comm)
    : options_(options),
      num_rows_(num_rows),
      num_cols_(num_cols),
      rank_(options.rank),
      num_blocks_(options.num_blocks),
      comm_(comm) {}

absl::Status ValidateMatrixFactorizationData(const data::RatingMatrix& train,
                                             const MatrixFactorizationOptions& options) {
  if (absl::Status s = options.Validate(); !s.ok()) return s;
  if (absl::Status s = train.Validate(); !s.ok()) return s;
  if (train.ratings.empty()) return absl::InvalidArgumentError("no training ratings");
  const int p = options.num_blocks;
  if (p > train.num_rows || p > train.num_cols) {
    return absl::InvalidArgumentError(absl::StrCat("num_blocks ", p, " exceeds the ",
                                                   train.num_rows, " x ", train.num_cols,
                                                   " matrix"));
  }
  const int64_t d = static_cast<int64_t>(train.num_rows + train.num_cols) * options.rank;
  if (d > std::numeric_limits<int>::max()) {
    return absl::InvalidArgumentError(absl::StrCat("dimension ", d, " exceeds 2^31 - 1"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<MatrixFactorization>> MatrixFactorization::Create(
    const data::RatingMatrix& train, const MatrixFactorizationOptions& options,
    parallel::Communicator* comm) {
  if (absl::Status s = ValidateMatrixFactorizationData(train, options); !s.ok()) return s;
  const int p = options.num_blocks;
  std::unique_ptr<MatrixFactorization> model(
      new MatrixFactorization(options, train.num_rows, train.num_cols, comm));
  // Counting sort by (subset, block); stable, so the input order is kept within a block.
  std::vector<int> key(train.ratings.size());
  std::vector<int64_t> counts(static_cast<size_t>(p) * p + 1, 0);
  for (size_t i = 0; i < train.ratings.size(); ++i) {
    const data::Rating& r = train.ratings[i];
    const int b = MfBlockOf(train.num_rows, p, r.row);
    const int c = MfBlockOf(train.num_cols, p, r.col);
    const int s = ((c - b) % p + p) % p;
    key[i] = s * p + b;
    ++counts[key[i] + 1];
  }
  for (size_t k = 1; k < counts.size(); ++k) counts[k] += counts[k - 1];
  model->block_offsets_ = counts;
  model->ratings_.resize(train.ratings.size());
  for (size_t i = 0; i < train.ratings.size(); ++i) {
    model->ratings_[counts[key[i]]++] = train.ratings[i];
  }
  model->scratch_.assign(static_cast<size_t>(model->dimension()), 0.0);
  return model;
}

int MatrixFactorization::SubsetOfItem(int64_t id) const {
  SGMCMC_CHECK(id >= 0 && id < num_items())
      << "MatrixFactorization: item id must be in [0, " << num_items() << "), got " << id;
  int s = 0;
  while (block_offsets_[(s + 1) * num_blocks_] <= id) ++s;
  return s;
}

void MatrixFactorization::PriorPotentialGradient(absl::Span<const double> theta,
                                                 absl::Span<double> out) const {
  const size_t split = static_cast<size_t>(num_rows_) * rank_;
  const double inv_w = 1 / (options_.sigma_w * options_.sigma_w);
  const double inv_h = 1 / (options_.sigma_h * options_.sigma_h);
  for (size_t i = 0; i < split; ++i) out[i] = theta[i] * inv_w;
  for (size_t i = split; i < theta.size(); ++i) out[i] = theta[i] * inv_h;
}

namespace {

// AddMfBlockGradient with K fixed at compile time when kRank > 0.
template <int kRank>
void BlockGradientKernel(const data::Rating* begin, const data::Rating* end, int rank,
                         const double* w_base, const double* h_base, double c,
                         double* grad_w, double* grad_h) {
  const int k_count = kRank > 0 ? kRank : rank;
  for (const data::Rating* r = begin; r != end; ++r) {
    const double* w = w_base + static_cast<size_t>(r->row) * k_count;
    const double* h = h_base + static_cast<size_t>(r->col) * k_count;
    double pred = 0;
    for (int k = 0; k < k_count; ++k) pred += w[k] * h[k];
    const double e = c * (pred - static_cast<double>(r->value));
    double* gw = grad_w + static_cast<size_t>(r->row) * k_count;
    double* gh = grad_h + static_cast<size_t>(r->col) * k_count;
    for (int k = 0; k < k_count; ++k) {
      gw[k] += e * h[k];
      gh[k] += e * w[k];
    }
  }
}

}  // namespace

void AddMfBlockGradient(absl::Span<const data::Rating> ratings, int rank, const double* w,
                        const double* h, double c, double* grad_w, double* grad_h) {
  const data::Rating* begin = ratings.data();
  const data::Rating* end = begin + ratings.size();
  if (rank == 10) {
    BlockGradientKernel<10>(begin, end, rank, w, h, c, grad_w, grad_h);
  } else {
    BlockGradientKernel<0>(begin, end, rank, w, h, c, grad_w, grad_h);
  }
}

void MatrixFactorization::AddBlockGradient(absl::Span<const double> theta, int s, int b,
                                           double c) const {
  const int64_t begin = block_offsets_[s * num_blocks_ + b];
  const int64_t end = block_offsets_[s * num_blocks_ + b + 1];
  const size_t split = static_cast<size_t>(num_rows_) * rank_;
  AddMfBlockGradient(absl::MakeConstSpan(ratings_.data() + begin, ratings_.data() + end), rank_,
                     theta.data(), theta.data() + split, c, scratch_.data(),
                     scratch_.data() + split);
}

void MatrixFactorization::AddLikelihoodPotentialGradient(absl::Span<const double> theta,
                                                         absl::Span<const int64_t> batch,
                                                         double scale,
                                                         absl::Span<double> out) const {
  const int comm_rank = comm_ == nullptr ? 0 : comm_->rank();
  const int comm_size = comm_ == nullptr ? 1 : comm_->size();
  const double inv_var = 1 / (options_.sigma_x * options_.sigma_x);
  for (int64_t id : batch) {
    const int s = SubsetOfItem(id);
    std::fill(scratch_.begin(), scratch_.end(), 0.0);
    const double c = scale * inv_var / static_cast<double>(subset_size(s));
    for (int b = comm_rank; b < num_blocks_; b += comm_size) AddBlockGradient(theta, s, b, c);
    if (comm_size > 1) {
      const absl::Status status = comm_->AllReduceSum(absl::MakeSpan(scratch_));
      SGMCMC_CHECK(status.ok()) << "MatrixFactorization: AllReduceSum failed on rank "
                                << comm_rank << ": " << status.message();
    }
    for (size_t i = 0; i < scratch_.size(); ++i) out[i] += scratch_[i];
  }
}

double MatrixFactorization::Predict(absl::Span<const double> theta, int32_t row,
                                    int32_t col) const {
  const double* w = theta.data() + static_cast<size_t>(row) * rank_;
  const double* h = theta.data() + static_cast<size_t>(num_rows_ + col) * rank_;
  double pred = 0;
  for (int k = 0; k < rank_; ++k) pred += w[k] * h[k];
  return pred;
}

double MatrixFactorization::LogJoint(absl::Span<const double> theta) const {
  const size_t split = static_cast<size_t>(num_rows_) * rank_;
  double prior = 0;
  for (size_t i = 0; i < theta.size(); ++i) {
    const double sd = i < split ? options_.sigma_w : options_.sigma_h;
    prior -= 0.5 * theta[i] * theta[i] / (sd * sd);
  }
  double like = 0;
  for (const data::Rating& r : ratings_) {
    const double e = Predict(theta, r.row, r.col) - r.value;
    like -= 0.5 * e * e / (options_.sigma_x * options_.sigma_x);
  }
  return prior + like;
}

PredictionAverage::PredictionAverage(const MatrixFactorization& model,
                                     const data::RatingMatrix& test)
    : model_(model), test_(test.ratings), sum_(test.ratings.size(), 0.0) {
  for (const data::Rating& r : test_) {
    SGMCMC_CHECK(r.row >= 0 && r.row < model.num_rows() && r.col >= 0 &&
                 r.col < model.num_cols())
        << "PredictionAverage: test rating (" << r.row << ", " << r.col
        << ") outside the model's " << model.num_rows() << " x " << model.num_cols()
        << " matrix";
  }
}

void PredictionAverage::Add(absl::Span<const double> theta) {
  for (size_t i = 0; i < test_.size(); ++i) {
    sum_[i] += model_.Predict(theta, test_[i].row, test_[i].col);
  }
  ++num_samples_;
}

double PredictionAverage::Rmse() const {
  if (num_samples_ == 0 || test_.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sse = 0;
  const double inv = 1 / static_cast<double>(num_samples_);
  for (size_t i = 0; i < test_.size(); ++i) {
    const double e = sum_[i] * inv - test_[i].value;
    sse += e * e;
  }
  return std::sqrt(sse / static_cast<double>(test_.size()));
}

double PredictionAverage::SampleRmse(absl::Span<const double> theta) const {
  if (test_.empty()) return std::numeric_limits<double>::quiet_NaN();
  double sse = 0;
  for (const data::Rating& r : test_) {
    const double e = model_.Predict(theta, r.row, r.col) - r.value;
    sse += e * e;
  }
  return std::sqrt(sse / static_cast<double>(test_.size()));
}

SyntheticRatings GenerateSyntheticRatings(int num_rows, int num_cols, double density,
                                          const MatrixFactorizationOptions& options,
                                          rng::Engine& engine) {
  SGMCMC_CHECK(num_rows >= 1 && num_cols >= 1 && density > 0 && density <= 1)
      << "GenerateSyntheticRatings: need a non-empty matrix and density in (0, 1], got "
      << num_rows << " x " << num_cols << ", " << density;
  const int k_count = options.rank;
  SyntheticRatings out;
  out.truth.resize(static_cast<size_t>(num_rows + num_cols) * k_count);
  const size_t split = static_cast<size_t>(num_rows) * k_count;
  for (size_t i = 0; i < out.truth.size(); ++i) {
    out.truth[i] = (i < split ? options.sigma_w : options.sigma_h) * rng::NormalSample(engine);
  }
  out.matrix.num_rows = num_rows;
  out.matrix.num_cols = num_cols;
  for (int i = 0; i < num_rows; ++i) {
    for (int j = 0; j < num_cols; ++j) {
      if (rng::UniformDouble(engine) >= density) continue;
      double mean = 0;
      for (int k = 0; k < k_count; ++k) {
        mean += out.truth[static_cast<size_t>(i) * k_count + k] *
                out.truth[static_cast<size_t>(num_rows + j) * k_count + k];
      }
      out.matrix.ratings.push_back(
          {i, j, static_cast<float>(mean + options.sigma_x * rng::NormalSample(engine))});
    }
  }
  return out;
}

namespace {

// The names of the methods and of HAMCMC's initial metrics, both ways, from one table each.
template <typename Enum>
using NameTable = std::pair<Enum, const char*>;
constexpr NameTable<MfMethod> kMethodNames[] = {
    {MfMethod::kSgld, "sgld"}, {MfMethod::kPsgld, "psgld"}, {MfMethod::kHamcmc, "hamcmc"}};
constexpr NameTable<MfInitialMetric> kInitialMetricNames[] = {
    {MfInitialMetric::kScalar, "scalar"}, {MfInitialMetric::kDiagonalDegree, "diagonal_degree"}};

template <typename Enum, size_t N>
const char* NameIn(const NameTable<Enum> (&table)[N], Enum value) {
  for (const auto& [entry, name] : table) {
    if (entry == value) return name;
  }
  return "?";
}

template <typename Enum, size_t N>
std::optional<Enum> ValueIn(const NameTable<Enum> (&table)[N], absl::string_view name) {
  for (const auto& [entry, entry_name] : table) {
    if (name == entry_name) return entry;
  }
  return std::nullopt;
}

}  // namespace

absl::StatusOr<MfMethod> ParseMfMethod(const std::string& name) {
  if (name == "dsgld") return MfMethod::kSgld;
  if (std::optional<MfMethod> method = ValueIn(kMethodNames, name)) return *method;
  return absl::InvalidArgumentError(
      absl::StrCat("method must be sgld, psgld or hamcmc, got \"", name, "\""));
}

absl::StatusOr<std::vector<MfMethod>> ParseMfMethods(const std::string& names) {
  std::vector<MfMethod> methods;
  for (absl::string_view name : absl::StrSplit(names, ',', absl::SkipEmpty())) {
    absl::StatusOr<MfMethod> method = ParseMfMethod(std::string(name));
    if (!method.ok()) return method.status();
    methods.push_back(*method);
  }
  return methods;
}

const char* MfMethodName(MfMethod method) { return NameIn(kMethodNames, method); }

absl::StatusOr<MfInitialMetric> ParseMfInitialMetric(const std::string& name) {
  if (std::optional<MfInitialMetric> metric = ValueIn(kInitialMetricNames, name)) return *metric;
  return absl::InvalidArgumentError(absl::StrCat(
      "hamcmc_initial_metric must be scalar or diagonal_degree, got \"", name, "\""));
}

const char* MfInitialMetricName(MfInitialMetric metric) {
  return NameIn(kInitialMetricNames, metric);
}

absl::Status MfRunOptions::Validate() const {
  if (!Positive(step_size)) {
    return absl::InvalidArgumentError(
        absl::StrCat("step_size must be finite and > 0, got ", step_size));
  }
  if (iterations < 1 || burn_in < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "iterations must be >= 1 and burn_in >= 0, got ", iterations, " and ", burn_in));
  }
  if (!(init_scale >= 0 && std::isfinite(init_scale))) {
    return absl::InvalidArgumentError(
        absl::StrCat("init_scale must be finite and >= 0, got ", init_scale));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<samplers::EuclideanSampler>> MakeMatrixFactorizationSampler(
    const samplers::GradientModel& model, absl::Span<const double> theta0,
    const MfRunOptions& run) {
  if (absl::Status s = run.Validate(); !s.ok()) return s;
  samplers::ChainOptions chain;
  chain.step_size = samplers::StepSizeOptions::Constant(run.step_size);
  chain.batch_size = run.batch_size;
  chain.seed = run.seed;
  chain.stream = 0;
  switch (run.method) {
    case MfMethod::kSgld: {
      samplers::SgldOptions options;
      options.chain = chain;
      absl::StatusOr<std::unique_ptr<samplers::Sgld>> s =
          samplers::Sgld::Create(model, theta0, options);
      if (!s.ok()) return s.status();
      return std::unique_ptr<samplers::EuclideanSampler>(std::move(*s));
    }
    case MfMethod::kPsgld: {
      samplers::PsgldOptions options;
      options.chain = chain;
      options.alpha = run.psgld_alpha;
      options.lambda = run.psgld_lambda;
      absl::StatusOr<std::unique_ptr<samplers::Psgld>> s =
          samplers::Psgld::Create(model, theta0, options);
      if (!s.ok()) return s.status();
      return std::unique_ptr<samplers::EuclideanSampler>(std::move(*s));
    }
    case MfMethod::kHamcmc: {
      if (run.hamcmc_initial_metric != MfInitialMetric::kScalar) {
        return absl::InvalidArgumentError(absl::StrCat(
            "hamcmc_initial_metric ", MfInitialMetricName(run.hamcmc_initial_metric),
            " is supported by models::DistributedMfChain only"));
      }
      samplers::HamcmcOptions options;
      options.chain = chain;
      options.memory = run.hamcmc_memory;
      options.gamma = run.hamcmc_gamma;
      options.damping = run.hamcmc_damping;
      options.warmup_step = run.hamcmc_warmup_step;
      absl::StatusOr<std::unique_ptr<samplers::Hamcmc>> s =
          samplers::Hamcmc::Create(model, theta0, options);
      if (!s.ok()) return s.status();
      return std::unique_ptr<samplers::EuclideanSampler>(std::move(*s));
    }
  }
  return absl::InvalidArgumentError("unknown method");
}

std::vector<double> InitialMatrixFactorizationTheta(const MatrixFactorization& model,
                                                    const MfRunOptions& run) {
  return InitialMatrixFactorizationTheta(model.dimension(), run);
}

std::vector<double> InitialMatrixFactorizationTheta(int64_t dimension, const MfRunOptions& run) {
  rng::Engine engine(run.seed, /*stream=*/1);
  std::vector<double> theta(static_cast<size_t>(dimension));
  for (double& x : theta) x = run.init_scale * rng::NormalSample(engine);
  return theta;
}

absl::StatusOr<std::vector<MfTracePoint>> RunMatrixFactorization(
    const MatrixFactorization& model, const data::RatingMatrix& test, const MfRunOptions& run,
    int record_every) {
  if (absl::Status s = run.Validate(); !s.ok()) return s;
  if (record_every < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("record_every must be >= 1, got ", record_every));
  }
  const std::vector<double> theta0 = InitialMatrixFactorizationTheta(model, run);
  absl::StatusOr<std::unique_ptr<samplers::EuclideanSampler>> sampler =
      MakeMatrixFactorizationSampler(model, theta0, run);
  if (!sampler.ok()) return sampler.status();
  PredictionAverage average(model, test);
  std::vector<MfTracePoint> trace;
  using Clock = std::chrono::steady_clock;
  double sampling_seconds = 0;
  for (int t = 1; t <= run.iterations; ++t) {
    const Clock::time_point step_start = Clock::now();
    (*sampler)->Step();
    sampling_seconds += std::chrono::duration<double>(Clock::now() - step_start).count();
    if (t > run.burn_in) average.Add((*sampler)->theta());
    if (t % record_every == 0 || t == run.iterations) {
      MfTracePoint point;
      point.iteration = t;
      point.seconds = sampling_seconds;
      point.sample_rmse = average.SampleRmse((*sampler)->theta());
      point.average_rmse = t > run.burn_in ? average.Rmse()
                                           : std::numeric_limits<double>::quiet_NaN();
      if (!std::isfinite(point.sample_rmse) ||
          (t > run.burn_in && !std::isfinite(point.average_rmse))) {
        return absl::InternalError(absl::StrCat(
            MfMethodName(run.method), " diverged at iteration ", t, " (test RMSE ",
            point.sample_rmse, "); lower step_size"));
      }
      trace.push_back(point);
    }
  }
  return trace;
}

}  // namespace sgmcmc::models
