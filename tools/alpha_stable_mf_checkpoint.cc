#include "tools/alpha_stable_mf_checkpoint.h"

#include <cstring>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "models/mf/matrix_factorization.h"
#include "tools/checkpoint_file.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {
namespace {

// The kind of the tool's checkpoint files (tools/checkpoint_file.h).
constexpr absl::string_view kCheckpointKind = "alpha_stable_mf";

std::string SettingsText(const AlphaStableMfSamplerSettings& s) {
  return absl::StrFormat(
      "sgld=%.17g psgld=%.17g lambda=%.17g hamcmc=%.17g M=%d gamma=%.17g damping=%.17g "
      "warmup=%.17g phi_stride=%d",
      s.sgld_step, s.psgld_step, s.psgld_lambda, s.hamcmc_step, s.hamcmc_memory, s.hamcmc_gamma,
      s.hamcmc_damping, s.hamcmc_warmup_step, s.phi_stride);
}

// Everything the runs' results depend on, for the checkpoint.
std::string Settings(const AlphaStableMfExperimentOptions& o, absl::string_view mode,
                     uint64_t data) {
  std::string methods;
  for (models::MfMethod m : o.methods) absl::StrAppend(&methods, models::MfMethodName(m), ",");
  return absl::StrFormat(
      "mode=%s data=%016x bins=%d ranks=%d/%d alphas=%.17g/%.17g train=%s step=%.17g "
      "samples=%d last=%d methods=%s samples=%d last=%d seed=%d settings={%s} synthetic=%dx%d "
      "rank=%d synthetic_settings={%s}",
      mode, data, o.num_bins, o.speech_rank, o.noise_rank, o.speech_alpha, o.noise_alpha,
      models::MfMethodName(o.train_method), o.train_step, o.train_samples,
      o.train_average_last, methods, o.samples, o.average_last, o.seed,
      SettingsText(o.settings), o.synthetic_rows, o.synthetic_cols, o.synthetic_rank,
      SettingsText(o.synthetic_settings));
}

}  // namespace

uint64_t FingerprintValues(absl::Span<const double> values, uint64_t seed) {
  Fnv1a hash;
  hash.Mix(seed);
  hash.Mix(values.size());
  for (const double v : values) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    hash.Mix(bits);
  }
  return hash.value();
}

absl::StatusOr<AlphaStableMfCheckpointer> AlphaStableMfCheckpointer::Open(
    const AlphaStableMfExperimentOptions& options, absl::string_view mode, uint64_t data) {
  AlphaStableMfCheckpointer checkpointer;
  checkpointer.path_ = options.checkpoint_path;
  checkpointer.stop_after_runs_ = options.stop_after_runs;
  checkpointer.checkpoint_.set_settings(Settings(options, mode, data));
  if (!options.resume || options.checkpoint_path.empty() ||
      !std::filesystem::exists(options.checkpoint_path)) {
    return checkpointer;
  }
  const std::string& path = options.checkpoint_path;
  SGMCMC_ASSIGN_OR_RETURN(const std::string bytes, ReadCheckpoint(path, kCheckpointKind));
  AlphaStableMfCheckpoint saved;
  if (!saved.ParseFromString(bytes)) {
    return absl::DataLossError(absl::StrCat(path, ": not an AlphaStableMfCheckpoint"));
  }
  if (saved.settings() != checkpointer.checkpoint_.settings()) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": written with different settings or data; checkpoint: ", saved.settings(),
        "; this run: ", checkpointer.checkpoint_.settings()));
  }
  if (saved.trained() &&
      saved.fixed_w_size() != static_cast<int64_t>(saved.w_rows()) * saved.w_cols()) {
    return absl::DataLossError(absl::StrCat(path, ": W of ", saved.fixed_w_size(),
                                            " values, not ", saved.w_rows(), " x ",
                                            saved.w_cols()));
  }
  checkpointer.checkpoint_ = std::move(saved);
  checkpointer.resumed_runs_ = checkpointer.Runs();
  return checkpointer;
}

int AlphaStableMfCheckpointer::Runs() const {
  return (checkpoint_.trained() ? 1 : 0) + checkpoint_.signals_size() + checkpoint_.rows_size();
}

bool AlphaStableMfCheckpointer::ShouldStop() const {
  return stop_after_runs_ > 0 && Runs() >= stop_after_runs_;
}

absl::Status AlphaStableMfCheckpointer::Write() const {
  if (path_.empty()) return absl::OkStatus();
  return WriteCheckpoint(path_, kCheckpointKind, checkpoint_.SerializeAsString());
}

Eigen::MatrixXd AlphaStableMfCheckpointer::fixed_w() const {
  Eigen::MatrixXd w(checkpoint_.w_rows(), checkpoint_.w_cols());
  std::copy(checkpoint_.fixed_w().begin(), checkpoint_.fixed_w().end(), w.data());
  return w;
}

absl::Status AlphaStableMfCheckpointer::SetTrained(const Eigen::MatrixXd& fixed_w,
                                                   double seconds_per_sample,
                                                   double acceptance_rate) {
  checkpoint_.clear_in_progress();
  checkpoint_.set_trained(true);
  checkpoint_.set_w_rows(static_cast<int32_t>(fixed_w.rows()));
  checkpoint_.set_w_cols(static_cast<int32_t>(fixed_w.cols()));
  checkpoint_.mutable_fixed_w()->Assign(fixed_w.data(), fixed_w.data() + fixed_w.size());
  checkpoint_.set_train_seconds_per_sample(seconds_per_sample);
  checkpoint_.set_train_acceptance_rate(acceptance_rate);
  return Write();
}

absl::StatusOr<std::optional<DenoisedSignal>> AlphaStableMfCheckpointer::FindSignal(
    const std::string& name, const std::string& method, uint64_t data) const {
  for (const AlphaStableMfCheckpoint::Signal& s : checkpoint_.signals()) {
    if (s.name() != name || s.method() != method) continue;
    if (s.data() != data) {
      return absl::FailedPreconditionError(absl::StrCat(
          path_, ": ", name, " was denoised from another mixture than the one read now"));
    }
    DenoisedSignal signal;
    signal.name = s.name();
    signal.method = s.method();
    signal.sdr_db = s.sdr_db();
    signal.input_sdr_db = s.input_sdr_db();
    signal.acceptance_rate = s.acceptance_rate();
    signal.seconds_per_sample = s.seconds_per_sample();
    signal.diverged = s.diverged();
    signal.denoised.assign(s.denoised().begin(), s.denoised().end());
    return signal;
  }
  return std::nullopt;
}

absl::Status AlphaStableMfCheckpointer::AddSignal(const DenoisedSignal& signal, uint64_t data) {
  checkpoint_.clear_in_progress();
  AlphaStableMfCheckpoint::Signal& s = *checkpoint_.add_signals();
  s.set_name(signal.name);
  s.set_method(signal.method);
  s.set_sdr_db(signal.sdr_db);
  s.set_input_sdr_db(signal.input_sdr_db);
  s.set_acceptance_rate(signal.acceptance_rate);
  s.set_seconds_per_sample(signal.seconds_per_sample);
  s.set_diverged(signal.diverged);
  s.mutable_denoised()->Assign(signal.denoised.begin(), signal.denoised.end());
  s.set_data(data);
  return Write();
}

std::optional<SyntheticRecoveryRow> AlphaStableMfCheckpointer::FindRow(
    const std::string& method) const {
  for (const AlphaStableMfCheckpoint::SyntheticRow& r : checkpoint_.rows()) {
    if (r.method() != method) continue;
    SyntheticRecoveryRow row;
    row.method = r.method();
    row.relative_error = r.relative_error();
    row.derived_error = r.derived_error();
    row.constant_error = r.constant_error();
    row.acceptance_rate = r.acceptance_rate();
    row.seconds_per_sample = r.seconds_per_sample();
    row.diverged = r.diverged();
    return row;
  }
  return std::nullopt;
}

absl::Status AlphaStableMfCheckpointer::AddRow(const SyntheticRecoveryRow& row) {
  checkpoint_.clear_in_progress();
  AlphaStableMfCheckpoint::SyntheticRow& r = *checkpoint_.add_rows();
  r.set_method(row.method);
  r.set_relative_error(row.relative_error);
  r.set_derived_error(row.derived_error);
  r.set_constant_error(row.constant_error);
  r.set_acceptance_rate(row.acceptance_rate);
  r.set_seconds_per_sample(row.seconds_per_sample);
  r.set_diverged(row.diverged);
  return Write();
}

absl::StatusOr<std::optional<models::AlphaStableMfChainState>>
AlphaStableMfCheckpointer::FindInProgress(const std::string& run, uint64_t data) const {
  const AlphaStableMfCheckpoint::InProgress& saved = checkpoint_.in_progress();
  if (saved.run() != run) return std::nullopt;
  if (saved.data() != data) {
    return absl::FailedPreconditionError(absl::StrCat(
        path_, ": the run ", run, " under way was on other data than the data read now"));
  }
  return saved.state();
}

absl::Status AlphaStableMfCheckpointer::SaveInProgress(
    const std::string& run, uint64_t data, const models::AlphaStableMfChainState& state) {
  AlphaStableMfCheckpoint::InProgress& saved = *checkpoint_.mutable_in_progress();
  saved.set_run(run);
  saved.set_data(data);
  *saved.mutable_state() = state;
  return Write();
}

std::string AlphaStableMfCheckpointer::InProgressNote() const {
  const AlphaStableMfCheckpoint::InProgress& saved = checkpoint_.in_progress();
  if (saved.run().empty()) return "";
  return absl::StrCat("; ", saved.run(), " resumed at sweep ", saved.state().iteration());
}

}  // namespace sgmcmc::tools
