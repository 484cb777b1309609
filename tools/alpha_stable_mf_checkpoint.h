// Checkpoints of the alpha_stable_mf experiment (tools/alpha_stable_mf_experiment.h): after the
// training of W_speech and after each (test signal, method) run in denoise mode, after each
// method in synthetic mode, the runs finished so far are written
// (tools/alpha_stable_mf_checkpoint.proto, in the checksummed frame of tools/checkpoint_file.h);
// a resumed experiment takes them from there instead of running them again. Within a run, the
// chain's state (models::AlphaStableMfChainState) is written with them every
// options.checkpoint_every sweeps and where options.stop_after stops it; a resumed experiment
// continues that run from it. Every run draws from its own streams of the seed and a chain
// resumes bit-identically, so the resumed outputs equal the uninterrupted ones, the timings
// aside.
//
// Cost: one checkpoint write per run and per checkpoint_every sweeps, of every finished run's
// result (the denoised signals: 8 bytes per sample) and the chain under way (theta, Phi and the
// running sums: a few doubles per spectrogram cell).
//
// Example:
//   SGMCMC_ASSIGN_OR_RETURN(AlphaStableMfCheckpointer checkpoints,
//       AlphaStableMfCheckpointer::Open(options, "synthetic", data_fingerprint));
//   if (const SyntheticRecoveryRow* row = checkpoints.FindRow("sgld")) { ... reuse it ... }
//   else { ...; SGMCMC_RETURN_IF_ERROR(checkpoints.AddRow(row)); }
//   if (checkpoints.ShouldStop()) return ...;  // stop_after_runs reached
#ifndef SGMCMC_TOOLS_ALPHA_STABLE_MF_CHECKPOINT_H_
#define SGMCMC_TOOLS_ALPHA_STABLE_MF_CHECKPOINT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "Eigen/Dense"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/alpha_stable_mf_checkpoint.pb.h"
#include "tools/alpha_stable_mf_experiment.h"

namespace sgmcmc::tools {

class AlphaStableMfCheckpointer {
 public:
  // The checkpointer of an experiment of `mode` ("denoise" or "synthetic") on data with
  // fingerprint `data`. With options.resume and an existing options.checkpoint_path, reads it:
  // FailedPrecondition naming the file if it holds another mode, settings or data; DataLoss /
  // InvalidArgument if damaged. With an empty checkpoint_path it keeps nothing.
  static absl::StatusOr<AlphaStableMfCheckpointer> Open(
      const AlphaStableMfExperimentOptions& options, absl::string_view mode, uint64_t data);

  // The runs read from the file (for the progress line).
  int resumed_runs() const { return resumed_runs_; }

  // Denoise mode: the trained W_speech, if finished.
  bool trained() const { return checkpoint_.trained(); }
  Eigen::MatrixXd fixed_w() const;
  double train_seconds_per_sample() const { return checkpoint_.train_seconds_per_sample(); }
  double train_acceptance_rate() const { return checkpoint_.train_acceptance_rate(); }
  absl::Status SetTrained(const Eigen::MatrixXd& fixed_w, double seconds_per_sample,
                          double acceptance_rate);

  // Denoise mode: the run of `method` on signal `name`, if finished (FailedPrecondition if it
  // was run on another mixture, fingerprint `data`); and recording one.
  absl::StatusOr<std::optional<DenoisedSignal>> FindSignal(const std::string& name,
                                                           const std::string& method,
                                                           uint64_t data) const;
  absl::Status AddSignal(const DenoisedSignal& signal, uint64_t data);

  // Synthetic mode: the row of `method`, if finished; and recording one.
  std::optional<SyntheticRecoveryRow> FindRow(const std::string& method) const;
  absl::Status AddRow(const SyntheticRecoveryRow& row);

  // Whether options.stop_after_runs (> 0) runs are finished (read ones included).
  bool ShouldStop() const;

  // The saved chain of run `run` (see the proto) if it was under way at the last write
  // (FailedPrecondition naming the file if it ran on other data, fingerprint `data`); and
  // recording one (written at once). Finishing a run (SetTrained, AddSignal, AddRow) drops it.
  absl::StatusOr<std::optional<models::AlphaStableMfChainState>> FindInProgress(
      const std::string& run, uint64_t data) const;
  absl::Status SaveInProgress(const std::string& run, uint64_t data,
                              const models::AlphaStableMfChainState& state);
  // "; RUN resumed at sweep T" for the progress line if a run was under way, else "".
  std::string InProgressNote() const;

 private:
  AlphaStableMfCheckpointer() = default;
  int Runs() const;
  absl::Status Write() const;

  std::string path_;
  int stop_after_runs_ = 0;
  int resumed_runs_ = 0;
  AlphaStableMfCheckpoint checkpoint_;
};

// FNV-1a of the values (for the data fingerprints).
uint64_t FingerprintValues(absl::Span<const double> values, uint64_t seed = 0);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_ALPHA_STABLE_MF_CHECKPOINT_H_
