// dispatch-inspect-torch: libtorch's own dispatcher, read through its C++ API. Loading libraries
// into libtorch's registry, finding operators, and libtorch's computed tables and registration
// state (c10::OperatorHandle::dumpComputedTable and dumpState, which torch._C._dispatch_dump_table
// and torch._C._dispatch_dump print) split into rows for our text and JSON formats.
#pragma once

#include <ATen/core/dispatch/Dispatcher.h>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace schemac::inspect::torch_runtime {

// Opens each library with dlopen(RTLD_NOW | RTLD_GLOBAL), in order, so that its static
// TORCH_LIBRARY blocks register into libtorch; stops at the first failure, printing
// "dispatch-inspect: error: cannot load 'PATH': MESSAGE" (dlopen's, or the exception a
// registration threw) on `err`. True when all loaded.
bool load_libraries(const std::vector<std::string>& paths, std::ostream& err);

// "ns::name" or "ns::name.overload"; prints an error naming close matches on `err` when unknown.
std::optional<c10::OperatorHandle> find_operator(const std::string& name, std::ostream& err);

// One entry of the computed table, as dumpComputedTable() prints it:
// `Key: [fallthrough ]<debug> [<reason>]`.
struct TableRow {
  std::string key;
  bool present = false;      // false: no kernel (listed only with all_keys)
  bool fallthrough = false;
  std::string debug;         // "registered at FILE:LINE" for TORCH_LIBRARY registrations
  std::string reason;        // "kernel", "math kernel", "backend fallback", ... or "missing"
  std::string site() const;  // FILE:LINE out of debug, or ""
};

// The rows of dumpComputedTable(), in its order (Undefined first, then every runtime key);
// with all_keys, also a row for each runtime key without a kernel, in the same order.
std::vector<TableRow> computed_table(const c10::OperatorHandle& op, bool all_keys);

// Every runtime key, in the order dumpComputedTable() visits them.
std::vector<c10::DispatchKey> runtime_keys();

// Every key (runtime and alias) with a kernel registered directly on `op`.
std::vector<c10::DispatchKey> keys_with_kernels(const c10::OperatorHandle& op);

// The operator's full name, "ns::name.overload".
std::string full_name(const c10::OperatorName& name);

}  // namespace schemac::inspect::torch_runtime
