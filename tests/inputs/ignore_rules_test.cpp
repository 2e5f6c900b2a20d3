// lib/frontend/inputs' ignore_rules.h: .gitignore's pattern language (`*`, `**`, `?`, classes, trailing
// `/`, leading `/`, `!`, escapes), nested files overriding the folders above, and the work
// tree's rules found from a folder inside it.
#include "schemac/inputs/ignore_rules.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace schemac::inputs {
namespace {

namespace fs = std::filesystem;

TEST(GlobMatch, StarsStayInsideOneComponent) {
  EXPECT_TRUE(glob_match("*.cpp", "a.cpp"));
  EXPECT_FALSE(glob_match("*.cpp", "gen/a.cpp"));
  EXPECT_TRUE(glob_match("gen/*", "gen/a.cpp"));
  EXPECT_FALSE(glob_match("gen/*", "gen/x/a.cpp"));
  EXPECT_TRUE(glob_match("Register?.cpp", "RegisterA.cpp"));
  EXPECT_FALSE(glob_match("a?b", "a/b"));
  EXPECT_TRUE(glob_match("[Rr]egister*.cpp", "register_x.cpp"));
  EXPECT_FALSE(glob_match("[!R]egister*.cpp", "Register_x.cpp"));
  EXPECT_TRUE(glob_match("a[0-9].yaml", "a7.yaml"));
  EXPECT_TRUE(glob_match("\\*.yaml", "*.yaml"));
  EXPECT_FALSE(glob_match("\\*.yaml", "a.yaml"));
}

TEST(GlobMatch, DoubleStarsCrossFolders) {
  EXPECT_TRUE(glob_match("**/gen", "gen"));
  EXPECT_TRUE(glob_match("**/gen", "a/b/gen"));
  EXPECT_TRUE(glob_match("third_party/**", "third_party/x/y.cpp"));
  EXPECT_FALSE(glob_match("third_party/**", "other/x.cpp"));
  EXPECT_TRUE(glob_match("a/**/b.yaml", "a/b.yaml"));
  EXPECT_TRUE(glob_match("a/**/b.yaml", "a/x/y/b.yaml"));
  EXPECT_FALSE(glob_match("a/**/b.yaml", "ab.yaml"));
}

class IgnoreRulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("schemac_ignore_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) {
    fs::create_directories((dir_ / name).parent_path());
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  fs::path dir_;
};

TEST_F(IgnoreRulesTest, ThePatternsGitUses) {
  IgnoreRules rules;
  rules.add(dir_,
            "# generated\n"
            "gen/\n"    // a folder at any depth
            "/build\n"  // only at the top
            "*.log\n"
            "docs/*.yaml\n"  // anchored: has a '/'
            "!keep.log\n"
            "trailing.yaml   \n");
  EXPECT_TRUE(rules.ignored(dir_ / "gen", true));
  EXPECT_TRUE(rules.ignored(dir_ / "src" / "gen", true));
  EXPECT_FALSE(rules.ignored(dir_ / "gen", false));  // a file named gen is not a folder
  EXPECT_TRUE(rules.ignored(dir_ / "build", true));
  EXPECT_FALSE(rules.ignored(dir_ / "src" / "build", true));
  EXPECT_TRUE(rules.ignored(dir_ / "a" / "b.log", false));
  EXPECT_FALSE(rules.ignored(dir_ / "a" / "keep.log", false));
  EXPECT_TRUE(rules.ignored(dir_ / "docs" / "x.yaml", false));
  EXPECT_FALSE(rules.ignored(dir_ / "src" / "docs" / "x.yaml", false));
  EXPECT_TRUE(rules.ignored(dir_ / "trailing.yaml", false));
  EXPECT_FALSE(rules.ignored(dir_ / "ops.yaml", false));
  EXPECT_FALSE(rules.ignored(dir_.parent_path() / "x.log", false));  // not below the base
}

TEST_F(IgnoreRulesTest, DeeperFilesOverrideAndTheWorkTreeTopCounts) {
  fs::create_directories(dir_ / ".git" / "info");
  write(".gitignore", "*.yaml\n");
  write(".git/info/exclude", "secret.cpp\n");
  write("src/.gitignore", "!ops.yaml\n");
  write("src/ops.yaml", "");
  IgnoreRules rules = gitignore_rules_for(dir_ / "src");
  EXPECT_FALSE(rules.ignored(dir_ / "src" / "ops.yaml", false));
  EXPECT_TRUE(rules.ignored(dir_ / "src" / "other.yaml", false));
  EXPECT_TRUE(rules.ignored(dir_ / "src" / "secret.cpp", false));
  EXPECT_FALSE(rules.ignored(dir_ / "src" / "bind.cpp", false));
  // Relative spellings are taken from the working directory.
  const fs::path before = fs::current_path();
  fs::current_path(dir_);
  IgnoreRules relative = gitignore_rules_for("src");
  EXPECT_TRUE(relative.ignored("src/other.yaml", false));
  EXPECT_FALSE(relative.ignored("./src/ops.yaml", false));
  fs::current_path(before);
}

}  // namespace
}  // namespace schemac::inputs
