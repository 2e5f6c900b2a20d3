// One engine behind both doors: `schemac lint --format json` over a project and `schemac lsp`
// (the real binary, driven over JSON-RPC on stdin/stdout) with every file of it opened publish the
// same (file, line, rule) findings. The project mixes C++, Python and YAML files with nested
// .schemac.yaml files: a sub-folder's torch-version, per-path ignores, `ignore: [config]`,
// suppression comments, a YAML of no operator shape, and an extension's PrivateUse1 kernels.
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_test_support.h"
#include "schemac/lsp/message_reader.h"

namespace schemac::lsp {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Finding = std::tuple<int, std::string>;  // line (1-based), rule
using Findings = std::map<std::string, std::multiset<Finding>>;  // by absolute path

class LintLspParity : public test::ToolDirTest {
 protected:
  LintLspParity() : ToolDirTest("schemac_parity_") {}

  void put(const std::string& name, const std::string& text) {
    fs::create_directories((project() / name).parent_path());
    test::write_file((project() / name).string(), text);
  }
  fs::path project() const { return dir_ / "project"; }

  void write_project() {
    put(".schemac.yaml", "per-path:\n  \"third_party/*\": [all]\n");
    put("ops.yaml",
        "- func: my_relu(Tensor self) -> Tensor\n"
        "  dispatch:\n"
        "    CPU: my_relu\n"
        "    PrivateUse1: my_relu_pu1\n"
        "\n"
        "- func: my_gelu(Tensor self) -> Tensor\n"
        "  dispach:\n"
        "    CPU: my_gelu\n");
    put("third_party/vendored.yaml",
        "- func: vendored(Tensor self) -> Tensor\n"
        "  dispach:\n"
        "    CPU: vendored\n"
        "  tags: no_such_tag\n");
    put("old/.schemac.yaml", "torch-version: \"1.13\"\n");
    put("old/ops.yaml",
        "- func: old_add(Tensor self, Tensor other) -> Tensor\n"
        "  tags: [pointwise]\n"
        "\n"
        "- func: old_scale.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
        "  use_const_ref_for_mutable_tensors: True\n");
    put("cfg/.schemac.yaml", "ignore: [config]\n");
    put("cfg/ops.yaml",
        "- func: cfg_op(Tensor self) -> Tensor\n"
        "  variant: function\n");
    put("csrc/ops.cpp",
        "#include <torch/library.h>\n"
        "\n"
        "TORCH_LIBRARY(myops, m) {\n"
        "  m.def(\"scale_(Tensor self, float f) -> Tensor\");\n"
        "  m.def(\"shift_(Tensor self, float f) -> Tensor\");  // schemac: ignore[inplace-self]\n"
        "  m.def(\"fill.out(Tensor self, *, Tensor out) -> Tensor\");\n"
        "}\n"
        "\n"
        "TORCH_LIBRARY_IMPL(myops, CPU, m) {\n"
        "  m.impl(\"scale_\", scale_cpu);\n"
        "  m.impl(\"from_python\", from_python_cpu);\n"
        "}\n");
    put("py/ops.py",
        "import torch\n"
        "\n"
        "lib = torch.library.Library(\"myops\", \"FRAGMENT\")\n"
        "lib.define(\"from_python(Tensor x) -> Tensor\")\n"
        "lib.define(\"double_(Tensor self) -> Tensor\")\n"
        "lib.define(\"bad(Tensor x, Tensor x) -> Tensor\")\n");
    put("ext/ops.yaml",
        "- func: myext::fused(Tensor self) -> Tensor\n"
        "  dispatch:\n"
        "    PrivateUse1: fused_pu1\n"
        "    AutogradCPU: fused_autograd\n");
    put("ci.yaml", "jobs:\n  build:\n    runs-on: ubuntu-latest\n");
  }

  Findings lint_findings() {
    test::ToolRun run = shell("'" SCHEMAC_EXE "' lint --format json '" + project().string() + "'");
    EXPECT_TRUE(run.status == 0 || run.status == 1) << run.err;
    Findings out;
    for (const json& d : json::parse(run.out))
      out[d.at("file").get<std::string>()].insert({d.at("line").get<int>(), d.at("rule")});
    return out;
  }

  // Opens every file lint reads in `schemac lsp` and returns the last diagnostics published for
  // each.
  Findings server_findings(const std::vector<fs::path>& files) {
    std::string input;
    auto send = [&](const json& message) { input += frame_message(message.dump()); };
    send({{"jsonrpc", "2.0"},
          {"id", 1},
          {"method", "initialize"},
          {"params", {{"rootUri", "file://" + project().string()}, {"capabilities", json::object()}}}});
    send({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", json::object()}});
    for (const fs::path& file : files) {
      const std::string ext = file.extension().string();
      const std::string language = ext == ".cpp" ? "cpp" : ext == ".py" ? "python" : "yaml";
      send({{"jsonrpc", "2.0"},
            {"method", "textDocument/didOpen"},
            {"params",
             {{"textDocument",
               {{"uri", "file://" + file.string()},
                {"languageId", language},
                {"version", 1},
                {"text", test::read_file(file.string())}}}}}});
    }
    send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "shutdown"}});
    send({{"jsonrpc", "2.0"}, {"method", "exit"}});
    test::write_file((dir_ / "lsp_in.txt").string(), input);
    test::ToolRun run = shell("'" SCHEMAC_EXE "' lsp < lsp_in.txt");
    EXPECT_EQ(run.status, 0) << run.err;
    std::istringstream stream(run.out);
    MessageReader reader(stream);
    std::map<std::string, json> published;
    for (Frame frame = reader.next(); frame.status != Frame::Status::end; frame = reader.next()) {
      EXPECT_EQ(frame.status, Frame::Status::message) << frame.error;
      const json message = json::parse(frame.body);
      if (message.value("method", "") != "textDocument/publishDiagnostics") continue;
      published[message["params"]["uri"]] = message["params"]["diagnostics"];
    }
    Findings out;
    for (const auto& [uri, diagnostics] : published) {
      const std::string path = uri.substr(std::string("file://").size());
      for (const json& d : diagnostics)
        out[path].insert({d["range"]["start"]["line"].get<int>() + 1, d.value("code", "")});
      if (diagnostics.empty()) out[path];
    }
    return out;
  }
};

TEST_F(LintLspParity, SameFindingsOnEveryFile) {
  write_project();
  Findings lint = lint_findings();
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(project())) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name != ".schemac.yaml") files.push_back(entry.path());
  }
  Findings server = server_findings(files);
  for (const fs::path& file : files) {
    const std::string path = file.string();
    const std::multiset<Finding> from_lint = lint.count(path) ? lint[path] : std::multiset<Finding>{};
    const std::multiset<Finding> from_server =
        server.count(path) ? server[path] : std::multiset<Finding>{};
    EXPECT_EQ(from_lint, from_server) << path;
  }
  for (const auto& [path, findings] : lint)
    EXPECT_TRUE(fs::exists(path)) << "lint reports a file outside the project: " << path;

  // What each config and comment does, so that agreeing on nothing cannot pass.
  const std::string root = project().string() + "/";
  const std::multiset<Finding> code = lint[root + "csrc/ops.cpp"];
  EXPECT_TRUE(code.count({4, "inplace-self"})) << "the registration code's signature rules";
  EXPECT_TRUE(code.count({6, "out-annotation"}));
  EXPECT_FALSE(code.count({5, "inplace-self"})) << "the suppression comment";
  EXPECT_FALSE(code.count({5, "unused-suppression"}));
  EXPECT_FALSE(code.count({11, "impl-without-definition"})) << "defined in py/ops.py";
  EXPECT_TRUE(lint[root + "py/ops.py"].count({5, "inplace-self"}));
  EXPECT_EQ(lint.count(root + "third_party/vendored.yaml"), 0u) << "per-path: all";
  EXPECT_EQ(lint.count(root + "ci.yaml"), 0u) << "no operator shape";
  EXPECT_EQ(lint.count(root + "ext/ops.yaml"), 0u) << "PrivateUse1 and AutogradCPU out of tree";
  EXPECT_TRUE(lint[root + "ops.yaml"].count({4, "unsupported-dispatch-key"})) << "in tree";
  EXPECT_TRUE(lint[root + "cfg/ops.yaml"].count({2, "unknown-field"})) << "ignore: [config]";
  EXPECT_TRUE(lint[root + "old/ops.yaml"].count({2, "field-type"})) << "torch-version 1.13";
}

}  // namespace
}  // namespace schemac::lsp
