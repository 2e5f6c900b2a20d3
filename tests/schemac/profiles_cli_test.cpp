// `schemac lint` and `schemac gen` end to end on extension operators: the profiles, --profile,
// the rule list, registration code's signature rules, and the rules across files.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../lint/test_support.h"

namespace schemac::schema {
namespace {

using test::ToolRun;

class ProfilesCli : public test::ToolDirTest {
 protected:
  ProfilesCli() : ToolDirTest("schemac_profiles_cli_") {}
  ToolRun schemac(const std::string& args) { return shell("'" SCHEMAC_BINARY "' " + args); }
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const char* kMoe =
    "- func: myops::moe(Tensor x, int? expert_start = None) -> Tensor\n"
    "  dispatch:\n"
    "    CPU: moe_cpu\n";

TEST_F(ProfilesCli, NamespacedOperatorsGetTheExtensionProfileAndProfileForcesOne) {
  file("ops.yaml", kMoe);
  ToolRun automatic = schemac("lint ops.yaml");
  EXPECT_EQ(automatic.status, 0) << automatic.out;
  EXPECT_EQ(automatic.out, "");
  ToolRun in_tree = schemac("lint --profile in-tree ops.yaml");
  EXPECT_EQ(in_tree.status, 1);
  EXPECT_TRUE(has(in_tree.out, "error: func is not written in canonical form [func-not-canonical]")) << in_tree.out;
  ToolRun bad = schemac("lint --profile intree ops.yaml");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.out, "");
}

TEST_F(ProfilesCli, ListRulesShowsEachRulesProfiles) {
  ToolRun all = schemac("lint --list-rules");
  EXPECT_EQ(all.status, 0);
  EXPECT_TRUE(has(all.out, "group-no-out ")) << all.out;
  const size_t line = all.out.find("\nout-annotation ");
  ASSERT_NE(line, std::string::npos) << all.out;
  const std::string row = all.out.substr(line + 1, all.out.find('\n', line + 1) - line - 1);
  EXPECT_TRUE(has(row, " in-tree:error extension:warning ")) << row;
  EXPECT_TRUE(has(row, "out arguments carry a named write annotation")) << row;
  ToolRun extension = schemac("lint --list-rules --profile extension");
  EXPECT_FALSE(has(extension.out, "group-no-out")) << extension.out;
  EXPECT_TRUE(has(extension.out, "extension:warning")) << extension.out;
  EXPECT_FALSE(has(extension.out, "in-tree:")) << extension.out;
  ToolRun json = schemac("lint --list-rules --format json");
  ASSERT_EQ(json.status, 0);
  nlohmann::json list = nlohmann::json::parse(json.out);
  bool found = false;
  for (const nlohmann::json& rule : list) {
    if (rule["id"] != "group-out-alone") continue;
    found = true;
    EXPECT_EQ(rule["profiles"], (nlohmann::json{{"in-tree", "error"}}));
  }
  EXPECT_TRUE(found);
}

// The mutation mistakes in m.def are reported at their line, as warnings (errors in-tree).
TEST_F(ProfilesCli, RegistrationCodeGetsTheSignatureRules) {
  file("ops.cpp",
       "#include <torch/library.h>\n"
       "TORCH_LIBRARY(myops, m) {\n"
       "  m.def(\"scale.out(Tensor self, float factor, *, Tensor out) -> Tensor\");\n"
       "  m.def(\"scale_(Tensor self, float factor) -> Tensor\");\n"
       "}\n");
  ToolRun run = schemac("lint ops.cpp");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(has(run.out, "ops.cpp:3:50: warning: keyword-only argument 'out' looks like an out argument")) << run.out;
  EXPECT_TRUE(has(run.out, "ops.cpp:4:17: warning: in-place function 'scale_' (its name ends in '_') must take "
                           "'Tensor(a!) self' [inplace-self]")) << run.out;
  EXPECT_EQ(schemac("lint --profile in-tree ops.cpp").status, 1);
}

TEST_F(ProfilesCli, PythonRegistrationsGetTheSameRules) {
  file("ops.py",
       "import torch\n"
       "lib = torch.library.Library(\"myops\", \"DEF\")\n"
       "lib.define(\"scale.out(Tensor self, float factor, *, Tensor out) -> Tensor\")\n"
       "lib.define(\"shift_(Tensor(a!) self, int n) -> Tensor(a!)\")\n"
       "lib.impl(\"shfit_\", shift_cpu, \"CPU\")\n");
  ToolRun run = schemac("lint ops.py");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(has(run.out, "ops.py:3:53: warning: keyword-only argument 'out' looks like an out argument")) << run.out;
  EXPECT_TRUE(has(run.out, "ops.py:5:10: warning: implementation of 'myops::shfit_', which no given file defines")) << run.out;
  EXPECT_TRUE(has(run.out, "elsewhere); did you mean 'myops::shift_'? [impl-without-definition]"))
      << run.out;
  EXPECT_FALSE(has(run.out, "note: did you mean")) << run.out;  // said once, in the message
  EXPECT_TRUE(has(run.out, "0 errors, 2 warnings")) << run.out;
}

TEST_F(ProfilesCli, AnOperatorDefinedInTwoFilesIsADuplicateOperator) {
  file("a.yaml", kMoe);
  file("b.yaml", std::string("- func: myops::other(Tensor x) -> Tensor\n") + kMoe);
  ToolRun run = schemac("lint a.yaml b.yaml");
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(has(run.out, "b.yaml:2:3: error: operator 'myops::moe' is defined twice [duplicate-operator]")) << run.out;
  EXPECT_TRUE(has(run.out, "a.yaml:1:3: note: first defined here")) << run.out;
  file("ops.cpp", "TORCH_LIBRARY(myops, m) {\n  m.def(\"moe(Tensor x, int? expert_start=None) -> Tensor\");\n}\n");
  ToolRun mixed = schemac("lint a.yaml ops.cpp");
  EXPECT_EQ(mixed.status, 1);
  EXPECT_TRUE(has(mixed.out, "ops.cpp:2:9: error: operator 'myops::moe' is defined twice [duplicate-operator]"))
      << mixed.out;
}

TEST_F(ProfilesCli, ImplementationsSeeYamlDefinitionsAndSuggestTheClosest) {
  file("ops.yaml", kMoe);
  file("impl.cpp",
       "TORCH_LIBRARY_IMPL(myops, CUDA, m) {\n"
       "  m.impl(\"moe\", moe_cuda);\n"
       "  m.impl(\"mo\", moe_cuda);\n"
       "}\n");
  ToolRun run = schemac("lint ops.yaml impl.cpp");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_FALSE(has(run.out, "impl.cpp:2:")) << run.out;
  EXPECT_TRUE(has(run.out, "impl.cpp:3:10: warning: implementation of 'myops::mo', which no given file defines"))
      << run.out;
  // The YAML file's operators are candidates too.
  EXPECT_TRUE(has(run.out, "elsewhere); did you mean 'myops::moe'? [impl-without-definition]"))
      << run.out;
}

// gen checks the rules lint checks, in the extension profile for the torch target.
TEST_F(ProfilesCli, GenTorchUsesTheExtensionProfileUnlessTold) {
  file("ops.yaml", kMoe);
  ToolRun torch = schemac("gen --target torch ops.yaml -o out");
  EXPECT_EQ(torch.status, 0) << torch.err;
  ToolRun in_tree = schemac("gen --target torch --profile in-tree ops.yaml -o out2");
  EXPECT_EQ(in_tree.status, 1);
  EXPECT_TRUE(has(in_tree.err, "[func-not-canonical]")) << in_tree.err;
}

TEST_F(ProfilesCli, GenReportsADuplicateAcrossFilesOnceUnderLintsRule) {
  file("a.yaml", kMoe);
  file("b.yaml", kMoe);
  ToolRun run = schemac("gen --target torch a.yaml b.yaml -o out");
  EXPECT_EQ(run.status, 1);
  EXPECT_TRUE(has(run.err, "b.yaml:1:3: error: operator 'myops::moe' is defined twice [duplicate-operator]")) << run.err;
  EXPECT_TRUE(has(run.err, "1 error, 0 warnings")) << run.err;
}

}  // namespace
}  // namespace schemac::schema
