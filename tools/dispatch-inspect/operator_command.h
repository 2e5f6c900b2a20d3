// What the subcommands about operators (table, dump, resolve, trace, diff) share: the OP arguments,
// --load, --format and --runtime, and one --help footer pattern.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "schemac/inspect/wire.h"

namespace schemac::inspect {

struct OperatorCommandOptions {
  std::vector<std::string> ops;  // OP...: names or globs, one section each when several
  std::string op_text() const;   // them as written, for messages
  std::vector<std::string> libraries;
  std::string format = "text";
  bool text_is_torch = false;  // the text format is PyTorch's own printing (dump's)
};

struct OperatorCommand {
  const char* name;
  const char* description;
  std::initializer_list<std::string> formats;
  const char* format_help;
  const char* example;  // the footer's "Example:" line(s)
  const char* exit_one =
      "a library failed to load or the operator is unknown";  // what exit 1 means
  bool any_runtime = true;  // false: our runtime only (--runtime only to refuse another, unlisted)
  const char* exit_status = nullptr;  // the whole "Exit status: ..." sentence, when not the pattern
};

// Adds the subcommand with OP, --load, --format and --runtime; `run` returns the exit code. The
// caller adds the subcommand's own options to the result.
CLI::App* add_operator_command(CLI::App& app, const OperatorCommand& command,
                               std::shared_ptr<OperatorCommandOptions> options,
                               std::function<int()> run);

// Adds a repeatable list option (`--keys A,B` or `--keys A --keys B`, or both), whose values
// `joined` gets as one comma-separated list.
CLI::Option* add_list_option(CLI::App* command, const std::string& name, std::string& joined,
                             const std::string& help);

// The thread-local state of a call, as resolve and trace both take it: --include, --exclude,
// --autocast DEVICE and --inference-mode (answer.h's call_of_request makes the sets of them, for
// both), put into `spec`.
struct ThreadLocalOptions {
  std::string include, exclude;
  std::vector<std::string> autocast;
  bool inference_mode = false;
  void into(report::CallSpec& spec) const {
    spec.include = include;
    spec.exclude = exclude;
    spec.autocast = autocast;
    spec.inference_mode = inference_mode;
  }
};
void add_thread_local_options(CLI::App* command, ThreadLocalOptions& options);

// A request of `kind` for operator `op` and the options' libraries.
report::Request operator_request(const char* kind, const OperatorCommandOptions& options,
                                 const std::string& op);

// The operators the options' OP names: OP itself when it is written as a full name (the adapter
// reports an unknown one); else, after loading the options' libraries, every registered operator
// a glob matches, in name order (report/operator_glob.h), or the one (or the overload packet's
// overloads) a name as PyTorch writes it stands for (report/names.h's match_operator:
// aten.add.Tensor, torch.ops.aten.relu.default, add.Tensor, aten::add); nullopt after saying why
// there are none. `several`: a glob or a packet, printed as sections.
struct NamedOperators {
  std::vector<std::string> names;
  bool several = false;
};
std::optional<NamedOperators> operators_named(const OperatorCommandOptions& options);

// Outputs of one JSON value and a newline each (empty ones skipped) as one array and a newline.
std::string json_array(const std::vector<std::string>& values);

// What a subcommand makes of one operator: sets `out` and returns the exit code. `several`: OP
// is a glob, so `out` is one section of several (torch-format tables then name their operator).
using OperatorAction = std::function<int(const std::string& op, bool several, std::string& out)>;

// Runs `each` on every operator OP names and prints what it made: as it is for a plain name;
// for a glob, text sections a blank line apart, JSON as one array, DOT one graph each (Mermaid
// draws one operator: exit 2 for several), saying who answered when a PyTorch runtime did
// (runtime.h's with_answerer). Nothing is printed when an operator's action is a usage error (2).
// Returns the worst exit code; 1 when nothing matched.
int print_each_operator(const OperatorCommandOptions& options, const OperatorAction& each);

}  // namespace schemac::inspect
