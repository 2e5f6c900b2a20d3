// The rules over all the files given together (lint_inputs.h).
#include "schemac/lint/lint_inputs.h"

#include <map>

#include <fmt/format.h>

#include "lint_rules_internal.h"
#include "schemac/lint/rule_selection.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/parser.h"

namespace schemac::lint {

using diagnostics::Diagnostic, diagnostics::Location, native_functions::NativeFunctionsFile,
    schema::operator_full_name, schema::parse_schema_syntax;

namespace {

// One operator definition: `name` is "name.overload" without the namespace.
struct Definition {
  std::string ns;  // "" when none is known
  std::string name;
  Location location;
  size_t input = 0;  // which YAML file, in the order given
};

std::string display_name(const std::string& ns, const std::string& name) {
  return ns.empty() ? name : ns + "::" + name;
}

std::string namespace_of(const std::string& written, const std::string& fallback) {
  const size_t colons = written.find("::");
  return colons == std::string::npos ? fallback : written.substr(0, colons);
}

std::string without_namespace(const std::string& written) {
  const size_t colons = written.find("::");
  return colons == std::string::npos ? written : written.substr(colons + 2);
}

std::vector<Definition> yaml_definitions(std::span<const NativeFunctionsFile* const> yaml) {
  std::vector<Definition> out;
  for (size_t i = 0; i < yaml.size(); ++i) {
    for (const native_functions::NativeFunction& f : yaml[i]->functions) {
      if (!f.schema) continue;
      const schema::OperatorName& op = f.schema->op;
      out.push_back(
          {std::string(op.ns()), operator_full_name(op.base_name(), op.overload), f.location, i});
    }
  }
  return out;
}

// The registration code's definitions that can clash with another file's: those in a known
// namespace, outside function bodies (tests register their own scoped libraries there).
std::vector<Definition> source_definitions(std::span<const sources::ScannedFile> files) {
  std::vector<Definition> out;
  for (const sources::ScannedFile& file : files) {
    for (const sources::FoundSchema& found : file.scan.schemas) {
      schema::ParseResult parsed = parse_schema_syntax(found.text.text());
      if (!parsed.ok() || found.in_function) continue;
      const schema::OperatorName& op = parsed.schema->op;
      out.push_back({sources::resolved_namespace(found),
                     operator_full_name(op.base_name(), op.overload),
                     Location::at(file.path, found.position.line, found.position.column)});
    }
    for (const sources::NamedOperator& named : file.scan.named_definitions) {
      if (named.in_function) continue;
      out.push_back({namespace_of(named.name, named.library_namespace),
                     without_namespace(named.name),
                     Location::at(file.path, named.position.line, named.position.column)});
    }
  }
  return out;
}

// The schema rules', signature rules' and schema-release findings of each schema in registration
// code.
void check_found_schemas(const sources::ScannedFile& file, const LintOptions& options,
                         std::vector<Diagnostic>& out) {
  NativeFunctionsFile entries;
  entries.document.file = file.path;
  lint::Reporter reporter(entries, out);
  for (const sources::FoundSchema& found : file.scan.schemas) {
    schema::ParseResult parsed = parse_schema_syntax(found.text.text());
    if (!parsed.ok()) continue;  // the sources' own check reports it
    native_functions::NativeFunction function;
    function.location = Location::at(file.path, found.position.line, found.position.column);
    function.func = found.text.text();  // what fix-its rewrite, mapped back by the schema locator
    function.schema = std::move(parsed.schema);
    reporter.set_schema_locator([&](schema::TextRange range) {
      return sources::location_in(file.path, found.text, range.begin, range.end - range.begin);
    });
    lint::check_signature_rules(reporter, function);
    lint::check_schema_release_forms(reporter, function, options.torch_version);
  }
}

}  // namespace

std::vector<Diagnostic> lint_registration_code(std::span<const sources::ScannedFile> files,
                                               std::span<const NativeFunctionsFile* const> yaml,
                                               const LintOptions& options) {
  if (files.empty()) return {};  // every finding here is about registration code
  std::vector<sources::OperatorDefinedElsewhere> defined_in_yaml;
  for (Definition& d : yaml_definitions(yaml))
    defined_in_yaml.push_back({std::move(d.ns), std::move(d.name)});
  std::vector<Diagnostic> out = sources::lint_sources(files, defined_in_yaml);
  for (const sources::ScannedFile& file : files) check_found_schemas(file, options, out);
  select_source_rules(out, options);
  diagnostics::sort_diagnostics(out);
  return out;
}

std::vector<Diagnostic> check_native_functions_files(
    std::span<const NativeFunctionsFile* const> files, const LintOptions& options) {
  std::vector<Diagnostic> out;
  for (const NativeFunctionsFile* file : files) {
    for (Diagnostic& d : check_native_functions(*file, options)) out.push_back(std::move(d));
  }
  for (Diagnostic& d : check_duplicates_across_files(files, {})) out.push_back(std::move(d));
  return out;
}

std::vector<Diagnostic> check_duplicates_across_files(
    std::span<const NativeFunctionsFile* const> yaml, std::span<const sources::ScannedFile> files) {
  // A definition is compared with the YAML files' (within one file duplicate-overload reports
  // it): one YAML file alone, or none, has nothing to compare (the editor's common case).
  if (yaml.empty() || (yaml.size() == 1 && files.empty())) return {};
  std::vector<Diagnostic> out;
  std::map<std::string, Definition> first;  // by "ns::name.overload" ("::name" without namespace)
  auto report = [&](const Definition& again, const Definition& earlier) {
    Diagnostic& d = lint::report_rule(
        out, rules::duplicate_operator, again.location,
        fmt::format("operator '{}' is defined twice", display_name(again.ns, again.name)));
    d.notes.push_back(diagnostics::Note{earlier.location, "first defined here"});
  };
  for (const Definition& def : yaml_definitions(yaml)) {
    auto [it, inserted] = first.emplace(def.ns + "::" + def.name, def);
    // Within one file duplicate-overload reports it.
    if (!inserted && it->second.input != def.input) report(def, it->second);
  }
  for (const Definition& def : source_definitions(files)) {
    if (def.ns.empty()) continue;  // a namespace known only at build time
    if (auto it = first.find(def.ns + "::" + def.name); it != first.end()) report(def, it->second);
  }
  return out;
}

}  // namespace schemac::lint
