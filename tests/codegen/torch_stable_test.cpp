// Unit tests of the stable-ABI target (torch_stable_target.cpp) beyond what the gen CLI tests and
// the golden files show: tags by release, and the marker of a file adopted from stable-ABI code.
#include <gtest/gtest.h>

#include <string>

#include "schemac/codegen/gen_model.h"
#include "schemac/codegen/target.h"
#include "schemac/native_functions/native_functions.h"

namespace schemac::codegen {
namespace {

TEST(TorchStableTarget, TagsFromTheReleaseWhoseDefTakesThem) {
  native_functions::NativeFunctionsLoad load =
      native_functions::load_native_functions("ops.yaml",
                                              "- func: myops::f(Tensor x) -> Tensor\n  tags: "
                                              "[pt2_compliant_tag]\n  dispatch:\n    CPU: f_cpu\n");
  const Target& stable = *find_target("torch_stable");
  GenOptions options{0, "myops", true};
  options.torch_version = {2, 10};
  ModelBuild build = build_gen_model({{"ops.yaml", &load.file}}, "myops");
  std::vector<diagnostics::Diagnostic> refused = stable.check(build.model, options);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].rule, "stable-abi");
  EXPECT_EQ(refused[0].location.line, 1u);
  EXPECT_NE(refused[0].message.find("takes from PyTorch 2.12 (--torch-version 2.10)"),
            std::string::npos)
      << refused[0].message;
  options.torch_version = {2, 12};
  EXPECT_TRUE(stable.check(build.model, options).empty());
  std::vector<const GenOperator*> ops{&build.model.operators[0]};
  EXPECT_EQ(stable.schema_block("myops", ops, DefinitionKind::library),
            "STABLE_TORCH_LIBRARY(myops, m) {\n  m.def(\"f(Tensor x) -> Tensor\", "
            "{at::Tag::pt2_compliant_tag});\n}\n");
  EXPECT_EQ(stable.schema_block("aten", ops, DefinitionKind::library)
                .rfind("STABLE_TORCH_LIBRARY_FRAGMENT(aten, m)", 0),
            0u);
}

TEST(TorchStableTarget, MarkerLine) {
  EXPECT_EQ(stable_abi_marker_line("# schemac: stable-abi\n- func: f() -> ()\n"), 1u);
  EXPECT_EQ(stable_abi_marker_line("# generated\n# schemac: stable-abi  \r\n"), 2u);
  EXPECT_EQ(stable_abi_marker_line("- func: f() -> ()  # schemac: stable-abi\n"), 0u);
  EXPECT_EQ(stable_abi_marker_line("# schemac: stable-abi-not\n"), 0u);
}

}  // namespace
}  // namespace schemac::codegen
