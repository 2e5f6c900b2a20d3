// dispatch-inspect's options: list options repeat or take commas, a subcommand's options may stand
// before it, a one-value option takes one value, and a command has one runtime.
#include <gtest/gtest.h>

#include <string>

#include "../common/cli_test_support.h"

namespace {

class InspectOptionLists : public schemac::test::ToolDirTest {
 protected:
  InspectOptionLists() : ToolDirTest("inspect_options_") {}
  schemac::test::ToolRun inspect(const std::string& args) { return shell(std::string("'") + DISPATCH_INSPECT + "' " + args); }
};

std::string q(const char* path) { return std::string("'") + path + "'"; }

TEST_F(InspectOptionLists, ListsRepeatOptionsBeforeTheCommandOneRuntime) {
  const std::string load = " --load " + q(INSPECT_CPP_OPS_LIBRARY);
  const schemac::test::ToolRun joined = inspect("resolve inspect_test::twice --keys CPU,ADInplaceOrView,AutogradCPU" + load);
  ASSERT_EQ(joined.status, 0) << joined.err;
  for (const char* keys : {"--keys CPU --keys ADInplaceOrView --keys AutogradCPU",
                                  "--keys CPU,ADInplaceOrView --keys=AutogradCPU"}) {
    const schemac::test::ToolRun repeated = inspect(std::string("resolve inspect_test::twice ") + keys + load);
    EXPECT_EQ(repeated.status, 0) << keys << "\n" << repeated.err;
    EXPECT_EQ(repeated.out, joined.out) << keys;
  }
  const schemac::test::ToolRun excluded = inspect("resolve inspect_test::twice --keys CPU,AutogradCPU --exclude AutogradCPU,ADInplaceOrView" + load);
  EXPECT_EQ(inspect("resolve inspect_test::twice --keys CPU,AutogradCPU --exclude AutogradCPU --exclude ADInplaceOrView" + load).out,
            excluded.out);
  EXPECT_NE(excluded.out.find("winner: CPU\n"), std::string::npos) << excluded.out;

  const schemac::test::ToolRun after = inspect("table inspect_test::twice" + load);
  for (const std::string& args : {load + " table inspect_test::twice", load + " --format text table inspect_test::twice",
                                  "--runtime=schemac" + load + " table inspect_test::twice"}) {
    const schemac::test::ToolRun before = inspect(args);
    EXPECT_EQ(before.status, 0) << args << "\n" << before.err;
    EXPECT_EQ(before.out, after.out) << args;
  }

  const schemac::test::ToolRun two = inspect("--runtime schemac table inspect_test::twice --runtime torch" + load);
  EXPECT_EQ(two.status, 2);
  EXPECT_NE(two.err.find("--runtime: given 2 times ('schemac', then 'torch'): name one runtime"), std::string::npos)
      << two.err;
  EXPECT_TRUE(two.out.empty()) << two.out;
  const schemac::test::ToolRun twice = inspect("table inspect_test::twice --format json --format text" + load);
  EXPECT_EQ(twice.status, 2);
  EXPECT_NE(twice.err.find("--format given 2 times: give it once"), std::string::npos) << twice.err;
  const schemac::test::ToolRun imports = inspect("ops --import json" + load);
  EXPECT_EQ(imports.status, 2);
  EXPECT_NE(imports.err.find("--import works with --runtime python"), std::string::npos) << imports.err;
  EXPECT_EQ(inspect("trace inspect_test::twice --runtime python").status, 2);
}


}  // namespace
