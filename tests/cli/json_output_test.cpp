// Every `--format json` (and SARIF, and `parse --json`) output of both tools parses with
// nlohmann-json, also when names and messages hold quotes, backslashes, tabs, control
// characters and bytes that are not UTF-8.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_test_support.h"

namespace schemac::cli {
namespace {

using test::ToolRun;

class JsonOutputs : public test::ToolDirTest {
 protected:
  JsonOutputs() : ToolDirTest("schemac_json_outputs_") {}
  void SetUp() override {
    ToolDirTest::SetUp();
    // An unknown field whose name holds a quote, a backslash and a tab (YAML escapes).
    file("ops.yaml",
         "- func: relu(Tensor self) -> Tensor\n"
         "  \"dis\\\"pa\\\\ch\\t\": 1\n"
         "- func: add.Tensor(Tensor self, Tensor other) -> Tensor\n");
    file("new.yaml", "- func: add.Tensor(Tensor self, Tensor \"rhs) -> Tensor\n");
    file("script.txt",
         "def weird::op(Tensor x) -> Tensor\n"
         "impl lib weird::op CPU fn\"quoted\\back\x01\n"
         "table weird::op\n"
         "dump weird::op\n");
  }
  ToolRun schemac(const std::string& args) { return shell("'" SCHEMAC_EXE "' " + args); }
  ToolRun inspect(const std::string& args) { return shell("'" DISPATCH_INSPECT_EXE "' " + args); }

  // The output is one JSON document, or (`lines`) one per line.
  static void expect_json(const ToolRun& run, const std::string& what, bool lines = false) {
    SCOPED_TRACE(what);
    ASSERT_FALSE(run.out.empty()) << run.err;
    std::vector<std::string> documents;
    if (lines) {
      std::istringstream in(run.out);
      for (std::string line; std::getline(in, line);) documents.push_back(line);
    } else {
      documents.push_back(run.out);
    }
    for (const std::string& document : documents) {
      EXPECT_TRUE(nlohmann::json::accept(document)) << document;
    }
  }
};

TEST_F(JsonOutputs, Schemac) {
  file("schemas.txt", "f(Tensor \"x\\\t\x01\xff) -> Tensor\nadd(Tensor self) -> Tensor\n");
  ToolRun parse = schemac("parse --json < schemas.txt");
  EXPECT_EQ(parse.status, 1);
  expect_json(parse, "parse --json", /*lines=*/true);
  ToolRun parsed = schemac("parse --json 'add.Tensor(Tensor(a!) self, Tensor[] other, *, Scalar alpha=1) -> Tensor(a!)'");
  EXPECT_EQ(parsed.status, 0);
  expect_json(parsed, "parse --json (ok)", true);
  for (const char* format : {"json", "sarif"}) {
    ToolRun lint = schemac(std::string("lint --format ") + format + " ops.yaml");
    EXPECT_EQ(lint.status, 1) << lint.err;
    expect_json(lint, std::string("lint ") + format);
    EXPECT_NE(nlohmann::json::parse(lint.out).dump().find("dis\\\"pa\\\\ch\\t"), std::string::npos) << lint.out;
    ToolRun compat = schemac(std::string("compat --format ") + format + " ops.yaml new.yaml");
    expect_json(compat, std::string("compat ") + format);
  }
}

TEST_F(JsonOutputs, DispatchInspect) {
  const std::string load = "--load '" INSPECT_EXAMPLE_PLUGIN "'";
  for (const std::string& args : {
           "ops --format json " + load,
           "table example_plugin::scale --format json --all-keys " + load,
           "dump example_plugin::count --format json " + load,
           "resolve example_plugin::scale --keys CPU,AutogradCPU --format json " + load,
           "trace example_plugin::scale_twice --arg cpu:float32[2,3] --arg 2.5 --format json " + load,
           std::string("simulate --format json CPU AutogradCPU CompositeImplicitAutograd"),
           std::string("simulate --format json --all-keys CompositeExplicitAutograd"),
           std::string("simulate --format json --registrations CPU Autograd"),
       }) {
    ToolRun run = inspect(args);
    EXPECT_EQ(run.status, 0) << args << "\n" << run.err;
    expect_json(run, args);
  }
  // A what-if session prints one document per table and dump; the kernel's name is hostile (a
  // script must be UTF-8 text; names that are not come from libraries: table_test covers them).
  ToolRun script = inspect("simulate --format json --script script.txt");
  EXPECT_EQ(script.status, 0) << script.err;
  expect_json(script, "simulate --script", /*lines=*/true);
  EXPECT_NE(script.out.find("fn\\\"quoted\\\\back\\u0001"), std::string::npos) << script.out;
}

}  // namespace
}  // namespace schemac::cli
