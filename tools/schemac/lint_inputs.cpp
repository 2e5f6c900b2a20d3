#include "lint_inputs.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <set>

#include <fmt/format.h>

#include "cli.h"
#include "input.h"
#include "parse_sources.h"
#include "schemac/engine/engine.h"
#include "schemac/sources/scan.h"

namespace schemac::tool {

using cli::error;

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kCommand = "schemac lint";

}  // namespace

std::vector<LintInput> read_lint_inputs(const std::vector<std::string>& arguments,
                                        const std::string& stdin_name, bool& io_error,
                                        std::vector<std::string>& tool_errors) {
  std::vector<LintInput> inputs;
  std::set<std::string> seen;  // canonical paths of the files read
  auto add_file = [&](const std::string& path, bool from_folder) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(path, ec);
    if (!seen.insert(ec ? path : canonical.string()).second) return;
    std::optional<std::string> text = sources::language_for_path(path)
                                          ? read_source_file(kCommand, path)
                                          : cli::read_input(kCommand, path);
    if (!text) {
      io_error = true;
      tool_errors.push_back(fmt::format("cannot read '{}'", path));
      return;
    }
    inputs.push_back({path, std::move(*text), from_folder, false});
  };
  bool stdin_read = false;
  for (const std::string& argument : arguments) {
    if (argument == "-") {
      if (stdin_read) continue;
      stdin_read = true;
      std::string text(std::istreambuf_iterator<char>(std::cin), {});
      if (const std::string why = cli::why_not_text(text); !why.empty()) {
        error(kCommand, "cannot read stdin: {}", why);
        io_error = true;
        tool_errors.push_back("cannot read stdin");
        continue;
      }
      inputs.push_back({stdin_name.empty() ? "<stdin>" : stdin_name, std::move(text), false, true});
      continue;
    }
    std::error_code ec;
    if (fs::is_directory(argument, ec)) {
      const std::vector<std::string> found = engine::files_under(argument);
      if (found.empty()) {
        error(kCommand, "cannot read '{}': a folder without YAML, C++ or Python files", argument);
        io_error = true;
        tool_errors.push_back(fmt::format("no files to lint in '{}'", argument));
      }
      for (const std::string& path : found) add_file(path, true);
      continue;
    }
    add_file(argument, false);
  }
  return inputs;
}

config::ConfigProvider config_provider(const std::string& forced) {
  return config::ConfigProvider(
      forced, engine::all_rules(), [](const fs::path& path, std::string& why) {
        std::optional<std::string> text = cli::read_file(path);
        why = text ? cli::why_not_text(*text) : "no such file, or not readable";
        return why.empty() ? text : std::nullopt;
      });
}

}  // namespace schemac::tool
