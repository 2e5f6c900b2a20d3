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
#include "schemac/sources/scan.h"

namespace schemac::tool {

using cli::error;

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kCommand = "schemac lint";

bool is_yaml(const fs::path& path) {
  return path.extension() == ".yaml" || path.extension() == ".yml";
}

// The files lint knows under `folder`, sorted; the config file and tags.yaml are not inputs.
std::vector<std::string> files_under(const fs::path& folder) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(
           folder, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const fs::path& path = it->path();
    std::string name = path.filename().string();
    if (it->is_directory(ec)) {
      if (name.starts_with(".")) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec) || name == ".schemac.yaml" || name == "tags.yaml") continue;
    if (is_yaml(path) || sources::language_for_path(path.string())) out.push_back(path.string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

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
      const std::vector<std::string> found = files_under(argument);
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

}  // namespace schemac::tool
