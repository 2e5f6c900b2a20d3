// Operator globs (report/operator_glob.h): matching, the errors of a bad pattern, and the
// did-you-mean of a pattern that matches nothing.
#include <gtest/gtest.h>

#include "schemac/inspect/operator_glob.h"

namespace schemac::inspect::report {
namespace {

const std::vector<std::string> kKnown = {"myops::scale", "myops::scale.out", "myops::minmax", "aten::add.Tensor",
                                         "aten::add.out", "aten::addmm", "aten::mul.Tensor"};
using Names = std::vector<std::string>;

TEST(OperatorGlob, StarAndQuestionMark) {
  EXPECT_TRUE(is_operator_glob("myops::*"));
  EXPECT_TRUE(is_operator_glob("aten::ad?"));
  EXPECT_FALSE(is_operator_glob("aten::add.Tensor"));
  EXPECT_TRUE(glob_matches("myops::*", "myops::scale.out"));
  EXPECT_TRUE(glob_matches("*", ""));
  EXPECT_TRUE(glob_matches("a*b*c", "aXbYbZc"));
  EXPECT_FALSE(glob_matches("a*b*c", "aXbYbZ"));
  EXPECT_TRUE(glob_matches("aten::ad?.*", "aten::add.out"));
  EXPECT_FALSE(glob_matches("aten::add", "aten::add.out"));  // the whole name
  EXPECT_TRUE(glob_matches("*", "*::"));  // a star is a wildcard, even facing a '*' (fuzz_operator_glob)
  // Many stars on a long name: each star is retried at most once per character.
  EXPECT_FALSE(glob_matches(std::string(200, '*') + "b", std::string(5000, 'a')));
}

TEST(OperatorGlob, ExpandsToTheSortedMatches) {
  EXPECT_EQ(expand_operator_glob("aten::add*", kKnown).names, (Names{"aten::add.Tensor", "aten::add.out", "aten::addmm"}));
  EXPECT_EQ(expand_operator_glob("aten::add.*", kKnown).names, (Names{"aten::add.Tensor", "aten::add.out"}));
  EXPECT_EQ(expand_operator_glob("*.Tensor", kKnown).names, (Names{"aten::add.Tensor", "aten::mul.Tensor"}));
  EXPECT_EQ(expand_operator_glob("myops::*", kKnown).names.size(), 3u);
}

TEST(OperatorGlob, NothingMatchedSuggestsANamespace) {
  const GlobExpansion typo = expand_operator_glob("myop::*", kKnown);
  EXPECT_FALSE(typo.ok());
  EXPECT_EQ(typo.error, "no operator matches 'myop::*'");
  EXPECT_EQ(typo.note, "no namespace 'myop'; did you mean 'myops'?");
  EXPECT_EQ(expand_operator_glob("myops::sub*", kKnown).note, "'dispatch-inspect ops' lists the known operators");
  EXPECT_EQ(expand_operator_glob("x::*", {}).note, "no operators are registered; load a library with --load LIB");
}

TEST(OperatorGlob, BadPatternsSayWhy) {
  EXPECT_EQ(glob_error(""), "an empty operator pattern");
  EXPECT_EQ(glob_error("myops::[ab]*"),
            "'[' (column 8) is not allowed in an operator pattern: only letters, digits, '_', '::', '.', '*' and '?'");
  EXPECT_EQ(glob_error("my\x01*"), "byte 0x01 (column 3) is not allowed in an operator pattern");
  EXPECT_EQ(glob_error(std::string(600, '*')), "an operator pattern of 600 bytes (at most 512)");
  EXPECT_EQ(glob_error("aten::add*"), std::nullopt);
  EXPECT_EQ(expand_operator_glob("a b*", kKnown).error.substr(0, 22), "' ' (column 2) is not ");
}

}  // namespace
}  // namespace schemac::inspect::report
