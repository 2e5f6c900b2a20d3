// Linting the schemas found in C++ and Python registration code: each schema's own problems
// (the schema parser's and its checks'), located at the offending character inside the string
// literal, and the rules across all the files given:
//   duplicate-definition     the same operator defined twice (a note points at the first)
//   namespace-mismatch       "a::op(...)" defined inside TORCH_LIBRARY(b, m) / Library("b", ...)
//   impl-without-definition  an implementation of an operator no given file defines (a warning:
//                            the definition may be in a file that was not given)
// and, from reading one file: rejected-at-load (what PyTorch refuses when the library loads) and
// macro-expansion-limit (macros that expand past schemac's bounds), errors;
// and, for Python custom ops whose schema comes from type hints:
//   custom-op-schema         PyTorch's infer_schema rejects the function (an error)
//   custom-op-not-static     the name, schema or namespace needs what only running the code
//                            tells, or a file not given (a warning)
#pragma once

#include <span>
#include <string>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/sources/scan.h"

namespace schemac::sources {

struct ScannedFile {
  std::string path;
  ScanResult scan;
};

// Settles the namespaces of definitions made through helpers (HelperLibrary): the Library their
// target_lib names, bound anywhere in `files`; else the Library of the helper's own module when
// that file is among them (one that defines the helper); else the helper's namespace from the
// config. What stays unknown is reported (custom-op-not-static), with what would settle it.
void resolve_across_files(std::span<ScannedFile> files);

// The rules this file adds to lint's catalog (for --list-rules and SARIF).
std::span<const diagnostics::RuleInfo> source_rule_catalog();

// An operator the files define (by schema, or by name alone): "ns::name.overload" ("name" when
// the namespace is unknown), and where. For rules that combine registration code with YAML.
struct DefinedOperator {
  std::string name;
  diagnostics::Location location;
};
std::vector<DefinedOperator> defined_operators(std::span<const ScannedFile> files);

// The namespace a found schema registers into: the one written in it, else the enclosing
// library's; "" when neither is known.
std::string resolved_namespace(const FoundSchema& found);

// The file location of bytes [offset, offset + length) of a schema text; a range that crosses
// lines or literals shrinks to its first character.
diagnostics::Location location_in(const std::string& path, const tokens::MappedText& text,
                                  uint32_t offset, uint32_t length);

// The parser's error or the checks' findings for one found schema, located in the source file.
std::vector<diagnostics::Diagnostic> check_found_schema(const std::string& path,
                                                        const FoundSchema& found);

// The unknown-dispatch-key diagnostics of one scanned file (with a fix-it where the key is written
// as it reads).
std::vector<diagnostics::Diagnostic> key_diagnostics(const std::string& path,
                                                     const ScanResult& scan);

// The custom-op-schema / custom-op-not-static diagnostics of one scanned file.
std::vector<diagnostics::Diagnostic> inference_diagnostics(const std::string& path,
                                                           const ScanResult& scan);

// What reading one file found besides its schemas' own problems: its custom ops' inference
// diagnostics (above), registrations PyTorch refuses when the library loads (rejected-at-load)
// and macros expanding past their bounds (macro-expansion-limit).
std::vector<diagnostics::Diagnostic> code_diagnostics(const std::string& path,
                                                      const ScanResult& scan);

// An operator defined outside the registration code (in a native-functions YAML file given with
// it): an implementation of it needs no definition in the code.
struct OperatorDefinedElsewhere {
  std::string ns;    // "" when the schema names none
  std::string name;  // without the namespace: "name.overload"
};

// Every found schema checked, then the rules across files; sorted by file, line and column.
std::vector<diagnostics::Diagnostic> lint_sources(
    std::span<const ScannedFile> files,
    std::span<const OperatorDefinedElsewhere> defined_elsewhere = {});

}  // namespace schemac::sources
