// Helpers shared by the tests of several areas: whole-file reads and writes, the golden refresh
// flag, help text as words, and a fixture that runs a command line in a fresh temporary folder, capturing its exit
// status, stdout and stderr apart.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace schemac::test {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// Help text with every run of spaces and line breaks as one space: CLI11 releases wrap option
// descriptions at different columns (2.1 not at all, 2.6 at 65), so a test of what help says
// compares words.
inline std::string words(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t';
    if (!space) out += c;
    else if (!out.empty() && out.back() != ' ') out += ' ';
  }
  return out;
}

// Goldens are rewritten only when SCHEMAC_UPDATE_GOLDEN=1, and never in CI (CI set, not "false"):
// there the flag fails the test instead, so a run cannot pass by rewriting what it checks.
inline bool update_golden() {
  const char* flag = std::getenv("SCHEMAC_UPDATE_GOLDEN");
  if (!flag || std::string(flag) != "1") return false;
  const char* ci = std::getenv("CI");
  if (ci && *ci && std::string(ci) != "false") {
    ADD_FAILURE() << "SCHEMAC_UPDATE_GOLDEN=1 is set under CI: goldens are compared in CI, never rewritten";
    return false;
  }
  return true;
}

struct ToolRun {
  int status = -1;
  std::string out;
  std::string err;
};

// A test with its own empty folder, named after `prefix`, the process and the test.
class ToolDirTest : public ::testing::Test {
 protected:
  explicit ToolDirTest(std::string prefix) : prefix_(std::move(prefix)) {}

  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           (prefix_ + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void file(const std::string& name, const std::string& text) { write_file((dir_ / name).string(), text); }

  // Runs `line` with `cwd` (the test's folder by default) as working directory; stdout and stderr
  // go to files in the test's folder.
  ToolRun shell(const std::string& line, const std::filesystem::path& cwd = {}) {
    std::string command = "cd '" + (cwd.empty() ? dir_ : cwd).string() + "' && " + line + " >'" +
                          (dir_ / "stdout.txt").string() + "' 2>'" + (dir_ / "stderr.txt").string() + "'";
    ToolRun run;
    int raw = std::system(command.c_str());
    run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    run.out = read_file((dir_ / "stdout.txt").string());
    run.err = read_file((dir_ / "stderr.txt").string());
    return run;
  }

  std::filesystem::path dir_;

 private:
  std::string prefix_;
};

}  // namespace schemac::test
