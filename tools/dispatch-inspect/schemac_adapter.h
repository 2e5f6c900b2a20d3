// Our runtime's adapter (schemac::inspect::Runtime, runtime.h of lib/inspector/inspect):
// lib/runtime/dispatch's keys and process-wide registry. The engine (answer.h) asks it; simulate
// reads its fresh registries with table_of and dump_of.
//
// These functions read registration-side state: call them while nothing registers into the
// operator's Dispatcher (or hold Dispatcher::mutex()).
#pragma once

#include "schemac/dispatch/dispatcher.h"
#include "schemac/inspect/runtime.h"
#include "table_format.h"

namespace schemac::inspect {

report::Table table_of(const dispatch::OperatorEntry& op,
                       const inspect::TableOptions& options = {});
report::Dump dump_of(const dispatch::OperatorEntry& op);

// The runtime of this process (lib/runtime/dispatch's singleton registry).
Runtime& schemac_runtime();

}  // namespace schemac::inspect
