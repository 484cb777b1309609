// RestoreState of every Euclidean sampler rejects a checkpoint holding a non-finite number in
// any real-valued field (theta, last step size, momenta, thermostat, pSGLD's second moment,
// HAMCMC's history and L-BFGS pairs) with InvalidArgument naming the field and index, and
// leaves the chain unchanged.
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "samplers/dense_sgrld.h"
#include "samplers/hamcmc.h"
#include "samplers/internal/isotropic_gaussian_testing.h"
#include "samplers/psgld.h"
#include "samplers/sampler.h"
#include "samplers/sampler_state.pb.h"
#include "samplers/sghmc.h"
#include "samplers/sgld.h"
#include "samplers/sgnht.h"

namespace sgmcmc::samplers {
namespace {

constexpr int kDimension = 3;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// U(theta) = |theta|^2 / 2 with Fisher information I (DenseSgrld uses the latter).
const samplers_internal::IsotropicGaussian& Gaussian() {
  static const auto* model = new samplers_internal::IsotropicGaussian(kDimension);
  return *model;
}

const std::vector<double> kTheta0 = {0.5, -1.0, 2.0};

ChainOptions Chain() {
  ChainOptions chain;
  chain.step_size.h = 1e-2;
  chain.seed = 7;
  return chain;
}

std::unique_ptr<Sampler> MakeSgld() {
  SgldOptions options;
  options.chain = Chain();
  return *Sgld::Create(Gaussian(), kTheta0, options);
}
std::unique_ptr<Sampler> MakePsgld() {
  PsgldOptions options;
  options.chain = Chain();
  return *Psgld::Create(Gaussian(), kTheta0, options);
}
std::unique_ptr<Sampler> MakeSghmc() {
  SghmcOptions options;
  options.chain = Chain();
  return *Sghmc::Create(Gaussian(), kTheta0, options);
}
std::unique_ptr<Sampler> MakeSgnht() {
  SgnhtOptions options;
  options.chain = Chain();
  return *Sgnht::Create(Gaussian(), kTheta0, options);
}
std::unique_ptr<Sampler> MakeHamcmc() {
  HamcmcOptions options;
  options.chain = Chain();
  options.memory = 3;
  return *Hamcmc::Create(Gaussian(), kTheta0, options);
}
std::unique_ptr<Sampler> MakeDenseSgrld() {
  DenseSgrldOptions options;
  options.chain = Chain();
  return *DenseSgrld::Create(Gaussian(), kTheta0, options);
}

struct RestoreCase {
  std::string label;
  std::function<std::unique_ptr<Sampler>()> make;
  std::function<void(SamplerState&)> corrupt;
  std::string message;
};

void SetTheta(SamplerState& state, int j, double value) {
  state.set_theta(j, value);
  // HAMCMC's newest history sample is theta; keep them equal so that only finiteness fails.
  if (state.history_size() > 0) state.mutable_history()->rbegin()->set_values(j, value);
}

std::vector<RestoreCase> Cases() {
  using Named = std::vector<std::pair<std::string, std::function<std::unique_ptr<Sampler>()>>>;
  const Named all = {{"sgld", MakeSgld},   {"psgld", MakePsgld},   {"sghmc", MakeSghmc},
                     {"sgnht", MakeSgnht}, {"hamcmc", MakeHamcmc}, {"dense_sgrld", MakeDenseSgrld}};
  std::vector<RestoreCase> cases;
  for (const auto& [name, make] : all) {
    cases.push_back({name + " theta nan", make, [](SamplerState& s) { SetTheta(s, 1, kNan); },
                     "SamplerState.theta[1] must be finite, got nan"});
    cases.push_back({name + " theta -inf", make, [](SamplerState& s) { SetTheta(s, 2, -kInf); },
                     "SamplerState.theta[2] must be finite, got -inf"});
    cases.push_back({name + " last_step_size nan", make,
                     [](SamplerState& s) { s.set_last_step_size(kNan); },
                     "SamplerState.last_step_size must be finite and >= 0, got nan"});
  }
  for (const auto& [name, make] : Named{{"sghmc", MakeSghmc}, {"sgnht", MakeSgnht}}) {
    cases.push_back({name + " momentum nan", make, [](SamplerState& s) { s.set_momentum(0, kNan); },
                     "SamplerState.momentum[0] must be finite, got nan"});
    cases.push_back({name + " momentum inf", make, [](SamplerState& s) { s.set_momentum(2, kInf); },
                     "SamplerState.momentum[2] must be finite, got inf"});
  }
  cases.push_back({"sgnht thermostat nan", MakeSgnht,
                   [](SamplerState& s) { s.set_thermostat(kNan); },
                   "SamplerState.thermostat must be finite, got nan"});
  cases.push_back({"psgld second_moment inf", MakePsgld,
                   [](SamplerState& s) { s.set_second_moment(1, kInf); },
                   "SamplerState.second_moment must be finite and >= 0, got inf"});
  cases.push_back({"hamcmc history nan", MakeHamcmc,
                   [](SamplerState& s) { s.mutable_history(0)->set_values(1, kNan); },
                   "SamplerState.history[0].values[1] must be finite, got nan"});
  cases.push_back({"hamcmc lbfgs s inf", MakeHamcmc,
                   [](SamplerState& s) { s.mutable_lbfgs_pairs(1)->set_s(2, kInf); },
                   "SamplerState.lbfgs_pairs[1].s[2] must be finite, got inf"});
  cases.push_back({"hamcmc lbfgs y nan", MakeHamcmc,
                   [](SamplerState& s) { s.mutable_lbfgs_pairs(0)->set_y(0, kNan); },
                   "SamplerState.lbfgs_pairs[0].y[0] must be finite, got nan"});
  return cases;
}

TEST(RestoreValidationTest, NonFiniteStateIsRejectedByFieldAndIndex) {
  for (const RestoreCase& c : Cases()) {
    SCOPED_TRACE(c.label);
    std::unique_ptr<Sampler> sampler = c.make();
    for (int m = 0; m < 20; ++m) sampler->Step();
    const SamplerState good = sampler->SaveState();
    SamplerState bad = good;
    c.corrupt(bad);
    const absl::Status status = sampler->RestoreState(bad);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(), c.message);
    // A failed restore changes nothing, and the unmodified checkpoint still restores.
    EXPECT_EQ(sampler->SaveState().SerializeAsString(), good.SerializeAsString());
    EXPECT_TRUE(sampler->RestoreState(good).ok());
  }
}

// The HAMCMC checkpoint after 20 steps with M = 3 holds the fields the cases corrupt.
TEST(RestoreValidationTest, HamcmcCheckpointHasHistoryAndPairs) {
  std::unique_ptr<Sampler> sampler = MakeHamcmc();
  for (int m = 0; m < 20; ++m) sampler->Step();
  const SamplerState state = sampler->SaveState();
  EXPECT_EQ(state.history_size(), 3);
  EXPECT_EQ(state.lbfgs_pairs_size(), 2);
}

}  // namespace
}  // namespace sgmcmc::samplers
