// Both tools end to end on the chores tools/cli does for them: --version, usage errors, and
// inputs that cannot be read (missing, a directory, binary, not UTF-8) with exit 2 and one line.
#include <string>

#include <gtest/gtest.h>

#include "cli_test_support.h"
#include "schemac/support/version.h"

namespace schemac::cli {
namespace {

using test::ToolRun;

class ToolsCli : public test::ToolDirTest {
 protected:
  ToolsCli() : ToolDirTest("schemac_tools_cli_") {}
  void SetUp() override {
    ToolDirTest::SetUp();
    file("ops.yaml", "- func: relu(Tensor self) -> Tensor\n");
    file("binary.yaml", std::string("- func: relu\0", 13));
    file("binary.py", std::string("import torch\0", 13));
    file("latin1.yaml", "# caf\xe9\n- func: relu(Tensor self) -> Tensor\n");
    std::filesystem::create_directory(dir_ / "folder");
  }
  ToolRun schemac(const std::string& args) { return shell("'" SCHEMAC_EXE "' " + args); }
  ToolRun inspect(const std::string& args) { return shell("'" DISPATCH_INSPECT_EXE "' " + args); }
};

TEST_F(ToolsCli, VersionComesFromTheProjectVersion) {
  ToolRun a = schemac("--version");
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.out, "schemac " + std::string(support::kVersion) + "\n");
  ToolRun b = inspect("--version");
  EXPECT_EQ(b.status, 0);
  EXPECT_EQ(b.out, "dispatch-inspect " + std::string(support::kVersion) + "\n");
}

TEST_F(ToolsCli, UsageErrorsExit2AndHelpExits0) {
  EXPECT_EQ(schemac("lint --no-such-option ops.yaml").status, 2);
  EXPECT_EQ(schemac("lint --format xml ops.yaml").status, 2);
  EXPECT_EQ(inspect("ops --format torch").status, 2);
  EXPECT_EQ(inspect("").status, 2);
  EXPECT_EQ(schemac("lint --help").status, 0);
  EXPECT_EQ(inspect("--help").status, 0);
}

TEST_F(ToolsCli, UnreadableInputsSayWhyAndExit2) {
  struct Case {
    std::string command, expected;
  };
  for (const Case& c : {
           Case{"lint missing.yaml", "schemac lint: error: cannot read 'missing.yaml': no such file\n"},
           Case{"lint missing.cpp", "schemac lint: error: cannot read 'missing.cpp': no such file\n"},
           Case{"lint binary.py",
                "schemac lint: error: cannot read 'binary.py': it holds a NUL byte at line 1, column 13 "
                "(a binary file?)\n"},
           Case{"lint binary.yaml",
                "schemac lint: error: cannot read 'binary.yaml': it holds a NUL byte at line 1, column 13 "
                "(a binary file?)\n"},
           Case{"lint latin1.yaml",
                "schemac lint: error: cannot read 'latin1.yaml': it is not UTF-8: byte 0xe9 at line 1, column 6\n"},
           Case{"lint --tags folder ops.yaml", "schemac lint: error: cannot read tags file 'folder': it is a directory\n"},
           Case{"compat ops.yaml binary.yaml",
                "schemac compat: error: cannot read 'binary.yaml': it holds a NUL byte at line 1, column 13 "
                "(a binary file?)\n"},
           Case{"gen latin1.yaml -o out",
                "schemac gen: error: cannot read 'latin1.yaml': it is not UTF-8: byte 0xe9 at line 1, column 6\n"},
       }) {
    ToolRun run = schemac(c.command);
    EXPECT_EQ(run.status, 2) << c.command;
    EXPECT_EQ(run.err, c.expected) << c.command;
    EXPECT_EQ(run.out, "") << c.command;
  }
  ToolRun script = inspect("simulate --script folder");
  EXPECT_EQ(script.status, 2);
  EXPECT_EQ(script.err, "dispatch-inspect: error: cannot read script 'folder': it is a directory\n");
}

}  // namespace
}  // namespace schemac::cli
