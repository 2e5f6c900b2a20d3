// lib/frontend/config: reading .schemac.yaml (every key, unknown keys and rules with a
// did-you-mean, bad YAML) and applying it to diagnostics, on small texts.
#include <gtest/gtest.h>

#include "schemac/config/config.h"

namespace schemac::config {
namespace {

using diagnostics::Diagnostic, diagnostics::Location, diagnostics::Severity;

TEST(Config, ReadsEveryKeyAndAppliesIt) {
  ConfigLoad load = load_config("proj/.schemac.yaml",
                                "ignore: [unknown-tag]\n"
                                "severity: {unknown-field: warning}\n"
                                "per-path: {\"gen/*\": [unknown-field]}\n"
                                "tags: tags/tags.yaml\nprofile: extension\n"
                                "torch-version: '2.4'\nnamespace: myops\n");
  ASSERT_TRUE(load.diagnostics.empty()) << load.diagnostics[0].message;
  const Config& c = load.config;
  EXPECT_EQ(c.tags, "proj/tags/tags.yaml");
  EXPECT_EQ(c.profile, "extension");
  EXPECT_EQ(c.torch_version, "2.4");
  EXPECT_EQ(c.namespace_name, "myops");
  EXPECT_FALSE(rule_enabled(c, "unknown-tag", "proj/a.yaml"));
  EXPECT_TRUE(rule_enabled(c, "unknown-field", "proj/a.yaml"));
  EXPECT_FALSE(rule_enabled(c, "unknown-field", "proj/gen/a.yaml"));
  std::vector<Diagnostic> ds = {
      {Severity::error, "unknown-field", Location::at("proj/a.yaml", 1, 1), "m", {}, {}}};
  apply_config(c, ds);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].severity, Severity::error) << "rules::decide decides severities, not the config";
  EXPECT_EQ(configured_severity(c, "unknown-field"), Severity::warning);
  EXPECT_EQ(configured_severity(c, "unknown-tag"), std::nullopt);
  Config selected = merge_command_line(c, {{"unknown-field"}, {}});
  EXPECT_FALSE(rule_enabled(selected, "other-rule", "proj/a.yaml"));
}

TEST(Config, CustomOpHelpers) {
  ConfigLoad load =
      load_config(".schemac.yaml",
                  "custom-op-helpers:\n"
                  "  - name: custom_op_with_fake\n    like: custom_op\n    namespace: tfl\n"
                  "  - {name: register, like: direct_register_custom_op}\n");
  ASSERT_TRUE(load.diagnostics.empty()) << load.diagnostics[0].message;
  ASSERT_EQ(load.config.custom_op_helpers.size(), 2u);
  EXPECT_EQ(load.config.custom_op_helpers[0].name, "custom_op_with_fake");
  EXPECT_EQ(load.config.custom_op_helpers[0].like, "custom_op");
  EXPECT_EQ(load.config.custom_op_helpers[0].namespace_name, "tfl");
  EXPECT_EQ(load.config.custom_op_helpers[1].like, "direct_register_custom_op");
  EXPECT_FALSE(load.config.custom_op_helpers[1].namespace_name);
  EXPECT_NE(render_config(load.config)
                .find("  - name: \"register\"\n    like: direct_register_custom_op\n"),
            std::string::npos);
}

TEST(Config, AHelpersDefaultNameAndAnAliasBomb) {
  ConfigLoad load =
      load_config(".schemac.yaml",
                  "custom-op-helpers:\n"
                  "  - {name: op, like: custom_op, default-name: \"module::function\"}\n"
                  "  - {name: op2, like: custom_op, default-name: module}\n");
  ASSERT_EQ(load.diagnostics.size(), 1u);
  EXPECT_EQ(load.diagnostics[0].location.line, 3u);
  EXPECT_NE(load.diagnostics[0].message.find("'module' is not one of"), std::string::npos)
      << load.diagnostics[0].message;
  ASSERT_EQ(load.config.custom_op_helpers.size(), 1u);
  EXPECT_EQ(load.config.custom_op_helpers[0].default_name, "module::function");
  EXPECT_NE(render_config(load.config).find("    default-name: \"module::function\"\n"),
            std::string::npos);
  // Ten lines of aliases of aliases: a located error, not billions of copies.
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 10; ++i) {
    std::string prev = "*a" + std::to_string(i - 1);
    bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + prev;
    for (int k = 1; k < 10; ++k) bomb += ", " + prev;
    bomb += "]\n";
  }
  ConfigLoad bombed = load_config(".schemac.yaml", bomb);
  ASSERT_FALSE(bombed.diagnostics.empty());
  EXPECT_EQ(bombed.diagnostics[0].rule, "yaml-alias-limit");
  EXPECT_EQ(bombed.diagnostics[0].location.line, 5u);  // *a3 on a4's line crosses the bound
}

TEST(Config, CustomOpHelperMistakesAreLocated) {
  ConfigLoad load = load_config(".schemac.yaml",
                                "custom-op-helpers:\n"
                                "  - name: a\n    like: custom_opp\n"
                                "  - like: define\n"
                                "  - name: b\n    like: define\n    nmespace: x\n"
                                "  - just-a-name\n");
  ASSERT_EQ(load.diagnostics.size(), 4u);
  EXPECT_EQ(load.diagnostics[0].location.line, 3u);
  EXPECT_NE(load.diagnostics[0].message.find("'custom_opp' is not one of"), std::string::npos);
  EXPECT_NE(load.diagnostics[0 + 1].message.find("needs 'name'"), std::string::npos);
  EXPECT_NE(load.diagnostics[2].message.find("unknown key 'nmespace'"), std::string::npos);
  EXPECT_EQ(load.diagnostics[2].location.line, 7u);
  EXPECT_NE(load.diagnostics[3].message.find("expected an entry"), std::string::npos);
  ASSERT_EQ(load.config.custom_op_helpers.size(), 1u);  // b; its unknown key aside
}

TEST(Config, ExcludePatternsAndTheDocsUrl) {
  ConfigLoad load =
      load_config(".schemac.yaml",
                  "exclude: [gen/, \"third_party/**\"]\ndocs-url: https://example.org/docs/\n");
  ASSERT_TRUE(load.diagnostics.empty()) << load.diagnostics[0].message;
  EXPECT_EQ(load.config.exclude, (std::vector<std::string>{"gen/", "third_party/**"}));
  EXPECT_EQ(load.config.docs_url, "https://example.org/docs/");
  EXPECT_NE(render_config(load.config).find("docs-url: \"https://example.org/docs/\"\n"),
            std::string::npos);
  ConfigLoad single = load_config(".schemac.yaml", "exclude: gen/\n");
  EXPECT_EQ(single.config.exclude, (std::vector<std::string>{"gen/"}));
  // A path is not a URL: links must open anywhere, never on the machine that wrote them.
  ConfigLoad path = load_config(".schemac.yaml", "docs-url: /home/me/docs\nexclude: {a: b}\n");
  ASSERT_EQ(path.diagnostics.size(), 2u);
  EXPECT_NE(path.diagnostics[0].message.find("'docs-url' is a URL"), std::string::npos);
  EXPECT_TRUE(is_url("file:///srv/docs"));
  EXPECT_FALSE(is_url("docs/lint-rules.md"));
  EXPECT_FALSE(is_url("://x"));
}

TEST(Config, UnknownKeysAndRulesAreErrorsWithDidYouMean) {
  ConfigLoad load = load_config(
      ".schemac.yaml", "ignroe: [x]\nselect: [unknown-feild]\nseverity: {unknown-tag: loud}\n");
  ASSERT_EQ(load.diagnostics.size(), 3u);
  EXPECT_EQ(load.diagnostics[0].message, "unknown key 'ignroe'");
  EXPECT_EQ(load.diagnostics[0].notes[0].message, "did you mean 'ignore'?");
  EXPECT_EQ(load.diagnostics[0].location.line, 1u);
  EXPECT_EQ(load.diagnostics[1].message, "unknown rule 'unknown-feild'");
  EXPECT_EQ(load.diagnostics[1].notes[0].message, "did you mean 'unknown-field'?");
  EXPECT_EQ(load.diagnostics[2].message, "'loud' is not one of error, warning, off");
  EXPECT_EQ(load.diagnostics[2].rule, "config");
}

TEST(Config, BadYamlIsAnErrorNotACrash) {
  EXPECT_FALSE(load_config("c", "select: [a\n").diagnostics.empty());
  EXPECT_FALSE(load_config("c", "- a\n- b\n").diagnostics.empty());
  EXPECT_TRUE(load_config("c", "").diagnostics.empty());
}

}  // namespace
}  // namespace schemac::config
