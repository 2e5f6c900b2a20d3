// registrations_yaml and place_in_source over scanned C++ (registrations_yaml.h).
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "schemac/adopt/registrations_yaml.h"
#include "schemac/sources/language.h"
#include "schemac/sources/scan.h"

namespace schemac::adopt {
namespace {

using diagnostics::Diagnostic;

std::vector<sources::ScannedFile> scan(const std::string& path, const std::string& text) {
  std::vector<sources::ScannedFile> files;
  files.push_back({path, sources::scan_source(text, sources::Language::cpp)});
  sources::resolve_across_files(files);
  return files;
}

constexpr const char* kOps =
    "TORCH_LIBRARY(myops, m) {\n"
    "  m.def(\"scale(Tensor self,\"\n"
    "        \"      float factor) -> Tensor\");\n"
    "  m.def(\"broken(Tensor self -> Tensor\");\n"
    "}\n"
    "TORCH_LIBRARY_IMPL(myops, CPU, m) { m.impl(\"scale\", &scale_cpu); }\n";

TEST(RegistrationsYaml, WritesEachDefinitionWithItsKernelsAndSaysWhatItLeavesOut) {
  std::vector<sources::ScannedFile> files = scan("ops.cpp", kOps);
  std::vector<Diagnostic> problems;
  std::vector<YamlLineOrigin> origins;
  std::vector<std::string> unreadable;
  std::string yaml = registrations_yaml(files, problems, &origins, &unreadable);
  EXPECT_EQ(yaml,
            "# ops.cpp:2:9\n"
            "- func: myops::scale(Tensor self, float factor) -> Tensor\n"
            "  dispatch:\n"
            "    CPU: scale_cpu\n");
  ASSERT_EQ(origins.size(), 4u);
  EXPECT_EQ(origins[1].position.line, 2u);
  EXPECT_NE(origins[1].schema, nullptr);
  EXPECT_EQ(origins[3].position.line, 6u);  // the m.impl
  EXPECT_EQ(origins[3].schema, nullptr);
  EXPECT_EQ(unreadable, std::vector<std::string>{"myops::broken"});
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].severity, diagnostics::Severity::error);
  EXPECT_EQ(problems[0].location.line, 4u);
  ASSERT_FALSE(problems[0].notes.empty());
  EXPECT_EQ(problems[0].notes.back().message, "'broken' is left out of the YAML");
}

TEST(PlaceInSource, AFindingOnAnArgumentMovesToItsLineInTheLiteral) {
  std::vector<sources::ScannedFile> files = scan("ops.cpp", kOps);
  std::vector<Diagnostic> problems;
  std::vector<YamlLineOrigin> origins;
  std::string yaml = registrations_yaml(files, problems, &origins);
  // YAML line 2, "float factor": the argument is on the schema literal's second line.
  Diagnostic d;
  d.location = diagnostics::Location::at("ops.cpp", 2, 35);
  d.location.end_line = 2;
  d.location.end_column = 47;
  d.fix.emplace();
  Diagnostic other = d;
  other.location.file = "other.yaml";
  place_in_source(d, "ops.cpp", yaml, origins);
  EXPECT_EQ(d.location.line, 3u);
  EXPECT_EQ(d.location.column, 22u);
  EXPECT_FALSE(d.fix) << "a fix names bytes of the YAML";
  place_in_source(other, "ops.cpp", yaml, origins);
  EXPECT_EQ(other.location.line, 2u);
  EXPECT_TRUE(other.fix);
}

// STABLE_TORCH_LIBRARY blocks stay stable: the YAML starts with the stable-ABI marker (gen then
// writes STABLE_TORCH_LIBRARY code), a kernel counts only through TORCH_BOX (a plain function there
// works on the StableIValue stack), and what the stable target refuses is left out, with its rule.
constexpr const char* kStableOps =
    "STABLE_TORCH_LIBRARY_FRAGMENT(myops, m) {\n"
    "  m.def(\"scale(Tensor self, float factor) -> Tensor\");\n"
    "  m.def(\"count(Tensor self) -> int\");\n"
    "  m.def(\"clamp(Tensor self, Scalar lo) -> Tensor\");\n"
    "}\n"
    "STABLE_TORCH_LIBRARY_IMPL(myops, CPU, m) {\n"
    "  m.impl(\"scale\", TORCH_BOX(&scale_cpu));\n"
    "  m.impl(\"count\", &count_on_stack);\n"
    "}\n";

TEST(RegistrationsYaml, StableAbiBlocksGiveAYamlMarkedForTheStableTarget) {
  std::vector<sources::ScannedFile> files = scan("stable.cpp", kStableOps);
  std::vector<Diagnostic> problems;
  std::vector<YamlLineOrigin> origins;
  std::vector<std::string> unreadable;
  std::string yaml = registrations_yaml(files, problems, &origins, &unreadable);
  EXPECT_EQ(yaml,
            "# schemac: stable-abi\n"
            "# stable.cpp:2:9\n"
            "- func: myops::scale(Tensor self, float factor) -> Tensor\n"
            "  dispatch:\n"
            "    CPU: scale_cpu\n"
            "# stable.cpp:3:9\n"
            "- func: myops::count(Tensor self) -> int\n"
            "  manual_kernel_registration: True\n");  // no typed kernel: gen registers the schema
  // One origin per line: the marker's is empty, the rest as without it.
  ASSERT_EQ(origins.size(), 8u);
  EXPECT_EQ(origins[0].schema, nullptr);
  EXPECT_EQ(origins[2].position.line, 2u);
  EXPECT_EQ(origins[4].position.line, 7u);
  EXPECT_EQ(unreadable, std::vector<std::string>{"myops::clamp"});
  auto left_out = std::find_if(problems.begin(), problems.end(), [](const Diagnostic& d) {
    return d.message.find(
               "'myops::clamp' is left out of the YAML: gen --target torch_stable "
               "refuses it") != std::string::npos;
  });
  ASSERT_NE(left_out, problems.end());
  EXPECT_EQ(left_out->location.line, 4u);
  EXPECT_NE(left_out->message.find("[stable-abi]"), std::string::npos) << left_out->message;
}

// Stable and plain blocks together give a YAML for the torch target, and say so.
TEST(RegistrationsYaml, StableAndPlainBlocksTogetherGiveAnUnmarkedYaml) {
  std::vector<sources::ScannedFile> files =
      scan("mixed.cpp", std::string(kStableOps) +
                            "TORCH_LIBRARY(plain, m) { m.def(\"g(Tensor x) -> Tensor\"); }\n");
  std::vector<Diagnostic> problems;
  std::string yaml = registrations_yaml(files, problems);
  EXPECT_EQ(yaml.find("# schemac: stable-abi"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("- func: plain::g(Tensor x) -> Tensor\n"), std::string::npos) << yaml;
  EXPECT_TRUE(std::any_of(problems.begin(), problems.end(), [](const Diagnostic& d) {
    return d.location.line == 2 && d.message.find(
                                       "are defined in STABLE_TORCH_LIBRARY blocks and the rest in "
                                       "TORCH_LIBRARY ones") != std::string::npos;
  }));
}

// A project of several files: kernels declared in a header's namespaces, registered from another
// file. Each dispatch line names the function with its namespace; a function only its own file
// can call is left out, named; an operator without a kernel gets none.
TEST(RegistrationsYaml, KernelsAreNamedWithTheirNamespaces) {
  std::vector<sources::ScannedFile> files;
  files.push_back({"ops.h", sources::scan_source("namespace proj {\n"
                                                 "namespace gemm {\n"
                                                 "at::Tensor prepack(const at::Tensor& w);\n"
                                                 "}\n"
                                                 "at::Tensor scale(const at::Tensor& x);\n"
                                                 "}\n"
                                                 "at::Tensor global_kernel(const at::Tensor& x);\n",
                                                 sources::Language::cpp)});
  files.push_back({"ops.cpp", sources::scan_source(
                                  "#include \"ops.h\"\n"
                                  "namespace {\n"
                                  "at::Tensor hidden(const at::Tensor& x) { return x; }\n"
                                  "}\n"
                                  "static at::Tensor internal(const at::Tensor& x) { return x; }\n"
                                  "TORCH_LIBRARY(proj, m) {\n"
                                  "  m.def(\"prepack(Tensor w) -> Tensor\");\n"
                                  "  m.def(\"scale(Tensor x) -> Tensor\");\n"
                                  "  m.def(\"hidden(Tensor x) -> Tensor\");\n"
                                  "  m.def(\"internal(Tensor x) -> Tensor\");\n"
                                  "  m.def(\"global_kernel(Tensor x) -> Tensor\");\n"
                                  "  m.def(\"schema_only(Tensor x) -> Tensor\");\n"
                                  "}\n"
                                  "namespace proj {\n"
                                  "TORCH_LIBRARY_IMPL(proj, CPU, m) {\n"
                                  "  m.impl(\"prepack\", &gemm::prepack);\n"
                                  "  m.impl(\"scale\", TORCH_FN(scale));\n"
                                  "  m.impl(\"hidden\", &hidden);\n"
                                  "  m.impl(\"internal\", &internal);\n"
                                  "  m.impl(\"global_kernel\", &global_kernel);\n"
                                  "}\n"
                                  "}\n",
                                  sources::Language::cpp)});
  sources::resolve_across_files(files);
  std::vector<Diagnostic> problems;
  std::string yaml = registrations_yaml(files, problems);
  EXPECT_NE(yaml.find("- func: proj::prepack(Tensor w) -> Tensor\n"
                      "  dispatch:\n"
                      "    CPU: proj::gemm::prepack\n"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("    CPU: proj::scale\n"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("- func: proj::schema_only(Tensor x) -> Tensor\n"
                      "  manual_kernel_registration: True\n"),
            std::string::npos)
      << yaml;
  EXPECT_EQ(yaml.find("CPU: hidden"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("CPU: internal"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("CPU: global_kernel"), std::string::npos) << yaml;
  std::vector<std::string> said;
  for (const Diagnostic& d : problems) {
    if (d.rule == "yaml-skipped")
      said.push_back(d.location.file + ":" + std::to_string(d.location.line) + " " + d.message);
  }
  ASSERT_EQ(said.size(), 3u) << ::testing::PrintToString(said);
  EXPECT_NE(said[0].find("ops.cpp:18 the CPU kernel of 'proj::hidden' is left out of the YAML: "
                         "'hidden' (ops.cpp:3:12) is in an anonymous namespace"),
            std::string::npos)
      << said[0];
  EXPECT_NE(said[1].find("'internal' (ops.cpp:5:19) is static"), std::string::npos) << said[1];
  EXPECT_NE(said[2].find("'global_kernel' (ops.h:7:12) is in the global namespace"),
            std::string::npos)
      << said[2];
}

}  // namespace
}  // namespace schemac::adopt
