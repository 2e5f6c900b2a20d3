// Tables in text, torch and JSON (render.h).
#include <fmt/format.h>

#include <algorithm>

#include "schemac/inspect/columns.h"
#include "schemac/inspect/render.h"

namespace schemac::inspect::report {
namespace {

Json string_or_null(const std::string& text) { return text.empty() ? Json() : Json(text); }

std::string reason_text(const TableRow& row) {
  return std::string(report::reason_text(row.reason)) + (row.fallthrough ? " (fallthrough)" : "");
}

// The kernel column of a table that must fit: a fallthrough says so there (its debug text is only
// where it was registered), and a kernel named after its registration site, which the site
// column shows, is "(unnamed)".
std::string narrow_kernel(const TableRow& row) {
  if (!row.has_kernel) return "-";
  if (row.fallthrough) return "fallthrough";
  return !row.site.empty() && row.kernel == "registered at " + row.site ? "(unnamed)" : row.kernel;
}

}  // namespace

std::string json_text(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string table_text(const Table& table, size_t columns) {
  std::vector<std::vector<std::string>> rows;
  std::vector<Elide> how;
  if (table.kernel_names) {
    rows.push_back({"key", "kernel", "reason", "site"});
    for (const TableRow& r : table.rows)
      rows.push_back({r.key, r.has_kernel ? r.kernel : "-", reason_text(r), site_text(r.site)});
    how = {Elide::Never, Elide::End, Elide::Never, Elide::Start};
    if (columns > 0 && aligned_width(rows) > columns) {
      for (size_t i = 0; i < table.rows.size(); ++i) {
        rows[i + 1][1] = narrow_kernel(table.rows[i]);
        rows[i + 1][2] = report::reason_text(table.rows[i].reason);
        rows[i + 1][3] = site_text(table.rows[i].site, /*file_only=*/true);
      }
    }
  } else {
    rows.push_back({"key", "reason", "registered"});
    for (const TableRow& r : table.rows)
      rows.push_back({r.key, reason_text(r),
                      !r.has_kernel    ? "-"
                      : r.site.empty() ? r.kernel
                                       : site_text(r.site)});
    how = {Elide::Never, Elide::Never, Elide::Start};
    if (columns > 0 && aligned_width(rows) > columns)
      for (size_t i = 0; i < table.rows.size(); ++i)
        rows[i + 1][2] = table.rows[i].site.empty()
                             ? file_and_line(rows[i + 1][2])
                             : site_text(table.rows[i].site, /*file_only=*/true);
  }
  return table.op + "\n" + aligned_columns(rows, how, columns);
}

std::string table_torch(const Table& table) {
  std::string out;
  for (const TableRow& r : table.rows) {
    if (!r.has_kernel) continue;
    out += fmt::format("{}: {}{} [{}]\n", r.key, r.fallthrough ? "fallthrough " : "", r.kernel,
                       report::reason_text(r.reason));
  }
  return out;
}

Json table_json(const Table& table) {
  Json entries = Json::array();
  for (const TableRow& r : table.rows) {
    entries.push_back(Json{{"key", r.key},
                           {"kernel", r.has_kernel ? Json(r.kernel) : Json()},
                           {"reason", report::reason_text(r.reason)},
                           {"fallthrough", r.fallthrough},
                           {"site", string_or_null(r.site)}});
  }
  return Json{{"operator", table.op}, {"entries", std::move(entries)}};
}

}  // namespace schemac::inspect::report
