// lib/frontend/engine's lint_job.h against `schemac lint` itself: over the same two files, a
// baseline recorded, then --fix rounds over it with --max-errors, the job and the command report
// the same findings (the command's --format json), say the same things in the same order (its
// stderr) and leave the same fixed files.
#include "schemac/engine/lint_job.h"

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_test_support.h"

namespace schemac::engine {
namespace {

namespace fs = std::filesystem;

// Found by the job and the command, in two files, one run after the other.
constexpr const char* kOpsToday = "- func: a(Tensor self) -> Tensor\n  dispach: {CPU: a}\n";
constexpr const char* kOtherToday = "- func: b(Tensor self) -> Tensor\n  tags: [nope]\n";
// Later: the baseline's findings moved down; new ones, most with a fix, one fix unsafe.
constexpr const char* kOpsLater =
    "# moved down\n"
    "- func: a(Tensor self) -> Tensor\n"
    "  dispach: {CPU: a}\n"
    "  use_c10_dispatcher: full\n"
    "- func: c(Tensor self, TensorOptions options) -> Tensor\n"
    "- func: d(Tensorr self) -> Tensor\n";
constexpr const char* kOtherLater =
    "- func: \"b(Tensor  self,Tensor other) -> Tensor\"\n"
    "  tags: [nope, pointwize]\n"
    "  dispatch:\n"
    "    CPUU: b_cpu\n"
    "    Math: b_math\n"
    "- func: e(Tensorr self) -> Tensor\n";

class LintJobTest : public test::ToolDirTest {
 protected:
  LintJobTest() : ToolDirTest("schemac_lint_job_") {}

  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  std::string read(const std::string& name) const { return test::read_file(at(name)); }

  // `schemac lint ARGS ops.yaml other.yaml`, every path absolute as the job's are, from the
  // test's working directory (the config's path is shown relative to it).
  test::ToolRun schemac(const std::string& args) {
    return shell("'" SCHEMAC_BINARY "' lint " + args + " '" + at("ops.yaml") + "' '" +
                     at("other.yaml") + "'",
                 fs::current_path());
  }

  // The job over the same files, its messages kept as the command prints them on stderr; fixed
  // files are written unless `write` is false.
  LintResult run(LintJob job, bool write = true) {
    job.files = {at("ops.yaml"), at("other.yaml")};
    if (write) {
      job.write = [](const std::string& path, const std::string& text) {
        test::write_file(path, text);
        return true;
      };
    }
    const std::string tool = "schemac lint: ";
    job.sink.error = [&, tool](const std::string& m) { said_ += tool + "error: " + m + "\n"; };
    job.sink.note = [&, tool](const std::string& m) { said_ += tool + "note: " + m + "\n"; };
    job.sink.done = [&, tool](const std::string& m) { said_ += tool + m + "\n"; };
    job.sink.note_at = [&](const std::string& place, const std::string& m) {
      said_ += place + ": note: " + m + "\n";
    };
    job.sink.problem = [&](const Problem& problem) { said_ += problem.message + "\n"; };
    said_.clear();
    return run_lint_job(job);
  }

  std::string said_;
};

TEST(LintJobProblem, UnknownRulesThenMacrosThenFixOnStdin) {
  LintJob job;
  job.files = {"-"};
  EXPECT_EQ(lint_job_problem(job), "");
  job.fix = true;
  EXPECT_EQ(lint_job_problem(job), "--fix cannot rewrite stdin; use --fix --diff");
  job.diff = true;
  EXPECT_EQ(lint_job_problem(job), "");
  job.options.macros.defines = {"=1"};
  EXPECT_NE(lint_job_problem(job), "");
  job.options.command_line.ignore = {"all", "unknown-feild"};
  EXPECT_EQ(lint_job_problem(job),
            "--ignore: unknown rule 'unknown-feild'; did you mean 'unknown-field'?");
  job.options.command_line.select = {"nope-nope-nope"};
  EXPECT_EQ(lint_job_problem(job).rfind("--select: unknown rule 'nope-nope-nope'", 0), 0u);
}

TEST_F(LintJobTest, ABaselineThenFixRoundsReportWhatTheCommandReports) {
  file("ops.yaml", kOpsToday);
  file("other.yaml", kOtherToday);
  const test::ToolRun record = schemac("--baseline '" + at("base.json") + "'");
  ASSERT_EQ(record.status, 0) << record.err;
  const std::string recorded = read("base.json");
  fs::remove(at("base.json"));
  LintJob job;
  job.baseline_file = at("base.json");
  LintResult first = run(job);
  EXPECT_TRUE(first.finished);
  EXPECT_EQ(said_, record.err);
  EXPECT_EQ(first.baseline_recorded, 2u);
  EXPECT_EQ(read("base.json"), recorded);
  EXPECT_TRUE(first.diagnostics.empty()) << "a run that records reports nothing more";

  file("ops.yaml", kOpsLater);
  file("other.yaml", kOtherLater);
  const test::ToolRun fix =
      schemac("--fix --max-errors 1 --format json --baseline '" + at("base.json") + "'");
  EXPECT_EQ(fix.status, 1) << fix.err;
  const std::string ops_fixed = read("ops.yaml");
  const std::string other_fixed = read("other.yaml");
  ASSERT_NE(ops_fixed, kOpsLater) << "the command fixed nothing: " << fix.err;
  file("ops.yaml", kOpsLater);
  file("other.yaml", kOtherLater);
  job.fix = true;
  job.max_errors = 1;
  LintResult second = run(job);
  EXPECT_EQ(diagnostics::render_json(second.diagnostics), fix.out);
  EXPECT_EQ(said_, fix.err);
  EXPECT_EQ(read("ops.yaml"), ops_fixed);
  EXPECT_EQ(read("other.yaml"), other_fixed);
  EXPECT_EQ(second.fixed, 5u);
  EXPECT_EQ(second.fixes_left_out.size(), 1u) << "TensorOptions' fix is not safe";
  EXPECT_NE(said_.find("schemac lint: fixed 5 problems, 1 fix left out\n"), std::string::npos);
  EXPECT_GT(second.errors_cut, 0u);
  EXPECT_EQ(second.counts.errors, second.errors_cut + 1);
  EXPECT_NE(fix.out.find("\"retired-field\""), std::string::npos) << fix.out;
  EXPECT_FALSE(second.io_error);
  EXPECT_TRUE(second.unreadable.empty());
}

TEST_F(LintJobTest, WithoutAWriterTheFixedTextsAreOnlyLinted) {
  file("ops.yaml", kOpsLater);
  file("other.yaml", kOtherLater);
  LintJob job;
  job.fix = true;
  LintResult result = run(job, /*write=*/false);
  EXPECT_GT(result.fixed, 0u);
  EXPECT_EQ(read("ops.yaml"), kOpsLater) << "no writer: nothing written";
  EXPECT_EQ(said_.find("cannot write"), std::string::npos) << said_;
}

TEST_F(LintJobTest, AnUnusableBaselineStopsTheJob) {
  file("ops.yaml", kOpsToday);
  file("other.yaml", kOtherToday);
  file("base.json", "not a baseline");
  LintJob job;
  job.baseline_file = at("base.json");
  LintResult result = run(job);
  EXPECT_FALSE(result.finished);
  EXPECT_TRUE(
      said_.starts_with("schemac lint: error: baseline '" + at("base.json") + "' is not usable: "))
      << said_;
}

TEST_F(LintJobTest, ShowConfigListsEachInputsMergedConfig) {
  file(".schemac.yaml", "ignore: [unknown-tag]\n");
  file("ops.yaml", kOpsToday);
  file("other.yaml", kOtherToday);
  LintJob job;
  job.options.command_line.select = {"unknown-field"};
  job.files = {at("ops.yaml"), at("other.yaml")};
  const ConfigListing listing = list_configs(job);
  const test::ToolRun shown = schemac("--show-config --select unknown-field");
  EXPECT_EQ(shown.status, 0) << shown.err;
  EXPECT_EQ(listing.text, shown.out);
  EXPECT_NE(listing.text.find("# for: " + at("other.yaml") + "\n"), std::string::npos);
  EXPECT_TRUE(listing.problems.empty());
}

}  // namespace
}  // namespace schemac::engine

namespace schemac::engine {
namespace {

// One form of path everywhere, and a baseline recorded at the root matches any part of the tree,
// from the root or from below it (the two pre-commit hooks share one baseline).
class LintJobPaths : public test::ToolDirTest {
 protected:
  LintJobPaths() : ToolDirTest("schemac_lint_job_paths_") {}
  void SetUp() override {
    ToolDirTest::SetUp();
    cwd_ = fs::current_path();
    fs::create_directories(dir_ / "pkg");
    fs::create_directories(dir_ / "other");
    file("pkg/ops.yaml", kOpsToday);
    file("other/x.yaml", kOtherToday);
  }
  void TearDown() override {
    fs::current_path(cwd_);
    ToolDirTest::TearDown();
  }
  LintResult lint(const fs::path& from, std::vector<std::string> files,
                  const std::string& baseline = "", bool diff = false) {
    fs::current_path(from);
    LintJob job;
    job.files = std::move(files);
    job.baseline_file = baseline;
    job.fix = job.diff = diff;
    job.sink.diff = [this](const std::string& text) { diff_ += text; };
    return run_lint_job(job);
  }
  fs::path cwd_;
  std::string diff_;
};

TEST_F(LintJobPaths, EveryOutputNamesAFileOneWayAndABaselineMatchesAnyPartOfTheTree) {
  LintResult all = lint(dir_, {"."});
  ASSERT_EQ(all.diagnostics.size(), 2u);
  EXPECT_EQ(all.diagnostics[0].location.file, "other/x.yaml");
  EXPECT_EQ(all.diagnostics[1].location.file, "pkg/ops.yaml");
  EXPECT_EQ(lint(dir_, {"./pkg/../pkg/ops.yaml"}).diagnostics[0].location.file, "pkg/ops.yaml");
  lint(dir_, {"."}, "", true);
  EXPECT_NE(diff_.find("--- a/pkg/ops.yaml\n+++ b/pkg/ops.yaml\n"), std::string::npos) << diff_;

  EXPECT_EQ(lint(dir_, {"."}, "b.json").baseline_recorded, 2u);
  const std::string recorded = test::read_file((dir_ / "b.json").string());
  EXPECT_NE(recorded.find("\"file\":\"pkg/ops.yaml\""), std::string::npos) << recorded;
  EXPECT_EQ(recorded.find("./"), std::string::npos) << recorded;
  EXPECT_TRUE(lint(dir_, {"."}, "b.json").diagnostics.empty());
  EXPECT_TRUE(lint(dir_, {"pkg"}, "b.json").diagnostics.empty());
  EXPECT_TRUE(lint(dir_, {"pkg/ops.yaml"}, "b.json").diagnostics.empty());
  EXPECT_TRUE(lint(dir_ / "pkg", {"ops.yaml"}, "../b.json").diagnostics.empty());
  EXPECT_TRUE(lint(dir_ / "pkg", {"."}, (dir_ / "b.json").string()).diagnostics.empty());
  // A new finding is still reported, named from where the run is.
  file("pkg/ops.yaml", std::string(kOpsToday) + "- func: z(Tensorr self) -> Tensor\n");
  LintResult later = lint(dir_ / "pkg", {"ops.yaml"}, "../b.json");
  ASSERT_EQ(later.diagnostics.size(), 1u);
  EXPECT_EQ(later.diagnostics[0].location.file, "ops.yaml");
  EXPECT_EQ(later.diagnostics[0].rule, "unknown-type");
  EXPECT_EQ(later.files, 1u);
  EXPECT_EQ(later.schemas, 2u);
}

}  // namespace
}  // namespace schemac::engine
