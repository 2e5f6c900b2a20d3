// Two computed tables compared (table_diff.h).
#include "schemac/inspect/table_diff.h"

#include <algorithm>
#include <map>
#include <set>

namespace schemac::inspect::report {
namespace {

// The row of a key that has an entry, or nullopt for a missing one.
std::optional<TableRow> entry_of(const TableRow* row) {
  if (row == nullptr || !row->has_kernel) return std::nullopt;
  return *row;
}

bool same_entry(const std::optional<TableRow>& a, const std::optional<TableRow>& b,
                bool compare_kernels) {
  if (!a || !b) return !a && !b;
  return a->reason == b->reason && a->fallthrough == b->fallthrough &&
         (!compare_kernels || a->kernel == b->kernel);
}

}  // namespace

size_t TableDiff::changed_count() const {
  return static_cast<size_t>(
      std::count_if(keys.begin(), keys.end(), [](const KeyComparison& k) { return k.changed; }));
}

TableDiff diff_tables(const Table& left, const Table& right) {
  TableDiff diff;
  diff.op = left.op.empty() ? right.op : left.op;
  diff.compares_kernels = left.kernel_names == right.kernel_names;
  std::map<std::string, const TableRow*> right_rows;
  for (const TableRow& row : right.rows) right_rows.emplace(row.key, &row);
  std::set<std::string> seen;
  auto compare = [&](const std::string& key, const TableRow* l, const TableRow* r) {
    if (!seen.insert(key).second) return;
    ++diff.keys_compared;
    std::optional<TableRow> a = entry_of(l), b = entry_of(r);
    if (!a && !b) return;
    const bool changed = !same_entry(a, b, diff.compares_kernels);
    diff.keys.push_back({key, std::move(a), std::move(b), changed});
  };
  for (const TableRow& row : left.rows) {
    const auto match = right_rows.find(row.key);
    compare(row.key, &row, match == right_rows.end() ? nullptr : match->second);
  }
  for (const TableRow& row : right.rows) compare(row.key, nullptr, &row);
  return diff;
}

}  // namespace schemac::inspect::report
