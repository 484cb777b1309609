// Fuzz target: the payload of the dp_mixture tool's checkpoint
// (tools/dp_mixture_checkpoint.proto, inside the frame of tools/checkpoint_file.h), restored
// the way tools/dp_mixture_run.cc resumes: the sampler (the exact slice Gibbs sampler, or the
// stochastic slice sampler with SCIR or SGRLD, by the first byte), the evaluation cadence and
// the running predictive, all made for a small fixed corpus. Contract: a payload that does not
// parse is refused (the tool's DataLoss); each restore either fails with InvalidArgument (the
// tool stops with it), or takes the state exactly (it is given back) and the run continues as
// the tool continues it: steps, draws and evaluations after the restored cadence's last one
// (the cadence CHECKs that order), with a mean log predictive that is not NaN.
//
// SGMCMC_FUZZ_WRITE_SEED=path: writes a valid payload (4 iterations) of each sampler to
// path.<mode> (how fuzz/corpus/dp_checkpoint was made).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/check.h"
#include "data/corpus.h"
#include "eval/evaluation_schedule.h"
#include "fuzz/fuzz_support.h"
#include "models/dp/mixture.h"
#include "models/dp/predictive.h"
#include "models/dp/stochastic_slice.h"
#include "tools/dp_mixture_checkpoint.pb.h"

namespace sgmcmc::fuzz {
namespace {

constexpr int64_t kIterations = 10;
constexpr double kAtomConcentration = 0.5;

const data::Corpus& Train() {
  static const data::Corpus* corpus = [] {
    auto* c = new data::Corpus;
    c->vocabulary = {"a", "b", "c", "d"};
    c->AddDocument({0, 0, 1});
    c->AddDocument({2, 3, 3});
    c->AddDocument({0, 1, 1, 1});
    c->AddDocument({});
    c->AddDocument({3, 2});
    return c;
  }();
  return *corpus;
}

const data::Corpus& Test() {
  static const data::Corpus* corpus = [] {
    auto* c = new data::Corpus;
    c->vocabulary = Train().vocabulary;
    c->AddDocument({0, 1});
    c->AddDocument({3, 3, 2});
    return c;
  }();
  return *corpus;
}

// The sampler behind the tool's Chain interface: Step, Draw, steps, Save, Restore.
class Chain {
 public:
  explicit Chain(uint8_t mode) {
    models::DpMixtureOptions model;
    model.atom_concentration = kAtomConcentration;
    model.initial_components = 3;
    if (mode % 3 == 0) {
      auto gibbs = models::DpSliceGibbs::Create(&Train(), model);
      SGMCMC_CHECK(gibbs.ok()) << gibbs.status();
      gibbs_ = std::move(*gibbs);
    } else {
      models::DpStochasticOptions options;
      options.model = model;
      options.sampler = mode % 3 == 1 ? models::DpSimplexSampler::kScir
                                      : models::DpSimplexSampler::kSgrld;
      options.minibatch_size = 2;
      options.initial_capacity = 4;
      auto stochastic = models::DpStochasticSlice::Create(&Train(), options);
      SGMCMC_CHECK(stochastic.ok()) << stochastic.status();
      stochastic_ = std::move(*stochastic);
    }
  }
  models::DpSliceChain& chain() {
    return gibbs_ ? static_cast<models::DpSliceChain&>(*gibbs_) : *stochastic_;
  }
  void Step() { gibbs_ ? gibbs_->Step() : stochastic_->Step(); }
  void Save(tools::DpMixtureCheckpoint& checkpoint) const {
    if (gibbs_) {
      *checkpoint.mutable_gibbs() = gibbs_->SaveState();
    } else {
      *checkpoint.mutable_stochastic() = stochastic_->SaveState();
    }
  }
  // As tools/dp_mixture_run.cc RestoreSampler.
  absl::Status Restore(const tools::DpMixtureCheckpoint& checkpoint) {
    if (gibbs_) {
      if (!checkpoint.has_gibbs()) return absl::InvalidArgumentError("no Gibbs state");
      return gibbs_->RestoreState(checkpoint.gibbs());
    }
    if (!checkpoint.has_stochastic()) return absl::InvalidArgumentError("no stochastic state");
    return stochastic_->RestoreState(checkpoint.stochastic());
  }

 private:
  std::unique_ptr<models::DpSliceGibbs> gibbs_;
  std::unique_ptr<models::DpStochasticSlice> stochastic_;
};

eval::EvaluationCadence MakeCadence() {
  absl::StatusOr<eval::EvaluationCadence> cadence =
      eval::EvaluationCadence::Create(kIterations, /*eval_every=*/2, /*burn_in=*/3);
  SGMCMC_CHECK(cadence.ok()) << cadence.status();
  return *cadence;
}

// The tool's loop (tools/dp_mixture_run.cc) from the restored position, a few steps.
void Continue(Chain& chain, eval::EvaluationCadence& cadence,
              models::DpPredictiveAverage& running) {
  models::DpMixtureDraw draw;
  const int64_t first = chain.chain().steps() + 1;
  for (int64_t t = first; t <= std::min<int64_t>(first + 2, kIterations); ++t) {
    chain.Step();
    SGMCMC_CHECK_EQ(chain.chain().steps(), t);
    if (cadence.IsDue(t)) {
      chain.chain().CurrentDraw(draw);
      SGMCMC_CHECK_GT(t, cadence.last_iteration())
          << "a restored cadence has evaluated past the restored sampler";
      if (cadence.BeginEvaluation(t)) running.Reset();
      running.Add(draw);
      SGMCMC_CHECK(!std::isnan(running.MeanLogPredictive()));
    }
  }
}

void MaybeWriteSeeds() {
  static bool done = false;
  const char* path = std::getenv("SGMCMC_FUZZ_WRITE_SEED");
  if (done || path == nullptr) return;
  done = true;
  for (const uint8_t mode : {0, 1, 2}) {
    Chain chain(mode);
    eval::EvaluationCadence cadence = MakeCadence();
    models::DpPredictiveAverage running(&Test(), kAtomConcentration);
    Continue(chain, cadence, running);
    Continue(chain, cadence, running);
    tools::DpMixtureCheckpoint checkpoint;
    checkpoint.set_settings("fuzz");
    chain.Save(checkpoint);
    *checkpoint.mutable_evaluation() = cadence.GetState();
    *checkpoint.mutable_running_predictive() = running.GetState();
    std::ofstream(absl::StrCat(path, ".", static_cast<int>(mode)), std::ios::binary)
        << std::string(1, static_cast<char>(mode)) << checkpoint.SerializeAsString();
  }
}

void FuzzOne(uint8_t mode, const std::string& payload) {
  MaybeWriteSeeds();
  tools::DpMixtureCheckpoint checkpoint;
  if (!checkpoint.ParseFromString(payload)) return;  // the tool: DataLoss
  checkpoint.DiscardUnknownFields();

  Chain chain(mode);
  const absl::Status restored = chain.Restore(checkpoint);
  if (!restored.ok()) {
    SGMCMC_CHECK(restored.code() == absl::StatusCode::kInvalidArgument) << restored;
    return;  // the tool stops with the error
  }
  tools::DpMixtureCheckpoint sampler_only;
  chain.Save(sampler_only);
  tools::DpMixtureCheckpoint expected;
  if (checkpoint.has_gibbs()) *expected.mutable_gibbs() = checkpoint.gibbs();
  if (checkpoint.has_stochastic()) *expected.mutable_stochastic() = checkpoint.stochastic();
  SGMCMC_CHECK(sampler_only.SerializeAsString() == expected.SerializeAsString())
      << "the sampler accepted a state it does not give back";

  eval::EvaluationCadence cadence = MakeCadence();
  absl::Status s = cadence.RestoreState(checkpoint.evaluation(), chain.chain().steps());
  if (!s.ok()) {
    SGMCMC_CHECK(s.code() == absl::StatusCode::kInvalidArgument) << s;
    return;
  }
  SGMCMC_CHECK(cadence.GetState().SerializeAsString() ==
               checkpoint.evaluation().SerializeAsString());

  models::DpPredictiveAverage running(&Test(), kAtomConcentration);
  s = running.RestoreState(checkpoint.running_predictive());
  if (!s.ok()) {
    SGMCMC_CHECK(s.code() == absl::StatusCode::kInvalidArgument) << s;
    return;
  }
  SGMCMC_CHECK(running.GetState().SerializeAsString() ==
               checkpoint.running_predictive().SerializeAsString());
  Continue(chain, cadence, running);
}

}  // namespace
}  // namespace sgmcmc::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return sgmcmc::fuzz::WithModeByte(data, size, sgmcmc::fuzz::FuzzOne);
}
