// The engine behind `dispatch-inspect simulate`: PythonDispatcher's teaching table on a fresh
// registry, and what-if script sessions. Writes to the given streams and returns the exit code,
// so tests run it in-process.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "table_format.h"

namespace schemac::inspect {

struct SimulateOptions {
  std::vector<std::string> keys;  // KEY... to register fn_KEY for
  bool registrations = false;     // print registrations() instead of dispatchTable()
  bool all_keys = false;          // show every present runtime key, not just PythonDispatcher's
  inspect::TableFormat format = inspect::TableFormat::Text;  // Text is PythonDispatcher's format
};

// PythonDispatcher's keys, in its order.
const std::vector<std::string>& python_dispatcher_runtime_keys();
const std::vector<std::string>& python_dispatcher_alias_keys();

// `simulate KEY...`: 0 on success, 1 on PythonDispatcher's errors (message on `err`).
int simulate_keys(const SimulateOptions& options, std::ostream& out, std::ostream& err);

// `simulate --script FILE` on already-read text. Step errors are printed on `err` as
// "<script_name>:<line>: error: <message>"; the session goes on. 0 when every step succeeded, else
// 1 (a script with no step at all, only blanks and comments, is an error too).
int simulate_script(std::string_view script, std::string_view script_name,
                    inspect::TableFormat format, std::ostream& out, std::ostream& err);

// PythonDispatcher's post-processing, exposed for tests: drops "registered at ...FallbackKernel.cpp
// ... [" (and our default-fallback file) up to the last '['.
std::string strip_fallback_site(std::string_view line);

}  // namespace schemac::inspect
