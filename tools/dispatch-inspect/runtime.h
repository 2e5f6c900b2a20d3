// The runtime a subcommand reports on: `--runtime schemac` (ours, in this process) or
// `--runtime torch` (libtorch's own dispatcher, through dispatch-inspect-torch, which lands beside
// dispatch-inspect when CMake finds libtorch, so that this program never links libtorch). Both
// answer the same request with the same report model (report/wire.h).
#pragma once

#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "schemac/inspect/runtime.h"
#include "schemac/inspect/wire.h"

namespace schemac::inspect {

// Adds `--runtime schemac|torch` (default schemac) to `command` (the tool or a subcommand: they
// all set the one runtime of this process).
void add_runtime_option(CLI::App* command);

// The runtime --runtime chose (schemac unless given).
RuntimeKind chosen_runtime();

// For the subcommands only our runtime can answer (simulate, trace): 0, or 2 after saying that
// --runtime torch does not work with `command`.
int require_our_runtime(const char* command);

// The answer of the chosen runtime's adapter. For torch: runs dispatch-inspect-torch, whose
// errors reach stderr as they are; when it cannot be run or dies, says why and answers status 2.
report::Response ask(const report::Request& request);

// The answer of `runtime`'s adapter in a process of its own, whatever
// --runtime says, so that the libraries it loads are not in this process (diff's two sides):
// libtorch's is dispatch-inspect-torch, ours a forked copy of this process. Errors as ask's.
report::Response ask_separately(const report::Request& request, RuntimeKind runtime);

}  // namespace schemac::inspect
