// dispatch-inspect: one file per subcommand. A subcommand's run function returns the process
// exit code (cli::on_run).
#pragma once

#include <functional>
#include <span>

#include <CLI/CLI.hpp>

#include "cli.h"

namespace schemac::inspect {

using cli::kExitOk;
using cli::kExitProblems;
using cli::kExitUsage;

// simulate, ops, audit and report, in the order --help lists them (commands.cpp): their names,
// descriptions and --help footers. Each one's file has its bind function, which adds the options
// to the subcommand and returns its action.
std::span<const cli::Command> general_commands();
std::function<int()> bind_simulate_command(CLI::App* command);
std::function<int()> bind_ops_command(CLI::App* command);
std::function<int()> bind_audit_command(CLI::App* command);
std::function<int()> bind_report_command(CLI::App* command);

// table, dump, resolve, trace: one operator in the registry after loading libraries (--load);
// each adds itself through add_operator_command (operator_command.h).
void add_table_command(CLI::App& app);
void add_dump_command(CLI::App& app);
void add_resolve_command(CLI::App& app);
void add_trace_command(CLI::App& app);
// diff: one operator's table on two sides (libraries, runtimes), each computed separately.
void add_diff_command(CLI::App& app);

}  // namespace schemac::inspect
