#include "parse_sources.h"

#include <cstdio>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "cli.h"
#include "input.h"
#include "lint_inputs.h"
#include "schemac/adopt/registrations_yaml.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/engine/engine.h"
#include "schemac/schema/printer.h"
#include "schemac/schema_json/schema_json.h"
#include "schemac/sources/language.h"
#include "schemac/sources/lint.h"
#include "schemac/sources/scan.h"

namespace schemac::tool {

using cli::error;

int run_parse_sources(const ParseSourcesOptions& options) {
  bool io_error = false;
  std::vector<diagnostics::Diagnostic> diagnostics;
  diagnostics::SourceFiles texts;
  std::vector<sources::ScannedFile> scanned;
  if (!build_macros("schemac parse", options.macros)) return cli::kExitUsage;
  for (const std::string& path : options.files) {
    std::optional<std::string> text = read_source_file("schemac parse", path);
    if (!text) {
      io_error = true;
      continue;
    }
    // The name says, else the content (`<(git show ...)`, a file without an extension).
    std::optional<sources::Language> language = sources::language_of(path, *text);
    if (!language) {
      error("schemac parse",
            "'{}' is not a C++ or Python file (.cpp .cc .cxx .cu .h .hpp .cuh .py, or such "
            "content)",
            path);
      io_error = true;
      continue;
    }
    std::string why;
    std::optional<sources::ScannedFile> file =
        engine::scan_registration_code(path, *text, *language, options.macros, why);
    if (!file) {
      error("schemac parse", "{}", why);
      io_error = true;
      continue;
    }
    scanned.push_back(std::move(*file));
    texts.add(path, std::move(*text));
  }
  // Helpers register into Library objects other files may bind.
  sources::resolve_across_files(scanned);
  std::string out;
  for (const sources::ScannedFile& file : scanned) {
    const std::string& path = file.path;
    for (const sources::FoundSchema& found : file.scan.schemas) {
      schema::ParseResult result = schema::parse_schema(found.text.text());
      if (options.json) {
        out += schema_json::found_schema_json(path, found, result) + "\n";
      } else if (result.ok() && !options.yaml) {
        out += fmt::format("{}:{}:{}: {}\n", path, found.position.line, found.position.column,
                           schema::print_schema(*result.schema));
      }
      for (diagnostics::Diagnostic& d : sources::check_found_schema(path, found)) {
        diagnostics.push_back(std::move(d));
      }
    }
    for (diagnostics::Diagnostic& d : sources::inference_diagnostics(path, file.scan)) {
      diagnostics.push_back(std::move(d));
    }
    if (options.verbose) {
      for (const sources::SkippedCall& skipped : file.scan.skipped) {
        fmt::print(stderr, "{}:{}:{}: note: skipped: {}\n", path, skipped.position.line,
                   skipped.position.column, skipped.reason);
      }
    }
  }
  if (options.yaml && !io_error) out = adopt::registrations_yaml(scanned, diagnostics);
  // Each file's .schemac.yaml, as `schemac lint` applies it.
  config::ConfigProvider configs = config_provider();
  engine::apply_configs(diagnostics, configs);
  if (!io_error) std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  if (!options.json && !diagnostics.empty()) {
    fmt::print(stderr, "{}", diagnostics::render_text(diagnostics, texts, {cli::stderr_color()}));
  }
  diagnostics::DiagnosticCounts counts = diagnostics::count_diagnostics(diagnostics);
  if (io_error) return cli::kExitUsage;
  return counts.errors > 0 || (options.werror && counts.warnings > 0) ? cli::kExitProblems
                                                                      : cli::kExitOk;
}

std::optional<std::string> read_source_file(std::string_view command, const std::string& path) {
  return cli::read_input(command, path, "", true);  // YAML's answers, Latin-1 comments allowed
}

}  // namespace schemac::tool
