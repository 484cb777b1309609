// Fuzz target: the payload of the sam tool's checkpoint (tools/sam_checkpoint.proto, inside
// the frame of tools/checkpoint_file.h), restored the way tools/sam_experiment.cc resumes:
// the β sampler (SGGMC or gSGNHT, by the first byte), the SAM model's θ side and the
// averaged perplexity, all made for a small fixed corpus. Contract: a payload that does not
// parse is refused (the tool's DataLoss); each restore either fails with InvalidArgument (the
// sphere sampler, the model and the accumulator are documented to be unchanged then) or takes
// the state exactly (it is given back) and the run continues as the tool continues it: θ
// sampling, steps whose β columns stay on the unit sphere, and a log-perplexity that is not
// NaN.
//
// SGMCMC_FUZZ_WRITE_SEED=path: writes a valid payload (3 iterations) of each sampler to
// path.<mode> (how fuzz/corpus/sam_checkpoint was made).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "Eigen/Core"
#include "Eigen/SparseCore"
#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "fuzz/fuzz_support.h"
#include "models/sam/sam.h"
#include "samplers/sggmc.h"
#include "tools/sam_checkpoint.pb.h"

namespace sgmcmc::fuzz {
namespace {

constexpr int kTopics = 2;

// V x D with unit columns.
Eigen::SparseMatrix<double> Documents(int shift) {
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(5, 3);
  for (int d = 0; d < 3; ++d) {
    for (int w = 0; w < 5; ++w) {
      if ((w + d + shift) % 2 == 0) dense(w, d) = 1 + w + d;
    }
    dense.col(d).normalize();
  }
  return dense.sparseView();
}

models::SamHyperparameters Hyper() {
  models::SamHyperparameters hyper;
  hyper.num_topics = kTopics;
  hyper.sigma = 50;
  hyper.kappa = 50;
  hyper.m = Eigen::VectorXd::Ones(5).normalized();
  return hyper;
}

struct Run {
  std::unique_ptr<models::SamTopicModel> model;
  std::unique_ptr<samplers::SphereSampler> sampler;
  std::unique_ptr<models::SamPerplexityAccumulator> averaged;
};

Run MakeRun(uint8_t mode) {
  static const Eigen::SparseMatrix<double>* train =
      new Eigen::SparseMatrix<double>(Documents(0));
  static const Eigen::SparseMatrix<double>* test = new Eigen::SparseMatrix<double>(Documents(1));
  Run run;
  run.model = std::make_unique<models::SamTopicModel>(*train, Hyper());
  models::SamThetaSampling sampling;
  sampling.draws = 2;
  sampling.burn_in = 1;
  sampling.gmc.step_size = samplers::StepSizeOptions::Constant(0.05);
  sampling.gmc.leapfrog_steps = 2;
  run.model->EnableThetaSampling(sampling);
  Eigen::MatrixXd beta0 = Eigen::MatrixXd::Ones(5, kTopics);
  beta0(0, 1) = 2;
  beta0.colwise().normalize();
  samplers::GeodesicSamplerOptions geodesic;
  geodesic.chain.step_size = samplers::StepSizeOptions::Constant(1e-3);
  geodesic.chain.batch_size = 2;
  if (mode & 1) {
    auto sampler = samplers::Gsgnht::Create(*run.model, beta0, geodesic);
    SGMCMC_CHECK(sampler.ok()) << sampler.status();
    run.sampler = std::move(*sampler);
  } else {
    auto sampler = samplers::Sggmc::Create(*run.model, beta0, geodesic);
    SGMCMC_CHECK(sampler.ok()) << sampler.status();
    run.sampler = std::move(*sampler);
  }
  run.averaged = std::make_unique<models::SamPerplexityAccumulator>(*test, Hyper(), 2, 12345);
  return run;
}

// The tool's loop (tools/sam_experiment.cc RunMethod) from the restored position.
void Continue(Run& run) {
  for (int m = 0; m < 2; ++m) {
    run.sampler->Step();
    const Eigen::MatrixXd& beta = run.sampler->x();
    for (int k = 0; k < beta.cols(); ++k) {
      SGMCMC_CHECK(beta.col(k).allFinite());
      SGMCMC_CHECK_LE(std::abs(beta.col(k).norm() - 1), 1e-6) << "column " << k;
    }
    run.averaged->Add(beta);
    SGMCMC_CHECK(!std::isnan(run.averaged->LogPerplexity()));
  }
}

void MaybeWriteSeeds() {
  static bool done = false;
  const char* path = std::getenv("SGMCMC_FUZZ_WRITE_SEED");
  if (done || path == nullptr) return;
  done = true;
  for (const uint8_t mode : {0, 1}) {
    Run run = MakeRun(mode);
    Continue(run);
    run.sampler->Step();
    tools::SamRunCheckpoint checkpoint;
    checkpoint.set_method(mode & 1 ? "gsgnht" : "sggmc");
    checkpoint.set_iteration(3);
    *checkpoint.mutable_sampler() = run.sampler->SaveState();
    *checkpoint.mutable_model() = run.model->SaveState();
    *checkpoint.mutable_perplexity() = run.averaged->SaveState();
    std::ofstream(absl::StrCat(path, ".", static_cast<int>(mode)), std::ios::binary)
        << std::string(1, static_cast<char>(mode)) << checkpoint.SerializeAsString();
  }
}

// Restores `state` with `restore` and checks the contract; false if the run cannot go on.
template <typename State, typename Object>
bool Restored(const State& state, Object& object) {
  const std::string before = object.SaveState().SerializeAsString();
  const absl::Status restored = object.RestoreState(state);
  if (!restored.ok()) {
    SGMCMC_CHECK(restored.code() == absl::StatusCode::kInvalidArgument) << restored;
    SGMCMC_CHECK(object.SaveState().SerializeAsString() == before)
        << "a failed restore changed the object: " << restored;
    return false;
  }
  SGMCMC_CHECK(object.SaveState().SerializeAsString() == state.SerializeAsString())
      << "a restore accepted a state it does not give back";
  return true;
}

void FuzzOne(uint8_t mode, const std::string& payload) {
  MaybeWriteSeeds();
  tools::SamRunCheckpoint checkpoint;
  if (!checkpoint.ParseFromString(payload)) return;  // the tool: DataLoss
  checkpoint.DiscardUnknownFields();
  Run run = MakeRun(mode);
  if (!Restored(checkpoint.sampler(), *run.sampler)) return;
  if (!Restored(checkpoint.model(), *run.model)) return;
  if (!Restored(checkpoint.perplexity(), *run.averaged)) return;
  Continue(run);
}

}  // namespace
}  // namespace sgmcmc::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return sgmcmc::fuzz::WithModeByte(data, size, sgmcmc::fuzz::FuzzOne);
}
