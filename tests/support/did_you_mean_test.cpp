// "Did you mean" suggestions: the edit distance and the closest name.
#include <array>
#include <optional>
#include <string_view>

#include <gtest/gtest.h>

#include "schemac/support/did_you_mean.h"

namespace schemac::schema {

using support::did_you_mean, support::edit_distance;

namespace {

TEST(EditDistance, CountsEditsAndSwapsWithCaseAtHalfCost) {
  EXPECT_EQ(edit_distance("dispatch", "dispatch"), 0u);
  EXPECT_EQ(edit_distance("dispach", "dispatch"), 1u);
  EXPECT_EQ(edit_distance("dipsatch", "dispatch"), 1u);  // a swap of neighbours
  EXPECT_EQ(edit_distance("Cuda", "CUDA"), 2u);           // three case changes: 1.5, rounded up
  EXPECT_EQ(edit_distance("", "abc"), 3u);
}

TEST(DidYouMean, SuggestsCloseNamesOnly) {
  constexpr auto candidates = std::to_array<std::string_view>({"dispatch", "variants", "device_guard", "CUDA"});
  EXPECT_EQ(did_you_mean("dispach", candidates), "dispatch");
  EXPECT_EQ(did_you_mean("variant", candidates), "variants");
  EXPECT_EQ(did_you_mean("Cuda", candidates), "CUDA");  // case-only differences always match
  EXPECT_EQ(did_you_mean("device_guards", candidates), "device_guard");
  EXPECT_EQ(did_you_mean("banana", candidates), std::nullopt);
  EXPECT_EQ(did_you_mean("dispatch", candidates), std::nullopt);  // already right
  EXPECT_EQ(did_you_mean("", candidates), std::nullopt);
}

}  // namespace
}  // namespace schemac::schema
