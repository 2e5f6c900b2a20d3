// What registration code gets beyond its schemas' own checks: dispatch keys and device types
// checked against the real names, and did-you-mean for implementations of operators no file
// defines. (lib/frontend/lint's mutation and alias rules over the same schemas: tests/lint.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "scan_test_support.h"
#include "schemac/sources/registration_lint.h"

namespace schemac::sources::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Each diagnostic as "file:line:col severity rule: message".
std::vector<std::string> lint(std::vector<std::pair<std::string, std::string>> files) {
  std::vector<ScannedFile> scanned;
  for (auto& [path, text] : files) scanned.push_back({path, scan_source(text, *language_for_path(path))});
  std::vector<std::string> out;
  for (const diagnostics::Diagnostic& d : lint_sources(scanned)) {
    out.push_back(d.location.file + ":" + std::to_string(d.location.line) + ":" +
                  std::to_string(d.location.column) + " " +
                  std::string(diagnostics::severity_name(d.severity)) + " " + d.rule + ": " + d.message);
  }
  return out;
}

TEST(RegistrationRules, DispatchKeysWithDidYouMean) {
  EXPECT_THAT(lint({{"k.cpp", "TORCH_LIBRARY_IMPL(myops, CUDAA, m) {}\n"
                              "TORCH_LIBRARY_IMPL(myops, AutogradCUDA, m) {}\n"
                              "#define KEY CPU\nTORCH_LIBRARY_IMPL(myops, KEY, m) {}\n"}}),
              ElementsAre("k.cpp:1:27 error unknown-dispatch-key: 'CUDAA' is not a dispatch key; did "
                          "you mean 'CUDA'?"));
  EXPECT_THAT(lint({{"k.py",
                     "lib = torch.library.Library('p', 'IMPL', 'CPUU')\n"
                     "lib2 = Library('p', 'IMPL', dispatch_key='Meta')\n"
                     "torch.library.impl('p::f', 'cudaa')(g)\n"
                     "torch.library.impl('p::f', types=['cpu', 'CompositeExplicitAutograd'])(g)\n"
                     "torch.library.register_kernel('p::f', ('cpu', 'mpss'))(g)\n"
                     "lib.impl('f', g, 'Autogradd')\n"
                     "@torch.library.custom_op('p::f', mutates_args=())\n"
                     "def f(x: torch.Tensor) -> torch.Tensor: ...\n"
                     "@f.register_kernel('cuda')\ndef _(x): ...\n"
                     "@f.register_kernel('gpu')\ndef _(x): ...\n"}}),
              ElementsAre(HasSubstr("k.py:1:43 error unknown-dispatch-key: 'CPUU' is not a dispatch key; "
                                    "did you mean 'CPU'?"),
                          HasSubstr("k.py:3:29 error unknown-dispatch-key: 'cudaa' is neither a device "
                                    "type (cpu, cuda, ...) nor a dispatch key; did you mean 'cuda'?"),
                          HasSubstr("k.py:5:48 error unknown-dispatch-key: 'mpss'"),
                          HasSubstr("k.py:6:19 error unknown-dispatch-key: 'Autogradd' is not a dispatch "
                                    "key; did you mean 'Autograd'?"),
                          HasSubstr("k.py:11:21 error unknown-dispatch-key: 'gpu'")));
}

TEST(RegistrationRules, ImplementationWithoutDefinitionSuggestsTheClosest) {
  EXPECT_THAT(lint({{"a.cpp", "TORCH_LIBRARY(ns, m) { m.def(\"gelu_fast(Tensor x) -> Tensor\"); }\n"},
                    {"b.py", "torch.library.register_fake('ns::gelu_fats')(f)\n"}}),
              ElementsAre(HasSubstr("b.py:1:29 warning impl-without-definition: implementation of "
                                    "'ns::gelu_fats', which no given file defines (it may be defined "
                                    "elsewhere); did you mean 'ns::gelu_fast'?")));
}

TEST(RegistrationRules, DefinitionsAreExposedForOtherRules) {
  std::vector<ScannedFile> files;
  files.push_back({"a.cpp", scan_source("TORCH_LIBRARY(ns, m) { m.def(\"f(Tensor x) -> Tensor\"); "
                                        "m.def(\"g\", &g); }\n", Language::cpp)});
  std::vector<std::string> names;
  for (const DefinedOperator& d : defined_operators(files)) names.push_back(d.name);
  EXPECT_THAT(names, ElementsAre("ns::f", "ns::g"));
}

}  // namespace
}  // namespace schemac::sources::test
