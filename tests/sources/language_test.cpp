// language_from_content / language_of: the language of an input whose name does not say (stdin,
// /dev/fd/N), judged from its text; YAML (nothing) when the text does not say otherwise.
#include "schemac/sources/language.h"

#include <gtest/gtest.h>

namespace schemac::sources {
namespace {

TEST(LanguageFromContent, CppRegistrationBlock) {
  EXPECT_EQ(language_from_content("#include <torch/library.h>\n\n"
                                  "TORCH_LIBRARY(myops, m) {\n"
                                  "  m.def(\"add(Tensor self, Tensor other) -> Tensor\");\n"
                                  "}\n"),
            Language::cpp);
  // No include: the block and the statements still say C++.
  EXPECT_EQ(language_from_content("TORCH_LIBRARY_FRAGMENT(ops, m) {\n  m.def(\"f(Tensor x) -> "
                                  "Tensor\");\n}\n"),
            Language::cpp);
  EXPECT_EQ(language_from_content("// bindings\nnamespace ext {\nint x = 1;\n}\n"), Language::cpp);
}

TEST(LanguageFromContent, Python) {
  EXPECT_EQ(language_from_content("import torch\n\n"
                                  "@torch.library.custom_op(\"ns::f\", mutates_args=())\n"
                                  "def f(x: torch.Tensor) -> torch.Tensor:\n"
                                  "    return x.clone()\n"),
            Language::python);
  EXPECT_EQ(language_from_content("#!/usr/bin/env python3\nlib.define('f(Tensor x) -> Tensor')\n"),
            Language::python);
  // Comments start with '#' as in YAML; the import decides.
  EXPECT_EQ(language_from_content("# ops\nfrom torch.library import Library\n"
                                  "lib = Library('ns', 'DEF')\n"),
            Language::python);
}

TEST(LanguageFromContent, YamlAndUnknownAreNothing) {
  EXPECT_EQ(language_from_content("# ops\n- func: add(Tensor self, Tensor other) -> Tensor\n"
                                  "  dispatch:\n    CPU: add_cpu\n"),
            std::nullopt);
  EXPECT_EQ(language_from_content("backend: XLA\ncpp_namespace: torch_xla\nsupported:\n- abs\n"),
            std::nullopt);
  EXPECT_EQ(language_from_content("---\nselect: [all]\nnamespace: myops\n"), std::nullopt);
  EXPECT_EQ(language_from_content(""), std::nullopt);
  EXPECT_EQ(language_from_content("just some words\n"), std::nullopt);
}

TEST(LanguageFromContent, ReadsOnlyTheStartOfLongText) {
  std::string text = "#include <x.h>\n";
  text += std::string(200 * 1024, '\n');
  text += "- func: f(Tensor x) -> Tensor\n";
  EXPECT_EQ(language_from_content(text), Language::cpp);
}

TEST(LanguageOf, TheNameFirstThenTheContent) {
  const std::string cpp = "#include <torch/library.h>\nTORCH_LIBRARY(ns, m) {}\n";
  EXPECT_EQ(language_of("ops.yaml", cpp), std::nullopt);  // a YAML name is believed
  EXPECT_EQ(language_of("ops.py", cpp), Language::python);
  EXPECT_EQ(language_of("/dev/fd/63", cpp), Language::cpp);
  EXPECT_EQ(language_of("<stdin>", cpp), Language::cpp);
  EXPECT_EQ(language_of("<stdin>", "- func: f(Tensor x) -> Tensor\n"), std::nullopt);
  EXPECT_TRUE(is_yaml_path("a/b.yml"));
  EXPECT_FALSE(is_yaml_path("a.yaml/b"));
}

}  // namespace
}  // namespace schemac::sources
