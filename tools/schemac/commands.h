// The schemac subcommands. Their names, descriptions and --help footers stand in one table
// (commands.cpp); each subcommand's own file has one options struct, one bind function (below),
// which adds the options to the subcommand and returns its action, and one run function, whose
// return value is the process exit code (cli::on_run).
#pragma once

#include <functional>
#include <span>

#include <CLI/CLI.hpp>

#include "cli.h"

namespace schemac::tool {

// Every subcommand, in the order --help lists them.
std::span<const cli::Command> schemac_commands();

std::function<int()> bind_parse_command(CLI::App* command);
std::function<int()> bind_lint_command(CLI::App* command);
std::function<int()> bind_compat_command(CLI::App* command);
std::function<int()> bind_gen_command(CLI::App* command);
std::function<int()> bind_lsp_command(CLI::App* command);

}  // namespace schemac::tool
