// The runtime a subcommand reports on: `--runtime schemac` (ours, in this process) or
// `--runtime torch` (libtorch's own dispatcher, through dispatch-inspect-torch, which lands beside
// dispatch-inspect when CMake finds libtorch, so that this program never links libtorch). Both
// answer the same request with the same report model (report/wire.h).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "report/wire.h"

namespace schemac::inspect {

// Adds `--runtime schemac|torch` (default schemac) to `command` (the tool or a subcommand: they
// all set the one runtime of this process).
void add_runtime_option(CLI::App* command);

// Whether --runtime torch was given.
bool torch_runtime_chosen();

// For the subcommands only our runtime can answer (simulate, trace): 0, or 2 after saying that
// --runtime torch does not work with `command`.
int require_our_runtime(const char* command);

// The answer of the chosen runtime's adapter. For torch: runs dispatch-inspect-torch, whose
// errors reach stderr as they are; when it cannot be run or dies, says why and answers status 2.
report::Response ask(const report::Request& request);

}  // namespace schemac::inspect
