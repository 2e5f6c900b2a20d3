// End-to-end tests of `schemac parse` (docs/design.md §3): runs the built tool with temp files and
// checks stdout, stderr and the exit code exactly.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace {

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

// Runs `schemac parse ARGS...` with `input` on stdin.
CliRun run_parse(const std::vector<std::string>& args, const std::string& input = "") {
  auto dir = std::filesystem::temp_directory_path() /
             ("schemac_parse_cli_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "in", std::ios::binary) << input;
  std::string command = quote(SCHEMAC_EXE) + " parse";
  for (const std::string& arg : args) command += " " + quote(arg);
  command += " <" + quote((dir / "in").string()) + " >" + quote((dir / "out").string()) +
             " 2>" + quote((dir / "err").string());
  int status = std::system(command.c_str());
  CliRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = read_file(dir / "out");
  run.err = read_file(dir / "err");
  std::filesystem::remove_all(dir);
  return run;
}

TEST(ParseCli, PrintsCanonicalSchemasFromArguments) {
  CliRun run = run_parse({"aten::add.Tensor(Tensor self,Tensor other,*,Scalar alpha=1)->Tensor",
                       "f( int[ 2 ] x = [ 1 , 2 ] ) -> ( )"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out,
            "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
            "f(int[2] x=[1,2]) -> ()\n");
  EXPECT_EQ(run.err, "");
}

TEST(ParseCli, ReadsNonBlankLinesOfStdin) {
  CliRun run = run_parse({}, "a() -> ()\n\n   \nb(Tensor x)->Tensor\r\n");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "a() -> ()\nb(Tensor x) -> Tensor\n");
}

TEST(ParseCli, EmptyStdinIsFine) {
  CliRun run = run_parse({}, "");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "");
}

TEST(ParseCli, ErrorShowsColumnLineAndCaret) {
  CliRun run = run_parse({}, "a() -> ()\nfoo(Tensor x,) -> ()\n");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "a() -> ()\n");
  EXPECT_EQ(run.err,
            "<stdin>:2:14: error: expected an argument after ',', found ')' [schema-syntax]\n"
            "foo(Tensor x,) -> ()\n"
            "             ^\n");
}

TEST(ParseCli, SemanticErrorUnderlinesTheValue) {
  CliRun run = run_parse({"f(int[] x=[1,2.5]) -> ()"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err,
            "<argument 1>:1:14: error: default 2.5 of argument 'x' does not fit its element type "
            "'int' [default-unreadable]\n"
            "f(int[] x=[1,2.5]) -> ()\n"
            "             ^~~\n");
}

// What PyTorch takes but is questionable: printed, with a warning on stderr, exit 0.
TEST(ParseCli, WarningIsShownAndTheSchemaPrinted) {
  CliRun run = run_parse({"f(int[2] x=[1,2,3]) -> ()"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "f(int[2] x=[1,2,3]) -> ()\n");
  EXPECT_EQ(run.err,
            "<argument 1>:1:12: warning: default [1,2,3] of argument 'x' has 3 elements, but its "
            "type 'int[2]' has 2 [default-length]\n"
            "f(int[2] x=[1,2,3]) -> ()\n"
            "           ^~~~~~~\n");
}

// Seen in vllm csrc/torch_bindings.cpp: one argument name twice. --werror fails it.
TEST(ParseCli, WerrorTurnsWarningsIntoExitOne) {
  const std::string schema = "f(Tensor q_seqlens, Tensor q_seqlens) -> ()";
  EXPECT_EQ(run_parse({schema}).exit_code, 0);
  CliRun run = run_parse({"--werror", schema});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "f(Tensor q_seqlens, Tensor q_seqlens) -> ()\n");
  EXPECT_NE(run.err.find("<argument 1>:1:28: warning: argument name 'q_seqlens' is used twice "
                         "[duplicate-argument]"),
            std::string::npos)
      << run.err;
  CliRun json = run_parse({"--json", "--werror", schema});
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_NE(json.out.find(R"x("warnings":[{"message":"argument name 'q_seqlens' is used twice",)x"
                          R"x("column":28,"rule":"duplicate-argument"}])x"),
            std::string::npos)
      << json.out;
}

// PyTorch's alias model in the JSON: after == before without `->`, a fresh `$N` set per `!`.
TEST(ParseCli, JsonAliasModelIsPyTorchs) {
  CliRun run = run_parse({"--json", "f(Tensor(a!) self, Tensor! x, Tensor!? y) -> ()"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find(R"x("alias":{"before":["a"],"after":["a"],"write":true})x"),
            std::string::npos) << run.out;
  EXPECT_NE(run.out.find(R"x("alias":{"before":["$0"],"after":[],"write":true})x"),
            std::string::npos) << run.out;
  EXPECT_NE(run.out.find(R"x("alias":{"before":["$1"],"after":[],"write":true})x"),
            std::string::npos) << run.out;
}

TEST(ParseCli, JsonForASchema) {
  CliRun run = run_parse({"--json", "ns::f.o(Tensor(a!)[] x, *, int? y=None) -> (Tensor(a) r, ...)"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out,
            R"x({"ok":true,"canonical":"ns::f.o(Tensor(a!)[] x, *, int? y=None) -> (Tensor(a) r, ...)",)x"
            R"x("schema":{"name":"ns::f","overload":"o","arguments":[)x"
            R"x({"name":"x","type":"Tensor(a!)[]","default":null,"kwarg_only":false,)x"
            R"x("alias":{"before":[],"after":[],"write":true,)x"
            R"x("contained":[{"before":["a"],"after":["a"],"write":true}]}},)x"
            R"x({"name":"y","type":"int?","default":"None","kwarg_only":true,"alias":null}],)x"
            R"x("returns":[{"name":"r","type":"Tensor(a)","default":null,"kwarg_only":false,)x"
            R"x("alias":{"before":["a"],"after":["a"],"write":false}}],)x"
            R"x("is_vararg":false,"is_varret":true},"warnings":[]})x"
            "\n");
}

TEST(ParseCli, JsonEscapesStrings) {
  CliRun run = run_parse({"--json", R"x(f(str s='"\'\\') -> ())x"});
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find(R"x("default":"'\"\\'\\\\'")x"), std::string::npos) << run.out;
}

TEST(ParseCli, JsonForAnErrorHasTheColumn) {
  CliRun run = run_parse({"--json"}, "foo(Tensor) -> ()\n");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out,
            R"x({"ok":false,"error":"expected an argument name after the type, found ')'",)x"
            R"x("column":11,"rule":"schema-syntax","warnings":[]})x"
            "\n");
  EXPECT_EQ(run.err, "");
}

TEST(ParseCli, UsageErrorExitsWithTwo) {
  CliRun run = run_parse({"--no-such-flag"});
  EXPECT_EQ(run.exit_code, 2);
}

TEST(ParseCli, WholeCorpusRoundTripsThroughTheTool) {
  std::ifstream file(SCHEMAC_CORPUS_FILE);
  std::string schemas;
  for (std::string line; std::getline(file, line);) {
    if (line.rfind("- func: ", 0) == 0) schemas += line.substr(8) + "\n";
  }
  CliRun run = run_parse({}, schemas);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, schemas);
}

}  // namespace
