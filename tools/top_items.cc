#include "tools/top_items.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace sgmcmc::tools {

std::vector<int32_t> TopItems(absl::Span<const double> scores, int k) {
  std::vector<int32_t> items(scores.size());
  for (size_t w = 0; w < items.size(); ++w) items[w] = static_cast<int32_t>(w);
  const size_t top = std::min(items.size(), static_cast<size_t>(std::max(k, 0)));
  std::partial_sort(items.begin(), items.begin() + top, items.end(), [&](int32_t x, int32_t y) {
    return scores[x] != scores[y] ? scores[x] > scores[y] : x < y;
  });
  items.resize(top);
  return items;
}

std::string TopItemsText(absl::Span<const int32_t> items, absl::Span<const double> probabilities,
                         absl::Span<const std::string> names) {
  std::string text;
  for (size_t r = 0; r < items.size(); ++r) {
    const int32_t w = items[r];
    absl::StrAppendFormat(&text, "%s%s (%.4g)", r == 0 ? "" : "; ",
                          w >= 0 && static_cast<size_t>(w) < names.size() ? names[w]
                                                                          : absl::StrCat(w),
                          probabilities[r]);
  }
  return text;
}

std::string CsvField(absl::string_view text) {
  if (text.find_first_of(",\"\n\r") == absl::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace sgmcmc::tools
