// An operator's computed dispatch table and registration state from our runtime, rendered in one
// go: our runtime's adapter (schemac_adapter.h) fills the report model, the report renderers
// (report/render.h) print it. Used by `dispatch-inspect simulate` and the runtime's tests.
//
// These functions read registration-side state: call them while nothing registers into the
// operator's Dispatcher (or hold Dispatcher::mutex()).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "schemac/dispatch/operator_entry.h"

namespace schemac::inspect {

enum class TableFormat { Text, Torch, Json };
// Parses "text", "torch" or "json".
std::optional<TableFormat> parse_table_format(std::string_view name);

struct TableOptions {
  // Text and JSON: also list runtime keys whose entry is missing. Torch never lists them.
  bool all_keys = false;
  // Text and JSON: when set, only the runtime keys it returns true for are listed.
  std::function<bool(keys::DispatchKey)> show_key;
};

// The computed table (report::table_text, table_torch or table_json).
std::string format_table(const dispatch::OperatorEntry& op, TableFormat format,
                         const TableOptions& options = {});

// The registration state: torch style (text is the same) or JSON (report::dump_torch, dump_json).
std::string format_dump(const dispatch::OperatorEntry& op, TableFormat format);

}  // namespace schemac::inspect
