// tests/lint/extension/forms.yaml: operators of our own in the forms real extension projects
// register (every schema accepted by PyTorch 1.13's torch.library), with a CPU kernel each.
// The extension profile, which their namespace chooses, reports no error for any of them and
// only the warnings that name something questionable; torchgen's rules would refuse several.
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "schemac/lint/lint_rules.h"
#include "test_support.h"

namespace schemac::schema {

using diagnostics::Diagnostic, diagnostics::Severity, lint::Profile;

namespace {

std::vector<Diagnostic> lint_forms(Profile profile) {
  lint::LintOptions options;
  options.profile = profile;
  const std::string path = std::string(SCHEMAC_LINT_TEST_DIR) + "/extension/forms.yaml";
  return lint::lint_native_functions("forms.yaml", lint_test::read_file(path), options);
}

std::map<std::string, int> count_by_rule(const std::vector<Diagnostic>& diagnostics, Severity severity) {
  std::map<std::string, int> counts;
  for (const Diagnostic& d : diagnostics)
    if (d.severity == severity) ++counts[d.rule];
  return counts;
}

TEST(ExtensionForms, NoErrorsAndOnlyTheQuestionableFormsWarn) {
  for (Profile profile : {Profile::automatic, Profile::extension}) {
    const std::vector<Diagnostic> diagnostics = lint_forms(profile);
    EXPECT_EQ(count_by_rule(diagnostics, Severity::error), (std::map<std::string, int>{})) << lint::profile_name(profile);
    const std::map<std::string, int> expected{
        {"alias-on-value", 1},      // int!? prefill_tokens
        {"duplicate-argument", 1},  // Tensor q_lens twice
        {"inplace-self", 1},        // apply_penalty_ writes logits, not self
        {"nondeterministic-seeded", 1},  // fused_dropout
        {"out-name", 1},            // topk_into's out argument is 'values'
    };
    EXPECT_EQ(count_by_rule(diagnostics, Severity::warning), expected) << lint::profile_name(profile);
  }
}

TEST(ExtensionForms, TorchgensRulesWouldRefuseThem) {
  const std::map<std::string, int> errors = count_by_rule(lint_forms(Profile::in_tree), Severity::error);
  for (const char* rule : {"func-not-canonical", "mutable-return", "group-out-alone", "group-no-out",
                           "out-suffix-name", "out-position"}) {
    EXPECT_TRUE(errors.contains(rule)) << rule;
  }
}

}  // namespace
}  // namespace schemac::schema
