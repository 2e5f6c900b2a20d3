// A request (wire.h) answered by any runtime (runtime.h): the one place that parses a request's
// key lists and thread-local options, loads its libraries, finds its operator (with the same
// did-you-mean on every runtime) and fills the member of its kind. Our runtime answers through it
// in-process, libtorch's in dispatch-inspect-torch.
#pragma once

#include <iosfwd>

#include "schemac/inspect/runtime.h"
#include "schemac/inspect/wire.h"

namespace schemac::inspect {

// Errors go to `err` as "dispatch-inspect: error: ..." with their exit code in `status`: 2 for a
// key, device or key set that is not one, 1 for a library that failed to load or registered
// nothing with this runtime, or an unknown operator.
report::Response answer(Runtime& runtime, const report::Request& request, std::ostream& err);

// The prefix of every error dispatch-inspect prints.
inline constexpr const char* kErrorPrefix = "dispatch-inspect: error: ";

}  // namespace schemac::inspect
