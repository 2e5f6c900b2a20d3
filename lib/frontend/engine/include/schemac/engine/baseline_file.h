// `--baseline FILE`: a file that does not exist yet records today's findings; one that exists is
// read, and the findings it records are not reported again (engine.h's lint step 6). The keys of
// a finding are lib/frontend/diagnostics' (baseline.h); this is the file around them. A baseline
// names each file relative to its own folder, so that one recorded at the project's root
// (`lint --baseline b.json .`) matches a run on a folder of the project or one of its files,
// from the root or from below it.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "schemac/diagnostics/baseline.h"
#include "schemac/engine/engine.h"

namespace schemac::engine {

struct BaselineFile {
  // Read from the file, each file named by its absolute path (what drop_recorded matches).
  std::optional<std::vector<diagnostics::BaselineEntry>> entries;
  size_t recorded = 0;   // findings written to a new file
  bool written = false;  // the file did not exist and now records `today`
  std::string problem;   // "cannot write baseline 'X'", "baseline 'X' is not usable: WHY"
};

// Records `today` (the findings for `texts`, one per configured document) in `path` when there is
// no such file, else reads it with `read` (which says itself why it cannot; then neither
// `entries` nor `written` is set and `problem` is empty).
BaselineFile use_baseline(
    const std::string& path, std::span<const diagnostics::Diagnostic> today,
    const Configured& configured, std::span<const std::string> texts,
    const std::function<std::optional<std::string>(const std::string&)>& read);

// Removes the findings `baseline` (use_baseline's entries) records, each finding's file matched
// by its absolute path; `texts` are the configured documents' (the text a finding points at is
// part of its key).
void drop_recorded(std::vector<diagnostics::Diagnostic>& findings,
                   std::span<const diagnostics::BaselineEntry> baseline,
                   const Configured& configured, std::span<const std::string> texts);

}  // namespace schemac::engine
