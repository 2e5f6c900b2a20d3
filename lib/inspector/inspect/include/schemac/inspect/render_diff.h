// The renderers of a table comparison (table_diff.h). Text: the keys that differ, aligned, before
// and after kernel and reason, at most `columns` wide (0: no limit); JSON: {"operator", "left",
// "right", "compares_kernels", "keys_compared", "equal", "changes": [{"key", "left", "right"}]};
// pictures: every key with an entry, those that changed highlighted (red), an edge to each
// side's kernel.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "schemac/inspect/columns.h"
#include "schemac/inspect/render.h"
#include "schemac/inspect/table_diff.h"

namespace schemac::inspect::report {

// What one side's table was computed from.
struct DiffSource {
  std::string runtime;                 // "schemac" or "torch"
  std::vector<std::string> libraries;  // loaded, in order
  bool has_operator = true;            // false: the operator is not registered there
};

std::string diff_text(const TableDiff& diff, const DiffSource& left, const DiffSource& right,
                      size_t columns = kTextColumns);
Json diff_json(const TableDiff& diff, const DiffSource& left, const DiffSource& right);
// Pictures: the changed keys first (those that changed alike in one box), then the unchanged keys
// with a kernel folded as table's picture folds them, with a legend; `changed_only` (diff
// --changed) draws only the changes.
std::string diff_dot(const TableDiff& diff, const DiffSource& left, const DiffSource& right,
                     bool changed_only = false);
std::string diff_mermaid(const TableDiff& diff, const DiffSource& left, const DiffSource& right,
                         bool changed_only = false);

}  // namespace schemac::inspect::report
