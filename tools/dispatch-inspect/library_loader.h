// Loading operator libraries into the process-wide registry, all or nothing.
//
// A library is either a C++ library whose static registration blocks run when it is opened
// (SCHEMAC_LIBRARY...; lib/runtime/kernels is one), or a plugin built against the stable C ABI (it
// exports schemac_plugin_abi_version; examples/plugin is one), which the runtime's plugin loader
// opens, checks the ABI version of, and registers. Either way loading runs the library's code.
//
// A file named by a path is checked before dlopen (elf_check.h): a missing file, a directory, a
// file that is not a shared library or a truncated one is answered with why, without opening it.
// Every load runs inside a RegistrationTransaction: when the library cannot be opened (missing
// file, unresolved symbol: dlopen's own message), is refused (a newer ABI), or any of its
// registrations fails (a throwing block, a duplicate definition: the registry's message naming
// both sites), everything it registered is undone, the library is closed, and the error says
// why. Libraries that loaded stay open for the life of the process.
#pragma once

#include <string>
#include <vector>

namespace schemac::inspect {

// The outcome of loading one library: ok, or an error message (possibly several lines).
struct LoadResult {
  bool ok = false;
  std::string error;
};

// The help text of every subcommand's --load option.
inline constexpr const char* kLoadHelp =
    "load an operator library (a C++ library or a stable-ABI plugin) before running; repeatable. "
    "WARNING: loading a library runs its code (its registrations and static constructors)";

// Loads `path` (a path relative to the current directory works without "./").
LoadResult load_library(const std::string& path);

// Loads each path in order and stops at the first failure, printing
// "dispatch-inspect: error: cannot load 'PATH': MESSAGE" on `err`. True when all loaded. A path
// this function loaded before in this process is not loaded again (a glob asks the registry once
// for the operators and once per match, each time with the subcommand's --load libraries).

bool load_libraries(const std::vector<std::string>& paths, std::ostream& err);

// One library as load_libraries loads it: Now, Before (this process loaded it already, so it
// registers nothing now) or Failed (after printing why on `err`).
enum class LoadState { Now, Before, Failed };
LoadState load_once(const std::string& path, std::ostream& err);

}  // namespace schemac::inspect
