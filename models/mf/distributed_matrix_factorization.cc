#include "models/mf/distributed_matrix_factorization.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "data/ratings.h"
#include "models/mf/matrix_factorization.h"
#include "models/mf/matrix_factorization_state.pb.h"
#include "parallel/communicator.h"
#include "rng/engine.h"
#include "rng/normal.h"
#include "rng/uniform.h"
#include "samplers/hamcmc.h"

namespace sgmcmc::models {
namespace {

// Field indices of the per-coordinate state.
constexpr int kX = 0;      // the current sample x_{t-1}
constexpr int kV = 1;      // pSGLD: second moment
constexpr int kOlder = 1;  // HAMCMC: x_{t-2}
constexpr int kPairS = 2;  // HAMCMC: s of the pair
constexpr int kPairY = 3;  // HAMCMC: damped y of the pair
constexpr int kDiag = 4;   // HAMCMC with a diagonal H^0: its diagonal at x_{t-1}

// HAMCMC's warm-up length 2M and first pair iteration M + 2 for M = 2.
constexpr int kHamcmcWarmup = 4;
constexpr int kHamcmcFirstPair = 4;

int Mod(int a, int n) { return ((a % n) + n) % n; }

}  // namespace

OnePairLbfgsCoefficients ComputeOnePairLbfgsCoefficients(double sg, double yg, double sz,
                                                          double yz, double sy, double ss,
                                                          double yy, double gamma) {
  OnePairLbfgsCoefficients c;
  c.alpha = sg / sy;
  c.beta = gamma * (yg - c.alpha * yy) / sy;
  // q = y + a B^0 s with a = sqrt(s'y / s'B^0 s), B^0 = I / gamma: q'z = y'z + sqrt(s'y /
  // (gamma s's)) s'z.
  c.z_coefficient = (yz + std::sqrt(sy / (gamma * ss)) * sz) / sy;
  return c;
}

DistributedMfChain::DistributedMfChain(const MatrixFactorizationOptions& model,
                                       const MfRunOptions& run, parallel::Communicator& comm,
                                       int num_rows, int num_cols)
    : model_(model),
      run_(run),
      comm_(comm),
      num_ranks_(comm.size()),
      rank_id_(comm.rank()),
      num_blocks_(model.num_blocks),
      slots_(model.num_blocks / comm.size()),
      k_(model.rank),
      num_rows_(num_rows),
      num_cols_(num_cols),
      subset_engine_(run.seed, kMfSubsetStream),
      noise_engine_(run.seed, kMfNoiseStreamBase + static_cast<uint64_t>(comm.rank())) {}

absl::StatusOr<std::unique_ptr<DistributedMfChain>> DistributedMfChain::Create(
    const data::RatingMatrix& train, const data::RatingMatrix& test,
    const MatrixFactorizationOptions& model, const MfRunOptions& run,
    parallel::Communicator& comm) {
  if (absl::Status s = ValidateMatrixFactorizationData(train, model); !s.ok()) return s;
  if (absl::Status s = run.Validate(); !s.ok()) return s;
  if (absl::Status s = test.Validate(); !s.ok()) return s;
  const int p = model.num_blocks;
  if (p % comm.size() != 0) {
    return absl::InvalidArgumentError(absl::StrCat("num_blocks ", p,
                                                   " must be a multiple of the number of ranks ",
                                                   comm.size()));
  }
  if (test.num_rows > train.num_rows || test.num_cols > train.num_cols) {
    return absl::InvalidArgumentError(absl::StrCat("the test matrix ", test.num_rows, " x ",
                                                   test.num_cols, " exceeds the training matrix ",
                                                   train.num_rows, " x ", train.num_cols));
  }
  if (run.method == MfMethod::kHamcmc) {
    samplers::HamcmcOptions hamcmc;
    hamcmc.gamma = run.hamcmc_gamma;
    hamcmc.damping = run.hamcmc_damping;
    hamcmc.warmup_step = run.hamcmc_warmup_step;
    if (absl::Status s = hamcmc.Validate(/*num_items=*/1); !s.ok()) return s;
  }
  std::unique_ptr<DistributedMfChain> chain(
      new DistributedMfChain(model, run, comm, train.num_rows, train.num_cols));
  DistributedMfChain& c = *chain;
  const int r = c.rank_id_, size = c.num_ranks_, k = c.k_;
  const int fields = c.num_fields();
  c.num_train_ = static_cast<int64_t>(train.ratings.size());
  c.num_test_ = static_cast<int64_t>(test.ratings.size());
  c.subset_size_.assign(p, 0);
  c.ratings_.assign(p, std::vector<std::vector<data::Rating>>(c.slots_));
  for (const data::Rating& rating : train.ratings) {
    const int b = MfBlockOf(train.num_rows, p, rating.row);
    const int col_block = MfBlockOf(train.num_cols, p, rating.col);
    const int s = Mod(col_block - b, p);
    ++c.subset_size_[s];
    if (b % size != r) continue;
    c.ratings_[s][b / size].push_back({rating.row - MfBlockBegin(train.num_rows, p, b),
                                       rating.col - MfBlockBegin(train.num_cols, p, col_block),
                                       rating.value});
  }
  c.subset_end_.resize(p);
  int64_t total = 0;
  for (int s = 0; s < p; ++s) c.subset_end_[s] = total += c.subset_size_[s];
  // Diagonal H^0: max over subsets s of (N / |Omega_s|) n(s) per row and column.
  std::vector<double>& row_degree = c.row_degree_;
  std::vector<double>& col_degree = c.col_degree_;
  if (c.diagonal_metric()) {
    std::vector<double> rows(static_cast<size_t>(train.num_rows) * p, 0.0);
    std::vector<double> cols(static_cast<size_t>(train.num_cols) * p, 0.0);
    for (const data::Rating& rating : train.ratings) {
      const int b = MfBlockOf(train.num_rows, p, rating.row);
      const int s = Mod(MfBlockOf(train.num_cols, p, rating.col) - b, p);
      const double w = static_cast<double>(c.num_train_) / c.subset_size_[s];
      rows[static_cast<size_t>(rating.row) * p + s] += w;
      cols[static_cast<size_t>(rating.col) * p + s] += w;
    }
    row_degree.assign(train.num_rows, 0.0);
    col_degree.assign(train.num_cols, 0.0);
    for (int i = 0; i < train.num_rows; ++i) {
      for (int s = 0; s < p; ++s) row_degree[i] = std::max(row_degree[i], rows[static_cast<size_t>(i) * p + s]);
    }
    for (int j = 0; j < train.num_cols; ++j) {
      for (int s = 0; s < p; ++s) col_degree[j] = std::max(col_degree[j], cols[static_cast<size_t>(j) * p + s]);
    }
  }

  const std::vector<double> theta0 =
      InitialMatrixFactorizationTheta(static_cast<int64_t>(train.num_rows + train.num_cols) * k,
                                      run);
  auto make_block = [&](int id, int n, int offset_rows, const std::vector<double>& degree,
                        double sigma) {
    Block block;
    block.id = id;
    block.begin = MfBlockBegin(n, p, id);
    block.count = MfBlockBegin(n, p, id + 1) - block.begin;
    block.data.assign(static_cast<size_t>(fields) * block.count * k, 0.0);
    const double* x0 = theta0.data() + static_cast<size_t>(offset_rows + block.begin) * k;
    std::copy(x0, x0 + static_cast<size_t>(block.count) * k, block.field(kX, k));
    if (run.method == MfMethod::kHamcmc) {
      std::copy(x0, x0 + static_cast<size_t>(block.count) * k, block.field(kOlder, k));
    }
    if (run.method == MfMethod::kHamcmc &&
        run.hamcmc_initial_metric == MfInitialMetric::kDiagonalDegree) {
      double* d = block.field(kDiag, k);
      for (int i = 0; i < block.count; ++i) {
        const double f = 1 / (sigma * sigma) +
                         degree[block.begin + i] / (model.sigma_x * model.sigma_x);
        for (int kk = 0; kk < k; ++kk) d[i * k + kk] = run.hamcmc_gamma / f;
      }
    }
    return block;
  };
  for (int l = 0; l < c.slots_; ++l) {
    c.w_.push_back(make_block(r + l * size, train.num_rows, 0, row_degree, model.sigma_w));
    c.h_.push_back(make_block(c.ColumnBlockOf(r, l, 0), train.num_cols, train.num_rows,
                              col_degree, model.sigma_h));
  }
  for (const data::Rating& rating : test.ratings) {
    const int b = MfBlockOf(train.num_rows, p, rating.row);
    if (b % size != r) continue;
    c.test_.push_back({b / size, rating.row - MfBlockBegin(train.num_rows, p, b), rating.col,
                       rating.value});
  }
  c.prediction_sum_.assign(c.test_.size(), 0.0);
  c.grad_.resize(2 * c.slots_);
  c.grad_base_.resize(2 * c.slots_);
  c.noise_.resize(2 * c.slots_);
  c.full_h_.assign(static_cast<size_t>(train.num_cols) * k, 0.0);
  return chain;
}

int DistributedMfChain::pair_tail() const {
  return run_.method == MfMethod::kHamcmc && run_.hamcmc_block_memory ? 4 : 0;
}

int DistributedMfChain::num_fields() const {
  switch (run_.method) {
    case MfMethod::kSgld:
      return 1;
    case MfMethod::kPsgld:
      return 2;
    case MfMethod::kHamcmc:
      return diagonal_metric() ? 5 : 4;
  }
  return 1;
}

int DistributedMfChain::ColumnBlockOf(int rank, int slot, int s) const {
  return Mod(rank + slot * num_ranks_ + s, num_blocks_);
}

std::vector<DistributedMfChain::Block*> DistributedMfChain::LocalBlocks() {
  std::vector<Block*> blocks;
  for (Block& b : w_) blocks.push_back(&b);
  for (Block& b : h_) blocks.push_back(&b);
  return blocks;
}

absl::Status DistributedMfChain::MoveTo(int s) {
  if (s == subset_) return absl::OkStatus();
  const int d = s - subset_;
  send_.clear();
  const int tail = pair_tail();
  for (const Block& b : h_) {
    send_.insert(send_.end(), b.data.begin(), b.data.end());
    send_.insert(send_.end(), b.pair.begin(), b.pair.begin() + tail);
  }
  // Column block c is on rank (c - subset) mod S and goes to (c - s) mod S: offset -d.
  const int source = Mod(rank_id_ + d, num_ranks_);
  const size_t per_column = static_cast<size_t>(num_fields()) * k_;
  std::vector<size_t> source_offset(num_blocks_, 0);
  size_t total = 0;
  for (int l = 0; l < slots_; ++l) {
    const int c = ColumnBlockOf(source, l, subset_);
    source_offset[c] = total;
    total += per_column * (MfBlockBegin(num_cols_, num_blocks_, c + 1) -
                           MfBlockBegin(num_cols_, num_blocks_, c)) +
             tail;
  }
  receive_.resize(total);
  if (absl::Status st = comm_.Shift(send_, absl::MakeSpan(receive_), -d); !st.ok()) return st;
  for (int l = 0; l < slots_; ++l) {
    Block& b = h_[l];
    b.id = ColumnBlockOf(rank_id_, l, s);
    b.begin = MfBlockBegin(num_cols_, num_blocks_, b.id);
    b.count = MfBlockBegin(num_cols_, num_blocks_, b.id + 1) - b.begin;
    const double* from = receive_.data() + source_offset[b.id];
    b.data.assign(from, from + per_column * b.count);
    std::copy(from + per_column * b.count, from + per_column * b.count + tail, b.pair.begin());
  }
  subset_ = s;
  return absl::OkStatus();
}

void DistributedMfChain::Gradient(int f, int s, double c, bool prior,
                                  std::vector<std::vector<double>>& out) {
  const double inv_w = 1 / (model_.sigma_w * model_.sigma_w);
  const double inv_h = 1 / (model_.sigma_h * model_.sigma_h);
  const std::vector<Block*> blocks = LocalBlocks();
  for (size_t i = 0; i < blocks.size(); ++i) {
    const size_t n = static_cast<size_t>(blocks[i]->count) * k_;
    out[i].resize(n);
    const double* x = blocks[i]->field(f, k_);
    const double inv = static_cast<int>(i) < slots_ ? inv_w : inv_h;
    for (size_t j = 0; j < n; ++j) out[i][j] = prior ? x[j] * inv : 0.0;
  }
  const double scale = c / (model_.sigma_x * model_.sigma_x);
  for (int l = 0; l < slots_; ++l) {
    AddMfBlockGradient(ratings_[s][l], k_, w_[l].field(f, k_), h_[l].field(f, k_), scale,
                       out[l].data(), out[slots_ + l].data());
  }
}

void DistributedMfChain::StepSgld(int s, double h) {
  Gradient(kX, s, static_cast<double>(num_train_) / subset_size_[s], /*prior=*/true, grad_);
  const double noise_scale = std::sqrt(2 * h);
  const std::vector<Block*> blocks = LocalBlocks();
  for (size_t i = 0; i < blocks.size(); ++i) {
    double* x = blocks[i]->field(kX, k_);
    const std::vector<double>& g = grad_[i];
    for (size_t j = 0; j < g.size(); ++j) {
      x[j] += noise_scale * rng::NormalSample(noise_engine_) - h * g[j];
    }
  }
}

void DistributedMfChain::StepPsgld(int s, double h) {
  // The likelihood part per item, g = grad / |Omega_s| (pSGLD's mean gradient).
  Gradient(kX, s, 1.0 / static_cast<double>(subset_size_[s]), /*prior=*/false, grad_);
  const double n_items = static_cast<double>(num_train_);
  const double alpha = run_.psgld_alpha, lambda = run_.psgld_lambda, two_h = 2 * h;
  const std::vector<Block*> blocks = LocalBlocks();
  for (size_t i = 0; i < blocks.size(); ++i) {
    const double sigma = static_cast<int>(i) < slots_ ? model_.sigma_w : model_.sigma_h;
    const double inv_var = 1 / (sigma * sigma);
    double* x = blocks[i]->field(kX, k_);
    double* v = blocks[i]->field(kV, k_);
    const std::vector<double>& g = grad_[i];
    for (size_t j = 0; j < g.size(); ++j) {
      v[j] = alpha * v[j] + (1 - alpha) * g[j] * g[j];
      const double precondition = 1 / (lambda + std::sqrt(v[j]));
      const double grad_u = x[j] * inv_var + n_items * g[j];
      x[j] += std::sqrt(two_h * precondition) * rng::NormalSample(noise_engine_) -
              h * precondition * grad_u;
    }
  }
}

absl::Status DistributedMfChain::StepHamcmc(int s) {
  const int64_t t = iteration_ + 1;
  const bool warmup = t <= kHamcmcWarmup;
  const bool record_pair = t >= kHamcmcFirstPair;
  const double h = warmup ? run_.hamcmc_warmup_step : run_.step_size;
  const double c = static_cast<double>(num_train_) / subset_size_[s];
  const double gamma = run_.hamcmc_gamma;
  const bool diagonal = diagonal_metric();
  const std::vector<Block*> blocks = LocalBlocks();
  for (size_t i = 0; i < blocks.size(); ++i) {
    noise_[i].resize(static_cast<size_t>(blocks[i]->count) * k_);
    rng::FillNormal(noise_engine_, absl::MakeSpan(noise_[i]));
  }
  int origin_field = kX;
  if (warmup) {
    Gradient(kX, s, c, /*prior=*/true, grad_);
    if (record_pair) Gradient(kOlder, s, c, /*prior=*/true, grad_base_);
  } else {
    // H_t grad and S_t z with the single pair (ComputeOnePairLbfgsCoefficients).
    Gradient(kOlder, s, c, /*prior=*/true, grad_base_);
    origin_field = kOlder;
    const size_t nb = blocks.size();
    std::vector<OnePairLbfgsCoefficients> pair(nb);
    std::vector<bool> used(nb, pair_used_);
    // s'g, y'g, s'z, y'z of block i; with a diagonal H^0 = D: s'g, y'D g, s'D^-1/2 z,
    // y'D^1/2 z, which turn the gamma = 1 coefficients into those of H^0 = D.
    auto block_dots = [&](size_t i, double* dots) {
      const double* ps = blocks[i]->field(kPairS, k_);
      const double* py = blocks[i]->field(kPairY, k_);
      if (diagonal) {
        const double* d = blocks[i]->field(kDiag, k_);
        for (size_t j = 0; j < noise_[i].size(); ++j) {
          const double root = std::sqrt(d[j]);
          dots[0] += ps[j] * grad_base_[i][j];
          dots[1] += py[j] * (d[j] * grad_base_[i][j]);
          dots[2] += ps[j] * (noise_[i][j] / root);
          dots[3] += py[j] * (root * noise_[i][j]);
        }
        return;
      }
      for (size_t j = 0; j < noise_[i].size(); ++j) {
        dots[0] += ps[j] * grad_base_[i][j];
        dots[1] += py[j] * grad_base_[i][j];
        dots[2] += ps[j] * noise_[i][j];
        dots[3] += py[j] * noise_[i][j];
      }
    };
    const double coefficient_gamma = diagonal ? 1.0 : gamma;
    if (run_.hamcmc_block_memory) {
      for (size_t i = 0; i < nb; ++i) {
        const std::array<double, 4>& p = blocks[i]->pair;  // used, s'y, s's, y'y
        used[i] = p[0] != 0;
        if (!used[i]) continue;
        double dots[4] = {0, 0, 0, 0};
        block_dots(i, dots);
        pair[i] = ComputeOnePairLbfgsCoefficients(dots[0], dots[1], dots[2], dots[3], p[1], p[2],
                                                  p[3], coefficient_gamma);
      }
    } else if (pair_used_) {
      std::vector<double> dots(4, 0.0);
      for (size_t i = 0; i < nb; ++i) block_dots(i, dots.data());
      if (absl::Status st = comm_.AllReduceSum(absl::MakeSpan(dots)); !st.ok()) return st;
      pair.assign(nb, ComputeOnePairLbfgsCoefficients(dots[0], dots[1], dots[2], dots[3],
                                                      pair_sy_, pair_ss_, pair_yy_,
                                                      coefficient_gamma));
    }
    const double sqrt_gamma = std::sqrt(gamma);
    for (size_t i = 0; i < nb; ++i) {
      const double* ps = blocks[i]->field(kPairS, k_);
      const double* py = blocks[i]->field(kPairY, k_);
      std::vector<double>& drift = grad_[i];
      drift.resize(noise_[i].size());
      const OnePairLbfgsCoefficients& q = pair[i];
      if (diagonal) {
        // H g = D (g - alpha y) + (alpha - beta) s, S z = D^1/2 z - z_coefficient s.
        const double* d = blocks[i]->field(kDiag, k_);
        for (size_t j = 0; j < noise_[i].size(); ++j) {
          const double g = grad_base_[i][j];
          const double root = std::sqrt(d[j]);
          drift[j] = used[i] ? d[j] * (g - q.alpha * py[j]) + (q.alpha - q.beta) * ps[j]
                             : d[j] * g;
          noise_[i][j] = used[i] ? root * noise_[i][j] - q.z_coefficient * ps[j]
                                 : root * noise_[i][j];
        }
        continue;
      }
      for (size_t j = 0; j < noise_[i].size(); ++j) {
        const double g = grad_base_[i][j];
        drift[j] = used[i] ? gamma * (g - q.alpha * py[j]) + (q.alpha - q.beta) * ps[j]
                           : gamma * g;
        noise_[i][j] = used[i] ? sqrt_gamma * (noise_[i][j] - q.z_coefficient * ps[j])
                               : sqrt_gamma * noise_[i][j];
      }
    }
  }
  // theta_t = origin + sqrt(2 h) noise - h direction; x_{t-2} <- x_{t-1}; s = x_t - x_{t-2}.
  const double noise_scale = std::sqrt(2 * h);
  for (size_t i = 0; i < blocks.size(); ++i) {
    double* x = blocks[i]->field(kX, k_);
    double* older = blocks[i]->field(kOlder, k_);
    double* ps = blocks[i]->field(kPairS, k_);
    const double* origin = blocks[i]->field(origin_field, k_);
    const std::vector<double>& direction = grad_[i];
    for (size_t j = 0; j < direction.size(); ++j) {
      const double next = origin[j] + (noise_scale * noise_[i][j] - h * direction[j]);
      if (record_pair) ps[j] = next - older[j];
      older[j] = x[j];
      x[j] = next;
    }
  }
  if (!record_pair) return absl::OkStatus();
  Gradient(kX, s, c, /*prior=*/true, grad_);
  // Written so that NaN or infinite values fail the test (linalg::Lbfgs::AddPair's rule).
  auto accepted = [](double sy, double ss, double yy) {
    const double threshold =
        samplers::HamcmcOptions().curvature_threshold * std::sqrt(ss) * std::sqrt(yy);
    return sy > threshold && std::isfinite(sy) && std::isfinite(threshold);
  };
  // s'y, s's, y'y of the damped pair (s'y, s'D^-1 s, y'D y with the new diagonal H^0 = D).
  std::vector<double> dots(3, 0.0);
  const double lambda = run_.hamcmc_damping;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const double* ps = blocks[i]->field(kPairS, k_);
    double* py = blocks[i]->field(kPairY, k_);
    double block[3] = {0, 0, 0};
    double* sums = run_.hamcmc_block_memory ? block : dots.data();
    if (diagonal) {
      const double* d = blocks[i]->field(kDiag, k_);
      // Damping in H^0's metric, y + lambda gamma D^-1 s (lambda s when D = gamma I).
      const double damping = lambda * run_.hamcmc_gamma;
      for (size_t j = 0; j < grad_[i].size(); ++j) {
        py[j] = (grad_[i][j] - grad_base_[i][j]) + damping * (ps[j] / d[j]);
        sums[0] += ps[j] * py[j];
        sums[1] += ps[j] * (ps[j] / d[j]);
        sums[2] += py[j] * (d[j] * py[j]);
      }
    } else {
      for (size_t j = 0; j < grad_[i].size(); ++j) {
        py[j] = (grad_[i][j] - grad_base_[i][j]) + lambda * ps[j];
        sums[0] += ps[j] * py[j];
        sums[1] += ps[j] * ps[j];
        sums[2] += py[j] * py[j];
      }
    }
    if (run_.hamcmc_block_memory) {
      blocks[i]->pair = {accepted(block[0], block[1], block[2]) ? 1.0 : 0.0, block[0], block[1],
                         block[2]};
    }
  }
  if (run_.hamcmc_block_memory) return absl::OkStatus();
  if (absl::Status st = comm_.AllReduceSum(absl::MakeSpan(dots)); !st.ok()) return st;
  pair_sy_ = dots[0];
  pair_ss_ = dots[1];
  pair_yy_ = dots[2];
  pair_used_ = accepted(pair_sy_, pair_ss_, pair_yy_);
  return absl::OkStatus();
}

absl::Status DistributedMfChain::Step() {
  const int s = static_cast<int>(
      std::upper_bound(subset_end_.begin(), subset_end_.end(),
                       static_cast<int64_t>(rng::UniformInt(
                           subset_engine_, static_cast<uint64_t>(num_train_)))) -
      subset_end_.begin());
  if (absl::Status st = MoveTo(s); !st.ok()) return st;
  switch (run_.method) {
    case MfMethod::kSgld:
      StepSgld(s, run_.step_size);
      break;
    case MfMethod::kPsgld:
      StepPsgld(s, run_.step_size);
      break;
    case MfMethod::kHamcmc:
      if (absl::Status st = StepHamcmc(s); !st.ok()) return st;
      break;
  }
  ++iteration_;
  return absl::OkStatus();
}

absl::Status DistributedMfChain::GatherH() {
  if (gathered_iteration_ == iteration_) return absl::OkStatus();
  std::fill(full_h_.begin(), full_h_.end(), 0.0);
  for (Block& b : h_) {
    const double* x = b.field(kX, k_);
    std::copy(x, x + static_cast<size_t>(b.count) * k_,
              full_h_.begin() + static_cast<size_t>(b.begin) * k_);
  }
  if (absl::Status st = comm_.AllReduceSum(absl::MakeSpan(full_h_)); !st.ok()) return st;
  gathered_iteration_ = iteration_;
  return absl::OkStatus();
}

namespace {

double Dot(const double* a, const double* b, int k) {
  double sum = 0;
  for (int i = 0; i < k; ++i) sum += a[i] * b[i];
  return sum;
}

}  // namespace

absl::Status DistributedMfChain::AddToAverage() {
  if (absl::Status st = GatherH(); !st.ok()) return st;
  for (size_t i = 0; i < test_.size(); ++i) {
    const LocalTest& t = test_[i];
    prediction_sum_[i] += Dot(w_[t.slot].field(kX, k_) + static_cast<size_t>(t.row) * k_,
                              full_h_.data() + static_cast<size_t>(t.col) * k_, k_);
  }
  ++num_averaged_;
  return absl::OkStatus();
}

absl::StatusOr<MfEvaluation> DistributedMfChain::Evaluate() {
  if (absl::Status st = GatherH(); !st.ok()) return st;
  std::vector<double> sse(2, 0.0);  // sample, average
  const double inv = num_averaged_ > 0 ? 1 / static_cast<double>(num_averaged_) : 0;
  for (size_t i = 0; i < test_.size(); ++i) {
    const LocalTest& t = test_[i];
    const double e = Dot(w_[t.slot].field(kX, k_) + static_cast<size_t>(t.row) * k_,
                         full_h_.data() + static_cast<size_t>(t.col) * k_, k_) -
                     t.value;
    sse[0] += e * e;
    const double a = prediction_sum_[i] * inv - t.value;
    sse[1] += a * a;
  }
  if (absl::Status st = comm_.AllReduceSum(absl::MakeSpan(sse)); !st.ok()) return st;
  MfEvaluation out;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double n = static_cast<double>(num_test_);
  out.sample_rmse = num_test_ > 0 ? std::sqrt(sse[0] / n) : nan;
  out.average_rmse = num_test_ > 0 && num_averaged_ > 0 ? std::sqrt(sse[1] / n) : nan;
  return out;
}

absl::StatusOr<std::vector<double>> DistributedMfChain::GatherTheta() {
  std::vector<double> theta(static_cast<size_t>(num_rows_ + num_cols_) * k_, 0.0);
  for (Block& b : w_) {
    const double* x = b.field(kX, k_);
    std::copy(x, x + static_cast<size_t>(b.count) * k_,
              theta.begin() + static_cast<size_t>(b.begin) * k_);
  }
  for (Block& b : h_) {
    const double* x = b.field(kX, k_);
    std::copy(x, x + static_cast<size_t>(b.count) * k_,
              theta.begin() + static_cast<size_t>(num_rows_ + b.begin) * k_);
  }
  if (absl::Status st = comm_.AllReduceSum(absl::MakeSpan(theta)); !st.ok()) return st;
  return theta;
}

MfChainState DistributedMfChain::SaveState() const {
  MfChainState state;
  state.set_method(MfMethodName(run_.method));
  state.set_num_ranks(num_ranks_);
  state.set_rank(rank_id_);
  state.set_iteration(iteration_);
  state.set_subset(subset_);
  state.set_subset_engine_position(subset_engine_.position());
  state.set_noise_engine_position(noise_engine_.position());
  const int tail = pair_tail();
  for (const Block& b : w_) {
    state.mutable_w()->Add(b.data.begin(), b.data.end());
    state.mutable_w()->Add(b.pair.begin(), b.pair.begin() + tail);
  }
  for (const Block& b : h_) {
    state.mutable_h()->Add(b.data.begin(), b.data.end());
    state.mutable_h()->Add(b.pair.begin(), b.pair.begin() + tail);
  }
  state.set_pair_used(pair_used_);
  state.set_pair_sy(pair_sy_);
  state.set_pair_ss(pair_ss_);
  state.set_pair_yy(pair_yy_);
  state.mutable_prediction_sum()->Add(prediction_sum_.begin(), prediction_sum_.end());
  state.set_num_averaged(num_averaged_);
  return state;
}

absl::Status DistributedMfChain::RestoreState(const MfChainState& state) {
  if (state.method() != MfMethodName(run_.method) || state.num_ranks() != num_ranks_ ||
      state.rank() != rank_id_) {
    return absl::FailedPreconditionError(absl::StrCat(
        "MfChainState is of method ", state.method(), ", rank ", state.rank(), " of ",
        state.num_ranks(), "; this chain is ", MfMethodName(run_.method), ", rank ", rank_id_,
        " of ", num_ranks_));
  }
  if (state.iteration() < 0 || state.subset() < 0 || state.subset() >= num_blocks_ ||
      state.num_averaged() < 0 || state.num_averaged() > state.iteration()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "MfChainState: bad iteration ", state.iteration(), ", subset ", state.subset(),
        " or num_averaged ", state.num_averaged()));
  }
  const size_t per_row = static_cast<size_t>(num_fields()) * k_;
  const int tail = pair_tail();
  size_t w_size = 0, h_size = 0;
  for (const Block& b : w_) w_size += b.data.size() + tail;
  for (int l = 0; l < slots_; ++l) {
    const int c = ColumnBlockOf(rank_id_, l, state.subset());
    h_size += per_row * (MfBlockBegin(num_cols_, num_blocks_, c + 1) -
                         MfBlockBegin(num_cols_, num_blocks_, c)) +
              tail;
  }
  if (static_cast<size_t>(state.w_size()) != w_size ||
      static_cast<size_t>(state.h_size()) != h_size ||
      static_cast<size_t>(state.prediction_sum_size()) != prediction_sum_.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "MfChainState has ", state.w_size(), " W, ", state.h_size(), " H and ",
        state.prediction_sum_size(), " prediction values; expected ", w_size, ", ", h_size,
        " and ", prediction_sum_.size()));
  }
  iteration_ = state.iteration();
  subset_ = state.subset();
  subset_engine_.Seek(state.subset_engine_position());
  noise_engine_.Seek(state.noise_engine_position());
  size_t offset = 0;
  for (Block& b : w_) {
    std::copy(state.w().begin() + offset, state.w().begin() + offset + b.data.size(),
              b.data.begin());
    offset += b.data.size();
    std::copy(state.w().begin() + offset, state.w().begin() + offset + tail, b.pair.begin());
    offset += tail;
  }
  offset = 0;
  for (int l = 0; l < slots_; ++l) {
    Block& b = h_[l];
    b.id = ColumnBlockOf(rank_id_, l, subset_);
    b.begin = MfBlockBegin(num_cols_, num_blocks_, b.id);
    b.count = MfBlockBegin(num_cols_, num_blocks_, b.id + 1) - b.begin;
    b.data.assign(state.h().begin() + offset, state.h().begin() + offset + per_row * b.count);
    offset += per_row * b.count;
    std::copy(state.h().begin() + offset, state.h().begin() + offset + tail, b.pair.begin());
    offset += tail;
  }
  pair_used_ = state.pair_used();
  pair_sy_ = state.pair_sy();
  pair_ss_ = state.pair_ss();
  pair_yy_ = state.pair_yy();
  prediction_sum_.assign(state.prediction_sum().begin(), state.prediction_sum().end());
  num_averaged_ = state.num_averaged();
  gathered_iteration_ = -1;
  return absl::OkStatus();
}

}  // namespace sgmcmc::models
