// Registration code read outside lint() (engine.h: scan_registration_code, read_registration_code,
// settle_registration_code, found_schemas_listing): the same config, macros, suppressions and
// severities lint() gives it, so parse --source and compat see what lint sees.
#include <algorithm>

#include <fmt/format.h>

#include "schemac/config/provider.h"
#include "schemac/engine/engine.h"
#include "schemac/schema/check.h"
#include "schemac/schema/printer.h"
#include "schemac/schema_json/schema_json.h"
#include "schemac/sources/registration_lint.h"
#include "schemac/tokens/calls.h"

namespace schemac::engine {
namespace {

// Whether `d` is an error inside the schema string `found` of `path`.
bool error_in(const Diagnostic& d, const std::string& path, const sources::FoundSchema& found) {
  if (d.severity != diagnostics::Severity::error || d.location.file != path) return false;
  const diagnostics::Location first = sources::location_in(path, found.text, 0, 1);
  const diagnostics::Location last =
      sources::location_in(path, found.text, static_cast<uint32_t>(found.text.size()), 1);
  auto before = [](const diagnostics::Location& a, const diagnostics::Location& b) {
    return a.line < b.line || (a.line == b.line && a.column <= b.column);
  };
  return before(first, d.location) && before(d.location, last);
}

// The settled finding of `problem` (a problem of the schema `found`), or null when it was
// silenced.
const Diagnostic* settled(std::span<const Diagnostic> diagnostics, const std::string& path,
                          const sources::FoundSchema& found, const schema::SchemaError& problem) {
  const diagnostics::Location at =
      sources::location_in(path, found.text, problem.offset, problem.length);
  auto it = std::find_if(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
    return d.rule == problem.rule && d.location.file == path && d.location.line == at.line &&
           d.location.column == at.column;
  });
  return it == diagnostics.end() ? nullptr : &*it;
}

// The parse result of a found schema as its settled findings leave it.
schema::ParseResult settled_result(std::span<const Diagnostic> diagnostics, const std::string& path,
                                   const sources::FoundSchema& found) {
  schema::ParseResult result = schema::parse_schema_syntax(found.text.text());
  if (!result.ok()) return result;
  for (schema::SchemaError& problem : schema::check_schema(*result.schema)) {
    const Diagnostic* d = settled(diagnostics, path, found, problem);
    if (d == nullptr) continue;
    if (d->severity != diagnostics::Severity::error) {
      result.warnings.push_back(std::move(problem));
    } else if (!result.error) {
      result.error = std::move(problem);
    }
  }
  if (result.error) result.schema.reset();
  return result;
}

// "ns::name" of a found schema, as written (its namespace when it is known).
std::string qualified_name(const sources::FoundSchema& found) {
  const std::string name = tokens::operator_name_in(found.text.text());
  const std::string ns = sources::resolved_namespace(found);
  return ns.empty() || name.find("::") != std::string::npos ? name : ns + "::" + name;
}

}  // namespace

std::optional<sources::ScannedFile> scan_registration_code(
    const std::string& path, const std::string& text, sources::Language language,
    const config::Config& config, const BuildMacros& build, std::string& why) {
  std::optional<tokens::MacroTable> macros = macros_for(config, build, why);
  if (!macros) return std::nullopt;
  sources::ScanOptions options = scan_options_from(config);
  options.macros = &*macros;
  return sources::ScannedFile{path, sources::scan_source(text, language, options)};
}

RegistrationCode read_registration_code(std::vector<Document> documents,
                                        config::ConfigProvider* provider, const Options& options) {
  RegistrationCode code;
  code.configured = configure(std::move(documents), provider, options.command_line);
  for (size_t i = 0; i < code.configured.documents.size(); ++i) {
    const Document& document = code.configured.documents[i];
    code.texts.push_back(document.text);
    std::string why;
    std::optional<sources::ScannedFile> file;
    if (std::optional<sources::Language> language =
            sources::language_of(document.path, document.text)) {
      file = scan_registration_code(document.path, document.text, *language,
                                    code.configured.configs[i], options.macros, why);
    } else {
      why = "not a C++ or Python file (.cpp .cc .cxx .cu .h .hpp .cuh .py, or such content)";
    }
    if (!file) {
      code.problems.push_back({fmt::format("{}: {}", document.path, why), {}});
      continue;
    }
    code.files.push_back(std::move(*file));
  }
  sources::resolve_across_files(code.files);  // helpers register into Library objects others bind
  for (const sources::ScannedFile& file : code.files) {
    for (const sources::FoundSchema& found : file.scan.schemas) {
      for (Diagnostic& d : sources::check_found_schema(file.path, found))
        code.findings.push_back(std::move(d));
    }
    for (Diagnostic& d : sources::code_diagnostics(file.path, file.scan))
      code.findings.push_back(std::move(d));
  }
  return code;
}

std::vector<Diagnostic> settle_registration_code(const RegistrationCode& code,
                                                 std::vector<Diagnostic> findings,
                                                 const Options& options, bool written) {
  const Configured& configured = code.configured;
  Findings found = no_findings(configured, code.texts, options);
  for (size_t i = 0; i < configured.documents.size(); ++i) {
    found.linted[i] = std::any_of(code.files.begin(), code.files.end(), [&](const auto& file) {
      return file.path == configured.documents[i].path;
    });
  }
  for (Diagnostic& d : findings) add_finding(found, configured, std::move(d));
  std::vector<Diagnostic> out =
      settle(configured, code.texts, std::move(found), options).diagnostics;
  for (const sources::ScannedFile& file : code.files) {
    for (const sources::FoundSchema& schema : file.scan.schemas) {
      schema::ParseResult parsed = written ? schema::parse_schema(schema.text.text())
                                           : schema::parse_schema_syntax(schema.text.text());
      if (parsed.ok() || !parsed.error) continue;
      if (std::any_of(out.begin(), out.end(),
                      [&](const Diagnostic& d) { return error_in(d, file.path, schema); }))
        continue;
      const diagnostics::Location at =
          sources::location_in(file.path, schema.text, parsed.error->offset, parsed.error->length);
      out.push_back(Diagnostic{
          diagnostics::Severity::error,
          rules::unusable_schema,
          at,
          fmt::format("'{}' is left out: {} its schema: {} (its {} finding is suppressed, "
                      "ignored or a warning here, but {})",
                      qualified_name(schema), written ? "PyTorch rejects" : "schemac cannot read",
                      parsed.error->message, parsed.error->rule,
                      written ? "gen cannot write it" : "there is no schema to print"),
          {},
          {}});
    }
  }
  diagnostics::sort_diagnostics(out);
  return out;
}

std::string found_schemas_listing(std::span<const sources::ScannedFile> files,
                                  std::span<const Diagnostic> diagnostics, bool json) {
  std::string out;
  for (const sources::ScannedFile& file : files) {
    for (const sources::FoundSchema& found : file.scan.schemas) {
      schema::ParseResult result = settled_result(diagnostics, file.path, found);
      if (json) {
        out += schema_json::found_schema_json(file.path, found, result) + "\n";
      } else if (result.ok()) {
        out += fmt::format("{}:{}:{}: {}\n", file.path, found.position.line, found.position.column,
                           schema::print_schema(*result.schema));
      }
    }
  }
  return out;
}

}  // namespace schemac::engine
