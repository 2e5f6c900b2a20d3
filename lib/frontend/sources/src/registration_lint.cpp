#include "schemac/sources/registration_lint.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <type_traits>

#include "registration_rules.h"
#include "schemac/rules/rules.h"
#include "schemac/schema/check.h"
#include "schemac/schema/parser.h"
#include "schemac/support/did_you_mean.h"
#include "schemac/tokens/calls.h"

namespace schemac::sources {

using tokens::SourcePosition, tokens::written_namespace;

namespace {

using diagnostics::Diagnostic;
using diagnostics::Location;
using diagnostics::Note;
using diagnostics::RuleInfo;
using diagnostics::Severity;

Location at(const std::string& path, SourcePosition position) {
  return Location::at(path, position.line, position.column);
}

// One definition of an operator, from a schema or from a name alone.
struct Definition {
  const std::string* path;
  SourcePosition position;
  std::string ns;          // "" when unknown
  std::string name;        // without namespace: "name.overload"
  SourcePosition library;  // the block or Library(...) it is in; 0 when none
  const tokens::ConditionPath* condition;
  bool scoped;            // in a known library (or namespaced): can clash with another definition
  bool per_file = false;  // its namespace came through a macro: compared within its file only
};

std::string without_namespace(const std::string& name) {
  size_t colons = name.find("::");
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

std::string namespace_or(const std::string& name, const std::string& fallback) {
  size_t colons = name.find("::");
  return colons == std::string::npos ? fallback : name.substr(0, colons);
}

std::string full_name(const std::string& ns, const std::string& name) {
  return ns.empty() ? name : ns + "::" + name;
}

std::vector<Definition> collect_definitions(std::span<const ScannedFile> files) {
  std::vector<Definition> definitions;
  for (const ScannedFile& file : files) {
    for (const FoundSchema& found : file.scan.schemas) {
      std::string name = tokens::operator_name_in(found.text.text());
      // A def outside any TORCH_LIBRARY block or Library object, with no namespace written, goes
      // to a library only known at run time (PyTorch's own tests make one per test): no clash.
      // Python registered inside a function body (tests do it, each with its own scoped library)
      // runs when called, maybe never twice together: no clash either.
      bool scoped =
          (found.library_position.line != 0 || !written_namespace(found.text.text()).empty()) &&
          !found.in_function;
      if (name.empty()) continue;
      definitions.push_back(
          {&file.path, found.position, resolved_namespace(found), without_namespace(name),
           found.library_position, &found.condition, scoped,
           found.namespace_from_macro && written_namespace(found.text.text()).empty()});
    }
    for (const NamedOperator& named : file.scan.named_definitions) {
      definitions.push_back(
          {&file.path, named.position, namespace_or(named.name, named.library_namespace),
           without_namespace(named.name), named.library_position, &named.condition,
           !named.in_function,
           named.namespace_from_macro && named.name.find("::") == std::string::npos});
    }
  }
  return definitions;
}

// Two definitions clash when their full names match and both can be compiled together. With an
// unknown namespace (a macro such as TORCH_EXTENSION_NAME) only definitions in one block are
// compared: separate files under one macro are often alternative builds (CPU, CUDA, ROCm), and
// blocks in one file may name different namespaces (vllm's CONCAT(TORCH_EXTENSION_NAME, _x)).
void duplicate_definitions(const std::vector<Definition>& definitions,
                           std::vector<Diagnostic>& out) {
  std::map<std::string, std::vector<const Definition*>> by_name;
  for (const Definition& d : definitions) {
    if (!d.scoped) continue;
    // A namespace a macro gave is compared within its file: files under one macro are often
    // alternative builds (CPU, CUDA, ROCm) never linked together.
    std::string key = d.ns.empty() ? fmt::format("?{}:{}:{}?{}", *d.path, d.library.line,
                                                 d.library.column, d.name)
                      : d.per_file ? fmt::format("?{}?{}::{}", *d.path, d.ns, d.name)
                                   : d.ns + "::" + d.name;
    std::vector<const Definition*>& earlier = by_name[key];
    const Definition* clash = nullptr;
    for (const Definition* e : earlier) {
      if (!tokens::mutually_exclusive(*e->condition, *d.condition)) {
        clash = e;
        break;
      }
    }
    if (clash) {
      Diagnostic diagnostic;
      diagnostic.rule = rules::duplicate_definition;
      diagnostic.location = at(*d.path, d.position);
      diagnostic.message = fmt::format("operator '{}' is defined twice", full_name(d.ns, d.name));
      diagnostic.notes.push_back(Note{at(*clash->path, clash->position), "first defined here"});
      out.push_back(std::move(diagnostic));
    }
    earlier.push_back(&d);
  }
}

void namespace_mismatches(const std::string& path, const FoundSchema& found,
                          std::vector<Diagnostic>& out) {
  std::string written = written_namespace(found.text.text());
  if (written.empty() || found.library_namespace.empty() || written == found.library_namespace) {
    return;
  }
  size_t start = found.text.text().find(written);
  Diagnostic diagnostic;
  diagnostic.rule = rules::namespace_mismatch;
  diagnostic.location = location_in(path, found.text, static_cast<uint32_t>(start),
                                    static_cast<uint32_t>(written.size()));
  diagnostic.message =
      fmt::format("schema names namespace '{}' but is defined in a library for namespace '{}'",
                  written, found.library_namespace);
  if (found.library_position.line != 0) {
    diagnostic.notes.push_back(
        Note{at(path, found.library_position),
             fmt::format("the library for '{}' is declared here", found.library_namespace)});
  }
  out.push_back(std::move(diagnostic));
}

// PyTorch defines these itself: an implementation for them needs no definition in the files.
bool defined_by_pytorch(const std::string& ns) {
  return ns == "aten" || ns == "prim" || ns == "quantized" || ns == "_quantized";
}

void implementations_without_definition(std::span<const ScannedFile> files,
                                        const std::vector<Definition>& definitions,
                                        std::span<const OperatorDefinedElsewhere> defined_elsewhere,
                                        std::vector<Diagnostic>& out) {
  std::map<std::string, bool> known;  // full names, and "?name" for unknown namespaces
  auto add = [&](const std::string& ns, const std::string& name) {
    known[full_name(ns, name)] = true;
    known["?" + name] = true;
  };
  for (const Definition& d : definitions) add(d.ns, d.name);
  for (const OperatorDefinedElsewhere& d : defined_elsewhere) add(d.ns, d.name);
  for (const ScannedFile& file : files) {
    for (const NamedOperator& impl : file.scan.implementations) {
      std::string ns = namespace_or(impl.name, impl.library_namespace);
      std::string name = without_namespace(impl.name);
      if (defined_by_pytorch(ns)) continue;
      bool found = ns.empty() ? known.count("?" + name) > 0
                              : known.count(full_name(ns, name)) > 0 || known.count(name) > 0;
      if (found) continue;
      Diagnostic diagnostic;
      diagnostic.severity = Severity::warning;
      diagnostic.rule = rules::impl_without_definition;
      diagnostic.location = at(file.path, impl.position);
      diagnostic.message = fmt::format(
          "implementation of '{}', which no given file defines (it may be defined elsewhere)",
          full_name(ns, name));
      std::vector<std::string_view> names;
      for (const auto& [known_name, unused] : known) {
        if (known_name.front() != '?') names.push_back(known_name);
      }
      std::vector<std::string> closest = support::closest_names(full_name(ns, name), names, 2);
      if (!closest.empty())
        diagnostic.message += fmt::format("; did you mean '{}'?", closest.front());
      out.push_back(std::move(diagnostic));
    }
  }
}

// What PyTorch takes but is questionable is a warning: the schema errors that carry a severity
// say so (`severity == Warning`); without the field every schema problem is an error.
template <typename SchemaProblem>
Severity severity_of(const SchemaProblem& problem) {
  if constexpr (requires { problem.severity; }) {
    using Kind = std::remove_cvref_t<decltype(problem.severity)>;
    return problem.severity == Kind::Warning ? Severity::warning : Severity::error;
  } else {
    return Severity::error;
  }
}

Diagnostic schema_diagnostic(const std::string& path, const FoundSchema& found,
                             const schema::SchemaError& error) {
  Diagnostic diagnostic;
  diagnostic.severity = severity_of(error);
  diagnostic.rule = error.rule.empty() ? rules::schema_syntax : error.rule;
  diagnostic.location = location_in(path, found.text, error.offset, error.length);
  diagnostic.message = error.message;
  return diagnostic;
}

}  // namespace

// The registry's source family (schemac/rules/rule_table.h), in its order.
std::span<const RuleInfo> source_rule_catalog() {
  static const std::vector<RuleInfo> rules = [] {
    std::vector<RuleInfo> out;
    for (const rules::RuleDef& rule : rules::family_rules(rules::Family::source))
      out.push_back(RuleInfo{rule.id, rule.severity, rule.summary});
    return out;
  }();
  return rules;
}

std::vector<DefinedOperator> defined_operators(std::span<const ScannedFile> files) {
  std::vector<DefinedOperator> out;
  for (const Definition& d : collect_definitions(files)) {
    out.push_back({full_name(d.ns, d.name), at(*d.path, d.position)});
  }
  return out;
}

std::string resolved_namespace(const FoundSchema& found) {
  std::string written = written_namespace(found.text.text());
  return written.empty() ? found.library_namespace : written;
}

Location location_in(const std::string& path, const tokens::MappedText& text, uint32_t offset,
                     uint32_t length) {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  SourcePosition start = text.position(offset);
  Location location = Location::at(path, start.line, start.column);
  if (length > 1 && offset + length <= text.size()) {
    SourcePosition last = text.position(offset + length - 1);
    // Only a range that reads straight through one literal keeps its length.
    if (last.line == start.line && last.column == start.column + length - 1) {
      location.end_column = last.column + 1;
    }
  }
  return location;
}

std::vector<Diagnostic> check_found_schema(const std::string& path, const FoundSchema& found) {
  std::vector<Diagnostic> out;
  schema::ParseResult parsed = schema::parse_schema_syntax(found.text.text());
  if (!parsed.ok()) {
    if (parsed.error) out.push_back(schema_diagnostic(path, found, *parsed.error));
    return out;
  }
  for (const schema::SchemaError& error : schema::check_schema(*parsed.schema)) {
    out.push_back(schema_diagnostic(path, found, error));
  }
  return out;
}

std::vector<Diagnostic> key_diagnostics(const std::string& path, const ScanResult& scan) {
  std::vector<Diagnostic> out;
  check_keys(path, scan, out);
  return out;
}

std::vector<Diagnostic> inference_diagnostics(const std::string& path, const ScanResult& scan) {
  std::vector<Diagnostic> out;
  for (const custom_op_inference::InferenceProblem& problem : scan.inference_problems) {
    Diagnostic diagnostic;
    diagnostic.severity = problem.rejected ? Severity::error : Severity::warning;
    diagnostic.rule = problem.rejected ? rules::custom_op_schema : rules::custom_op_not_static;
    diagnostic.location = at(path, problem.position);
    diagnostic.message = problem.message;
    out.push_back(std::move(diagnostic));
  }
  return out;
}

std::vector<Diagnostic> code_diagnostics(const std::string& path, const ScanResult& scan) {
  std::vector<Diagnostic> out = inference_diagnostics(path, scan);
  for (const ScanProblem& problem : scan.problems) {
    // Made whole at once: g++ 16 takes a Location assigned into a default one for uninitialised.
    out.push_back(
        Diagnostic{diagnostics::Severity::error,
                   problem.rule,
                   diagnostics::Location::at(path, problem.position.line, problem.position.column,
                                             std::max<uint32_t>(problem.length, 1)),
                   problem.message,
                   {},
                   {}});
  }
  return out;
}

std::vector<Diagnostic> lint_sources(std::span<const ScannedFile> files,
                                     std::span<const OperatorDefinedElsewhere> defined_elsewhere) {
  std::vector<Diagnostic> out;
  for (const ScannedFile& file : files) {
    for (Diagnostic& d : code_diagnostics(file.path, file.scan)) out.push_back(std::move(d));
    check_keys(file.path, file.scan, out);
    for (const FoundSchema& found : file.scan.schemas) {
      for (Diagnostic& d : check_found_schema(file.path, found)) out.push_back(std::move(d));
      namespace_mismatches(file.path, found, out);
    }
  }
  std::vector<Definition> definitions = collect_definitions(files);
  duplicate_definitions(definitions, out);
  implementations_without_definition(files, definitions, defined_elsewhere, out);
  diagnostics::sort_diagnostics(out);
  return out;
}

}  // namespace schemac::sources
