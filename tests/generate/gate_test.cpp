// gen's gate answers as lint does (checked_model.h through generate.h): the config's profile over
// the target's default and --profile over both; suppressions, ignore and severity apply to lint's
// findings and the target's alike; what lint accepts gen writes, or names with `unusable-schema`
// (a schema PyTorch rejects whose finding was silenced; an operator defined again differently),
// and the same definition twice is written once.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "schemac/codegen/target.h"
#include "schemac/config/provider.h"
#include "schemac/generate/generate.h"

namespace schemac::generate {
namespace {

namespace fs = std::filesystem;

class Gate : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("schemac_gate_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void config(const std::string& text) {
    std::ofstream(dir_ / ".schemac.yaml") << text;
    configs_.forget();  // read again, as the editor does
  }

  Result gen(const std::vector<std::string>& texts, const std::string& target = "torch",
             std::optional<lint::Profile> profile = std::nullopt) {
    Request request;
    for (size_t i = 0; i < texts.size(); ++i)
      request.inputs.push_back({(dir_ / ("ops" + std::to_string(i) + ".yaml")).string(), texts[i]});
    request.target = codegen::find_target(target);
    request.profile = profile;
    request.configs = &configs_;
    return generate(request);
  }
  static std::vector<std::string> rules_of(const Result& result) {
    std::vector<std::string> out;
    for (const diagnostics::Diagnostic& d : result.diagnostics)
      if (d.severity == diagnostics::Severity::error) out.push_back(d.rule);
    return out;
  }
  static bool defines(const Result& result, const std::string& op) {
    return std::any_of(result.files.begin(), result.files.end(), [&](const auto& file) {
      return file.name == "RegisterSchema.cpp" &&
             file.content.find("m.def(\"" + op + "(") != std::string::npos;
    });
  }

  fs::path dir_;
  config::ConfigProvider configs_;
};

const std::string kNotCanonical = "- func: myops::shift(Tensor self,  int n) -> Tensor\n";

TEST_F(Gate, TheConfigsProfileOutranksTheTargetsAndTheCommandLineOutranksBoth) {
  EXPECT_TRUE(rules_of(gen({kNotCanonical})).empty()) << "torch's default: extension";
  config("profile: in-tree\n");
  EXPECT_EQ(rules_of(gen({kNotCanonical})), std::vector<std::string>{"func-not-canonical"});
  EXPECT_TRUE(rules_of(gen({kNotCanonical}, "torch", lint::Profile::extension)).empty());
  config("profile: extension\n");
  EXPECT_TRUE(rules_of(gen({kNotCanonical}, "schemac")).empty());
}

TEST_F(Gate, ASilencedErrorThatPyTorchRejectsIsNamedNotDropped) {
  const std::string ops =
      "- func: sup::a(Tensorr self) -> Tensor  # schemac: ignore[unknown-type]\n"
      "- func: sup::b(Tensor self) -> Tensor\n";
  Result result = gen({ops});
  ASSERT_EQ(rules_of(result), std::vector<std::string>{"unusable-schema"});
  EXPECT_NE(result.diagnostics[0].message.find("operator 'sup::a' cannot be generated"),
            std::string::npos)
      << result.diagnostics[0].message;
  EXPECT_TRUE(result.files.empty());
  for (const char* silenced : {"ignore: [unknown-type]\n", "severity: {unknown-type: warning}\n",
                               "per-path: {\"*.yaml\": [unknown-type]}\n"}) {
    config(silenced);
    EXPECT_EQ(rules_of(gen({"- func: sup::a(Tensorr self) -> Tensor\n"})),
              std::vector<std::string>{"unusable-schema"})
        << silenced;
  }
  config("");
  EXPECT_EQ(rules_of(gen({"- func: sup::a(Tensorr self) -> Tensor\n"})),
            std::vector<std::string>{"unknown-type"})
      << "lint's own error, once";
}

TEST_F(Gate, TheTargetsChecksAreConfiguredAsLintsFindingsAre) {
  const std::string plain = "- func: a(Tensor self) -> Tensor\n";
  EXPECT_EQ(rules_of(gen({plain})), std::vector<std::string>{"torch-namespace"});
  EXPECT_TRUE(
      rules_of(gen({"- func: a(Tensor self) -> Tensor  # schemac: ignore[torch-namespace]\n"}))
          .empty());
  config("severity: {torch-namespace: warning}\n");
  EXPECT_TRUE(rules_of(gen({plain})).empty());
}

TEST_F(Gate, OneDuplicateDetectorAndTheSameDefinitionTwiceIsWrittenOnce) {
  const std::string a = "- func: dd::a(Tensor self) -> Tensor\n";
  EXPECT_EQ(rules_of(gen({a, a})), std::vector<std::string>{"duplicate-operator"})
      << "lint's finding alone";
  EXPECT_EQ(rules_of(gen({a + "- func: dd::b(Tensor self) -> Tensor\n" + a})),
            std::vector<std::string>{"duplicate-empty-overload"});
  config("ignore: [duplicate-operator]\n");
  Result same = gen({a, a + "- func: dd::c(Tensor self) -> Tensor\n"});
  EXPECT_TRUE(rules_of(same).empty());
  EXPECT_TRUE(defines(same, "a") && defines(same, "c"));
  Result different = gen({a, "- func: dd::a(Tensor self, int n) -> Tensor\n"});
  ASSERT_EQ(rules_of(different), std::vector<std::string>{"unusable-schema"});
  EXPECT_NE(different.diagnostics[0].message.find("defined again, differently"), std::string::npos);
}

}  // namespace
}  // namespace schemac::generate
