// Two computed tables of one operator compared, key by key: before and after loading a library,
// or our runtime's table against libtorch's. A pure function of the two report models (report.h),
// so it compares any two runtimes; its renderers are in render_diff.h.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "schemac/inspect/report.h"

namespace schemac::inspect::report {

// One runtime key with an entry on at least one side. A side without a row for the key (a key
// that runtime does not have, or a side without the operator) counts as missing there.
struct KeyComparison {
  std::string key;
  std::optional<TableRow> left, right;  // nullopt: no entry (missing)
  bool changed = false;
};

struct TableDiff {
  std::string op;
  // Whether kernels were compared by their text: only when both sides name kernels the same way
  // (Table::kernel_names); our runtime's kernel names and libtorch's "registered at FILE:LINE"
  // never agree, so across runtimes only the entry, its reason and fallthrough are compared.
  bool compares_kernels = true;
  size_t keys_compared = 0;         // keys in either table, missing rows included
  std::vector<KeyComparison> keys;  // left's key order, then keys only the right table has

  size_t changed_count() const;
  bool equal() const { return changed_count() == 0; }
};

// Compares `left` and `right`: an entry on one side only, another reason, a fallthrough on one
// side only, or (when both name kernels alike) another kernel text. Sites are not compared (the
// same kernel moves when its file is edited).
TableDiff diff_tables(const Table& left, const Table& right);

}  // namespace schemac::inspect::report
