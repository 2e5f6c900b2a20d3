// Tables in text, torch and JSON (render.h).
#include <fmt/format.h>

#include <algorithm>

#include "report/render.h"

namespace schemac::inspect::report {
namespace {

Json string_or_null(const std::string& text) { return text.empty() ? Json() : Json(text); }

std::string reason_text(const TableRow& row) {
  return row.reason + (row.fallthrough ? " (fallthrough)" : "");
}

// Columns of equal width (the last one unpadded), two spaces apart.
std::string aligned(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  std::string out;
  for (const auto& row : rows) {
    for (size_t c = 0; c + 1 < row.size(); ++c) out += fmt::format("{:<{}}  ", row[c], widths[c]);
    out += row.back() + "\n";
  }
  return out;
}

}  // namespace

std::string json_text(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string table_text(const Table& table) {
  std::vector<std::vector<std::string>> rows;
  if (table.kernel_names) {
    rows.push_back({"key", "kernel", "reason", "site"});
    for (const TableRow& r : table.rows)
      rows.push_back(
          {r.key, r.has_kernel ? r.kernel : "-", reason_text(r), r.site.empty() ? "-" : r.site});
  } else {
    rows.push_back({"key", "reason", "registered"});
    for (const TableRow& r : table.rows)
      rows.push_back(
          {r.key, reason_text(r), r.has_kernel ? (r.site.empty() ? r.kernel : r.site) : "-"});
  }
  return table.op + "\n" + aligned(rows);
}

std::string table_torch(const Table& table) {
  std::string out;
  for (const TableRow& r : table.rows) {
    if (!r.has_kernel) continue;
    out += fmt::format("{}: {}{} [{}]\n", r.key, r.fallthrough ? "fallthrough " : "", r.kernel,
                       r.reason);
  }
  return out;
}

Json table_json(const Table& table) {
  Json entries = Json::array();
  for (const TableRow& r : table.rows) {
    entries.push_back(Json{{"key", r.key},
                           {"kernel", r.has_kernel ? Json(r.kernel) : Json()},
                           {"reason", r.reason},
                           {"fallthrough", r.fallthrough},
                           {"site", string_or_null(r.site)}});
  }
  return Json{{"operator", table.op}, {"entries", std::move(entries)}};
}

}  // namespace schemac::inspect::report
