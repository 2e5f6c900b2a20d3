// Every subcommand of both tools on every kind of bad input file: a missing file, a directory, an
// empty file, a binary file, invalid UTF-8, one huge line, a truncated shared library, and the
// wrong kind of file. Each run ends with exit 1 or 2 (never a signal), says what went wrong
// naming the file (on stderr, or, for lint's and compat's findings in the file, on stdout), keeps every output line under 2 KB (long excerpts are clipped), and
// leaves nothing half-written (gen's output folder is as it was).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../common/cli_test_support.h"

namespace {

namespace fs = std::filesystem;
using schemac::test::read_file;
using schemac::test::ToolRun;

constexpr size_t kMaxLineBytes = 2048;

// One kind of bad file: its name in the test folder and its bytes (none: the file is missing;
// a directory is made for "folder").
struct BadFile {
  std::string name;
  std::function<void(const fs::path&)> make;
};

std::string random_bytes(size_t size) {
  std::mt19937 random(19);
  std::string bytes(size, '\0');
  for (char& c : bytes) c = static_cast<char>(random() & 0xFF);
  return bytes;
}

std::vector<BadFile> bad_files() {
  auto write = [](std::string bytes) {
    return [bytes](const fs::path& path) { schemac::test::write_file(path.string(), bytes); };
  };
  const std::string library = read_file(GOOD_LIBRARY);
  return {
      {"missing.yaml", [](const fs::path&) {}},
      {"folder.yaml", [](const fs::path& path) { fs::create_directories(path); }},
      {"empty.yaml", write("")},
      {"binary.yaml", write(random_bytes(64 * 1024))},
      {"latin1.yaml", write("- func: caf\xe9(Tensor self) -> Tensor\n  variants: function\xff\xfe\n")},
      {"huge_line.yaml", write("- func: f(Tensor self) -> Tensor  # " + std::string(300 * 1024, 'x') + "\n" +
                               "- func: " + std::string(100 * 1024, 'g') + "(\n")},
      {"truncated.so", write(library.substr(0, 4096))},
      {"library.so", write(library)},  // the wrong kind for a YAML input
      {"ops.yaml", write(read_file(GOOD_YAML))},  // the wrong kind for --load and --script
  };
}

struct Command {
  std::string name;
  std::string line;      // {} is the bad file
  bool names_file = true;             // stdin inputs have no name to give
  std::vector<std::string> good_for;  // files this command accepts (no error expected)
};

std::string q(const std::string& s) { return "'" + s + "'"; }

std::vector<Command> commands() {
  const std::string schemac = q(SCHEMAC_EXE);
  const std::string inspect = q(DISPATCH_INSPECT);
  const std::string good = q(GOOD_YAML);
  return {
      {"schemac parse", schemac + " parse < {}", false, {"missing.yaml", "folder.yaml", "empty.yaml"}},
      // A folder is a search: one with nothing to lint is a note, exit 0 (docs/daily-use.md).
      {"schemac lint", schemac + " lint {}", true, {"ops.yaml", "folder.yaml"}},
      {"schemac lint --tags", schemac + " lint --tags {} " + good, true, {}},
      {"schemac lint --config", schemac + " lint --config {} " + good, true, {"empty.yaml"}},
      // A missing baseline is created with today's findings.
      {"schemac lint --baseline", schemac + " lint --baseline {} " + good, true, {"missing.yaml"}},
      {"schemac lint -", schemac + " lint - --stdin-filename in.yaml < {}", false,
       {"missing.yaml", "folder.yaml", "ops.yaml"}},
      {"schemac gen", schemac + " gen {} -o out", true, {"ops.yaml"}},
      {"schemac compat (old)", schemac + " compat {} " + good, true, {"ops.yaml"}},
      {"schemac compat (new)", schemac + " compat " + good + " {}", true, {"ops.yaml"}},
      // An empty allow-list allows nothing: not an error.
      {"schemac compat --allow", schemac + " compat " + good + " " + good + " --allow {}", true, {"empty.yaml"}},
      {"simulate --script", inspect + " simulate --script {}", true, {}},
      // Both option orders: --load LIB OP and OP --load LIB.
      {"ops --load", inspect + " ops --load {}", true, {"library.so"}},
      {"table --load", inspect + " table example_plugin::scale --load {}", true, {"library.so"}},
      {"dump --load", inspect + " dump --load {} example_plugin::scale", true, {"library.so"}},
      {"resolve --load", inspect + " resolve example_plugin::scale --keys CPU --load {}", true, {"library.so"}},
      {"trace --load", inspect + " trace --load {} example_plugin::scale --arg cpu:float32[2] --arg 2.0", true,
       {"library.so"}},
      // Globs load the libraries as a plain name does; diff loads them on one side or both.
      {"table --load (glob)", inspect + " table 'example_plugin::*' --load {}", true, {"library.so"}},
      {"audit --op --load", inspect + " audit --op 'example_plugin::*' --load {}", true, {"library.so"}},
      {"diff --load", inspect + " diff example_plugin::scale --load {} --right-load " + q(GOOD_LIBRARY), true,
       {"library.so"}},
      {"diff --left-load", inspect + " diff --left-load {} example_plugin::scale --right-load " + q(GOOD_LIBRARY),
       true, {"library.so"}},
      {"diff --right-load", inspect + " diff example_plugin::scale --right-load {}", true, {"library.so"}},
  };
}

// Every file under `dir` with its bytes.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    files[fs::relative(entry.path(), dir).string()] = entry.is_regular_file() ? read_file(entry.path().string()) : "/";
  }
  return files;
}

std::string long_line(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.size() > kMaxLineBytes) return line.substr(0, 120) + fmt::format("... ({} bytes)", line.size());
  }
  return "";
}

class BadInput : public schemac::test::ToolDirTest {
 protected:
  BadInput() : ToolDirTest("schemac_bad_input_") {}
};

// Registration code is read as text, whatever its bytes: binary and huge-line files and
// pathological type hints (deep nesting, every form PyTorch rejects) get located errors or
// nothing, never a signal or a long diagnostic line, from lint, parse --source (text and YAML)
// and compat.
TEST_F(BadInput, RegistrationCodeWithBadBytesOrHints) {
  const std::string schemac = q(SCHEMAC_EXE);
  const std::string deep = std::string(5000, '(') + "1" + std::string(5000, ')');
  std::string nested = "Tensor";
  for (int i = 0; i < 3000; ++i) nested = "list[" + nested + "]";
  const std::map<std::string, std::string> files = {
      {"binary.py", random_bytes(64 * 1024)},
      {"binary.cpp", random_bytes(64 * 1024)},
      {"huge_line.py", "import torch\n@torch.library.custom_op('a::f', mutates_args=())\ndef f(x: torch.Tensor, s: str = '" +
                           std::string(300 * 1024, 'x') + "') -> None: ...\n"},
      {"bad_hints.py",
       "import torch\n@torch.library.custom_op('a::f', mutates_args=('z',))\n"
       "def f(x, /, *args: int, y: dict[str, int], n: int = " + deep + ", **kw) -> " + nested + ": ...\n"
       "@torch.library.custom_op('a::g', mutates_args=())\ndef g(x: '" + std::string(2000, '[') + "') -> None: ...\n"},
  };
  for (const auto& [name, bytes] : files) schemac::test::write_file((dir_ / name).string(), bytes);
  for (const auto& [name, bytes] : files) {
    for (const std::string& line : {schemac + " lint " + name, schemac + " parse --source " + name,
                                    schemac + " parse --format yaml --source " + name,
                                    schemac + " compat " + name + " " + name}) {
      SCOPED_TRACE(line);
      const ToolRun run = shell(line);
      if (name.starts_with("binary.")) {  // not text: cannot be read, whatever its language
        EXPECT_EQ(run.status, 2) << run.err;
        EXPECT_NE(run.err.find("cannot read '" + name + "'"), std::string::npos) << run.err;
      } else {
        EXPECT_TRUE(run.status == 0 || run.status == 1) << "exit " << run.status << " (-1: a signal)\n" << run.err;
      }
      EXPECT_EQ(long_line(run.err), "") << "a line of stderr is over 2 KB";
      // parse prints the schemas it finds, a 300 KB default included: that is its output.
      if (line.find(" parse ") == std::string::npos) {
        EXPECT_EQ(long_line(run.out), "") << "a line of stdout is over 2 KB";
      }
    }
  }
  const ToolRun hints = shell(schemac + " lint bad_hints.py");
  EXPECT_EQ(hints.status, 1);
  for (const char* expected : {"bad_hints.py:3:7: error: custom op 'a::f': parameter 'x' is positional-only",
                               "bad_hints.py:3:13: error: custom op 'a::f': parameter '*args'",
                               "[custom-op-schema]"}) {
    EXPECT_NE(hints.out.find(expected), std::string::npos) << expected << "\n" << hints.out.substr(0, 3000);
  }
}

TEST_F(BadInput, OptionsNeverSwallowTheOperator) {
  const std::string inspect = q(DISPATCH_INSPECT);
  const std::string lib = q(GOOD_LIBRARY);
  for (const std::string& line : {
           inspect + " trace --load " + lib + " example_plugin::scale --arg cpu:float32[2] --arg 2.0",
           inspect + " trace example_plugin::scale --arg cpu:float32[2] --load " + lib + " --arg 2.0",
           inspect + " table --load " + lib + " example_plugin::scale",
           inspect + " dump --load " + lib + " example_plugin::scale --format torch",
           inspect + " resolve --load " + lib + " example_plugin::scale --keys CPU",
       }) {
    const ToolRun run = shell(line);
    EXPECT_EQ(run.status, 0) << line << "\n" << run.err;
    EXPECT_NE(run.out.find("example_plugin::scale"), std::string::npos) << line << "\n" << run.out;
  }
}

// Operator globs and diff's options with bad values: huge, binary or unsupported patterns, a
// runtime that does not exist, two sides that are the same. Each is an error naming what is
// wrong, exit 1 or 2, no output, and no line of stderr over 2 KB (a huge pattern is not echoed).
TEST_F(BadInput, GlobsAndDiffOptionsWithBadValues) {
  const std::string inspect = q(DISPATCH_INSPECT);
  const std::string load = " --load " + q(GOOD_LIBRARY);
  // 100 KB: one argument may not exceed 128 KB (MAX_ARG_STRLEN).
  const std::string huge = "'" + std::string(100 * 1024, '*') + "'";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"table " + huge + load, "an operator pattern of 102400 bytes (at most 512)"},
      {"resolve " + huge + " --keys CPU" + load, "an operator pattern of 102400 bytes"},
      {"diff " + huge + " --right-load " + q(GOOD_LIBRARY), "an operator pattern of 102400 bytes"},
      {"audit --op " + huge + load, "an operator pattern of 102400 bytes"},
      {"dump \"$(printf 'example_plugin::\\001*')\"" + load, "byte 0x01 (column 17) is not allowed"},
      {"trace 'example_plugin::{scale,count}*' --arg 1" + load, "'{' (column 17) is not allowed"},
      {"table 'nowhere::*'" + load, "no operator matches 'nowhere::*'"},
      {"diff example_plugin::scale --left-runtime pytorch --right-load " + q(GOOD_LIBRARY), "--left-runtime"},
      {"diff example_plugin::scale" + load, "both sides are the same"},
      {"diff example_plugin::scale --right-load", "--right-load"},
  };
  for (const auto& [args, expected] : cases) {
    SCOPED_TRACE(args.substr(0, 200));
    const ToolRun run = shell(inspect + " " + args);
    EXPECT_TRUE(run.status == 1 || run.status == 2) << "exit " << run.status << "\n" << run.err.substr(0, 2000);
    EXPECT_NE(run.err.find(expected), std::string::npos) << run.err.substr(0, 2000);
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(long_line(run.err), "") << "a line of stderr is over 2 KB";
  }
}

TEST_F(BadInput, EverySubcommandAnswersEveryBadFileWithAnErrorAndShortLines) {
  for (const BadFile& bad : bad_files()) bad.make(dir_ / bad.name);
  fs::create_directories(dir_ / "out");
  schemac::test::write_file((dir_ / "out" / "keep.txt").string(), "an earlier run's file\n");
  const auto out_before = snapshot(dir_ / "out");
  for (const Command& command : commands()) {
    for (const BadFile& bad : bad_files()) {
      const bool good = std::find(command.good_for.begin(), command.good_for.end(), bad.name) != command.good_for.end();
      if (good) continue;
      const std::string line = fmt::format(fmt::runtime(command.line), q(bad.name));
      SCOPED_TRACE(line);
      const ToolRun run = shell(line);
      EXPECT_TRUE(run.status == 1 || run.status == 2) << "exit " << run.status << " (-1: a signal)\n" << run.err;
      const std::string said = run.err + run.out;
      EXPECT_NE(said.find("error"), std::string::npos) << "no error:\n" << said.substr(0, 2000);
      if (command.names_file) {
        EXPECT_NE(said.find(bad.name), std::string::npos) << "the error does not name the file:\n"
                                                          << said.substr(0, 2000);
      }
      EXPECT_EQ(long_line(run.err), "") << "a line of stderr is over 2 KB";
      EXPECT_EQ(long_line(run.out), "") << "a line of stdout is over 2 KB";
      EXPECT_EQ(snapshot(dir_ / "out"), out_before) << "the output folder changed";
    }
  }
}

}  // namespace
