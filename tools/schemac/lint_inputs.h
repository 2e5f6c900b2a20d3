// The inputs of `schemac lint`: each command-line argument expanded into files. `-` is stdin
// (named by --stdin-filename); a folder is searched recursively for the files lint knows (YAML,
// C++ and Python; hidden folders skipped, files in sorted order: the engine's files_under, which
// the language server's project walk shares); a file named twice, however it is spelled, is read
// once.
#pragma once

#include <string>
#include <vector>

#include "schemac/config/provider.h"

namespace schemac::tool {

struct LintInput {
  std::string path;  // as shown in diagnostics
  std::string text;
  bool from_folder = false;  // found by searching a folder: skipped when its shape is unknown
  bool from_stdin = false;
};

// Reads every input. An unreadable one is reported ("schemac lint: error: cannot read ...") and
// sets `io_error`; the others are still read. `tool_errors` collects those messages for SARIF.
std::vector<LintInput> read_lint_inputs(const std::vector<std::string>& arguments,
                                        const std::string& stdin_name, bool& io_error,
                                        std::vector<std::string>& tool_errors);

// The .schemac.yaml of each input (`forced`: --config), read as the CLI reads its inputs (binary
// and non-UTF-8 text refused, with why); every rule of the engine may be named in it.
config::ConfigProvider config_provider(const std::string& forced = "");

}  // namespace schemac::tool
