// SyntheticLdaCorpus: documents drawn from the LDA generative model (Blei, Ng & Jordan 2003,
// §3) with known topics, for corpora of any size (tools/lda_generate_corpus.cc streams them
// to UCI files) and for scoring learned topics against the truth (eval/topic_recovery.h).
//
// The model, K topics over V words (word w has rank w + 1):
//   b_w = (w + 1)^(−s) / Σ_v (v + 1)^(−s)      Zipf's law with exponent s (zipf_exponent)
//   φ_k ~ Dirichlet(β V b)                       k = 0..K−1; E[φ_kw] = b_w, so the expected
//                                                word frequencies of the corpus follow Zipf's
//                                                law; β (beta) is the mean concentration per
//                                                word (small β: sparse topics)
//   N_d ~ Poisson(λ), or N_d = λ (fixed)         document length, λ = mean_document_length
//   θ_d ~ Dirichlet(α 1_K),  z_dn | θ_d ~ Categorical(θ_d),  w_dn | z_dn ~ Categorical(φ_z).
// θ_d is never formed: z_d1..z_dN are drawn from their Dirichlet-multinomial marginal by the
// Pólya urn, z_dn = z_dj with j uniform on the n − 1 earlier tokens with probability
// (n − 1) / (n − 1 + K α), else uniform on the K topics: the same joint law of (z, w) as the
// model, at O(1) per token instead of K gamma variates per document.
// Words are drawn from per-topic alias tables (rng::AliasTable), exact up to V / 2^64 relative.
//
// Randomness: counter-based streams rng::Engine(seed, stream): topic k uses stream
// kTopicStreams + k, training document d stream kTrainingStreams + d, held-out document d
// stream kHeldOutStreams + d. Any document can be regenerated alone and in any order (the
// tool writes a corpus in two passes, the first to count the UCI header's NNZ, without
// holding it), and the output for a seed does not depend on call order or threads.
//
// Cost: Create O(K V) time (K Dirichlet draws of V gamma variates, K alias tables), memory
// 16 K V bytes for the tables (φ itself is handed to the caller row by row, not kept);
// a document O(N_d log N_d) (a sort of its words).
//
// Example:
//   SyntheticLdaOptions options;
//   options.num_topics = 1000;
//   options.vocabulary_size = 50000;
//   SGMCMC_ASSIGN_OR_RETURN(SyntheticLdaCorpus corpus, SyntheticLdaCorpus::Create(
//       options, [&](int k, absl::Span<const double> phi_k) { /* write row k */ }));
//   SyntheticLdaCorpus::Scratch scratch;
//   std::vector<WordCount> entries;
//   corpus.Document(DocumentSet::kTraining, 0, scratch, entries);
#ifndef SGMCMC_DATA_SYNTHETIC_LDA_CORPUS_H_
#define SGMCMC_DATA_SYNTHETIC_LDA_CORPUS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "data/uci_writer.h"
#include "rng/categorical.h"

namespace sgmcmc::data {

struct SyntheticLdaOptions {
  enum class LengthLaw { kPoisson, kFixed };

  // K >= 1; default 100.
  int num_topics = 100;
  // V >= 1; default 10,000.
  int vocabulary_size = 10000;
  // s >= 0 (0: uniform base measure); default 1 (classic Zipf).
  double zipf_exponent = 1.0;
  // β > 0: topic-word concentrations are β V b_w; default 0.01.
  double beta = 0.01;
  // α > 0: symmetric document-topic concentration; default 0.1.
  double alpha = 0.1;
  // Document length law; default Poisson (empty documents occur with probability e^−λ).
  LengthLaw length_law = LengthLaw::kPoisson;
  // λ: for Poisson a mean in (0, 10^6]; for fixed an integer in [1, 10^6]; default 100.
  double mean_document_length = 100;
  // Key of all the random streams; default 1.
  uint64_t seed = 1;

  // InvalidArgument naming the field if a value is out of range.
  absl::Status Validate() const;
};

enum class DocumentSet { kTraining, kHeldOut };

class SyntheticLdaCorpus {
 public:
  static constexpr uint64_t kTopicStreams = uint64_t{1} << 60;
  static constexpr uint64_t kTrainingStreams = uint64_t{2} << 60;
  static constexpr uint64_t kHeldOutStreams = uint64_t{3} << 60;

  // Buffers reused between documents (one per thread).
  struct Scratch {
    std::vector<int32_t> topics, words;
  };

  // Validates `options` and draws the K topics; `on_topic(k, φ_k)` sees each row as it is
  // drawn, k = 0..K−1 in order (it is not kept afterwards).
  static absl::StatusOr<SyntheticLdaCorpus> Create(
      const SyntheticLdaOptions& options,
      absl::FunctionRef<void(int, absl::Span<const double>)> on_topic);

  // Document d >= 0 of `set`: its distinct words in ascending order with their counts
  // (`entries` is overwritten). The same for the same options, set and d, whatever was drawn
  // before.
  void Document(DocumentSet set, int64_t d, Scratch& scratch,
                std::vector<WordCount>& entries) const;

  // The Zipf base measure b (sums to 1), of size V.
  static std::vector<double> ZipfBaseMeasure(int vocabulary_size, double exponent);

  const SyntheticLdaOptions& options() const { return options_; }

 private:
  SyntheticLdaCorpus(const SyntheticLdaOptions& options, std::vector<rng::AliasTable> topics)
      : options_(options), topics_(std::move(topics)) {}

  SyntheticLdaOptions options_;
  std::vector<rng::AliasTable> topics_;
};

// "w1", "w2", ...: the vocabulary of a synthetic corpus (word w is "w<w + 1>", its rank).
std::string SyntheticWord(int word);

}  // namespace sgmcmc::data

#endif  // SGMCMC_DATA_SYNTHETIC_LDA_CORPUS_H_
