// What the subcommands about one operator (table, dump, resolve, trace) share: the OP argument,
// --load and --format, and the steps before their own work (load the libraries, find OP, or say
// why not: exit 1).
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "schemac/dispatch/operator_entry.h"

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
  const char* exit_one = "a library failed to load or the operator is unknown";  // what exit 1 means
};

// Adds the subcommand with OP, --load and --format; `run` gets the operator and returns the exit
// code. `check`, when given, runs first (before any library is loaded); a non-zero result is the
// exit code. The caller adds the subcommand's own options to the result.
CLI::App* add_operator_command(CLI::App& app, const OperatorCommand& command,
                               std::shared_ptr<OperatorCommandOptions> options,
                               std::function<int(const dispatch::OperatorEntry&)> run,
                               std::function<int()> check = {});

}  // namespace schemac::inspect
