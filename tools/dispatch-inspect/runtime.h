// The runtime a subcommand reports on: `--runtime schemac` (ours, in this process), `--runtime
// torch` (libtorch's own dispatcher, its C++ registrations, through dispatch-inspect-torch) or
// `--runtime python` (libtorch's dispatcher inside a Python, after import torch and --import
// MODULE..., through the Python helper: what Python registered too). The torch helpers land
// beside dispatch-inspect when CMake finds libtorch, so that this program never links libtorch;
// each runs once per subcommand and answers all its requests (lib/inspector/launch). Every
// runtime answers the same request with the same report model (wire.h), saying who answered.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "schemac/inspect/runtime.h"
#include "schemac/inspect/wire.h"

namespace schemac::inspect {

// Adds `--runtime schemac|torch|python` (default schemac; one runtime: a second value is a usage
// error), `--python EXE`, `--import MODULE` (repeatable) and `--torch-lib DIR` to `command`;
// `hidden` from its --help (simulate, trace: they take them only to refuse another runtime).
void add_runtime_option(CLI::App* command, bool hidden = false);

// The runtime --runtime chose (schemac unless given).
RuntimeKind chosen_runtime();

// For the subcommands only our runtime can answer (simulate, trace): 0, or 2 after saying that
// --runtime torch or python does not work with `command`.
int require_our_runtime(const char* command);

// The answer of the chosen runtime's adapter. For torch and python: its helper's (started on the
// first request), whose errors reach stderr as they are; when it cannot be run or dies, says why
// and answers status 2. Status 2 too, after saying why, for --python or --import without
// --runtime python.
report::Response ask(const report::Request& request);

// The answer of `runtime`'s adapter in a process of its own, whatever --runtime says, so that the
// libraries it loads are not in this process (diff's two sides): a torch helper per side, ours a
// forked copy of this process per request. Errors as ask's.
report::Response ask_separately(const report::Request& request, RuntimeKind runtime);

// Who answered the last request ask made (for the line every output of a PyTorch runtime
// carries: render.h's with_runtime).
const report::RuntimeInfo& last_answerer();

// `out` as render.h's with_runtime makes it for the last answerer (notes on stderr).
std::string with_answerer(std::string out, std::string_view format);

}  // namespace schemac::inspect
