// compat on PyTorch's real native_functions.yaml: the file against itself is compatible, and
// each edit applied to a copy is found, once, at the edited line.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "compat_test_support.h"

namespace schemac::schema {

using compat::CompatReport;

namespace {

const std::string& corpus() {
  static const std::string text = compat_test::read_file(SCHEMAC_CORPUS_DIR "/native_functions.yaml");
  return text;
}

// The 1-based line on which `needle` starts in `text`.
uint32_t line_of(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  uint32_t line = 1;
  for (size_t i = 0; i < at && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

// The corpus with the first occurrence of `from` replaced by `to`.
std::string edited(const std::string& from, const std::string& to) {
  std::string text = corpus();
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

CompatReport compat_corpus(const std::string& new_text) {
  return compat::check_compat({"old/native_functions.yaml", corpus()}, {"new/native_functions.yaml", new_text},
                      std::nullopt, compat_test::test_day());
}

TEST(CompatCorpus, LoadsWithoutErrorsAndIsCompatibleWithItself) {
  ASSERT_FALSE(corpus().empty());
  CompatReport report = compat_corpus(corpus());
  EXPECT_TRUE(report.compared);
  EXPECT_EQ(compat_test::briefs(report.diagnostics), std::vector<std::string>{});
}

struct CorpusEdit {
  const char* name;
  const char* from;
  const char* to;
  const char* located_at;  // text in NEW (or OLD for removals) whose line the finding is on
  bool in_old;
  const char* rule;
  const char* message;
};

const CorpusEdit kEdits[] = {
    {"renamed argument",
     "- func: add.Tensor(Tensor self, Tensor other, *", "- func: add.Tensor(Tensor self, Tensor rhs, *",
     "- func: add.Tensor(", false, "renamed-argument", "argument 'other' of 'add.Tensor' was renamed to 'rhs'"},
    {"renamed overload", "- func: max.dim(Tensor self, int dim, bool keepdim=False)",
     "- func: max.by_dim(Tensor self, int dim, bool keepdim=False)", "- func: max.by_dim(", false,
     "renamed-overload", "overload 'max.dim' was renamed to 'max.by_dim'"},
    {"removed operator", "- func: relu(Tensor self) -> Tensor", "- func: relu_v2(Tensor self) -> Tensor",
     "- func: relu(Tensor self)", true, "removed-operator", "operator 'relu' was removed"},
    {"backend dropped", "    CPU, CUDA, MPS, XPU: relu\n", "    CPU, MPS, XPU: relu\n",
     "- func: relu(Tensor self)", false, "removed-backend", "'relu' no longer has a kernel for backend 'CUDA'"},
    {"return renamed",
     "- func: topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values,",
     "- func: topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor vals,",
     "- func: topk(", false, "renamed-return", "return 1 of 'topk' was renamed from 'values' to 'vals'"},
    {"default removed", "- func: topk(Tensor self, SymInt k, int dim=-1,", "- func: topk(Tensor self, SymInt k, int dim,",
     "- func: topk(", false, "removed-default", "argument 'dim' of 'topk' lost its default '-1'"},
};

class CorpusEditTest : public ::testing::TestWithParam<CorpusEdit> {};

TEST_P(CorpusEditTest, IsFoundOnceAtTheEditedEntry) {
  const CorpusEdit& edit = GetParam();
  std::string new_text = edited(edit.from, edit.to);
  CompatReport report = compat_corpus(new_text);
  ASSERT_TRUE(report.compared);
  ASSERT_EQ(report.diagnostics.size(), 1u) << compat_test::briefs(report.diagnostics).front();
  const diagnostics::Diagnostic& d = report.diagnostics[0];
  EXPECT_EQ(d.rule, edit.rule);
  EXPECT_EQ(d.message, edit.message);
  EXPECT_EQ(d.location.file, edit.in_old ? "old/native_functions.yaml" : "new/native_functions.yaml");
  uint32_t entry_line = line_of(edit.in_old ? corpus() : new_text, edit.located_at);
  // On the entry's func line, or (dispatch findings) on its dispatch key a few lines below.
  EXPECT_GE(d.location.line, entry_line);
  EXPECT_LT(d.location.line, entry_line + 8);
}

std::string edit_name(const ::testing::TestParamInfo<CorpusEdit>& info) {
  std::string name;
  for (const char* p = info.param.name; *p; ++p) name += std::isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Compat, CorpusEditTest, ::testing::ValuesIn(kEdits), edit_name);

TEST(CompatCorpus, SeveralEditsAreAllFound) {
  std::string text = corpus();
  for (const CorpusEdit& edit : kEdits) {
    if (std::string(edit.rule) == "removed-default") continue;  // overlaps the return rename's text
    size_t at = text.find(edit.from);
    ASSERT_NE(at, std::string::npos) << edit.from;
    text.replace(at, std::string(edit.from).size(), edit.to);
  }
  CompatReport report = compat_corpus(text);
  std::vector<std::string> rules;
  for (const diagnostics::Diagnostic& d : report.diagnostics) rules.push_back(d.rule);
  std::sort(rules.begin(), rules.end());
  EXPECT_EQ(rules, (std::vector<std::string>{"removed-operator", "renamed-argument", "renamed-overload",
                                             "renamed-return"}));
}

TEST(CompatCorpus, AnAllowListAcceptsTheEdits) {
  std::string new_text = edited("- func: add.Tensor(Tensor self, Tensor other, *", "- func: add.Tensor(Tensor self, Tensor rhs, *");
  CompatReport report = compat::check_compat({"old.yaml", corpus()}, {"new.yaml", new_text},
                                     compat::CompatInput{"allow.yaml", "- operator: add.Tensor\n  rule: renamed-argument\n  reason: test\n"},
                                     compat_test::test_day());
  EXPECT_TRUE(report.diagnostics.empty());
  EXPECT_EQ(report.allowed, 1u);
}

}  // namespace
}  // namespace schemac::schema
