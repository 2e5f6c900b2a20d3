// `schemac parse --source` and `schemac lint` on the C++ and Python files of tests/sources/data,
// against golden/sources/ (rewritten only with SCHEMAC_UPDATE_GOLDEN=1). Each golden holds the
// exit status, stdout and stderr of one command run inside tests/sources/data.
#include <gtest/gtest.h>

#include "../common/cli_test_support.h"

namespace schemac::test {
namespace {

class SourcesCli : public ToolDirTest {
 protected:
  SourcesCli() : ToolDirTest("schemac_sources_") {}

  void golden(const std::string& name, const std::string& arguments) {
    ToolRun run =
        shell("NO_COLOR=1 '" SCHEMAC_BINARY "' " + arguments, SCHEMAC_SOURCES_TEST_DIR "/data");
    std::string actual = "$ schemac " + arguments + "\nexit: " + std::to_string(run.status) +
                         "\n--- stdout\n" + run.out + "--- stderr\n" + run.err;
    std::string path = std::string(SCHEMAC_SOURCES_GOLDEN_DIR) + "/" + name + ".txt";
    if (update_golden()) {
      std::filesystem::create_directories(SCHEMAC_SOURCES_GOLDEN_DIR);
      write_file(path, actual);
    }
    EXPECT_EQ(actual, read_file(path)) << "golden " << path;
  }
};

TEST_F(SourcesCli, ParseCpp) { golden("parse_cpp", "parse --source bindings.cpp --verbose"); }
TEST_F(SourcesCli, ParsePythonJson) { golden("parse_python_json", "parse --json --source ops.py"); }
TEST_F(SourcesCli, LintText) { golden("lint_text", "lint bindings.cpp other.cpp ops.py"); }
TEST_F(SourcesCli, LintJson) {
  golden("lint_json", "lint --format json bindings.cpp other.cpp ops.py");
}
TEST_F(SourcesCli, LintSarif) { golden("lint_sarif", "lint --format sarif other.cpp"); }

// A small project registering through helpers (tests/sources/data/helpers): vLLM's
// direct_register_custom_op whose Library is in another file, a decorator declared in the
// project's .schemac.yaml, an alias of custom_op, an f-string name.
TEST_F(SourcesCli, HelpersAcrossFiles) {
  golden("parse_helpers_json",
         "parse --json --source helpers/proj/utils/torch_utils.py helpers/proj/layers/norm.py");
  golden("lint_helpers_text", "lint helpers/proj/utils/torch_utils.py helpers/proj/layers/norm.py");
}
TEST_F(SourcesCli, HelperWhoseModuleIsNotGivenIsReported) {
  golden("lint_helpers_alone", "lint helpers/proj/layers/norm.py");
}

TEST_F(SourcesCli, ParseYaml) {
  golden("parse_yaml", "parse --format yaml --source bindings.cpp other.cpp ops.py");
}

TEST_F(SourcesCli, ParseYamlRoundTripsThroughGen) {
  file("ops.cpp",
       "TORCH_LIBRARY(myops, m) {\n"
       "  m.def(\"scale(Tensor self, float factor=2.0) -> Tensor\");\n"
       "  m.def(\"gelu(Tensor x, str approximate=\\\"none\\\") -> Tensor\");\n"
       "}\n"
       "TORCH_LIBRARY_IMPL(myops, CPU, m) {\n"
       "  m.impl(\"scale\", &scale_cpu);\n  m.impl(\"gelu\", TORCH_FN(myops::gelu_cpu));\n}\n"
       "TORCH_LIBRARY_IMPL(myops, CUDA, m) { m.impl(\"gelu\", gelu_cuda); }\n");
  file("ops.py",
       "import torch\n@torch.library.custom_op('pyops::add_one', mutates_args=('out',))\n"
       "def add_one(x: torch.Tensor, out: torch.Tensor, n: int = 1) -> None: ...\n");
  ToolRun parse = shell("'" SCHEMAC_BINARY "' parse --format yaml --source ops.cpp ops.py");
  ASSERT_EQ(parse.status, 0) << parse.err;
  file("ops.yaml", parse.out);
  EXPECT_EQ(parse.out,
            "# ops.cpp:2:9\n- func: myops::scale(Tensor self, float factor=2.0) -> Tensor\n"
            "  dispatch:\n    CPU: scale_cpu\n"
            "# ops.cpp:3:9\n- func: \"myops::gelu(Tensor x, str approximate=\\\"none\\\") -> Tensor\"\n"
            "  dispatch:\n    CPU: myops::gelu_cpu\n    CUDA: gelu_cuda\n"
            "# ops.py:2:26\n- func: pyops::add_one(Tensor x, Tensor(a1!) out, SymInt n=1) -> ()\n");
  ToolRun lint = shell("'" SCHEMAC_BINARY "' lint ops.yaml");
  EXPECT_EQ(lint.status, 0) << lint.out << lint.err;
  ToolRun gen = shell("'" SCHEMAC_BINARY "' gen --target torch -o out ops.yaml");
  EXPECT_EQ(gen.status, 0) << gen.err;
  EXPECT_NE(read_file((dir_ / "out/RegisterSchema.cpp").string()).find("m.def(\"add_one(Tensor x, Tensor(a1!) out"),
            std::string::npos);
}

TEST_F(SourcesCli, ConfiguredHelpersReachParseLintAndCompat) {
  file(".schemac.yaml",
       "custom-op-helpers:\n  - name: register_op\n    like: direct_register_custom_op\n"
       "    namespace: mine\n");
  file("a.py", "import torch\ndef f(x: torch.Tensor) -> torch.Tensor: ...\nregister_op('f', f)\n");
  file("b.py", "import torch\ndef f(x: torch.Tensor, n: int) -> torch.Tensor: ...\n"
               "register_op('f', f)\n");
  ToolRun parse = shell("'" SCHEMAC_BINARY "' parse --source a.py");
  EXPECT_EQ(parse.status, 0) << parse.err;
  EXPECT_EQ(parse.out, "a.py:3:13: f(Tensor x) -> Tensor\n");
  EXPECT_NE(shell("'" SCHEMAC_BINARY "' parse --json --source a.py").out.find("\"namespace\":\"mine\""),
            std::string::npos);
  ToolRun lint = shell("'" SCHEMAC_BINARY "' lint a.py b.py");
  EXPECT_EQ(lint.status, 1);  // the same operator defined in both files
  EXPECT_NE(lint.out.find("duplicate-definition"), std::string::npos) << lint.out;
  ToolRun compat = shell("'" SCHEMAC_BINARY "' compat a.py b.py");
  EXPECT_NE(compat.out.find("mine::f"), std::string::npos) << compat.out << compat.err;
}

TEST_F(SourcesCli, AHelperEntryWithABadKindIsAConfigError) {
  file(".schemac.yaml", "custom-op-helpers:\n  - name: register_op\n    like: custom_opp\n");
  file("a.py", "import torch\n");
  ToolRun lint = shell("'" SCHEMAC_BINARY "' lint a.py");
  EXPECT_EQ(lint.status, 2);  // an unusable config, as for any other key
  EXPECT_NE((lint.out + lint.err).find("'custom_opp' is not one of custom_op, triton_op, "
                          "direct_register_custom_op, define"),
            std::string::npos)
      << lint.out << lint.err;
}

TEST_F(SourcesCli, YamlNeedsSourceFiles) {
  EXPECT_EQ(shell("'" SCHEMAC_BINARY "' parse --format yaml 'f(int x) -> int'").status, 2);
}

TEST_F(SourcesCli, LintVerboseListsSkippedCalls) {
  file("m.cpp", "TORCH_LIBRARY(ns, m) {\n  m.def(SCHEMA);\n}\n");
  ToolRun run = shell("'" SCHEMAC_BINARY "' lint --verbose m.cpp");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.err,
            "m.cpp:2:9: note: skipped: m.def(...): not a literal string ('SCHEMA' in it)\n");
  EXPECT_EQ(shell("'" SCHEMAC_BINARY "' lint m.cpp").err, "");
}

TEST_F(SourcesCli, UnknownExtensionIsAUsageError) {
  file("notes.txt", "m.def(\"f(int x) -> int\")");
  ToolRun run = shell("'" SCHEMAC_BINARY "' parse --source notes.txt");
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("not a C++ or Python file"), std::string::npos);
}

TEST_F(SourcesCli, WerrorTurnsWarningsIntoExitOne) {
  file("impl.cpp", "TORCH_LIBRARY_IMPL(ns, CPU, m) { m.impl(\"f\", f); }\n");
  EXPECT_EQ(shell("'" SCHEMAC_BINARY "' lint impl.cpp").status, 0);
  EXPECT_EQ(shell("'" SCHEMAC_BINARY "' lint --werror impl.cpp").status, 1);
}

}  // namespace
}  // namespace schemac::test
