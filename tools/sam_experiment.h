// The experiments of //tools:sam (tools/sam.cc is its command line): the spherical admixture
// model (models/sam/sam.h) under SGGMC and gSGNHT (minibatch and full batch) and GMC-bGibbs
// (blockwise Gibbs: θ_d | β by GMC for every document, then one full-batch GMC step of β | θ),
// log-perplexity on held-out documents versus wall time (Liu, Zhu & Song 2016, Sec. 5), plus
// the two geodesic toys of the paper's slides.
//
// Experiments (SamOptions::experiments):
//  - toy (RunSamToy): SGGMC and gSGNHT on the slides' circle with N(0, 1000 I) gradient noise
//    (V̂ = 1000, ε = 0.002, C = 1.2, L = 100); sam_toy_angles.csv (bin centre, exact density,
//    histograms) and the draws (every 10th) as CmdStan CSV, sam_toy_sggmc.csv and
//    sam_toy_gsgnht.csv; KS distances of the angle to the exact law, and the kernel Stein
//    discrepancy on the circle (SphereDrawsKsd) of kSamKsdDraws evenly spaced draws, next to
//    that of as many iid draws of the exact law (the floor at that n).
//  - synthetic (RunSamSynthetic): the two-vMF posterior; sam_synthetic_marginals.csv (exact
//    and GMC / SGGMC / gSGNHT marginal histograms of both angles) and the draws as CmdStan
//    CSV, sam_synthetic_{gmc,sggmc,gsgnht}.csv; mode fractions; the KSD on the torus
//    S^1 x S^1 (SphereDrawsKsd) of kSamKsdDraws evenly spaced draws of each.
//  - sam (LoadSamData, RunSamPerplexity): sam_perplexity.csv (method, iteration, seconds
//    (sampling only, evaluation excluded), log_perplexity of the draws after burn_in (every
//    average_every-th) averaged as in the slides, or of the current draw before) and the thinned β
//    draws as CmdStan CSV, sam_beta_METHOD.csv.
// Data: train/test in the 20news-diff tf-idf format (data/tfidf_reader.h), a UCI bag-of-words
// corpus turned into tf-idf (data/tfidf.h), or, by default, documents generated from SAM
// itself (V = 50, K = num_topics, 500 + 200 documents).
//
// Cost: toy 2 · toy_iterations · 100 gradient steps in 2-d; synthetic 12 · synthetic_iterations
// steps on 50 points plus 10 leapfrog steps per GMC iteration; sam: iterations steps per
// method plus one perplexity (theta_samples Dirichlet draws per held-out document) every
// eval_every. The defaults run in about a minute.
//
// Example:
//   SamOptions options;
//   options.toy_iterations = 1000;
//   SGMCMC_ASSIGN_OR_RETURN(const SamToyResult toy, RunSamToy(options));
//   SGMCMC_RETURN_IF_ERROR(WriteFiles(dir, SamToyOutputFiles(toy)));
#ifndef SGMCMC_TOOLS_SAM_EXPERIMENT_H_
#define SGMCMC_TOOLS_SAM_EXPERIMENT_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "Eigen/Dense"
#include "Eigen/SparseCore"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "samplers/sphere_model.h"
#include "tools/tool_support.h"

namespace sgmcmc::tools {

// Number of histogram bins over (-π, π] of the toy and synthetic angle histograms.
inline constexpr int kSamAngleBins = 100;
// Draws per chain in the KSD summaries (min(iterations, kSamKsdDraws) evenly spaced draws;
// SGGMC's 10x longer synthetic chain gets as many as the others):
// the V statistic costs O(draws^2), ~0.5 s at 10000 on the circle.
inline constexpr int kSamKsdDraws = 10000;
// rng::Engine stream of the toy's exact reference draws (under SamOptions::seed).
inline constexpr uint64_t kSamToyExactStream = uint64_t{0x5A} << 56;

// Largest K: the gradient holds K x K Gram matrices (4096² doubles, 128 MB each).
inline constexpr int kMaxSamTopics = 4096;

struct SamOptions {
  // Training / held-out documents (tf-idf format); both empty: generated. Go together.
  std::string train;
  std::string test;
  // Instead of train/test: a UCI bag-of-words corpus and its vocabulary, turned into tf-idf
  // keeping the tfidf_words (>= 2) words of largest df; every test_every-th (>= 2) document
  // is held out.
  std::string uci_docword;
  std::string uci_vocab;
  int tfidf_words = 5000;
  int test_every = 10;
  // K, in [2, kMaxSamTopics].
  int num_topics = 4;
  // κ >= 0 (finite, as every real option here), concentration of documents about βθ/‖βθ‖.
  double kappa = 50;
  // σ > 0, concentration of topics about μ.
  double sigma = 1;
  // κ₀ > 0, concentration of μ about the mean direction m.
  double kappa0 = 1;
  // Symmetric Dirichlet α > 0.
  double alpha = 1;
  // Step size ε of SGGMC and gSGNHT.
  double step = 0.003;
  // Friction C.
  double friction = 5;
  // Minibatch size of the minibatch runs, >= 1.
  int batch_size = 20;
  // θ_d | β by GMC (models/sam/sam.h SamThetaSampling): draws kept per document visit (>= 1;
  // GMC-bGibbs keeps 1), GMC iterations discarded before them (>= 0), leapfrog step (> 0) and
  // leapfrog steps per GMC iteration (>= 1).
  int theta_draws = 3;
  int theta_burn_in = 3;
  double theta_step = 0.1;
  int theta_leapfrog_steps = 5;
  // Threads for the θ_d GMC runs of a minibatch (models/sam/sam.h SamTopicModel::SetThreadPool);
  // outputs are bit-identical for any count, >= 1.
  int num_threads = 1;
  // Write every beta_thin-th β draw after burn_in to sam_beta_METHOD.csv (CmdStan CSV, all
  // V·K coordinates beta.i.k of each kept draw, i.e. about 12 bytes · V · K per draw: thin
  // accordingly for large V·K); 0: no β draws written. >= 0.
  int beta_thin = 100;
  // Checkpoints of the sam experiment (tools/sam_checkpoint.proto in the checksummed frame of
  // tools/checkpoint_file.h), one per method, <output_dir>/sam_checkpoint_METHOD.pb: written
  // every checkpoint_every iterations and at the run's end (0: never, unless stopped by
  // stop_after), >= 0. resume: continue each method from its checkpoint if there is one (same
  // data and options, else refused naming both; a damaged file is refused naming it; the result
  // is bit-identical to an uninterrupted run except for the seconds). stop_after > 0: stop the
  // first method whose run reaches this many iterations in all, write its checkpoint and set
  // SamPerplexityResult::stopped (>= 0; 0: run to the end).
  int checkpoint_every = 0;
  bool resume = false;
  int stop_after = 0;
  // Leapfrog step of the β | θ GMC step of GMC-bGibbs.
  double gmc_step = 0.003;
  // Iterations per method, >= 1.
  int iterations = 1500;
  // Draws before this iteration are not averaged, >= 0.
  int burn_in = 500;
  // Every average_every-th draw after burn_in enters the averaged log-perplexity (>= 1; each
  // costs O(V K² + D_test (nnz K + theta_samples K²)), models/sam/sam.h SamPerplexityAccumulator).
  int average_every = 1;
  // Evaluation interval (iterations), >= 1.
  int eval_every = 100;
  // Dirichlet samples per document in the perplexity, >= 1.
  int theta_samples = 100;
  // Methods of the sam experiment, in order: each of sggmc, gsgnht, sggmc_full, gsgnht_full,
  // gmc_bgibbs.
  std::vector<std::string> methods = {"sggmc", "gsgnht", "sggmc_full", "gsgnht_full",
                                      "gmc_bgibbs"};
  // Seed of every chain.
  uint64_t seed = 1;
  // Experiments to run: each of toy, synthetic, sam.
  std::vector<std::string> experiments = {"toy", "synthetic", "sam"};
  // Iterations of each toy chain (L = 100 inner steps), >= 10.
  int toy_iterations = 100000;
  // Iterations of the synthetic chains (GMC; SGGMC with minibatches runs 10x), >= 1.
  int synthetic_iterations = 100000;
  // The directory the toy CmdStan CSVs are written to: recorded in their header only.
  std::string output_dir = "sam_out";
  // Receives the progress and summary lines; null: none.
  std::ostream* log = nullptr;

  // InvalidArgument naming the field, e.g. "num_topics must be >= 2" or
  // "methods: unknown method nuts".
  absl::Status Validate() const;

  // Whether `experiments` holds `name`.
  bool Wants(const std::string& name) const;
};

struct SamToyResult {
  // KS distance of the angle to the exact law: SGGMC, gSGNHT.
  double ks[2] = {0, 0};
  // KSD (SphereDrawsKsd) of ksd_draws draws of each chain: SGGMC, gSGNHT; and of ksd_draws
  // iid draws of the exact law.
  double ksd[2] = {0, 0};
  double ksd_exact = 0;
  int ksd_draws = 0;
  // kSamAngleBins x 2 angle counts: SGGMC, gSGNHT.
  Eigen::MatrixXd histogram;
  int iterations = 0;
  // The draws (every 10th) as CmdStan CSV: SGGMC, gSGNHT.
  std::string draws_csv[2];
};

// Kernel Stein discrepancy (eval/kernel_stein_discrepancy.h: V statistic, IMQ c = 1,
// beta = -1/2, the sphere Stein kernel with sphere_dimension = model.dimension()) of `draws`
// (each draw the model's d x K point, column-major: K unit blocks of d) against the model's
// full-batch posterior, score -grad U from StochasticSphereGradient over every item (so the
// model's own gradient noise, if any, enters: pass a noise-free model). Errors of the KSD
// (e.g. a draw off the sphere). Cost: O(n N) gradients + O(n^2 d K) for n draws.
absl::StatusOr<double> SphereDrawsKsd(const samplers::SpherePotentialModel& model,
                                      absl::Span<const double> draws);

// The toy of the slides. InvalidArgument if `options` are not valid.
absl::StatusOr<SamToyResult> RunSamToy(const SamOptions& options);

// sam_toy_sggmc.csv, sam_toy_gsgnht.csv, sam_toy_angles.csv.
OutputFiles SamToyOutputFiles(const SamToyResult& result);

struct SamSyntheticResult {
  // 2 x kSamAngleBins exact marginal densities of θ₁, θ₂.
  Eigen::MatrixXd exact;
  // kSamAngleBins x 6 densities: GMC θ₁, θ₂, SGGMC θ₁, θ₂, gSGNHT θ₁, θ₂.
  Eigen::MatrixXd histograms;
  // Fraction of draws with θ₁ > 0.6: GMC, SGGMC, gSGNHT; and the exact one (grid).
  double mode_fraction[3] = {0, 0, 0};
  double exact_mode_fraction = 0;
  // KSD on the torus (SphereDrawsKsd) of ksd_draws draws (the same for the three):
  // GMC, SGGMC, gSGNHT.
  double ksd[3] = {0, 0, 0};
  int ksd_draws[3] = {0, 0, 0};
  // The draws as CmdStan CSV (x.i.j: coordinate i of direction j; theta.j: its angle; lp__
  // the log posterior up to a constant), synthetic_iterations / 10 from each chain (every
  // 10th; every 100th of SGGMC's 10x longer run): GMC, SGGMC, gSGNHT.
  std::string draws_csv[3];
};

// The synthetic two-vMF posterior: GMC, SGGMC (minibatch 10 of 50, ε = 0.002, L = 1) and
// gSGNHT (full batch, ε = 0.01, L = 10). InvalidArgument if `options` are not valid.
absl::StatusOr<SamSyntheticResult> RunSamSynthetic(const SamOptions& options);

// sam_synthetic_gmc.csv, sam_synthetic_sggmc.csv, sam_synthetic_gsgnht.csv (draws),
// sam_synthetic_marginals.csv.
OutputFiles SamSyntheticOutputFiles(const SamSyntheticResult& result);

struct SamData {
  Eigen::SparseMatrix<double> train;  // V x D_train, unit columns
  Eigen::SparseMatrix<double> test;   // V x D_test
};

// The documents of the sam experiment (see SamOptions::train). InvalidArgument if `options`
// are not valid; the readers' errors naming the file.
absl::StatusOr<SamData> LoadSamData(const SamOptions& options);

struct SamPerplexityRow {
  std::string method;
  int iteration = 0;
  double seconds = 0;  // sampling only
  double log_perplexity = 0;
};

struct SamPerplexityResult {
  std::vector<SamPerplexityRow> rows;  // per method, per evaluation
  // Per method (if beta_thin > 0): sam_beta_METHOD.csv, the kept β draws as CmdStan CSV
  // (columns beta.i.k, column-major; lp__ the collapsed log prior log p(β) up to a constant,
  // as the likelihood would need every document's θ draws).
  OutputFiles beta_csv;
  // Stopped by SamOptions::stop_after: the rows and β draws are incomplete (and not those of
  // the stopped method); continue with resume.
  bool stopped = false;
};

// Every method of `options` on `data`, from the same start. InvalidArgument if `options` are
// not valid; on resume, a checkpoint that does not fit (naming its file and field); DataLoss
// for an unreadable one; a failed checkpoint write's error.
absl::StatusOr<SamPerplexityResult> RunSamPerplexity(const SamOptions& options,
                                                     const SamData& data);

// sam_beta_METHOD.csv (each method's β draws, if written), sam_perplexity.csv.
OutputFiles SamPerplexityOutputFiles(const SamPerplexityResult& result);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_SAM_EXPERIMENT_H_
