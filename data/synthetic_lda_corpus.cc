#include "data/synthetic_lda_corpus.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "rng/dirichlet.h"
#include "rng/engine.h"
#include "rng/poisson.h"
#include "rng/uniform.h"

namespace sgmcmc::data {
namespace {

constexpr double kMaxDocumentLength = 1e6;

}  // namespace

absl::Status SyntheticLdaOptions::Validate() const {
  if (num_topics < 1) {
    return absl::InvalidArgumentError(absl::StrCat("num_topics must be >= 1, got ", num_topics));
  }
  if (vocabulary_size < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("vocabulary_size must be >= 1, got ", vocabulary_size));
  }
  if (!(zipf_exponent >= 0 && zipf_exponent <= 100)) {
    return absl::InvalidArgumentError(
        absl::StrCat("zipf_exponent must be in [0, 100], got ", zipf_exponent));
  }
  if (!(beta > 0 && std::isfinite(beta))) {
    return absl::InvalidArgumentError(absl::StrCat("beta must be finite and > 0, got ", beta));
  }
  if (!(alpha > 0 && std::isfinite(alpha))) {
    return absl::InvalidArgumentError(absl::StrCat("alpha must be finite and > 0, got ", alpha));
  }
  const double length = mean_document_length;
  if (length_law == LengthLaw::kPoisson && !(length > 0 && length <= kMaxDocumentLength)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "mean_document_length must be in (0, 1e6] for Poisson lengths, got ", length));
  }
  if (length_law == LengthLaw::kFixed &&
      !(length >= 1 && length <= kMaxDocumentLength && length == std::floor(length))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "mean_document_length must be an integer in [1, 1e6] for fixed lengths, got ", length));
  }
  return absl::OkStatus();
}

std::vector<double> SyntheticLdaCorpus::ZipfBaseMeasure(int vocabulary_size, double exponent) {
  std::vector<double> base(vocabulary_size);
  double total = 0;
  for (int w = 0; w < vocabulary_size; ++w) {
    base[w] = std::pow(static_cast<double>(w) + 1, -exponent);
    total += base[w];
  }
  for (double& b : base) b /= total;
  return base;
}

absl::StatusOr<SyntheticLdaCorpus> SyntheticLdaCorpus::Create(
    const SyntheticLdaOptions& options,
    absl::FunctionRef<void(int, absl::Span<const double>)> on_topic) {
  SGMCMC_RETURN_IF_ERROR(options.Validate());
  const int v = options.vocabulary_size;
  std::vector<double> concentration = ZipfBaseMeasure(v, options.zipf_exponent);
  for (double& c : concentration) c *= options.beta * v;
  for (int w = 0; w < v; ++w) {
    if (!(concentration[w] > 0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "beta * V * b_w underflows to 0 at word ", w, " (zipf_exponent ",
          options.zipf_exponent, " too large for V = ", v, ")"));
    }
  }
  std::vector<double> phi(v);
  std::vector<rng::AliasTable> topics;
  topics.reserve(options.num_topics);
  for (int k = 0; k < options.num_topics; ++k) {
    rng::Engine engine(options.seed, kTopicStreams + k);
    rng::DirichletSample(engine, concentration, absl::MakeSpan(phi));
    on_topic(k, phi);
    SGMCMC_ASSIGN_OR_RETURN(rng::AliasTable table, rng::AliasTable::Create(phi));
    topics.push_back(std::move(table));
  }
  return SyntheticLdaCorpus(options, std::move(topics));
}

void SyntheticLdaCorpus::Document(DocumentSet set, int64_t d, Scratch& scratch,
                                  std::vector<WordCount>& entries) const {
  const uint64_t streams = set == DocumentSet::kTraining ? kTrainingStreams : kHeldOutStreams;
  rng::Engine engine(options_.seed, streams + static_cast<uint64_t>(d));
  const int64_t length =
      options_.length_law == SyntheticLdaOptions::LengthLaw::kFixed
          ? static_cast<int64_t>(options_.mean_document_length)
          : rng::PoissonSample(engine, options_.mean_document_length);
  const int num_topics = options_.num_topics;
  const double alpha = options_.alpha, total_alpha = num_topics * options_.alpha;
  scratch.topics.resize(length);
  scratch.words.resize(length);
  for (int64_t i = 0; i < length; ++i) {
    // Pólya urn: u < i copies the topic of token floor(u); otherwise a fresh uniform topic.
    const double u = rng::UniformDouble(engine) * (static_cast<double>(i) + total_alpha);
    int32_t topic;
    if (u < static_cast<double>(i)) {
      topic = scratch.topics[static_cast<int64_t>(u)];
    } else {
      topic = std::min(num_topics - 1, static_cast<int>((u - static_cast<double>(i)) / alpha));
    }
    scratch.topics[i] = topic;
    scratch.words[i] = topics_[topic].Sample(engine);
  }
  std::sort(scratch.words.begin(), scratch.words.end());
  entries.clear();
  for (int64_t i = 0; i < length;) {
    int64_t j = i;
    while (j < length && scratch.words[j] == scratch.words[i]) ++j;
    entries.push_back({scratch.words[i], static_cast<int32_t>(j - i)});
    i = j;
  }
}

std::string SyntheticWord(int word) { return absl::StrCat("w", word + 1); }

}  // namespace sgmcmc::data
