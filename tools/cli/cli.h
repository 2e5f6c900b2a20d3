// The chores every subcommand of both command-line tools (schemac, dispatch-inspect) shares:
// running the app with one exit-code convention, `--version`, `--format`, error lines on stderr,
// colour, and reading input files (input.h).
//
// Exit codes: 0 success, 1 problems found in the input (or a failed step), 2 usage or I/O errors.
#pragma once

#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

namespace schemac::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitProblems = 1;
inline constexpr int kExitUsage = 2;

// "TOOL VERSION", e.g. "schemac 0.1.0": what --version prints.
std::string version_line(std::string_view tool);

// `TOOL help TOPIC` for a TOPIC that is not a subcommand (schemac's: a rule id): prints the
// topic's help and returns the exit code.
using HelpTopic = std::function<int(std::string_view topic)>;

// Adds -V/--version (printing version_line(tool)) and --color to `app`, parses argv, runs the
// chosen subcommand, and returns the exit code: the subcommand's (see on_run), 0 for --help and
// --version, 2 for a usage error. The grammar is the same for every subcommand of both tools:
// options may stand anywhere on the line, before or after the files (those of the tool, like
// --color and -V, after the subcommand too), as `--opt VALUE` or `--opt=VALUE`; an option that
// may be repeated takes one value per use (`--select a --select b`, or `--select a,b`), so it
// never swallows the files after it; `TOOL help [CMD]` is `TOOL [CMD] --help`, and `TOOL help
// TOPIC` is `help_topic`'s when set; an unknown subcommand or option is a usage error with a
// did-you-mean, printed as "TOOL[ CMD]: error: ..." before any output.
int run_app(CLI::App& app, std::string_view tool, int argc, char** argv,
            const HelpTopic& help_topic = {});

// Makes `run` the subcommand's action; its return value becomes the process's exit code.
void on_run(CLI::App* command, std::function<int()> run);

// A subcommand: its name, one-line description, and the --help footer (examples, exit codes).
struct CommandInfo {
  std::string name;
  std::string description;
  std::string footer;
};
// Adds the subcommand with `run` as its action (on_run); the caller adds its options.
CLI::App* add_command(CLI::App& app, const CommandInfo& info, std::function<int()> run);

// One row of a tool's command table (like git's command list): what --help says about the
// subcommand, and `bind`, which adds the subcommand's options to it and returns its action.
struct Command {
  CommandInfo info;
  std::function<int()> (*bind)(CLI::App* command);
};
// Adds each command of the table to `app`, in the table's order (the order --help lists them).
void add_commands(CLI::App& app, std::span<const Command> commands);

// Adds `--format` with `choices` (anything else is a usage error) and `help`.
CLI::Option* add_format_option(CLI::App* command, std::string& format,
                               std::initializer_list<std::string> choices, const std::string& help);

// "COMMAND: error: MESSAGE" on stderr, e.g. "schemac lint: error: cannot read 'x.yaml': ...".
void print_error(std::string_view command, std::string_view message);

template <typename... Args>
void error(std::string_view command, fmt::format_string<Args...> format, Args&&... args) {
  print_error(command, fmt::format(format, std::forward<Args>(args)...));
}

// --color: auto (colour on a terminal when NO_COLOR is unset or empty), always or never.
// run_app sets it from the command line.
enum class ColorChoice { automatic, always, never };
void set_color_choice(ColorChoice choice);
// Whether to colour what goes to stdout / stderr under the --color choice.
bool stdout_color();
bool stderr_color();

}  // namespace schemac::cli
