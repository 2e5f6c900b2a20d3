// Rendering an operator's computed dispatch table and its registration state, as text for humans,
// in PyTorch's formats (`torch._C._dispatch_dump_table`, `torch._C._dispatch_dump`), and as JSON.
// Used by `dispatch-inspect simulate`, `table` and `dump`: a tool's job, so it lives here, over
// the runtime's public API, not in the runtime.
//
// These functions read registration-side state: call them while nothing registers into the
// operator's Dispatcher (or hold Dispatcher::mutex()).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "schemac/dispatch/operator_entry.h"

namespace schemac::dispatch {

enum class TableFormat { Text, Torch, Json };
// Parses "text", "torch" or "json".
std::optional<TableFormat> parse_table_format(std::string_view name);

struct TableOptions {
  // Text and JSON: also list runtime keys whose entry is missing. Torch never lists them.
  bool all_keys = false;
  // Text and JSON: when set, only the runtime keys it returns true for are listed.
  std::function<bool(DispatchKey)> show_key;
};

// The computed table. Torch style: one line per present entry, Undefined first, then table-slot
// order: `Key: [fallthrough ]<debug> [<reason>]`. Text style: aligned columns key, kernel, reason,
// site. JSON: {"operator":..., "entries":[{"key","kernel","reason","fallthrough","site"}]}.
std::string format_table(const OperatorEntry& op, TableFormat format, const TableOptions& options = {});

// The registration state. Torch style is `_dispatch_dump`'s:
//   name: ns::op / schema: <schema>|(none) / debug: <where> / alias analysis kind: <KIND>[ (default)]
//   <Key>[alias][ (inactive)]: <debug> :: <inferred schema>|(none) [ boxed[ unboxed] ]
// with keys in numeric enum order. Text is the same. JSON: {"name","schema","debug",
// "alias_analysis","kernels":[{"key","alias","active","debug","site","inferred"}]}.
std::string format_dump(const OperatorEntry& op, TableFormat format);

}  // namespace schemac::dispatch
