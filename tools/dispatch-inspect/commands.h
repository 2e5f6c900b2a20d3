// dispatch-inspect: one setup function per subcommand, each in its own file. A subcommand's run
// function returns the process exit code (cli::on_run).
#pragma once

#include <CLI/CLI.hpp>

#include "cli.h"

namespace schemac::inspect {

using cli::kExitOk;
using cli::kExitProblems;
using cli::kExitUsage;

// Adds `simulate` to the app.
void add_simulate_command(CLI::App& app);
// ops, table, dump, resolve, trace: the registry after loading libraries (--load).
void add_ops_command(CLI::App& app);
void add_table_command(CLI::App& app);
void add_dump_command(CLI::App& app);
void add_resolve_command(CLI::App& app);
void add_trace_command(CLI::App& app);

}  // namespace schemac::inspect
