// Each schemac subcommand lives in its own file and adds itself to the app here. A subcommand
// has one options struct, one setup function (below) and one run function; the run function
// returns the process exit code (cli::on_run).
#pragma once

#include <CLI/CLI.hpp>

namespace schemac::cli {

void add_parse_command(CLI::App& app);
void add_lint_command(CLI::App& app);
void add_compat_command(CLI::App& app);
void add_gen_command(CLI::App& app);

}  // namespace schemac::cli
