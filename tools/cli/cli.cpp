#include "cli.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "schemac/support/version.h"

namespace schemac::cli {
namespace {

int& exit_code() {
  static int code = kExitOk;
  return code;
}

// The subcommand with its name, description and --help footer, and nothing else yet.
CLI::App* add_subcommand(CLI::App& app, const CommandInfo& info) {
  CLI::App* command = app.add_subcommand(info.name, info.description);
  command->footer(info.footer);
  return command;
}

}  // namespace

std::string version_line(std::string_view tool) { return fmt::format("{} {}", tool, kVersion); }

int run_app(CLI::App& app, std::string_view tool, int argc, char** argv) {
  app.set_version_flag("--version", version_line(tool), "print the version and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help and version exit 0; every other parse error is a usage error.
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
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
                               std::initializer_list<std::string> choices, const std::string& help) {
  return command->add_option("--format", format, help)->check(CLI::IsMember(std::vector<std::string>(choices)));
}

void print_error(std::string_view command, std::string_view message) {
  fmt::print(stderr, "{}: error: {}\n", command, message);
}

bool stderr_color() {
  const char* no_color = std::getenv("NO_COLOR");
  return isatty(fileno(stderr)) && (no_color == nullptr || no_color[0] == '\0');
}

}  // namespace schemac::cli
