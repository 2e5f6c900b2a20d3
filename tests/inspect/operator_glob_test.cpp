// Operator globs (report/operator_glob.h): matching, the errors of a bad pattern, and the
// did-you-mean of a pattern that matches nothing; names as PyTorch writes them (report/names.h).
#include <gtest/gtest.h>

#include "schemac/inspect/names.h"
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

// torch.ops' spellings, the default namespace, and overload packets (the profiler's names).
TEST(OperatorNames, AsPyTorchWritesThem) {
  const Names known = {"aten::add.Tensor", "aten::add.out", "aten::add.Scalar", "aten::relu",
                       "aten::relu.out",   "myops::scale", "aten::addmm",     "quantized::add"};
  const auto names = [&known](const char* typed) { return match_operator(typed, known).names; };
  EXPECT_EQ(names("aten::add.Tensor"), Names{"aten::add.Tensor"});
  EXPECT_EQ(names("aten.add.Tensor"), Names{"aten::add.Tensor"});
  EXPECT_EQ(names("torch.ops.aten.add.Tensor"), Names{"aten::add.Tensor"});
  EXPECT_EQ(names("add.Tensor"), Names{"aten::add.Tensor"});
  EXPECT_EQ(names("aten.relu.default"), Names{"aten::relu"});
  EXPECT_EQ(names("aten::relu.default"), Names{"aten::relu"});
  EXPECT_EQ(names("relu"), Names{"aten::relu"});  // the operator itself, not its packet
  EXPECT_EQ(names("myops.scale"), Names{"myops::scale"});
  EXPECT_EQ(names("myops.scale.default"), Names{"myops::scale"});
  const OperatorMatch packet = match_operator("aten::add", known);
  EXPECT_TRUE(packet.packet);
  EXPECT_EQ(packet.names, (Names{"aten::add.Scalar", "aten::add.Tensor", "aten::add.out"}));
  EXPECT_EQ(names("aten.add"), packet.names);
  EXPECT_EQ(names("torch.ops.aten.add"), packet.names);
  EXPECT_EQ(names("add"), packet.names);
  // Unknown: nothing, and the reading a did-you-mean should start from.
  const OperatorMatch unknown = match_operator("aten.ad.Tensor", known);
  EXPECT_TRUE(unknown.names.empty());
  EXPECT_EQ(unknown.spelled, "aten::ad.Tensor");
  EXPECT_EQ(similar_operator_names(known, unknown.spelled).front(), "aten::add.Tensor");
  EXPECT_TRUE(is_full_operator_name("aten::add.Tensor"));
  EXPECT_FALSE(is_full_operator_name("aten::add"));
  EXPECT_FALSE(is_full_operator_name("aten.add.Tensor"));
  EXPECT_FALSE(is_full_operator_name("aten::relu.default"));
}

}  // namespace
}  // namespace schemac::inspect::report
