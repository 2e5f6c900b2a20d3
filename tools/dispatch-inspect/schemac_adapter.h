// Our runtime's adapter: fills the report model (report/report.h) from lib/dispatch's registry.
// The subcommands ask it through answer(), as they ask libtorch's (torch_client.h); simulate
// reads its fresh registries with table_of and dump_of.
//
// These functions read registration-side state: call them while nothing registers into the
// operator's Dispatcher (or hold Dispatcher::mutex()).
#pragma once

#include "report/wire.h"
#include "schemac/dispatch/dispatcher.h"
#include "table_format.h"

namespace schemac::inspect {

report::Table table_of(const dispatch::OperatorEntry& op,
                       const inspect::TableOptions& options = {});
report::Dump dump_of(const dispatch::OperatorEntry& op);
report::Operators operators_of(const dispatch::Dispatcher& dispatcher);

// `request` against the process-wide registry: loads its libraries, finds its operator, and
// fills the member of its kind; errors on stderr, with their exit code in `status`.
report::Response answer(const report::Request& request);

}  // namespace schemac::inspect
