// A request (wire.h) answered by any runtime (runtime.h): the one place that parses a request's
// key lists and thread-local options, loads its libraries, finds its operator (with the same
// did-you-mean on every runtime) and fills the member of its kind. Our runtime answers through it
// in-process, libtorch's in dispatch-inspect-torch.
#pragma once

#include <functional>
#include <iosfwd>

#include "schemac/inspect/resolve.h"
#include "schemac/inspect/runtime.h"
#include "schemac/inspect/wire.h"

namespace schemac::inspect {

// Errors go to `err` as "dispatch-inspect: error: ..." with their exit code in `status`: 2 for a
// key, device or key set that is not one, 1 for a library that failed to load or registered
// nothing with this runtime, or an unknown operator.
report::Response answer(Runtime& runtime, const report::Request& request, std::ostream& err);

// The same, handing each operator of a library answer to `each` as soon as it is computed instead
// of keeping it in the response (whose library then stays empty), so that a long answer (all of
// libtorch) need not be held whole.
using OperatorSink = std::function<void(report::OperatorState&&)>;
report::Response answer(Runtime& runtime, const report::Request& request, std::ostream& err,
                        const OperatorSink& each);

// The call a request's CallSpec describes (resolve's, and trace's thread-local options): its keys
// (--keys, each tensor's, each inference tensor's without the keys InferenceMode strips), a fresh
// thread's sets changed as InferenceMode does (--inference-mode), plus --include and --exclude,
// autocast enabled for a device taking that device's Autocast key out of the excluded set (as
// torch.autocast does), and its options' device. The one place both subcommands get their
// thread-local sets from: 0, or 2 after saying on `err` which key or device is not one.
int call_of_request(const Runtime& runtime, const report::CallSpec& spec, Call& call,
                    std::ostream& err);

// The call `spec` makes of an operator: as it is for one with tensor arguments; for one without,
// no keys, and its first tensor's device as its options' device where it takes a Device (so that
// a report page's "CPU tensor" preset asks a factory on cpu).
report::CallSpec call_for_operator(const report::CallSpec& spec, bool takes_tensors,
                                   bool takes_device);

// The prefix of every error dispatch-inspect prints.
inline constexpr const char* kErrorPrefix = "dispatch-inspect: error: ";

}  // namespace schemac::inspect
