// schemac: reads operator declarations (function schemas in native_functions.yaml-style files),
// checks them, and generates the C++ registration code.
#include "cli.h"
#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "schemac: check PyTorch-style operator schemas and generate their registration code"};
  app.require_subcommand(1);
  app.footer(
      "Run 'schemac SUBCOMMAND --help' for the options and examples of each subcommand, and\n"
      "'schemac help RULE' for what a rule checks and why.\n"
      "Exit codes: 0 success, 1 problems found in the input, 2 usage or I/O errors.");
  schemac::cli::add_commands(app, schemac::tool::schemac_commands());
  return schemac::cli::run_app(app, "schemac", argc, argv, schemac::tool::print_rule_help);
}
