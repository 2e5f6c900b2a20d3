// dispatch-inspect: reports dispatch tables. One file per subcommand.
#include "cli.h"
#include "commands.h"
#include "runtime.h"

int main(int argc, char** argv) {
  CLI::App app{"dispatch-inspect: inspect and simulate dispatcher tables"};
  app.require_subcommand(1);
  // Options before the subcommand are the subcommand's (--runtime torch table OP, --load LIB ops):
  // cli::run_app moves them after it.
  schemac::cli::add_commands(app, schemac::inspect::general_commands());
  schemac::inspect::add_table_command(app);
  schemac::inspect::add_dump_command(app);
  schemac::inspect::add_resolve_command(app);
  schemac::inspect::add_trace_command(app);
  schemac::inspect::add_diff_command(app);
  app.footer(
      "Subcommands that take --load LIB open that library in this process: loading a library runs "
      "its code.\n"
      "A library that fails to load or register is reported with the loader's message and leaves "
      "the registry as "
      "it was.\n"
      "Exit codes: 0 success, 1 a library failed to load, an unknown operator or a failed step, 2 "
      "usage or I/O "
      "errors.");
  return schemac::cli::run_app(app, "dispatch-inspect", argc, argv);
}
