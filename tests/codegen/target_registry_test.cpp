// The targets register themselves (target.h's SCHEMAC_TARGET): each one is found by name, says
// the lint profile it implies, and the fixed files its line declares (which CMake's
// schemac_generate() lists before the first run) are exactly the files it writes besides shards.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "schemac/codegen/output_files.h"
#include "schemac/codegen/target.h"
#include "schemac/generate/checked_model.h"
#include "schemac/native_functions/native_functions.h"

namespace schemac::codegen {
namespace {

TEST(TargetRegistry, EveryTargetFromItsOwnFile) {
  const std::vector<std::string> names = target_names();
  EXPECT_EQ(names, (std::vector<std::string>{"schemac", "torch", "torch_stable"}));
  for (const std::string& name : names) {
    const Target* target = find_target(name);
    ASSERT_NE(target, nullptr) << name;
    EXPECT_EQ(target->name(), name);
    EXPECT_FALSE(fixed_outputs(name).empty()) << name;
  }
  EXPECT_EQ(find_target("executorch"), nullptr);
  EXPECT_TRUE(fixed_outputs("executorch").empty());
  EXPECT_EQ(find_target("torch")->lint_profile(), lint::Profile::extension);
  EXPECT_EQ(find_target("torch_stable")->lint_profile(), lint::Profile::extension);
  EXPECT_EQ(find_target("schemac")->lint_profile(), lint::Profile::automatic);
}

TEST(TargetRegistry, FixedOutputsAreWhatEachTargetWrites) {
  native_functions::NativeFunctionsLoad load = native_functions::load_native_functions(
      "ops.yaml",
      "- func: myops::scale(Tensor self, float f) -> Tensor\n"
      "  dispatch:\n"
      "    CPU: scale_cpu\n"
      "    PrivateUse1: scale_pu1\n");
  for (const std::string& name : target_names()) {
    const Target& target = *find_target(name);
    const GenOptions options{1, "myops", true};
    ModelBuild build =
        generate::build_checked_gen_model({{"ops.yaml", &load.file}}, {}, target, options);
    for (const auto& d : build.diagnostics)
      EXPECT_NE(d.severity, diagnostics::Severity::error) << name << ": " << d.message;
    std::vector<std::string> written;
    for (const GeneratedFile& file : generate_files(build.model, target, options))
      if (!is_shard_file_name(file.name)) written.push_back(file.name);
    std::vector<std::string> fixed = fixed_outputs(name);
    std::sort(written.begin(), written.end());
    std::sort(fixed.begin(), fixed.end());
    EXPECT_EQ(written, fixed) << name;
  }
}

// --target's help names every target, in the registry's order, with what it writes.
TEST(TargetRegistry, HelpNamesEveryTargetWithItsDescription) {
  const std::string help = targets_help();
  size_t at = 0;
  for (const std::string& name : target_names()) {
    const std::string entry = name + " (" + std::string(find_target(name)->description()) + ")";
    const size_t found = help.find(entry, at);
    ASSERT_NE(found, std::string::npos) << help;
    at = found + entry.size();
  }
  EXPECT_EQ(at, help.size());
  EXPECT_NE(help.find(") or "), std::string::npos) << help;
}

}  // namespace
}  // namespace schemac::codegen
