// Baselines: the findings of one day recorded in a file, so that later runs report only new ones.
// A finding is keyed by what it is, not where: its file, its rule, the operator it is about (the
// nearest operator declaration at or above it: a YAML entry's `func:`/`op:`, or a schema string
// literal in C++/Python) and the text it points at. Lines moving do not bring recorded findings
// back; a new finding is reported at its own line; a fixed one drops out. Findings that share a
// key are paired by the lines recorded for them (nearest first), so of four `unknown-type`
// findings where three were recorded, the one reported is the one that was not.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"

namespace schemac::diagnostics {

struct BaselineEntry {
  std::string file;
  std::string rule;
  std::string op;       // the operator's name ("aten::add.Tensor"); empty when none is found
  std::string text;     // the text the finding points at (its first line), at most 200 bytes
  std::string message;  // version 1 baselines only: they keyed findings by message
  uint32_t line = 0;    // where the finding was: only to pair findings that share a key
};

// The text of a file the diagnostics point into; empty when it is not known.
using FileTextLookup = std::function<std::string_view(const std::string& file)>;

// Each diagnostic's key, in order (a diagnostic without a place keeps its message as its text).
std::vector<BaselineEntry> baseline_keys(std::span<const Diagnostic> diagnostics,
                                         const FileTextLookup& texts);

// A JSON document {"version":2,"findings":[{"file","rule","operator","text","line"},...]},
// sorted by file, line and rule.
std::string render_baseline(std::span<const Diagnostic> diagnostics, const FileTextLookup& texts);

// The entries of a baseline document (version 2, or version 1's {"file","rule","message"}), or
// nullopt (with `error` set) when it is not one.
std::optional<std::vector<BaselineEntry>> parse_baseline(std::string_view text, std::string& error);

// Removes the diagnostics the baseline records: each entry excuses one diagnostic with its key.
void drop_baselined(std::vector<Diagnostic>& diagnostics, std::span<const BaselineEntry> baseline,
                    const FileTextLookup& texts);

}  // namespace schemac::diagnostics
