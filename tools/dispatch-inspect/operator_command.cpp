#include "operator_command.h"

#include <fmt/format.h>

#include "cli.h"
#include "library_loader.h"
#include "runtime.h"

namespace schemac::inspect {

CLI::App* add_operator_command(CLI::App& app, const OperatorCommand& command,
                               std::shared_ptr<OperatorCommandOptions> options,
                               std::function<int()> run) {
  const std::string footer =
      fmt::format("Example:\n  {}\nExit status: 0 success, 1 {}, 2 usage error.", command.example,
                  command.exit_one);
  CLI::App* sub =
      cli::add_command(app, {command.name, command.description, footer}, std::move(run));
  sub->add_option("OP", options->op, "the operator, ns::name or ns::name.overload")->required();
  // One value per --load: `--load LIB OP` leaves OP to the positional (a vector option would take
  // it).
  sub->add_option("--load", options->libraries, kLoadHelp)->allow_extra_args(false);
  cli::add_format_option(sub, options->format, command.formats, command.format_help);
  add_runtime_option(sub);
  return sub;
}

report::Request operator_request(const char* kind, const OperatorCommandOptions& options) {
  report::Request request;
  request.kind = kind;
  request.libraries = options.libraries;
  request.op = options.op;
  return request;
}

}  // namespace schemac::inspect
