// dispatch-inspect: one setup function per subcommand, each in its own file.
#pragma once

#include <CLI/CLI.hpp>

namespace schemac::inspect {

// Adds `simulate` to the app. The subcommand's callback stores its exit code in exit_code().
void add_simulate_command(CLI::App& app);
// ops, table, dump, resolve, trace: the registry after loading libraries (--load).
void add_ops_command(CLI::App& app);
void add_table_command(CLI::App& app);
void add_dump_command(CLI::App& app);
void add_resolve_command(CLI::App& app);
void add_trace_command(CLI::App& app);

// The exit code chosen by the subcommand that ran (0 when none set one).
int& exit_code();

}  // namespace schemac::inspect
