// Held-out evaluation of the DP mixture of multinomials (models/dp/mixture.h): the test-set
// log predictive of Baker et al. 2018, Figure 3(b) / 4(b).
//
// For one posterior draw (ω, θ, the leftover stick 1 − Σ_j ω_j) a held-out user's bag x
// (counts x_w, n tokens) has probability
//   p(x | draw) = C(x) [ Σ_j ω_j Π_w θ_jw^{x_w} + (1 − Σ_j ω_j) DM(x | a) ],
// C(x) = n! / Π_w x_w! the multinomial coefficient and DM(x | a) =
// Γ(V a) / Γ(V a + n) Π_w Γ(a + x_w) / Γ(a) the Dirichlet-multinomial probability of the
// ordered tokens, i.e. the not-instantiated components enter through their prior. The
// log predictive of the test set over draws d = 1..D is the mean over users of
//   log( (1/D) Σ_d p(x_i | draw_d) ),
// the posterior predictive estimated by averaging probabilities (not logs) over draws.
//
// Cost: O(K (n_i + 1)) per user per draw, with the bags held in sparse (word, count) form.
//
// Example:
//   DpPredictiveAverage predictive(&test_corpus, options.atom_concentration);
//   sampler->CurrentDraw(draw);
//   predictive.Add(draw);
//   double lp = predictive.MeanLogPredictive();
#ifndef SGMCMC_MODELS_DP_PREDICTIVE_H_
#define SGMCMC_MODELS_DP_PREDICTIVE_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "data/corpus.h"
#include "models/dp/mixture.h"
#include "models/dp/predictive_state.pb.h"

namespace sgmcmc::models {

// log p(x | draw) above for one bag of tokens (word ids < draw.vocabulary_size);
// atom_concentration a > 0.
double DpLogPredictive(const DpMixtureDraw& draw, double atom_concentration,
                       absl::Span<const int32_t> tokens);

class DpPredictiveAverage {
 public:
  // `test` outlives this object; a > 0 (checked).
  DpPredictiveAverage(const data::Corpus* test, double atom_concentration);

  // Adds one draw (its vocabulary size must match the test corpus, checked).
  void Add(const DpMixtureDraw& draw);
  // The mean over users of the log of the average predictive probability; 0 before any draw.
  double MeanLogPredictive() const;
  int num_draws() const { return num_draws_; }
  int num_users() const { return static_cast<int>(log_sum_.size()); }
  void Reset();

  // Checkpoint (models/dp/predictive_state.proto): an average made from the same test corpus
  // and concentration continues bit-identically after RestoreState(GetState()).
  DpPredictiveState GetState() const;
  // InvalidArgument naming the field for a log_sum of another size than the test users, a
  // negative num_draws, or a log_sum entry that is NaN or +inf.
  absl::Status RestoreState(const DpPredictiveState& state);

 private:
  struct Bag {
    std::vector<int32_t> words;
    std::vector<double> counts;
    double log_coefficient;  // log C(x)
    double log_dm;           // log DM(x | a)
  };
  // `terms`: scratch of >= K + 1 entries.
  double LogPredictive(const DpMixtureDraw& draw, const Bag& bag, absl::Span<double> terms) const;
  static Bag MakeBag(absl::Span<const int32_t> tokens, int vocabulary_size, double a);

  double atom_concentration_;
  int vocabulary_size_;
  std::vector<Bag> bags_;
  std::vector<double> log_sum_;  // per user, log Σ_d p(x_i | draw_d)
  std::vector<double> scratch_;
  int num_draws_ = 0;
};

}  // namespace sgmcmc::models

#endif  // SGMCMC_MODELS_DP_PREDICTIVE_H_
