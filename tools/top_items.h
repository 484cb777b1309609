// The "most probable items" columns of the clustering tools' tables (dp_mixture's
// clusters.csv, accelerated_dp's features_*.csv): a cluster's items ranked by its atom's
// probabilities, written with their names as one CSV field.
//
// Cost: TopItems O(V log k) for V scores; the text O(k).
//
// Example:
//   const std::vector<int32_t> items = TopItems(log_theta_row, 10);
//   std::vector<double> p;
//   for (int32_t w : items) p.push_back(std::exp(log_theta_row[w]));
//   out << CsvField(TopItemsText(items, p, vocabulary)) << "\n";
#ifndef SGMCMC_TOOLS_TOP_ITEMS_H_
#define SGMCMC_TOOLS_TOP_ITEMS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace sgmcmc::tools {

// The indices of the min(k, scores.size()) largest scores, largest first (ties: smaller index
// first). k >= 0.
std::vector<int32_t> TopItems(absl::Span<const double> scores, int k);

// "name (p); name (p); ..." for `items` and their `probabilities` (same length), p with 4
// significant digits; an item's name is names[item] if there is one, else its index.
std::string TopItemsText(absl::Span<const int32_t> items, absl::Span<const double> probabilities,
                         absl::Span<const std::string> names);

// `text` as one CSV field (RFC 4180): as is, or in double quotes with its quotes doubled if it
// holds a comma, a quote or a line break.
std::string CsvField(absl::string_view text);

}  // namespace sgmcmc::tools

#endif  // SGMCMC_TOOLS_TOP_ITEMS_H_
