// The diagnostics type and its renderers: text (source line, caret, notes, colour, summary),
// JSON and SARIF.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/diagnostics/render_github.h"

namespace schemac::schema {

using diagnostics::Diagnostic, diagnostics::Location, diagnostics::Severity,
    diagnostics::SourceFiles, diagnostics::ToolInfo, diagnostics::render_json,
    diagnostics::render_sarif, diagnostics::render_summary, diagnostics::render_text;

namespace {

Diagnostic sample() {
  Diagnostic d{Severity::error,
               "duplicate-overload",
               Location::at("ops.yaml", 3, 9, 7),
               "overload 'add.Tensor' is defined twice",
               {},
               {}};
  d.notes.push_back(diagnostics::Note{Location::at("ops.yaml", 1, 9, 7), "first defined here"});
  return d;
}

SourceFiles sample_sources() {
  SourceFiles sources;
  sources.add(
      "ops.yaml",
      "- func: add.Tensor(Tensor self) -> Tensor\n\n- func: add.Tensor(Tensor a) -> Tensor\n");
  return sources;
}

TEST(TextRenderer, PrintsLocationMessageRuleSourceLineCaretAndNotes) {
  std::vector<Diagnostic> ds{sample()};
  EXPECT_EQ(render_text(ds, sample_sources()),
            "ops.yaml:3:9: error: overload 'add.Tensor' is defined twice [duplicate-overload]\n"
            "  - func: add.Tensor(Tensor a) -> Tensor\n"
            "          ^~~~~~~\n"
            "ops.yaml:1:9: note: first defined here\n"
            "  - func: add.Tensor(Tensor self) -> Tensor\n"
            "          ^~~~~~~\n");
}

TEST(TextRenderer, NoteWithoutLocationAndFixHint) {
  Diagnostic d{Severity::warning,
               "unknown-field",
               Location::at("f.yaml", 1, 3, 7),
               "unknown field 'dispach'",
               {},
               {}};
  d.notes.push_back(diagnostics::Note{{}, "did you mean 'dispatch'?"});
  d.fix = diagnostics::FixHint{Location::at("f.yaml", 1, 3, 7), "dispatch"};
  SourceFiles sources;
  sources.add("f.yaml", "  dispach:\n");
  std::vector<Diagnostic> ds{d};
  EXPECT_EQ(render_text(ds, sources),
            "f.yaml:1:3: warning: unknown field 'dispach' [unknown-field]\n"
            "    dispach:\n"
            "    ^~~~~~~\n"
            "note: did you mean 'dispatch'?\n"
            "f.yaml:1:3: note: fix: replace with 'dispatch'\n");
}

TEST(TextRenderer, CaretFollowsTabsAndClampsToTheLine) {
  Diagnostic d{Severity::error, "yaml-tab", Location{"t.yaml", 1, 3, 1, 40}, "m", {}, {}};
  SourceFiles sources;
  sources.add("t.yaml", "\tx\r\n");
  std::vector<Diagnostic> ds{d};
  EXPECT_EQ(render_text(ds, sources), "t.yaml:1:3: error: m [yaml-tab]\n  \tx\n  \t ^\n");
}

TEST(TextRenderer, ColourOnlyWhenAskedFor) {
  std::vector<Diagnostic> ds{sample()};
  EXPECT_EQ(render_text(ds, sample_sources()).find('\033'), std::string::npos);
  std::string coloured = render_text(ds, sample_sources(), diagnostics::TextStyle{true});
  EXPECT_NE(coloured.find("\033[1;31merror:\033[0m"), std::string::npos) << coloured;
}

TEST(TextRenderer, SummaryCountsWithPlurals) {
  EXPECT_EQ(render_summary({0, 0}), "0 errors, 0 warnings\n");
  EXPECT_EQ(render_summary({1, 1}), "1 error, 1 warning\n");
  EXPECT_EQ(render_summary({3, 2}), "3 errors, 2 warnings\n");
  std::vector<Diagnostic> ds{sample(), sample()};
  ds[1].severity = Severity::warning;
  diagnostics::DiagnosticCounts counts = diagnostics::count_diagnostics(ds);
  EXPECT_EQ(counts.errors, 1u);
  EXPECT_EQ(counts.warnings, 1u);
}

TEST(Diagnostics, SortByFileLineColumnKeepingOrderAtOnePlace) {
  std::vector<Diagnostic> ds(4);
  ds[0].location = Location::at("b", 1, 1);
  ds[1].location = Location::at("a", 2, 5);
  ds[2].location = Location::at("a", 2, 1);
  ds[3].location = Location::at("a", 2, 1);
  ds[2].message = "first";
  ds[3].message = "second";
  diagnostics::sort_diagnostics(ds);
  EXPECT_EQ(ds[0].message, "first");
  EXPECT_EQ(ds[1].message, "second");
  EXPECT_EQ(ds[2].location.column, 5u);
  EXPECT_EQ(ds[3].location.file, "b");
}

TEST(GithubRenderer, OneWorkflowCommandPerDiagnosticEscaped) {
  Diagnostic warning{Severity::warning, "r:1", Location::at("a,b.yaml", 2, 3),
                     "50% off\nnow",    {},    {}};
  EXPECT_EQ(
      diagnostics::render_github(std::vector<Diagnostic>{sample(), warning}),
      "::error file=ops.yaml,line=3,col=9,endColumn=16,title=duplicate-overload::overload "
      "'add.Tensor' is defined twice [duplicate-overload]\n"
      "::warning file=a%2Cb.yaml,line=2,col=3,endColumn=4,title=r%3A1::50%25 off%0Anow [r:1]\n");
}

TEST(JsonRenderer, ArrayOfDiagnosticsWithNotesAndEnds) {
  std::vector<Diagnostic> ds{sample()};
  EXPECT_EQ(
      render_json(ds),
      "[\n  {\"file\":\"ops.yaml\",\"line\":3,\"column\":9,\"end\":{\"line\":3,\"column\":16},"
      "\"severity\":\"error\",\"rule\":\"duplicate-overload\","
      "\"message\":\"overload 'add.Tensor' is defined twice\",\"notes\":[{\"file\":\"ops.yaml\","
      "\"line\":1,\"column\":9,\"end\":{\"line\":1,\"column\":16},\"message\":\"first defined "
      "here\"}]}\n]\n");
  EXPECT_EQ(render_json({}), "[]\n");
}

// Whatever a name or message holds, both renderers print valid JSON: quotes, backslashes,
// control characters and UTF-8 come back as they were; bytes that are not UTF-8 become U+FFFD.
TEST(JsonRenderers, AnyTextStaysValidJson) {
  const std::string hostile = "a\"b\\c\nd\te\x01\x1f\x7f caf\xc3\xa9";
  Diagnostic d{Severity::error, hostile, Location::at(hostile, 1, 1), hostile, {}, {}};
  d.notes.push_back({Location::at(hostile, 2, 3), hostile});
  d.fix = diagnostics::FixHint{Location::at("f.yaml", 1, 1), hostile};
  const std::vector<Diagnostic> ds{d};
  const nlohmann::json json = nlohmann::json::parse(render_json(ds));
  EXPECT_EQ(json[0]["message"], hostile);
  EXPECT_EQ(json[0]["rule"], hostile);
  EXPECT_EQ(json[0]["file"], hostile);
  EXPECT_EQ(json[0]["notes"][0]["message"], hostile);
  EXPECT_EQ(json[0]["fix"]["replacement"], hostile);
  static constexpr diagnostics::RuleInfo kRules[] = {
      {"duplicate-overload", Severity::error, "overloads are unique"}};
  const nlohmann::json sarif =
      nlohmann::json::parse(render_sarif(ds, ToolInfo{"schemac", "0.1.0", "", kRules}));
  EXPECT_EQ(sarif["runs"][0]["results"][0]["message"]["text"], hostile);
  EXPECT_EQ(sarif["runs"][0]["tool"]["driver"]["rules"][1]["id"], hostile);

  Diagnostic bad{Severity::error,   "r", Location::at("bad\xff.yaml", 1, 1),
                 "bad\xff\xc3 end", {},  {}};
  const nlohmann::json replaced = nlohmann::json::parse(render_json(std::vector<Diagnostic>{bad}));
  EXPECT_EQ(replaced[0]["message"], "bad\xef\xbf\xbd\xef\xbf\xbd end");
  EXPECT_EQ(replaced[0]["file"], "bad\xef\xbf\xbd.yaml");
  nlohmann::json
      bad_sarif;  // json::parse warns when its result is dropped, even through a void cast
  EXPECT_NO_THROW(bad_sarif = nlohmann::json::parse(render_sarif(
                      std::vector<Diagnostic>{bad}, ToolInfo{"schemac", "0.1.0", "", {}})));
}

TEST(SarifRenderer, HasVersionDriverRulesAndLocatedResults) {
  static constexpr diagnostics::RuleInfo kRules[] = {
      {"duplicate-overload", Severity::error, "overloads are unique"}};
  std::vector<Diagnostic> ds{sample()};
  ds.push_back(Diagnostic{
      Severity::warning, "other-rule", Location::at("/abs/x y.yaml", 2, 1), "w", {}, {}});
  std::string sarif = render_sarif(ds, ToolInfo{"schemac", "0.1.0", "", kRules});
  for (const char* expected :
       {"\"version\": \"2.1.0\"", "\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\"",
        "\"name\":\"schemac\"",
        "{\"id\":\"duplicate-overload\",\"shortDescription\":{\"text\":\"overloads are unique\"},"
        "\"defaultConfiguration\":{\"level\":\"error\"}}",
        "{\"id\":\"other-rule\"",  // a rule not in the table is added so every ruleId resolves
        "\"ruleId\":\"duplicate-overload\",\"level\":\"error\"",
        "{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"ops.yaml\"},\"region\":{"
        "\"startLine\":3,\"startColumn\":9,\"endLine\":3,\"endColumn\":16}}}",
        "\"relatedLocations\":[{\"id\":0,\"message\":{\"text\":\"first defined here\"}",
        "\"uri\":\"file:///abs/x%20y.yaml\"", "\"level\":\"warning\""}) {
    EXPECT_NE(sarif.find(expected), std::string::npos) << expected << "\n" << sarif;
  }
}

TEST(SourceFiles, LinesAreOneBasedWithoutLineBreaks) {
  SourceFiles sources;
  sources.add("f", "one\ntwo\r\nthree");
  EXPECT_EQ(sources.line("f", 1), "one");
  EXPECT_EQ(sources.line("f", 2), "two");
  EXPECT_EQ(sources.line("f", 3), "three");
  EXPECT_EQ(sources.line("f", 4), "");
  EXPECT_EQ(sources.line("f", 0), "");
  EXPECT_EQ(sources.line("g", 1), "");
}

// parse's form: the place and message on one line, then the line given alone and its caret,
// unindented; colour only when asked for.
TEST(TextRenderer, ALineGivenAloneShowsItsProblemUnindented) {
  EXPECT_EQ(diagnostics::render_line_problem("<stdin>:2:14", Severity::error, "expected ')'",
                                             "schema-syntax", "foo(Tensor x,) -> ()", 14, 15),
            "<stdin>:2:14: error: expected ')' [schema-syntax]\n"
            "foo(Tensor x,) -> ()\n"
            "             ^\n");
  const std::string colored = diagnostics::render_line_problem(
      "<argument 1>:1:1", Severity::warning, "m", "r", "f() -> ()", 1, 2, {true});
  EXPECT_TRUE(colored.starts_with("\033[1m<argument 1>:1:1:\033[0m ")) << colored;
}

}  // namespace
}  // namespace schemac::schema
