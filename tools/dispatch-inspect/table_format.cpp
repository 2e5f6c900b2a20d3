// Our runtime's tables and registration state, filled and rendered (table_format.h).
#include "table_format.h"

#include "schemac/inspect/render.h"
#include "schemac_adapter.h"

namespace schemac::inspect {

std::optional<TableFormat> parse_table_format(std::string_view name) {
  if (name == "text") return TableFormat::Text;
  if (name == "torch") return TableFormat::Torch;
  if (name == "json") return TableFormat::Json;
  return std::nullopt;
}

std::string format_table(const dispatch::OperatorEntry& op, TableFormat format,
                         const TableOptions& options) {
  // The torch format lists what torch lists, whatever the options say.
  if (format == TableFormat::Torch) return inspect::report::table_torch(inspect::table_of(op));
  const inspect::report::Table table = inspect::table_of(op, options);
  if (format == TableFormat::Json)
    return inspect::report::json_text(inspect::report::table_json(table)) + "\n";
  return inspect::report::table_text(table);
}

std::string format_dump(const dispatch::OperatorEntry& op, TableFormat format) {
  const inspect::report::Dump dump = inspect::dump_of(op);
  if (format == TableFormat::Json)
    return inspect::report::json_text(inspect::report::dump_json(dump)) + "\n";
  return inspect::report::dump_torch(dump);
}

}  // namespace schemac::inspect
