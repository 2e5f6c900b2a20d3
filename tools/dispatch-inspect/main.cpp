// dispatch-inspect: reports dispatch tables. One file per subcommand.
#include <CLI/CLI.hpp>

#include "commands.h"

namespace schemac::inspect {
int& exit_code() {
  static int code = 0;
  return code;
}
}  // namespace schemac::inspect

int main(int argc, char** argv) {
  CLI::App app{"dispatch-inspect: inspect and simulate dispatcher tables"};
  app.require_subcommand(1);
  schemac::inspect::add_simulate_command(app);
  schemac::inspect::add_ops_command(app);
  schemac::inspect::add_table_command(app);
  schemac::inspect::add_dump_command(app);
  schemac::inspect::add_resolve_command(app);
  schemac::inspect::add_trace_command(app);
  app.footer(
      "Subcommands that take --load LIB open that library in this process: loading a library runs its code.\n"
      "A library that fails to load or register is reported with the loader's message and leaves the registry as "
      "it was.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  return schemac::inspect::exit_code();
}
