// `--baseline FILE`: a file that does not exist yet records today's findings; one that exists is
// read, and the findings it records are not reported again (engine.h's lint step 6). The keys of
// a finding are lib/frontend/diagnostics' (baseline.h); this is the file around them.
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
  std::optional<std::vector<diagnostics::BaselineEntry>> entries;  // read from the file
  size_t recorded = 0;                                             // findings written to a new file
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

}  // namespace schemac::engine
