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
  EXPECT_EQ(
      parse.out,
      "# ops.cpp:2:9\n- func: myops::scale(Tensor self, float factor=2.0) -> Tensor\n"
      "  dispatch:\n    CPU: scale_cpu\n"
      "# ops.cpp:3:9\n- func: \"myops::gelu(Tensor x, str approximate=\\\"none\\\") -> Tensor\"\n"
      "  dispatch:\n    CPU: myops::gelu_cpu\n    CUDA: gelu_cuda\n"
      "# ops.py:2:26\n- func: pyops::add_one(Tensor x, Tensor(a1!) out, SymInt n=1) -> ()\n"
      "  manual_kernel_registration: True\n");
  ToolRun lint = shell("'" SCHEMAC_BINARY "' lint ops.yaml");
  EXPECT_EQ(lint.status, 0) << lint.out << lint.err;
  ToolRun gen = shell("'" SCHEMAC_BINARY "' gen --target torch -o out ops.yaml");
  EXPECT_EQ(gen.status, 0) << gen.err;
  EXPECT_NE(read_file((dir_ / "out/RegisterSchema.cpp").string())
                .find("m.def(\"add_one(Tensor x, Tensor(a1!) out"),
            std::string::npos);
}

TEST_F(SourcesCli, ConfiguredHelpersReachParseLintAndCompat) {
  file(".schemac.yaml",
       "custom-op-helpers:\n  - name: register_op\n    like: direct_register_custom_op\n"
       "    namespace: mine\n");
  file("a.py", "import torch\ndef f(x: torch.Tensor) -> torch.Tensor: ...\nregister_op('f', f)\n");
  file("b.py",
       "import torch\ndef f(x: torch.Tensor, n: int) -> torch.Tensor: ...\n"
       "register_op('f', f)\n");
  ToolRun parse = shell("'" SCHEMAC_BINARY "' parse --source a.py");
  EXPECT_EQ(parse.status, 0) << parse.err;
  EXPECT_EQ(parse.out, "a.py:3:13: f(Tensor x) -> Tensor\n");
  EXPECT_NE(
      shell("'" SCHEMAC_BINARY "' parse --json --source a.py").out.find("\"namespace\":\"mine\""),
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
  EXPECT_NE((lint.out + lint.err)
                .find("'custom_opp' is not one of custom_op, triton_op, "
                      "direct_register_custom_op, define"),
            std::string::npos)
      << lint.out << lint.err;
}

// parse --source's schema problems are decided by each file's .schemac.yaml, as lint's are.
TEST_F(SourcesCli, ParseSourceAppliesTheConfig) {
  file("ops.cpp", "TORCH_LIBRARY(myops, m) {\n  m.def(\"f(Tensor x, Tensor x) -> Tensor\");\n}\n");
  ToolRun plain = shell("NO_COLOR=1 '" SCHEMAC_BINARY "' parse --source ops.cpp --werror");
  EXPECT_EQ(plain.status, 1);
  EXPECT_NE(plain.err.find("[duplicate-argument]"), std::string::npos) << plain.err;
  file(".schemac.yaml", "ignore: [duplicate-argument]\n");
  ToolRun ignored = shell("NO_COLOR=1 '" SCHEMAC_BINARY "' parse --source ops.cpp --werror");
  EXPECT_EQ(ignored.status, 0) << ignored.err;
  // Nothing but the count of what was read.
  EXPECT_EQ(ignored.err,
            "registration code: 1 file; schemas checked: 1 literal, 0 inferred, 0 helper, 0 legacy "
            "API; 0 name-only (inferred when the library loads)\n");
  ToolRun lint = shell("NO_COLOR=1 '" SCHEMAC_BINARY "' lint ops.cpp");
  EXPECT_EQ(lint.out.find("[duplicate-argument]"), std::string::npos) << lint.out;
}

TEST_F(SourcesCli, BuildMacrosNameTheNamespace) {
  // vLLM's layout: the namespace from the build, through the built-in TORCH_LIBRARY_EXPAND/CONCAT.
  file("bind.cpp",
       "#include \"core/registration.h\"\n"
       "TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {\n"
       "  ops.def(\"silu(Tensor! out, Tensor x) -> ()\");\n"
       "  ops.impl(\"silu\", torch::kCUDA, &silu);\n"
       "#ifdef USE_ROCM\n  ops.def(\"rocm_only(Tensor x) -> Tensor\");\n#endif\n"
       "}\n"
       "TORCH_LIBRARY_EXPAND(CONCAT(TORCH_EXTENSION_NAME, _cache_ops), cache_ops) {\n"
       "  cache_ops.def(\"swap(Tensor src, Tensor! dst) -> ()\");\n"
       "}\n");
  ToolRun without = shell("'" SCHEMAC_BINARY "' parse --format yaml --source bind.cpp");
  EXPECT_EQ(without.out, "");
  EXPECT_NE(without.err.find("namespace is not known statically"), std::string::npos);
  const std::string silu =
      "- func: _C::silu(Tensor! out, Tensor x) -> ()\n  dispatch:\n    CUDA: silu\n";
  // No kernel in the file: gen registers the schema only.
  const std::string swap =
      "- func: _C_cache_ops::swap(Tensor src, Tensor! dst) -> ()\n"
      "  manual_kernel_registration: True\n";
  for (const char* define : {"-D TORCH_EXTENSION_NAME=_C", "-DTORCH_EXTENSION_NAME=_C"}) {
    ToolRun with = shell("'" SCHEMAC_BINARY "' parse --format yaml --source bind.cpp -U USE_ROCM " +
                         std::string(define));
    EXPECT_EQ(with.status, 0) << with.err;
    EXPECT_EQ(with.out, "# bind.cpp:3:11\n" + silu + "# bind.cpp:10:17\n" + swap) << define;
    EXPECT_EQ(with.err.find("error"), std::string::npos) << with.err;
    EXPECT_NE(with.err.find("registration code: 1 file; schemas checked: 2 literal"),
              std::string::npos)
        << with.err;
  }
  // The same from .schemac.yaml; -D wins over it.
  file(".schemac.yaml", "defines:\n  TORCH_EXTENSION_NAME: _C\n  USE_ROCM:\n");
  ToolRun configured = shell("'" SCHEMAC_BINARY "' parse --format yaml --source bind.cpp");
  EXPECT_NE(configured.out.find("_C::rocm_only"), std::string::npos) << configured.out;
  ToolRun overridden = shell("'" SCHEMAC_BINARY
                             "' parse --format yaml --source bind.cpp -D TORCH_EXTENSION_NAME=_D");
  EXPECT_NE(overridden.out.find("_D::silu"), std::string::npos) << overridden.out;
  ToolRun lint = shell("'" SCHEMAC_BINARY "' lint bind.cpp --format json");
  EXPECT_EQ(lint.status, 0) << lint.out;
  EXPECT_EQ(shell("'" SCHEMAC_BINARY "' parse --source bind.cpp -D '=1'").status, 2);
}

TEST_F(SourcesCli, YamlSaysEachProblemOnceAndWritesOnlyWhatGenTakes) {
  file("ops.cpp",
       "TORCH_LIBRARY(myops, m) {\n"
       "  m.def(\"bad(Tensr x) -> Tensor\");\n"
       "  m.def(\"good(Tensor x) -> Tensor\");\n"
       "  m.def(\"use(__torch__.torch.classes.myops.Params p, Tensor x) -> Tensor\");\n"
       "  m.class_<Params>(\"Params\");\n"
       "  m.def(\"inferred\", &inferred);\n"
       "}\n"
       "TORCH_LIBRARY_IMPL(myops, CUDAA, m) { m.impl(\"good\", &good_cuda); }\n");
  file("ops.py",
       "import torch\n@torch.library.custom_op('pyops::f', mutates_args=())\n"
       "def f(x: torch.Tensor, *args) -> torch.Tensor: ...\n");
  ToolRun parse =
      shell("NO_COLOR=1 '" SCHEMAC_BINARY "' parse --format yaml --source ops.cpp ops.py");
  EXPECT_EQ(parse.status, 1);
  EXPECT_EQ(parse.out,
            "# ops.cpp:3:9\n- func: myops::good(Tensor x) -> Tensor\n  manual_kernel_registration: "
            "True\n");
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = parse.err.find(what); at != std::string::npos;
         at = parse.err.find(what, at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(count("unknown type 'Tensr'"), 1u) << parse.err;
  EXPECT_EQ(count("'CUDAA' is not a dispatch key"), 1u);
  EXPECT_EQ(count("fix: replace with 'CUDA'"), 1u);
  EXPECT_EQ(count("left out of the YAML"), 5u) << parse.err;  // bad, use, inferred, CUDAA's, f
  EXPECT_NE(parse.err.find("custom class 'myops.Params' (registered at ops.cpp:5:20)"),
            std::string::npos);
  file("ops.yaml", parse.out);
  EXPECT_EQ(shell("'" SCHEMAC_BINARY "' gen --target torch -o out ops.yaml").status, 0);
  // gen itself refuses, at the entry, a custom class it cannot register in order.
  file("cls.yaml", "- func: myops::use(__torch__.torch.classes.myops.Params p) -> ()\n");
  ToolRun gen = shell("NO_COLOR=1 '" SCHEMAC_BINARY "' gen --target torch -o cls_out cls.yaml");
  EXPECT_EQ(gen.status, 1);
  EXPECT_NE(gen.err.find("cls.yaml:1:3: error: operator 'myops::use' names the custom class "
                         "'myops.Params'"),
            std::string::npos)
      << gen.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "cls_out" / "RegisterSchema.cpp"));
}

TEST_F(SourcesCli, YamlNeedsSourceFiles) {
  EXPECT_EQ(shell("'" SCHEMAC_BINARY "' parse --format yaml 'f(int x) -> int'").status, 2);
}

TEST_F(SourcesCli, LintVerboseListsSkippedCalls) {
  file("m.cpp", "TORCH_LIBRARY(ns, m) {\n  m.def(SCHEMA);\n}\n");
  ToolRun run = shell("'" SCHEMAC_BINARY "' lint --verbose m.cpp");
  EXPECT_EQ(run.status, 0);
  const std::string checked =
      "checked 1 file, 0 schemas: no problems\n"
      "registration code: 1 file; schemas checked: 0 literal, 0 inferred, 0 helper, 0 legacy API; "
      "0 name-only (inferred when the library loads)\n";
  EXPECT_EQ(run.err,
            "m.cpp:2:9: note: skipped: m.def(...): not a literal string ('SCHEMA' in it)\n" + checked);
  EXPECT_EQ(shell("'" SCHEMAC_BINARY "' lint m.cpp").err, checked);  // nothing about the call
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
