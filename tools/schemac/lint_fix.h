// `schemac lint --fix` and `--fix --diff`: the safe fix-its applied (lib/diagnostics' fixes.h) in
// rounds, each on a fresh lint of the fixed text, until no fix is left (a fix that overlaps
// another waits for the next round; a second --fix run then changes nothing). Each changed file
// is replaced atomically (a temporary file beside it, then a rename), or, with --diff, shown as a
// unified diff on stdout and left as it was. Fixes still left out at the end (unsafe ones) are
// said on stderr.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::tool {

// The diagnostics of every file for the given texts (one per path, in order).
using Relint =
    std::function<std::vector<diagnostics::Diagnostic>(const std::vector<std::string>& texts)>;

struct FixSummary {
  size_t fixed = 0;  // fixes applied, all rounds together
  size_t left_out = 0;
  bool io_error = false;  // a file could not be written
};

// Fixes the files `paths`, whose texts are `texts` (replaced by the fixed texts).
FixSummary fix_files(const std::vector<std::string>& paths, std::vector<std::string>& texts,
                     const Relint& relint, bool diff_only);

}  // namespace schemac::tool
