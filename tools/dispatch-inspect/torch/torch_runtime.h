// libtorch's adapter: c10's keys and libtorch's registry (torch_registry.h) as a
// schemac::inspect::Runtime, which lib/inspector/inspect's engine (answer.h) asks.
#pragma once

#include "schemac/inspect/runtime.h"

namespace schemac::inspect::torch_runtime {

Runtime& torch_runtime();

}  // namespace schemac::inspect::torch_runtime
