// What the subcommands about one operator (table, dump, resolve, trace) share: the OP argument,
// --load, --format and --runtime, and one --help footer pattern.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "report/wire.h"

namespace schemac::inspect {

struct OperatorCommandOptions {
  std::string op;
  std::vector<std::string> libraries;
  std::string format = "text";
};

struct OperatorCommand {
  const char* name;
  const char* description;
  std::initializer_list<std::string> formats;
  const char* format_help;
  const char* example;  // the footer's "Example:" line(s)
  const char* exit_one =
      "a library failed to load or the operator is unknown";  // what exit 1 means
};

// Adds the subcommand with OP, --load, --format and --runtime; `run` returns the exit code. The
// caller adds the subcommand's own options to the result.
CLI::App* add_operator_command(CLI::App& app, const OperatorCommand& command,
                               std::shared_ptr<OperatorCommandOptions> options,
                               std::function<int()> run);

// A request of `kind` for the options' operator and libraries.
report::Request operator_request(const char* kind, const OperatorCommandOptions& options);

}  // namespace schemac::inspect
