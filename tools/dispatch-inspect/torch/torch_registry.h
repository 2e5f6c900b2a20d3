// dispatch-inspect-torch: libtorch's adapter. Loads libraries into libtorch's registry, finds
// operators, and fills the report model (report/report.h) from libtorch's dispatcher: the
// computed table (c10::OperatorHandle::dumpComputedTable, what torch._C._dispatch_dump_table
// prints) and the registration state (the OperatorHandle's schema and debug, and the kernel lines
// of dumpState, what torch._C._dispatch_dump prints: libtorch has no other way to list them).
#pragma once

#include <ATen/core/dispatch/Dispatcher.h>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "report/report.h"

namespace schemac::inspect::torch_runtime {

// Opens each library with dlopen(RTLD_NOW | RTLD_GLOBAL), in order, so that its static
// TORCH_LIBRARY blocks register into libtorch; stops at the first failure, printing
// "dispatch-inspect: error: cannot load 'PATH': MESSAGE" (dlopen's, or the exception a
// registration threw) on `err`. True when all loaded.
bool load_libraries(const std::vector<std::string>& paths, std::ostream& err);

// "ns::name" or "ns::name.overload"; prints an error with a did-you-mean note on `err` when
// unknown.
std::optional<c10::OperatorHandle> find_operator(const std::string& name, std::ostream& err);

// The rows of dumpComputedTable(), in its order (Undefined first, then every runtime key); with
// all_keys, also a "missing" row for each runtime key without a kernel, in the same order.
report::Table table_of(const c10::OperatorHandle& op, bool all_keys);
report::Dump dump_of(const c10::OperatorHandle& op);
// Every operator, sorted by name.
report::Operators operators_of();

// The operators the loaded libraries registered: new ones, or ones whose keys with kernels or
// schema changed since `before` (operators_of() before loading); every operator unless `loaded`.
report::Library library_of(const report::Operators& before, bool loaded);

// The operator's full name, "ns::name.overload".
std::string full_name(const c10::OperatorName& name);

}  // namespace schemac::inspect::torch_runtime
