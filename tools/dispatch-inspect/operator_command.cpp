#include "operator_command.h"

#include <iostream>

#include <fmt/format.h>

#include "cli.h"
#include "library_loader.h"
#include "operator_lookup.h"

namespace schemac::inspect {

CLI::App* add_operator_command(CLI::App& app, const OperatorCommand& command,
                               std::shared_ptr<OperatorCommandOptions> options,
                               std::function<int(const dispatch::OperatorEntry&)> run,
                               std::function<int()> check) {
  const std::string footer = fmt::format("Example:\n  {}\nExit status: 0 success, 1 {}, 2 usage error.",
                                         command.example, command.exit_one);
  CLI::App* sub = cli::add_command(app, {command.name, command.description, footer},
                                   [options, run = std::move(run), check = std::move(check)] {
                                     if (check) {
                                       if (const int code = check(); code != cli::kExitOk) return code;
                                     }
                                     if (!load_libraries(options->libraries, std::cerr)) return cli::kExitProblems;
                                     const dispatch::OperatorEntry* op = find_operator_or_explain(options->op, std::cerr);
                                     if (op == nullptr) return cli::kExitProblems;
                                     return run(*op);
                                   });
  sub->add_option("OP", options->op, "the operator, ns::name or ns::name.overload")->required();
  // One value per --load: `--load LIB OP` leaves OP to the positional (a vector option would take it).
  sub->add_option("--load", options->libraries, kLoadHelp)->allow_extra_args(false);
  cli::add_format_option(sub, options->format, command.formats, command.format_help);
  return sub;
}

}  // namespace schemac::inspect
