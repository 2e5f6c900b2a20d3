#include "lint_inputs.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <set>

#include <fmt/format.h>

#include "cli.h"
#include "input.h"
#include "input_files.h"
#include "parse_sources.h"
#include "schemac/engine/engine.h"
#include "schemac/sources/language.h"
#include "schemac/sources/scan.h"

namespace schemac::tool {

using cli::error;

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kCommand = "schemac lint";

// A file lint reads when it finds it in a folder: YAML, C++ or Python; the config file and
// tags.yaml are not inputs.
bool lint_reads(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  if (name == ".schemac.yaml" || name == "tags.yaml") return false;
  return sources::is_yaml_path(path) || sources::language_for_path(path).has_value();
}

}  // namespace

std::vector<LintInput> read_lint_inputs(const std::vector<std::string>& arguments,
                                        const LintInputChoice& choice, bool& io_error,
                                        std::vector<std::string>& tool_errors) {
  std::vector<LintInput> inputs;
  std::set<std::string> seen;  // canonical paths of the files read
  auto skipped = [&](const std::string& path, std::string_view why) {
    if (choice.verbose) fmt::print(stderr, "{}: note: skipped '{}': {}\n", kCommand, path, why);
  };
  auto add_file = [&](const std::string& path, bool from_folder) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(path, ec);
    if (!seen.insert(ec ? path : canonical.string()).second) return;
    if (choice.by_content && !from_folder && !lint_reads(path)) {
      skipped(path, "not a YAML, C++ or Python file lint reads");
      return;
    }
    from_folder = from_folder || choice.by_content;
    const bool code = sources::language_for_path(path).has_value();  // Latin-1 comments allowed
    std::optional<std::string> text;
    if (from_folder && fs::is_regular_file(path, ec)) {
      // Found, not asked for: what is not text is not an operator file.
      text = cli::read_file(path);
      if (text) {
        if (const std::string why = cli::why_not_text(*text, code); !why.empty()) {
          skipped(path, why);
          return;
        }
      }
    }
    if (!text) text = cli::read_input(kCommand, path, "", code);
    if (!text) {
      io_error = true;
      tool_errors.push_back(fmt::format("cannot read '{}'", path));
      return;
    }
    if (from_folder) {
      if (std::optional<std::string> generator = cli::generator_of(*text)) {
        skipped(path, fmt::format("written by {}", *generator));
        return;
      }
    }
    inputs.push_back({path, std::move(*text), from_folder, false});
  };
  bool stdin_read = false;
  for (const std::string& argument : arguments) {
    if (argument == "-") {
      if (stdin_read) continue;
      stdin_read = true;
      std::string text(std::istreambuf_iterator<char>(std::cin), {});
      const bool code = sources::language_of(choice.stdin_name, text).has_value();
      if (const std::string why = cli::why_not_text(text, code); !why.empty()) {
        error(kCommand, "cannot read stdin: {}", why);
        io_error = true;
        tool_errors.push_back("cannot read stdin");
        continue;
      }
      inputs.push_back({choice.stdin_name.empty() ? "<stdin>" : choice.stdin_name, std::move(text),
                        false, true});
      continue;
    }
    std::error_code ec;
    if (fs::is_directory(argument, ec)) {
      const size_t before = inputs.size();
      for (const std::string& path :
           cli::files_under(argument, lint_reads, kCommand, choice.verbose))
        add_file(path, true);
      if (inputs.size() == before)
        fmt::print(stderr, "{}: note: nothing to lint in '{}'\n", kCommand, argument);
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
