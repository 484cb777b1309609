// Fuzz target: the payload of the matrix_factorization tool's checkpoint (models::MfChainState,
// models/mf/distributed_matrix_factorization.h, inside the frame of tools/checkpoint_file.h),
// restored into a DistributedMfChain of one rank on a small fixed rating matrix, for the
// method the first byte picks (DSGLD, pSGLD, HAMCMC with shared or per-block memory, scalar or
// diagonal initial metric). Contract: a payload that does not parse is refused (the tool's
// DataLoss); RestoreState either fails (FailedPrecondition for another method or rank count,
// InvalidArgument for bad lengths or values) or takes the state exactly (SaveState gives it
// back) and the chain continues: steps that succeed or fail with an error, and test RMSEs
// that are finite.
//
// SGMCMC_FUZZ_WRITE_SEED=path: writes a valid payload (2 iterations) of each method to
// path.<method> (how fuzz/corpus/mf_checkpoint was made).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "data/ratings.h"
#include "fuzz/fuzz_support.h"
#include "models/mf/distributed_matrix_factorization.h"
#include "parallel/communicator.h"

namespace sgmcmc::fuzz {
namespace {

data::RatingMatrix Ratings(int shift) {
  data::RatingMatrix m;
  m.num_rows = 6;
  m.num_cols = 5;
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 5; ++j) {
      if ((i + j + shift) % 3 != 0) continue;
      m.ratings.push_back({i, j, static_cast<float>(1 + (i * 7 + j * 3) % 5)});
    }
  }
  return m;
}

models::MfRunOptions RunOptions(uint8_t mode) {
  models::MfRunOptions run;
  run.method = (mode & 3) == 0   ? models::MfMethod::kSgld
               : (mode & 3) == 1 ? models::MfMethod::kPsgld
                                 : models::MfMethod::kHamcmc;
  run.step_size = 1e-3;
  run.iterations = 10;
  run.burn_in = 1;
  run.hamcmc_block_memory = (mode & 4) != 0;
  run.hamcmc_initial_metric =
      (mode & 8) ? models::MfInitialMetric::kDiagonalDegree : models::MfInitialMetric::kScalar;
  return run;
}

std::unique_ptr<models::DistributedMfChain> MakeChain(uint8_t mode,
                                                      parallel::Communicator& comm) {
  static const data::RatingMatrix* train = new data::RatingMatrix(Ratings(0));
  static const data::RatingMatrix* test = new data::RatingMatrix(Ratings(1));
  models::MatrixFactorizationOptions model;
  model.rank = 2;
  model.num_blocks = 2;
  auto chain = models::DistributedMfChain::Create(*train, *test, model, RunOptions(mode), comm);
  SGMCMC_CHECK(chain.ok()) << chain.status();
  return std::move(*chain);
}

void MaybeWriteSeeds(parallel::Communicator& comm) {
  static bool done = false;
  const char* path = std::getenv("SGMCMC_FUZZ_WRITE_SEED");
  if (done || path == nullptr) return;
  done = true;
  for (const uint8_t mode : {0, 1, 2, 2 | 4, 2 | 8}) {
    std::unique_ptr<models::DistributedMfChain> chain = MakeChain(mode, comm);
    for (int t = 0; t < 2; ++t) SGMCMC_CHECK(chain->Step().ok());
    SGMCMC_CHECK(chain->AddToAverage().ok());
    std::ofstream(absl::StrCat(path, ".", static_cast<int>(mode)), std::ios::binary)
        << std::string(1, static_cast<char>(mode)) << chain->SaveState().SerializeAsString();
  }
}

void FuzzOne(uint8_t mode, const std::string& payload) {
  static parallel::Communicator* comm = parallel::MakeSingleProcessCommunicator().release();
  MaybeWriteSeeds(*comm);
  models::MfChainState state;
  if (!state.ParseFromString(payload)) return;  // the tool: DataLoss "not an MfChainState"
  state.DiscardUnknownFields();
  std::unique_ptr<models::DistributedMfChain> chain = MakeChain(mode, *comm);
  const absl::Status restored = chain->RestoreState(state);
  if (!restored.ok()) {
    SGMCMC_CHECK(restored.code() == absl::StatusCode::kInvalidArgument ||
                 restored.code() == absl::StatusCode::kFailedPrecondition)
        << restored;
    return;  // the tool stops with the error
  }
  // The caller's record (trace, sampler_seconds, options_fingerprint) is the tool's, which
  // checks it (tools/matrix_factorization_experiment.cc); the chain neither reads nor writes
  // it (a libFuzzer find of 2026-11-28: two empty trace records, not given back).
  models::MfChainState chain_fields = state;
  chain_fields.clear_trace();
  chain_fields.clear_sampler_seconds();
  chain_fields.clear_options_fingerprint();
  SGMCMC_CHECK(chain->SaveState().SerializeAsString() == chain_fields.SerializeAsString())
      << "RestoreState accepted a state it does not give back";
  for (int t = 0; t < 2; ++t) {
    const absl::Status step = chain->Step();
    if (!step.ok()) return;  // e.g. a diverged HAMCMC pair is reported, not used
    const absl::Status average = chain->AddToAverage();
    if (!average.ok()) return;
    const absl::StatusOr<models::MfEvaluation> evaluation = chain->Evaluate();
    SGMCMC_CHECK(evaluation.ok()) << evaluation.status();
  }
}

}  // namespace
}  // namespace sgmcmc::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return sgmcmc::fuzz::WithModeByte(data, size, sgmcmc::fuzz::FuzzOne);
}
