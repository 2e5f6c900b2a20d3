// Asking a runtime in a process of its own: a helper program (libtorch's adapter,
// dispatch-inspect-torch, which answers on its file descriptor 3), or a forked copy of this
// process (so that the libraries one side of a diff loads stay out of the other).
#pragma once

#include <functional>
#include <string>

#include "schemac/inspect/wire.h"

namespace schemac::inspect {

// Runs `program` with the request as its one argument and reads the response it writes on its
// file descriptor 3. When it cannot be run, says so with `missing_hint`; when it dies or gives
// no answer, says why (the signal); status 2 then.
report::Response ask_program(const std::string& program, const report::Request& request,
                             const std::string& missing_hint);

// `answer` run in a forked child; its response comes back through a pipe. Errors as ask_program's.
report::Response ask_forked(const std::function<report::Response()>& answer);

}  // namespace schemac::inspect
