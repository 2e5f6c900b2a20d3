#include "cli.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <fmt/ranges.h>

#include "schemac/support/did_you_mean.h"
#include "schemac/support/version.h"

namespace schemac::cli {
namespace {

int& exit_code() {
  static int code = kExitOk;
  return code;
}

ColorChoice& color_choice() {
  static ColorChoice choice = ColorChoice::automatic;
  return choice;
}

bool color_on(FILE* stream) {
  if (color_choice() != ColorChoice::automatic) return color_choice() == ColorChoice::always;
  const char* no_color = std::getenv("NO_COLOR");
  return isatty(fileno(stream)) && (no_color == nullptr || no_color[0] == '\0');
}

// The subcommand with its name, description and --help footer, and nothing else yet.
CLI::App* add_subcommand(CLI::App& app, const CommandInfo& info) {
  CLI::App* command = app.add_subcommand(info.name, info.description);
  command->footer(info.footer);
  return command;
}

std::vector<std::string> subcommand_names(CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  return names;
}

// The long option names `command` and its parents accept, for did-you-mean.
std::vector<std::string> option_names(const CLI::App* command) {
  std::vector<std::string> names;
  for (const CLI::App* at = command; at != nullptr; at = at->get_parent()) {
    for (const CLI::Option* option : at->get_options({})) {
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    }
  }
  return names;
}

std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& names) {
  std::vector<std::string_view> views(names.begin(), names.end());
  return support::did_you_mean(word, views);
}

// The innermost subcommand that was given, or the app.
CLI::App* chosen_command(CLI::App& app) {
  CLI::App* at = &app;
  for (std::vector<CLI::App*> chosen = at->get_subcommands(); !chosen.empty();
       chosen = at->get_subcommands()) {
    at = chosen.front();
  }
  return at;
}

std::string command_label(std::string_view tool, const CLI::App* command) {
  if (command == nullptr || command->get_parent() == nullptr) return std::string(tool);
  return fmt::format("{} {}", tool, command->get_name());
}

// A parse error as "TOOL[ CMD]: error: MESSAGE", with a did-you-mean for an unknown option
// (the first word of `args` that looks like an option the command and its parents do not know).
void print_parse_error(CLI::App& app, std::string_view tool, const CLI::ParseError& e,
                       const std::vector<std::string>& args) {
  CLI::App* command = chosen_command(app);
  std::string message = e.what();
  std::string hint;
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    std::vector<std::string> known = option_names(command);
    for (const std::string& arg : args) {
      std::string name = arg.substr(0, arg.find('='));
      if (!name.starts_with("--") || name == "--" ||
          std::find(known.begin(), known.end(), name) != known.end()) {
        continue;
      }
      message = fmt::format("unknown option '{}'", name);
      if (auto guess = closest(name, known)) hint = fmt::format("did you mean '{}'?", *guess);
      break;
    }
  }
  // A one-value option given more than once: CLI11's "--format: At Most 1 required but received
  // 2" ("At most" from CLI11 2.6 on), said as a person would.
  for (std::string_view at_most_one :
       {": At Most 1 required but received ", ": At most 1 required but received "}) {
    if (const size_t at = message.find(at_most_one); at != std::string::npos)
      message = fmt::format("{} given {} times: give it once", message.substr(0, at),
                            message.substr(at + at_most_one.size()));
  }
  print_error(command_label(tool, command), message);
  if (!hint.empty()) fmt::print(stderr, "note: {}\n", hint);
  fmt::print(stderr, "note: see '{} --help'\n", command_label(tool, command));
}

// Whether `name` (an option of the app or of any subcommand) takes a value.
bool takes_value(CLI::App& app, const std::string& name) {
  if (const CLI::Option* option = app.get_option_no_throw(name))
    return option->get_type_size() != 0;
  for (const CLI::App* sub : app.get_subcommands({}))
    if (const CLI::Option* option = sub->get_option_no_throw(name))
      return option->get_type_size() != 0;
  return false;
}

// Options anywhere: an option that may be given many times (--select, --ignore, --load, ...)
// takes one value each time it is given (`--select a,b` or `--select a --select b`), so the
// files after it stay files. Options that take no value or a fixed number are left as they are.
void takes_one_value_per_use(CLI::App* command) {
  for (CLI::Option* option : command->get_options({})) {
    if (option->get_positional() || option->get_items_expected_max() <= 1) continue;
    option->allow_extra_args(false);
  }
}

// Descriptions and footers as written: ours are laid out by hand, one example command a line.
// CLI11 2.5 and later reflow them into 80-column paragraphs (running the example commands into
// one another) unless told not to; CLI11 before 2.5 prints them as they are and has no switch.
template <typename Formatter>
auto keep_paragraphs_as_written(Formatter& formatter, int)
    -> decltype(formatter.enable_footer_formatting(false), void()) {
  formatter.enable_description_formatting(false);
  formatter.enable_footer_formatting(false);
}
template <typename Formatter>
void keep_paragraphs_as_written(Formatter&, long) {}

}  // namespace

std::string version_line(std::string_view tool) {
  return fmt::format("{} {}", tool, support::kVersion);
}

int run_app(CLI::App& app, std::string_view tool, int argc, char** argv,
            const HelpTopic& help_topic) {
  app.set_version_flag("-V,--version", version_line(tool), "print the version and exit");
  if (app.get_name().empty()) app.name(std::string(tool));
  keep_paragraphs_as_written(*app.get_formatter(), 0);  // the subcommands share the formatter
  for (CLI::App* sub : app.get_subcommands({})) {
    sub->fallthrough();
    takes_one_value_per_use(sub);
  }
  std::string color = "auto";
  app.add_option("--color", color,
                 "colour the output: auto (on a terminal, unless NO_COLOR is set), always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  std::vector<std::string> args(argv + 1, argv + argc);
  // --color acts on what the subcommand prints, so it is read before CLI11 runs the subcommand.
  for (size_t i = 0; i < args.size(); ++i) {
    std::string value = args[i].starts_with("--color=")               ? args[i].substr(8)
                        : args[i] == "--color" && i + 1 < args.size() ? args[i + 1]
                                                                      : "";
    if (value == "always") set_color_choice(ColorChoice::always);
    if (value == "never") set_color_choice(ColorChoice::never);
    if (value == "auto") set_color_choice(ColorChoice::automatic);
  }
  const std::vector<std::string> names = subcommand_names(app);
  std::vector<std::string> kept, moved;  // the options before the command that stay, that move
  // `TOOL help [CMD]` is `TOOL [CMD] --help`; `TOOL help TOPIC` is the topic's.
  if (!args.empty() && args.front() == "help") {
    if (args.size() > 1 && help_topic && !args[1].starts_with("-") &&
        std::find(names.begin(), names.end(), args[1]) == names.end()) {
      const int code = help_topic(args[1]);
      std::fflush(stdout);
      return code;
    }
    args.erase(args.begin());
    if (args.size() > 1) args.resize(1);
    args.push_back("--help");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (arg.starts_with("-")) {
      // An option before the command: the tool's own (--color never) stays; a subcommand's
      // (dispatch-inspect --runtime torch table OP) moves after the command. One that takes a
      // value in the space form takes the next word with it.
      const bool own = app.get_option_no_throw(arg.substr(0, arg.find('='))) != nullptr;
      const size_t words = arg.find('=') == std::string::npos && takes_value(app, arg) ? 2 : 1;
      const size_t end = std::min(args.size(), i + words);
      if (!own) moved.insert(moved.end(), args.begin() + i, args.begin() + end);
      else kept.insert(kept.end(), args.begin() + i, args.begin() + end);
      i = end - 1;
      continue;
    }
    if (std::find(names.begin(), names.end(), arg) != names.end()) {
      // kept, the command, the moved options, then the rest.
      kept.push_back(arg);
      kept.insert(kept.end(), moved.begin(), moved.end());
      kept.insert(kept.end(), args.begin() + i + 1, args.end());
      args = std::move(kept);
      break;
    }
    print_error(tool, fmt::format("unknown command '{}'", arg));
    if (auto guess = closest(arg, names)) fmt::print(stderr, "note: did you mean '{}'?\n", *guess);
    fmt::print(stderr, "note: the commands are {}; see '{} --help'\n", fmt::join(names, ", "),
               tool);
    return kExitUsage;
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes the last first
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    print_parse_error(app, tool, e, args);
    return kExitUsage;
  }
  std::fflush(stdout);
  return exit_code();
}

void on_run(CLI::App* command, std::function<int()> run) {
  command->callback([run = std::move(run)] { exit_code() = run(); });
}

CLI::App* add_command(CLI::App& app, const CommandInfo& info, std::function<int()> run) {
  CLI::App* command = add_subcommand(app, info);
  on_run(command, std::move(run));
  return command;
}

void add_commands(CLI::App& app, std::span<const Command> commands) {
  for (const Command& entry : commands) {
    CLI::App* command = add_subcommand(app, entry.info);
    on_run(command, entry.bind(command));
  }
}

CLI::Option* add_format_option(CLI::App* command, std::string& format,
                               std::initializer_list<std::string> choices,
                               const std::string& help) {
  return command->add_option("--format", format, help)
      ->check(CLI::IsMember(std::vector<std::string>(choices)));
}

void print_error(std::string_view command, std::string_view message) {
  fmt::print(stderr, "{}: error: {}\n", command, message);
}

void set_color_choice(ColorChoice choice) { color_choice() = choice; }
bool stdout_color() { return color_on(stdout); }
bool stderr_color() { return color_on(stderr); }

}  // namespace schemac::cli
