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

#include "schemac/inspect/report.h"

namespace schemac::inspect::torch_runtime {

// Opens the library with dlopen(RTLD_NOW | RTLD_GLOBAL) so that its static TORCH_LIBRARY blocks
// register into libtorch, after checking the file as our runtime does (elf_check.h: a missing,
// truncated or non-library file is refused without opening it); on failure prints
// "dispatch-inspect: error: cannot load 'PATH': MESSAGE" (the check's, dlopen's, or the exception
// a registration threw) on `err`.
bool load_library(const std::string& path, std::ostream& err);

// "ns::name" or "ns::name.overload", or nullopt.
std::optional<c10::OperatorHandle> find_operator(const std::string& name);

// The rows of dumpComputedTable(), in its order (Undefined first, then every runtime key); with
// all_keys, also a "missing" row for each runtime key without a kernel, in the same order.
report::Table table_of(const c10::OperatorHandle& op, bool all_keys);
report::Dump dump_of(const c10::OperatorHandle& op);
// Every operator, sorted by name.
report::Operators operators_of();

// The operator's full name, "ns::name.overload".
std::string full_name(const c10::OperatorName& name);

}  // namespace schemac::inspect::torch_runtime
