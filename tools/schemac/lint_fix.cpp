#include "lint_fix.h"

#include <cstdio>

#include <fmt/format.h>

#include "cli.h"
#include "file_output.h"
#include "schemac/diagnostics/fixes.h"

namespace schemac::tool {

using cli::error;

namespace {

constexpr std::string_view kCommand = "schemac lint";
constexpr int kMaxRounds = 8;

}  // namespace

FixSummary fix_files(const std::vector<std::string>& paths, std::vector<std::string>& texts,
                     const Relint& relint, bool diff_only) {
  FixSummary summary;
  const std::vector<std::string> original = texts;
  std::vector<diagnostics::SkippedFix> left_out;
  for (int round = 0; round < kMaxRounds; ++round) {
    std::vector<diagnostics::Diagnostic> diagnostics = relint(texts);
    left_out.clear();
    bool changed = false;
    for (size_t i = 0; i < paths.size(); ++i) {
      diagnostics::FixOutcome outcome = diagnostics::apply_fixes(paths[i], texts[i], diagnostics);
      for (diagnostics::SkippedFix& s : outcome.skipped) left_out.push_back(std::move(s));
      if (outcome.edits.empty() || outcome.text == texts[i]) continue;
      summary.fixed += outcome.edits.size();
      texts[i] = std::move(outcome.text);
      changed = true;
    }
    if (!changed) break;
  }
  for (const diagnostics::SkippedFix& s : left_out) {
    fmt::print(stderr, "{}:{}:{}: note: fix for [{}] left out: {}\n", s.diagnostic.location.file,
               s.diagnostic.location.line, s.diagnostic.location.column, s.diagnostic.rule,
               s.reason);
  }
  summary.left_out = left_out.size();
  for (size_t i = 0; i < paths.size(); ++i) {
    if (texts[i] == original[i]) continue;
    if (diff_only) {
      fmt::print("{}", diagnostics::render_unified_diff(paths[i], original[i], texts[i]));
    } else if (cli::replace_file(paths[i], texts[i], /*keep_permissions=*/true)) {
      error(kCommand, "cannot write '{}'; it is left as it was", paths[i]);
      texts[i] = original[i];
      summary.io_error = true;
    }
  }
  std::fflush(stdout);
  return summary;
}

}  // namespace schemac::tool
