// Fuzzes `dispatch-inspect diff`'s input: two tables as a runtime's adapter hands them over (the
// wire form, report/wire.h, as dispatch-inspect-torch writes it), split at the first NUL byte.
// Any bytes are refused or compared, never a crash, a hang or a leak; a table equals itself; the
// text fits 100 columns wherever its keys and reasons do; every renderer answers.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "schemac/inspect/columns.h"
#include "schemac/inspect/render_diff.h"
#include "schemac/inspect/table_diff.h"
#include "schemac/inspect/wire.h"

namespace {

bool table_of(std::string_view text, schemac::inspect::report::Table& table) {
  schemac::inspect::report::Response response;
  if (!schemac::inspect::report::from_wire(std::string(text), response)) return false;
  table = std::move(response.table);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace schemac::inspect::report;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const size_t nul = text.find('\0');
  Table left, right;
  if (!table_of(text.substr(0, nul), left)) return 0;
  if (nul == std::string_view::npos || !table_of(text.substr(nul + 1), right)) right = left;
  if (!diff_tables(left, left).equal()) __builtin_trap();
  const TableDiff diff = diff_tables(left, right);
  if (diff.keys.size() > left.rows.size() + right.rows.size()) __builtin_trap();
  const DiffSource source{"schemac", {"lib.so"}, true};
  const std::string out = diff_text(diff, source, source);
  if (out.empty() || out.back() != '\n') __builtin_trap();
  // Keys and reasons are never cut; the kernel columns give way down to 8 columns each.
  bool short_cells = true;
  for (const KeyComparison& k : diff.keys)
    for (const auto& row : {k.left, k.right})
      if (display_width(k.key) > 20 || (row && display_width(std::string(reason_text(row->reason))) > 20)) short_cells = false;
  for (size_t start = 0, end; short_cells && (end = out.find('\n', start)) != std::string::npos; start = end + 1)
    if (display_width(std::string_view(out).substr(start, end - start)) > kTextColumns) __builtin_trap();
  diff_json(diff, source, source).dump(-1, ' ', false, Json::error_handler_t::replace);
  diff_dot(diff, source, source);
  diff_mermaid(diff, source, source);
  return 0;
}
