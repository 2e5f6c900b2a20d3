// "Did you mean" suggestions: the closest known name to a misspelt one.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace schemac::support {

// Edit distance (insert, delete, replace, swap of neighbours), ignoring letter case differences
// at half cost so that `cpu` finds `CPU`.
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, when it is close enough to be a plausible typo (distance at
// most a third of the word's length, and at least 1 allowed). Ties go to the earliest candidate.
std::optional<std::string> did_you_mean(std::string_view word,
                                        std::span<const std::string_view> candidates);

// The candidates within `max_distance` edits of `word` (edit_distance), closest first, ties in
// candidate order, at most `count` of them; `word` itself is never one. The one search behind
// every suggestion that has a fixed distance (type names, dispatch keys, operator names).
std::vector<std::string> closest_names(std::string_view word,
                                       std::span<const std::string_view> candidates,
                                       size_t max_distance, size_t count = 1);

}  // namespace schemac::support
