#include "parse_sources.h"

#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "cli.h"
#include "input.h"
#include "schemac/adopt/registrations_yaml.h"
#include "schemac/engine/engine.h"
#include "schemac/engine/inputs.h"
#include "schemac/schema/printer.h"
#include "schemac/schema_json/schema_json.h"

namespace schemac::tool {

constexpr std::string_view kParse = "schemac parse";

int run_parse_sources(const ParseSourcesOptions& options) {
  if (!build_macros(kParse, options.macros)) return cli::kExitUsage;
  bool io_error = false;
  diagnostics::SourceFiles texts;
  std::vector<sources::ScannedFile> scanned;
  for (const std::string& path : options.files) {
    // Any bytes but a NUL: a Latin-1 comment must not hide the file's schemas.
    std::optional<std::string> text = cli::read_input(kParse, path, "", true);
    std::string why;
    std::optional<sources::ScannedFile> file;
    if (text) file = engine::scan_registration_code(path, *text, options.macros, why);
    if (!file) {
      if (text) cli::error(kParse, "{}", why);
      io_error = true;
      continue;
    }
    scanned.push_back(std::move(*file));
    texts.add(path, std::move(*text));
  }
  std::vector<diagnostics::Diagnostic> diagnostics = engine::check_registration_code(scanned);
  std::string out;
  for (const sources::ScannedFile& file : scanned) {
    for (const sources::FoundSchema& found : file.scan.schemas) {
      schema::ParseResult result = schema::parse_schema(found.text.text());
      if (options.json) {
        out += schema_json::found_schema_json(file.path, found, result) + "\n";
      } else if (result.ok() && !options.yaml) {
        out += fmt::format("{}:{}:{}: {}\n", file.path, found.position.line, found.position.column,
                           schema::print_schema(*result.schema));
      }
    }
    if (options.verbose) {
      for (const sources::SkippedCall& skipped : file.scan.skipped) {
        fmt::print(stderr, "{}:{}:{}: note: skipped: {}\n", file.path, skipped.position.line,
                   skipped.position.column, skipped.reason);
      }
    }
  }
  if (options.yaml && !io_error) out = adopt::registrations_yaml(scanned, diagnostics);
  // Each file's .schemac.yaml, as `schemac lint` applies it.
  config::ConfigProvider configs = engine::config_provider();
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

}  // namespace schemac::tool
