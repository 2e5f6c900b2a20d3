// The inputs of `schemac lint`: each command-line argument expanded into files. `-` is stdin
// (named by --stdin-filename); a folder is searched recursively for the files lint knows (YAML,
// C++ and Python; hidden folders and what .gitignore leaves out skipped, files in sorted order:
// cli/input_files.h); a file named twice, however it is spelled, is read once. A file found in a
// folder (or given with --by-content) that is not text or that a code generator wrote is
// skipped; one given by name that cannot be read as text is an error, whatever its language.
#pragma once

#include <string>
#include <vector>

#include "schemac/config/provider.h"

namespace schemac::tool {

struct LintInput {
  std::string path;  // as shown in diagnostics
  std::string text;
  bool from_folder = false;  // found by searching a folder (or --by-content): skipped when its
                             // shape is unknown or its config excludes it
  bool from_stdin = false;
};

struct LintInputChoice {
  std::string stdin_name;   // --stdin-filename
  bool verbose = false;     // say on stderr which files are skipped, and why
  bool by_content = false;  // files given by name are taken as if found in a folder
};

// Reads every input. An unreadable one is reported ("schemac lint: error: cannot read ...") and
// sets `io_error`; the others are still read. `tool_errors` collects those messages for SARIF.
// A folder without anything to lint is said on stderr ("note: nothing to lint in 'DIR'"), not
// an error.
std::vector<LintInput> read_lint_inputs(const std::vector<std::string>& arguments,
                                        const LintInputChoice& choice, bool& io_error,
                                        std::vector<std::string>& tool_errors);

// The .schemac.yaml of each input (`forced`: --config), read as the CLI reads its inputs (binary
// and non-UTF-8 text refused, with why); every rule of the engine may be named in it.
config::ConfigProvider config_provider(const std::string& forced = "");

}  // namespace schemac::tool
