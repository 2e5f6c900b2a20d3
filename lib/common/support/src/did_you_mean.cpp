// Edit distance and the closest-candidate search behind "did you mean" notes.
#include "schemac/support/did_you_mean.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace schemac::support {

namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

// Costs are doubled so a case-only difference can cost 1 (half an edit).
size_t doubled_distance(std::string_view a, std::string_view b) {
  auto substitution = [](char x, char y) -> size_t {
    if (x == y) return 0;
    if (std::tolower(static_cast<unsigned char>(x)) ==
        std::tolower(static_cast<unsigned char>(y))) {
      return 1;
    }
    return 2;
  };
  const size_t n = a.size(), m = b.size();
  std::vector<size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = 2 * j;
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = 2 * i;
    for (size_t j = 1; j <= m; ++j) {
      cur[j] =
          std::min({prev[j] + 2, cur[j - 1] + 2, prev[j - 1] + substitution(a[i - 1], b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cur[j] = std::min(cur[j], prev2[j - 2] + 2);
      }
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

}  // namespace

size_t edit_distance(std::string_view a, std::string_view b) {
  return (doubled_distance(a, b) + 1) / 2;
}

std::optional<std::string> did_you_mean(std::string_view word,
                                        std::span<const std::string_view> candidates) {
  const size_t limit = std::max<size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  size_t best_cost = 2 * limit + 1;
  for (std::string_view candidate : candidates) {
    if (candidate == word) continue;
    if (equal_ignoring_case(word, candidate)) return std::string(candidate);
    size_t longer = std::max(word.size(), candidate.size());
    size_t shorter = std::min(word.size(), candidate.size());
    if (longer - shorter > limit) continue;
    size_t cost = doubled_distance(word, candidate);
    if (cost < best_cost) {
      best_cost = cost;
      best = std::string(candidate);
    }
  }
  return best;
}

std::vector<std::string> closest_names(std::string_view word,
                                       std::span<const std::string_view> candidates,
                                       size_t max_distance, size_t count) {
  struct Scored {
    size_t distance;
    std::string_view name;
  };
  std::vector<Scored> scored;
  for (std::string_view candidate : candidates) {
    if (candidate == word) continue;
    const size_t distance = edit_distance(word, candidate);
    if (distance <= max_distance) scored.push_back({distance, candidate});
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const Scored& a, const Scored& b) { return a.distance < b.distance; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < count; ++i) out.emplace_back(scored[i].name);
  return out;
}

}  // namespace schemac::support
