// `schemac parse [--format text|json|yaml] [--werror] [--source] [SCHEMA...]`: parses each SCHEMA,
// or each non-blank line of stdin, and prints its canonical form (text) or one JSON object per
// input (--format json, or its alias --json). Errors name the column and what was expected;
// warnings (what PyTorch accepts but is questionable) carry their rule id too. In text mode both
// go to stderr with the line and a caret under the problem, coloured by --color as lint's are.
// Exit 0 when every input parsed, 1 otherwise (and, with --werror, when one had a warning).
// With --source the arguments are registration code (run_parse_sources).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli.h"
#include "commands.h"
#include "input.h"
#include "schemac/adopt/registrations_yaml.h"
#include "schemac/diagnostics/diagnostic.h"
#include "schemac/engine/documents.h"
#include "schemac/engine/engine.h"
#include "schemac/schema/parser.h"
#include "schemac/schema/printer.h"
#include "schemac/schema_json/schema_json.h"
#include "schemac/sources/tally.h"
#include "shared_options.h"

namespace schemac::tool {

using cli::error;

namespace {

constexpr std::string_view kParse = "schemac parse";

struct ParseSourcesOptions {
  std::vector<std::string> files;
  bool json = false;
  bool yaml = false;  // --format yaml
  bool werror = false;
  bool verbose = false;      // list the registration calls whose schema is not a literal
  BuildMacroOptions macros;  // -D, -U (with each file's .schemac.yaml's defines)
};

struct ParseOptions {
  std::string format = "text";
  bool source = false;               // --source was given: the positional arguments are files too
  std::vector<std::string> schemas;  // empty: read stdin
  // --source FILE...: schemas from registration code. Its json (--json, the alias of --format
  // json) and werror (a warning fails the input as an error does) serve schemas too.
  ParseSourcesOptions sources;
};

// One schema to parse and where it came from, for messages: "<stdin>:3" or "<argument 1>:1".
struct Input {
  std::string origin;
  uint32_t line = 1;
  std::string text;
};

// "<stdin>:3:12: error: message [rule]" (or "warning:"), the line, and a caret line under the
// problem (a long line shown as a window around the caret, a long message cut).
void print_problem(const Input& input, const schema::SchemaError& error,
                   diagnostics::Severity severity) {
  const size_t column = size_t{error.offset} + 1;
  fmt::print(stderr, "{}",
             diagnostics::render_line_problem(
                 fmt::format("{}:{}:{}", input.origin, input.line, column), severity, error.message,
                 error.rule, input.text, column, column + std::max<size_t>(error.length, 1),
                 {cli::stderr_color()}));
}

// `--source FILE...`: the schemas written in C++ and Python registration code, read by
// lib/frontend/engine as lint reads them (each file's .schemac.yaml: defines:, custom-op-helpers:,
// select, ignore, severity, per-path, profile; suppression comments), printed like schemas are,
// each with the file, line and column where its string starts; --format yaml writes the
// registrations as native-functions YAML (lib/frontend/adopt).
int run_parse_sources(const ParseSourcesOptions& options) {
  if (!build_macros(kParse, options.macros)) return cli::kExitUsage;
  bool io_error = false;
  diagnostics::SourceFiles texts;
  std::vector<engine::Document> documents;
  for (const std::string& path : options.files) {
    // Any bytes but a NUL: a Latin-1 comment must not hide the file's schemas.
    std::optional<std::string> text = cli::read_input(kParse, path, "", true);
    if (!text) {
      io_error = true;
      continue;
    }
    texts.add(path, *text);
    documents.emplace_back(path, std::move(*text));
  }
  config::ConfigProvider configs = engine::config_provider();
  engine::Options lint_options;
  lint_options.macros = options.macros;
  engine::RegistrationCode code =
      engine::read_registration_code(std::move(documents), &configs, lint_options);
  for (const engine::Problem& problem : code.problems) cli::error(kParse, "{}", problem.message);
  io_error = io_error || !code.problems.empty() || code.configured.config_error;
  if (options.verbose) {
    for (const sources::ScannedFile& file : code.files) {
      for (const sources::SkippedCall& skipped : file.scan.skipped)
        fmt::print(stderr, "{}:{}:{}: note: skipped: {}\n", file.path, skipped.position.line,
                   skipped.position.column, skipped.reason);
    }
  }
  // The registrations as YAML (what is left out said with the rest), else the schemas.
  std::vector<diagnostics::Diagnostic> findings = code.findings;
  const std::string yaml = options.yaml ? adopt::registrations_yaml(code.files, findings) : "";
  const std::vector<diagnostics::Diagnostic> diagnostics =
      engine::settle_registration_code(code, std::move(findings), lint_options, options.yaml);
  const std::string out =
      options.yaml ? yaml : engine::found_schemas_listing(code.files, diagnostics, options.json);
  if (!io_error) std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  if (!options.json && !diagnostics.empty()) {
    fmt::print(stderr, "{}", diagnostics::render_text(diagnostics, texts, {cli::stderr_color()}));
  }
  if (!code.files.empty())
    fmt::print(stderr, "{}\n", sources::tally_line(sources::tally(code.files)));
  diagnostics::DiagnosticCounts counts = diagnostics::count_diagnostics(diagnostics);
  if (io_error) return cli::kExitUsage;
  return counts.errors > 0 || (options.werror && counts.warnings > 0) ? cli::kExitProblems
                                                                      : cli::kExitOk;
}

std::vector<Input> collect_inputs(const ParseOptions& options) {
  std::vector<Input> inputs;
  for (size_t i = 0; i < options.schemas.size(); ++i)
    inputs.push_back({fmt::format("<argument {}>", i + 1), 1, options.schemas[i]});
  if (options.schemas.empty()) {
    for (cli::NumberedLine& line : cli::non_blank_lines(std::cin))
      inputs.push_back({"<stdin>", line.number, std::move(line.text)});
  }
  return inputs;
}

int run_parse(ParseOptions options) {
  const bool json = options.sources.json = options.sources.json || options.format == "json";
  if (options.format == "yaml" && !options.source) {
    error(kParse, "--format yaml writes the registrations of --source files; give some");
    return cli::kExitUsage;
  }
  if (options.source) {
    std::vector<std::string>& files = options.sources.files;
    std::erase(files, "");  // what CLI11 stores for a --source given no value
    files.insert(files.end(), options.schemas.begin(), options.schemas.end());
    if (files.empty()) {
      error(kParse, "--source needs at least one file");
      return cli::kExitUsage;
    }
    options.sources.yaml = options.format == "yaml";
    return run_parse_sources(options.sources);
  }
  bool all_ok = true;
  std::string out;
  for (const Input& input : collect_inputs(options)) {
    schema::ParseResult result = schema::parse_schema(input.text);
    all_ok = all_ok && result.ok() && !(options.sources.werror && !result.warnings.empty());
    if (json) {
      out += schema_json::parse_result_json(result);
      out += '\n';
      continue;
    }
    if (!result.warnings.empty() || !result.ok()) {
      std::fwrite(out.data(), 1, out.size(), stdout);  // keep stdout and stderr in input order
      std::fflush(stdout);
      out.clear();
      for (const schema::SchemaError& warning : result.warnings)
        print_problem(input, warning, diagnostics::Severity::warning);
    }
    if (result.ok()) {
      out += schema::print_schema(*result.schema);
      out += '\n';
    } else {
      print_problem(input, *result.error, diagnostics::Severity::error);
    }
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  return all_ok ? cli::kExitOk : cli::kExitProblems;
}

}  // namespace

std::function<int()> bind_parse_command(CLI::App* command) {
  auto options = std::make_shared<ParseOptions>();
  cli::add_format_option(
      command, options->format, {"text", "json", "yaml"},
      "text (one canonical schema per line), json (one object per input: the canonical "
      "text and the parsed schema) or yaml (with --source: the registrations found, as a "
      "native-functions YAML that `schemac gen --target torch` accepts)");
  command->add_flag("--json", options->sources.json, "the same as --format json");
  command->add_option("SCHEMA", options->schemas,
                      "Schemas to parse; without any, each non-blank line of stdin is one schema");
  CLI::Option* source =
      command
          ->add_option(
              "--source", options->sources.files,
              "C++ (.cpp .cc .cxx .cu .h .hpp .cuh) or Python (.py) files: parse the "
              "schemas their registration calls define (m.def, Library.define, custom_op); "
              "with --source, the positional arguments are such files too")
          ->expected(0, -1);
  command->add_flag("--werror", options->sources.werror,
                    "Treat warnings (what PyTorch accepts but is questionable) as errors: exit 1");
  command->add_flag("--verbose", options->sources.verbose,
                    "With --source: list the registration calls whose schema is not a literal");
  add_build_macro_options(command, options->sources.macros);
  return [options, source] {
    options->source = source->count() > 0;
    return run_parse(*options);
  };
}

}  // namespace schemac::tool
