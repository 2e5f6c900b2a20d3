// One answer at every door: over a matrix of .schemac.yaml files (none, ignore, severity, per-path,
// profile, select) and suppression comments (none, or one on the first entry), the same project
// is asked of `schemac lint`, the language server (`schemac lsp`), `parse --source`, `compat` and
// `gen`, and their answers compared:
//   - lint and the server publish the same findings (file, line, rule, severity);
//   - parse --source reports lint's schema findings of the registration code, severities too;
//   - compat (NEW against itself) reports lint's errors that keep NEW's operators from being read;
//   - gen reports lint's errors, and when lint accepts the file it writes every operator, or
//     says with `unusable-schema` which one it cannot write and why: none is left out in silence.
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_test_support.h"
#include "schemac/lsp/message_reader.h"
#include "schemac/rules/rules.h"

namespace schemac::test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Finding =
    std::tuple<std::string, int, std::string, std::string>;  // file, line, rule, severity
using Findings = std::set<Finding>;

const char* const kConfigs[] = {
    "",
    "ignore: [unknown-type]\n",
    "severity: {unknown-type: warning, default-order: warning}\n",
    "per-path: {\"ops.yaml\": [unknown-type]}\n",
    "profile: in-tree\n",
    "select: [duplicate-argument, default-order]\n",
};

std::string ops_yaml(bool suppress) {
  return std::string("- func: dd::a(Tensorr self) -> Tensor") +
         (suppress ? "  # schemac: ignore[unknown-type]" : "") +
         "\n- func: dd::b(Tensor self) -> Tensor\n"
         "- func: dd::c(int x=1, int y) -> Tensor\n"
         "- func: dd::d(Tensor self, Tensor self) -> Tensor\n";
}

std::string bind_cpp(bool suppress) {
  return std::string("TORCH_LIBRARY(dd2, m) {\n  m.def(\"a(Tensorr self) -> Tensor\");") +
         (suppress ? "  // schemac: ignore[unknown-type]" : "") +
         "\n  m.def(\"b(Tensor self) -> Tensor\");\n"
         "  m.def(\"c(int x=1, int y) -> Tensor\");\n"
         "  m.def(\"d(Tensor self, Tensor self) -> Tensor\");\n}\n";
}

bool schema_rule(const std::string& rule) {
  const rules::RuleDef* def = rules::find_rule(rule);
  return def != nullptr && def->family == rules::Family::schema;
}

class Doors : public ToolDirTest {
 protected:
  Doors() : ToolDirTest("schemac_doors_") {}

  ToolRun schemac(const std::string& arguments) {
    return shell(std::string("'") + SCHEMAC_EXE + "' " + arguments);
  }

  Findings from_json_array(const std::string& text) {
    Findings out;
    for (const json& d : json::parse(text))
      out.insert({d["file"], d["line"].get<int>(), d["rule"], d["severity"]});
    return out;
  }

  Findings server(const std::vector<std::string>& files) {
    std::string input;
    auto send = [&](const json& message) { input += lsp::frame_message(message.dump()); };
    send({{"jsonrpc", "2.0"},
          {"id", 1},
          {"method", "initialize"},
          {"params", {{"rootUri", "file://" + dir_.string()}, {"capabilities", json::object()}}}});
    send({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", json::object()}});
    for (const std::string& name : files) {
      send({{"jsonrpc", "2.0"},
            {"method", "textDocument/didOpen"},
            {"params",
             {{"textDocument",
               {{"uri", "file://" + (dir_ / name).string()},
                {"languageId", name.ends_with(".cpp") ? "cpp" : "yaml"},
                {"version", 1},
                {"text", read_file((dir_ / name).string())}}}}}});
    }
    send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "shutdown"}});
    send({{"jsonrpc", "2.0"}, {"method", "exit"}});
    file("lsp_in.txt", input);
    ToolRun run = schemac("lsp < lsp_in.txt");
    EXPECT_EQ(run.status, 0) << run.err;
    std::istringstream stream(run.out);
    lsp::MessageReader reader(stream);
    std::map<std::string, json> published;
    for (lsp::Frame frame = reader.next(); frame.status != lsp::Frame::Status::end;
         frame = reader.next()) {
      const json message = json::parse(frame.body);
      if (message.value("method", "") == "textDocument/publishDiagnostics")
        published[message["params"]["uri"]] = message["params"]["diagnostics"];
    }
    Findings out;
    for (const auto& [uri, diagnostics] : published) {
      const std::string name = fs::path(uri.substr(7)).filename().string();
      for (const json& d : diagnostics)
        out.insert({name, d["range"]["start"]["line"].get<int>() + 1, d.value("code", ""),
                    d["severity"] == 1 ? "error" : "warning"});
    }
    return out;
  }

  // `file:line:col: severity: message [rule]` lines of a text report.
  static Findings from_text(const std::string& text) {
    Findings out;
    static const std::regex kLine(R"(^([^:\s]+):(\d+):\d+: (error|warning): .*\[([a-z0-9-]+)\]$)");
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (std::regex_match(line, m, kLine)) out.insert({m[1], std::stoi(m[2]), m[4], m[3]});
    }
    return out;
  }
};

TEST_F(Doors, EveryDoorGivesLintsAnswer) {
  size_t gen_refusals = 0;
  for (const char* config : kConfigs) {
    for (bool suppress : {false, true}) {
      const std::string label =
          std::string("config '") + config + "', suppress " + (suppress ? "yes" : "no");
      SCOPED_TRACE(label);
      fs::remove(dir_ / ".schemac.yaml");
      if (*config) file(".schemac.yaml", config);
      file("ops.yaml", ops_yaml(suppress));
      file("bind.cpp", bind_cpp(suppress));
      const Findings lint = from_json_array(schemac("lint --format json ops.yaml bind.cpp").out);

      EXPECT_EQ(server({"ops.yaml", "bind.cpp"}), lint) << "the language server";

      Findings lint_code_schema, parse;
      for (const Finding& f : lint)
        if (std::get<0>(f) == "bind.cpp" && schema_rule(std::get<2>(f))) lint_code_schema.insert(f);
      for (const Finding& f : from_text(schemac("parse --source bind.cpp").err))
        if (schema_rule(std::get<2>(f))) parse.insert(f);
      EXPECT_EQ(parse, lint_code_schema) << "parse --source";

      fs::create_directories(dir_ / ".old");  // hidden: not part of the project
      fs::copy_file(dir_ / "bind.cpp", dir_ / ".old" / "bind.cpp",
                    fs::copy_options::overwrite_existing);
      Findings compat, unreadable;
      for (const Finding& f :
           from_json_array(schemac("compat --format json .old/bind.cpp bind.cpp").out))
        if (std::get<0>(f) == "bind.cpp") compat.insert(f);
      for (const Finding& f : lint_code_schema)
        if (rules::find_rule(std::get<2>(f))->severity == rules::Severity::error)
          unreadable.insert(f);
      EXPECT_EQ(compat, unreadable) << "compat: NEW's operators that cannot be read";

      ToolRun gen = schemac("gen --target torch --format json ops.yaml -o out");
      Findings lint_errors, gen_errors, refused;
      for (const Finding& f : lint)
        if (std::get<0>(f) == "ops.yaml" && std::get<3>(f) == "error") lint_errors.insert(f);
      if (gen.status == 1) {
        for (const json& d : json::parse(gen.out)) {
          Finding f{d["file"], d["line"].get<int>(), d["rule"], d["severity"]};
          (d["rule"] == "unusable-schema" ? refused : gen_errors).insert(f);
          if (d["rule"] == "unusable-schema") {
            EXPECT_NE(d["message"].get<std::string>().find("cannot be generated"),
                      std::string::npos);
          }
        }
      }
      EXPECT_EQ(gen_errors, lint_errors) << "gen's errors are lint's";
      if (!lint_errors.empty()) {
        EXPECT_EQ(gen.status, 1) << gen.err;
        continue;
      }
      // Lint accepts the file: gen writes every operator, or names the ones it cannot.
      if (gen.status == 0) {
        const std::string schema = read_file((dir_ / "out" / "RegisterSchema.cpp").string());
        for (const char* op : {"a(", "b(", "c(", "d("})
          EXPECT_NE(schema.find(std::string("m.def(\"") + op), std::string::npos) << op;
      } else {
        ++gen_refusals;
        EXPECT_EQ(gen.status, 1) << gen.err;
        EXPECT_FALSE(refused.empty()) << "gen failed without naming an operator: " << gen.out;
      }
    }
  }
  EXPECT_GT(gen_refusals, 0u) << "the matrix has silenced errors gen cannot write";
}

}  // namespace
}  // namespace schemac::test
