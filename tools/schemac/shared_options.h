// The options several subcommands share, and their errors as the commands print them: --format's
// and --docs-url's help (lint, compat, lsp), the build macros -D/-U (lint, parse --source and
// compat: the commands that read C++) and --torch-version (lint, gen).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "schemac/config/config.h"
#include "schemac/engine/engine.h"
#include "schemac/tokens/cpp_macros.h"
#include "schemac/torch_releases/torch_release.h"

namespace schemac::tool {

// The help text of lint's and compat's --format.
inline constexpr const char* kReportFormatHelp =
    "text (with source lines and a summary; the default), json, sarif or github (workflow "
    "annotations); all on stdout";

// The help text of --docs-url (lint, compat, lsp).
inline constexpr const char* kDocsUrlHelp =
    "the base URL where docs/ is published (e.g. https://host/schemac/docs/): SARIF's helpUri and "
    "the server's rule links point at each rule's entry there (also `docs-url:` in "
    ".schemac.yaml); without one, SARIF carries each rule's help text and no link";

// --docs-url's value ("" when not given; the caller falls back to a config's `docs-url:`), or,
// after saying why, nothing when it is not an absolute URL.
std::optional<std::string> checked_docs_url(std::string_view command, const std::string& option);

// `-D NAME=VALUE` / `-DNAME` / `-U NAME`; lib/frontend/engine merges them with a `.schemac.yaml`'s
// `defines:` (macros_for).
using BuildMacroOptions = engine::BuildMacros;

void add_build_macro_options(CLI::App* cmd, BuildMacroOptions& options);

// The macros a C++ input is read with: `config`'s defines (when given), then -D, then -U.
// Prints "COMMAND: error: ..." and returns nothing when a -D or a config value is malformed.
std::optional<tokens::MacroTable> build_macros(std::string_view command,
                                               const BuildMacroOptions& options,
                                               const config::Config* config = nullptr);

// `--torch-version X.Y`: the PyTorch release whose torchgen rules apply. A release lint does not
// know is a usage error that lists the known ones. `given`, when not null, is set once the option
// is written (a .schemac.yaml's torch-version then yields to it).
void add_torch_version_option(CLI::App* cmd, torch_releases::TorchVersion& version,
                              bool* given = nullptr);

}  // namespace schemac::tool
