// lib/frontend/engine's inputs.h, baseline_file.h and unchecked_calls, on small folders.
#include "schemac/engine/documents.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_test_support.h"
#include "schemac/engine/baseline_file.h"
#include "schemac/engine/engine.h"
#include "schemac/sources/scan.h"

namespace schemac::engine {
namespace {

namespace fs = std::filesystem;
using Paths = std::vector<std::string>;

class EngineInputs : public test::ToolDirTest {
 protected:
  EngineInputs() : ToolDirTest("schemac_engine_") {}
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  void put(const std::string& name, const std::string& text) {
    fs::create_directories((dir_ / name).parent_path());
    file(name, text);
  }
  static Paths paths(const std::vector<Document>& documents) {
    Paths out;
    for (const Document& document : documents) out.push_back(document.path);
    return out;
  }
};

TEST_F(EngineInputs, AFolderIsReadAsLintReadsIt) {
  put(".gitignore", "ignored/\n");
  put("ops.yaml", "- func: a(Tensor self) -> Tensor\n");
  put("ignored/ops.yaml", "- func: b(Tensor self) -> Tensor\n");
  put("gen/ops.cpp", "// @generated\nTORCH_LIBRARY(x, m) {}\n");
  put("binary.yaml", std::string("a\0b", 3));
  put("tags.yaml", "- tag: t\n");
  put("notes.txt", "not an input\n");
  std::vector<std::string> skipped;
  InputReading reading;
  reading.skipped = [&](const std::string& path, std::string_view why) {
    skipped.push_back(fs::path(path).filename().string() + ": " + std::string(why).substr(0, 12));
  };
  Inputs read = read_inputs({dir_.string(), at("ops.yaml")}, reading);  // ops.yaml twice
  EXPECT_EQ(paths(read.documents), (Paths{at("ops.yaml")}));
  EXPECT_TRUE(read.documents[0].skip_unknown_format);
  EXPECT_TRUE(read.documents[0].excludable);
  std::sort(skipped.begin(), skipped.end());
  EXPECT_EQ(skipped,
            (Paths{"binary.yaml: it holds a N", "ignored: .gitignore", "ops.cpp: written by a"}));
  EXPECT_TRUE(read.complete);
  EXPECT_TRUE(read.unreadable.empty());
}

TEST_F(EngineInputs, FilesNamedStdinAndByContent) {
  put("ops.yaml", "- func: a(Tensor self) -> Tensor\n");
  put("notes.txt", "x\n");
  InputReading reading;
  reading.read_stdin = [] { return std::string("- func: s(Tensor self) -> Tensor\n"); };
  Inputs read = read_inputs({at("ops.yaml"), "-", "-", at("missing.yaml")}, reading);
  EXPECT_EQ(paths(read.documents), (Paths{at("ops.yaml"), "<stdin>"}));
  EXPECT_FALSE(read.documents[0].excludable) << "named, not found";
  EXPECT_EQ(read.documents[1].config_path, ".");
  EXPECT_EQ(read.unreadable, (Paths{"cannot read '" + at("missing.yaml") + "'"}));
  reading.stdin_name = "named.yaml";
  reading.by_content = true;
  read = read_inputs({"-", at("notes.txt"), at("ops.yaml")}, reading);
  EXPECT_EQ(paths(read.documents), (Paths{"named.yaml", at("ops.yaml")}));
  EXPECT_EQ(read.documents[0].config_path, std::nullopt);
  EXPECT_TRUE(read.documents[1].excludable) << "--by-content";
}

TEST_F(EngineInputs, ConfigureLeavesOutWhatExcludeNames) {
  put(".schemac.yaml", "exclude: [\"vendored/\"]\n");
  put("vendored/ops.yaml", "- func: a(Tensor self) -> Tensor\n");
  put("ops.yaml", "- func: b(Tensor self) -> Tensor\n");
  Inputs read = read_inputs({dir_.string()}, {});
  read.documents.emplace_back(at("vendored/named.yaml"), "", false);  // named: not excludable
  config::ConfigProvider configs;
  Configured configured = configure(std::move(read.documents), &configs, {});
  EXPECT_EQ(paths(configured.documents), (Paths{at("ops.yaml"), at("vendored/named.yaml")}));
  ASSERT_EQ(configured.excluded.size(), 1u);
  EXPECT_EQ(configured.excluded[0].first, at("vendored/ops.yaml"));
  EXPECT_EQ(configured.excluded[0].second, at(".schemac.yaml"));
}

TEST_F(EngineInputs, TheLimitStopsTheSearch) {
  for (int i = 0; i < 4; ++i) file("f" + std::to_string(i) + ".yaml", "[]\n");
  InputReading reading;
  reading.limit = 2;
  EXPECT_FALSE(read_inputs({dir_.string()}, reading).complete);
  reading.limit = 10;
  EXPECT_TRUE(read_inputs({dir_.string()}, reading).complete);
}

TEST_F(EngineInputs, BaselineIsWrittenOnceThenRead) {
  put("ops.yaml", "- func: a(Tensor self) -> Tensor\n  varian: x\n");
  Configured configured =
      configure({Document(at("ops.yaml"), test::read_file(at("ops.yaml")))}, nullptr, {});
  const std::vector<std::string> texts{configured.documents[0].text};
  engine::Run run = lint(configured, texts, {});
  ASSERT_FALSE(run.diagnostics.empty());
  auto read = [](const std::string& path) { return std::optional(test::read_file(path)); };
  BaselineFile first = use_baseline(at("baseline.json"), run.diagnostics, configured, texts, read);
  EXPECT_TRUE(first.written);
  EXPECT_EQ(first.recorded, run.diagnostics.size());
  BaselineFile second = use_baseline(at("baseline.json"), {}, configured, texts, read);
  EXPECT_FALSE(second.written);
  ASSERT_TRUE(second.entries.has_value());
  EXPECT_TRUE(lint(configured, texts, {}, &*second.entries).diagnostics.empty());
  put("bad.json", "not a baseline");
  BaselineFile bad = use_baseline(at("bad.json"), {}, configured, texts, read);
  EXPECT_FALSE(bad.entries.has_value());
  EXPECT_TRUE(bad.problem.starts_with("baseline '" + at("bad.json") + "' is not usable: "))
      << bad.problem;
}

TEST_F(EngineInputs, UncheckedCallsOfRegistrationCode) {
  put("ops.cpp",
      "TORCH_LIBRARY(x, m) {\n"
      "  m.def(\"a(Tensor self) -> Tensor\");\n"
      "  m.def(kSchema);\n"
      "}\n");
  put("ops.yaml", "- func: a(Tensor self) -> Tensor\n");
  Configured configured = configure({Document(at("ops.cpp"), test::read_file(at("ops.cpp"))),
                                     Document(at("ops.yaml"), test::read_file(at("ops.yaml")))},
                                    nullptr, {});
  std::vector<UncheckedCalls> calls = unchecked_calls(configured, {});
  ASSERT_EQ(calls.size(), 1u) << "only registration code";
  EXPECT_EQ(calls[0].path, at("ops.cpp"));
  ASSERT_EQ(calls[0].calls.size(), 1u);
  EXPECT_EQ(calls[0].calls[0].position.line, 3u);
  EXPECT_EQ(unchecked_calls(configured, {{"BAD NAME=1"}, {}})[0].problem.empty(), false);
}

TEST(EngineRegistrationCode, FoundSchemasListEachParsedOneWithItsPlaceOrEachAsJson) {
  std::vector<sources::ScannedFile> files(1);
  files[0].path = "ops.cpp";
  files[0].scan = sources::scan_source(
      "TORCH_LIBRARY(myops, m) {\n  m.def(\"f(Tensor  x) -> Tensor\");\n  m.def(\"g(Tensor "
      "x\");\n}\n",
      sources::Language::cpp);
  EXPECT_EQ(found_schemas_listing(files, {}, false), "ops.cpp:2:9: f(Tensor x) -> Tensor\n");
  const std::string json = found_schemas_listing(files, {}, true);
  EXPECT_EQ(std::count(json.begin(), json.end(), '\n'), 2);
  EXPECT_NE(json.find("\"file\":\"ops.cpp\""), std::string::npos);
}

}  // namespace
}  // namespace schemac::engine
