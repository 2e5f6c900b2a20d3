// What `schemac lint` reads, end to end: the language of stdin and of unnamed files from their
// content; binary, missing, empty and folder inputs answered the same way for YAML, C++ and
// Python; folder searches that honour .gitignore, `exclude:` and skip what a generator wrote
// (`gen`'s own output first of all); --by-content for hooks; the rules' documentation in SARIF
// and the server (--docs-url, `docs-url:`; never a path of the build machine).
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_test_support.h"

namespace schemac::cli {
namespace {

using test::ToolRun;

constexpr const char* kCpp =
    "#include <torch/library.h>\n"
    "TORCH_LIBRARY(myops, m) {\n"
    "  m.def(\"scale(Tensor self, float factor) -> Tensor\");\n"
    "  m.def(\"scale(Tensor self) -> Tensor\");\n"
    "}\n";
constexpr const char* kYaml = "- func: a(Tensor self) -> Tensor\n  dispach: {CPU: a}\n";

class LintInputs : public test::ToolDirTest {
 protected:
  LintInputs() : ToolDirTest("schemac_inputs_") {}
  ToolRun schemac(const std::string& args) { return shell("'" SCHEMAC_EXE "' " + args); }
  void folder(const std::string& name) { std::filesystem::create_directories(dir_ / name); }
};

TEST_F(LintInputs, TheLanguageOfStdinComesFromItsContent) {
  file("bind.txt", kCpp);
  ToolRun cpp = schemac("lint - < bind.txt");
  EXPECT_EQ(cpp.status, 1) << cpp.out << cpp.err;
  EXPECT_EQ(cpp.out.find("top-level-not-list"), std::string::npos) << cpp.out;
  EXPECT_NE(cpp.out.find("<stdin>:4:"), std::string::npos) << cpp.out;
  EXPECT_NE(cpp.out.find("[duplicate-definition]"), std::string::npos) << cpp.out;
  // Its suppression comments are C++'s.
  file("quiet.txt", std::string(kCpp).replace(std::string(kCpp).find("\n}"), 0,
                                              "  // schemac: ignore[duplicate-definition]"));
  ToolRun quiet = schemac("lint - < quiet.txt");
  EXPECT_EQ(quiet.status, 0) << quiet.out;
  file("ops.py",
       "import torch\nlib = torch.library.Library('myops', 'DEF')\n"
       "lib.define('f(Tensor self) -> Tensor')\nlib.define('f(Tensor self) -> Tensor')\n");
  ToolRun python = schemac("lint - < ops.py");
  EXPECT_NE(python.out.find("[duplicate-definition]"), std::string::npos) << python.out << python.err;
  file("ops.txt", kYaml);
  ToolRun yaml = schemac("lint - < ops.txt");
  EXPECT_NE(yaml.out.find("<stdin>:2:3: error: unknown field 'dispach'"), std::string::npos) << yaml.out;
  // A name that says YAML is believed.
  ToolRun named = schemac("lint - --stdin-filename ops.yaml < bind.txt");
  EXPECT_NE(named.out.find("[top-level-not-list]"), std::string::npos) << named.out;
  // /dev/fd/N from a shell's process substitution, as `compat <(git show ...)` passes it.
  ToolRun fd = shell("bash -c \"'" SCHEMAC_EXE "' lint <(cat bind.txt)\"");
  EXPECT_NE(fd.out.find("[duplicate-definition]"), std::string::npos) << fd.out << fd.err;
}

TEST_F(LintInputs, BinaryAndMissingInputsAreAnsweredAlikeInEveryLanguage) {
  for (const char* name : {"bin.yaml", "bin.cpp", "bin.py"}) {
    file(name, std::string("abc\0def", 7));
    ToolRun run = schemac(std::string("lint ") + name);
    EXPECT_EQ(run.status, 2) << name;
    EXPECT_EQ(run.err, std::string("schemac lint: error: cannot read '") + name +
                           "': it holds a NUL byte at line 1, column 4 (a binary file?)\n")
        << run.err;
  }
  for (const char* name : {"gone.yaml", "gone.cpp", "gone.py"}) {
    ToolRun run = schemac(std::string("lint ") + name);
    EXPECT_EQ(run.status, 2) << name;
    EXPECT_EQ(run.err, std::string("schemac lint: error: cannot read '") + name + "': no such file\n");
  }
  // Latin-1 in a C++ comment does not hide the schemas (YAML must be UTF-8).
  file("latin1.cpp", std::string("// caf\xe9\n") + kCpp);
  EXPECT_NE(schemac("lint latin1.cpp").out.find("[duplicate-definition]"), std::string::npos);
}

TEST_F(LintInputs, FoldersWithNothingToLintAreANoteNotAnError) {
  folder("empty");
  ToolRun empty = schemac("lint empty");
  EXPECT_EQ(empty.status, 0);
  EXPECT_EQ(empty.err, "schemac lint: note: nothing to lint in 'empty'\n");
  folder("ci");
  file("ci/workflow.yaml", "jobs: {build: {runs-on: x}}\n");
  file("ci/blob.py", std::string("\0\0", 2));
  ToolRun other = schemac("lint ci");
  EXPECT_EQ(other.status, 0);
  EXPECT_EQ(other.out, "");
  ToolRun verbose = schemac("lint --verbose ci");
  EXPECT_NE(verbose.err.find("skipped 'ci/blob.py': it holds a NUL byte"), std::string::npos) << verbose.err;
}

TEST_F(LintInputs, WhatGenWroteIsNotLinted) {
  file("ops.yaml",
       "- func: myops::scale(Tensor self, float factor) -> Tensor\n  dispatch: {CPU: scale_cpu}\n"
       "- func: myops::shift(Tensor self, int n) -> Tensor\n  dispatch: {CPU: shift_cpu}\n");
  ASSERT_EQ(schemac("gen --target torch ops.yaml -o gen").status, 0);
  ToolRun run = schemac("lint .");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.out.find("gen/"), std::string::npos) << run.out;
  ToolRun verbose = schemac("lint --verbose .");
  EXPECT_NE(verbose.err.find("skipped 'gen/RegisterSchema.cpp': written by schemac gen"), std::string::npos)
      << verbose.err;
  // Named on the command line, it is linted as asked.
  EXPECT_NE(schemac("lint ops.yaml gen/RegisterSchema.cpp").out.find("[duplicate-operator]"), std::string::npos);
  // Other generators' @generated marker too.
  file("RegisterCPU.cpp", std::string("// @generated by a generator\n") + kCpp);
  EXPECT_EQ(schemac("lint .").status, 0);
}

TEST_F(LintInputs, FolderSearchesHonourGitignoreAndExclude) {
  folder(".git");
  folder("src/build");
  folder("src/vendor");
  file(".gitignore", "build/\n*.tmp.yaml\n/top.yaml\n");
  file("top.yaml", kYaml);
  file("src/top.yaml", kYaml);          // `/top.yaml` is anchored: this one counts
  file("src/build/ops.yaml", kYaml);    // `build/` anywhere
  file("src/x.tmp.yaml", kYaml);
  file("src/vendor/.gitignore", "*\n!keep.yaml\n");
  file("src/vendor/keep.yaml", kYaml);
  file("src/vendor/drop.yaml", kYaml);
  ToolRun run = schemac("lint --ignore duplicate-operator .");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.out.find("2 errors, 0 warnings"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("src/top.yaml:2:3"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("src/vendor/keep.yaml:2:3"), std::string::npos) << run.out;
  // From a folder below, the top's .gitignore still applies.
  EXPECT_EQ(schemac("lint src").out.find("build/"), std::string::npos);
  // `exclude:` in .schemac.yaml, from the config's folder.
  file(".schemac.yaml", "exclude: [src/vendor/]\n");
  ToolRun excluded = schemac("lint --ignore duplicate-operator .");
  EXPECT_NE(excluded.out.find("1 error, 0 warnings"), std::string::npos) << excluded.out << excluded.err;
  EXPECT_NE(schemac("lint --show-config .").out.find("exclude:\n  - \"src/vendor/\"\n"), std::string::npos);
  file(".schemac.yaml", "exclude: {a: b}\n");
  EXPECT_EQ(schemac("lint .").status, 2);
}

TEST_F(LintInputs, ByContentTakesNamedFilesAsAFolderSearchFindsThem) {
  file("ops.yaml", kYaml);
  file("bind.cpp", kCpp);
  file("ci.yaml", "jobs: {build: {runs-on: x}}\n");
  file(".schemac.yaml", "select: [all]\n");
  file("notes.md", "# notes\n");
  file("RegisterSchema.cpp", std::string("// Generated by schemac gen from ops.yaml. Do not edit.\n") + kCpp);
  ToolRun strict = schemac("lint ops.yaml ci.yaml");
  EXPECT_NE(strict.out.find("ci.yaml"), std::string::npos);
  ToolRun run = schemac("lint --by-content ops.yaml bind.cpp ci.yaml .schemac.yaml notes.md RegisterSchema.cpp");
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_EQ(run.out.find("ci.yaml"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("RegisterSchema.cpp"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("ops.yaml:2:3"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("bind.cpp:4:"), std::string::npos) << run.out;
}

TEST_F(LintInputs, RuleDocumentationIsHelpTextOrAPublishedUrlNeverALocalPath) {
  file("ops.yaml", kYaml);
  nlohmann::json plain = nlohmann::json::parse(schemac("lint --format sarif ops.yaml").out);
  for (const nlohmann::json& rule : plain["runs"][0]["tool"]["driver"]["rules"]) {
    EXPECT_FALSE(rule.contains("helpUri")) << rule.dump();
  }
  const nlohmann::json& first = plain["runs"][0]["tool"]["driver"]["rules"][0];
  EXPECT_NE(first["help"]["text"].get<std::string>().find("severity:"), std::string::npos) << first.dump();
  nlohmann::json linked =
      nlohmann::json::parse(schemac("lint --format sarif --docs-url https://example.org/schemac/docs ops.yaml").out);
  for (const nlohmann::json& rule : linked["runs"][0]["tool"]["driver"]["rules"]) {
    const std::string uri = rule.value("helpUri", "");
    EXPECT_TRUE(uri.starts_with("https://example.org/schemac/docs/")) << rule.dump();
    EXPECT_TRUE(uri.ends_with("#" + rule["id"].get<std::string>())) << uri;
  }
  file(".schemac.yaml", "docs-url: https://docs.example.com/\n");
  nlohmann::json configured = nlohmann::json::parse(schemac("lint --format sarif ops.yaml").out);
  EXPECT_EQ(configured["runs"][0]["results"][0]["ruleId"], "unknown-field");
  bool found = false;
  for (const nlohmann::json& rule : configured["runs"][0]["tool"]["driver"]["rules"]) {
    if (rule["id"] == "unknown-field") {
      EXPECT_EQ(rule["helpUri"], "https://docs.example.com/lint-rules.md#unknown-field");
      found = true;
    }
  }
  EXPECT_TRUE(found);
  ToolRun bad = schemac("lint --docs-url docs/ ops.yaml");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("is not a URL"), std::string::npos) << bad.err;
  file(".schemac.yaml", "docs-url: ./docs\n");
  EXPECT_EQ(schemac("lint ops.yaml").status, 2);
}

}  // namespace
}  // namespace schemac::cli
