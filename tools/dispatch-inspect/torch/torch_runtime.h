// libtorch's adapter: c10's keys and libtorch's registry (torch_registry.h) as a
// schemac::inspect::Runtime, which lib/inspector/inspect's engine (answer.h) asks.
#pragma once

#include "schemac/inspect/runtime.h"

namespace schemac::inspect::torch_runtime {

Runtime& torch_runtime();

// Says that the adapter answers inside a Python (`host`: which, and what it imported), as the
// python runtime: every response then says so. Before the first request.
void run_in_python(report::RuntimeInfo host);

}  // namespace schemac::inspect::torch_runtime
