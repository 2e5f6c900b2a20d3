// Adoption: the registrations found in C++ and Python code (lib/frontend/sources' scan) as a
// native-functions-style YAML (`schemac parse --source --format yaml`, and compat's view of
// registration code) that `schemac gen --target torch` accepts — one entry per
// defined schema, its func namespaced, and a dispatch section from the implementations whose key
// and C++ kernel are known (`TORCH_LIBRARY_IMPL(ns, CPU, m) { m.impl("op", &kernel); }`,
// `m.impl("op", torch::kCUDA, &kernel)`). Only what gen's gate accepts is written (the entries
// are run through it, and what it refuses is left out); everything left out is named once.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/sources/registration_lint.h"

namespace schemac::adopt {

// Where the YAML's lines came from: for each line (index 0 is line 1), the file and the place of
// the schema string its entry was made from ("" for none).
struct YamlLineOrigin {
  std::string file;
  tokens::SourcePosition position;
  // The schema text the line's func came from (its bytes map to the source); null for other
  // lines (a dispatch line's origin is its m.impl). Points into the ScannedFiles given.
  const tokens::MappedText* schema = nullptr;
};

// The YAML text. What is left out is said once in `problems`: a schema that does not parse or a
// dispatch key that is not one by its error (a note added when `problems` holds it already, as
// after the caller checked the schemas), a failing custom op by its diagnostic, anything else by a
// `yaml-skipped` warning (a note for `m.def("name", fn)`, whose schema only loading tells).
// `origins`, when given, gets each line's origin.
// `unreadable`, when given, gets the names ("ns::op.overload") of the operators defined but left
// out for a problem of their own (a schema that does not parse, one gen refuses).
std::string registrations_yaml(std::span<const sources::ScannedFile> files,
                               std::vector<diagnostics::Diagnostic>& problems,
                               std::vector<YamlLineOrigin>* origins = nullptr,
                               std::vector<std::string>* unreadable = nullptr);

// A finding about the YAML `registrations_yaml` wrote for `path` (a location in `yaml`, a file
// named `path`), moved to the source it came from: the word it names inside the schema literal
// when that can be found (an argument's line in a schema written over many lines), else where
// the schema or the m.impl starts. Its notes move too; a fix is dropped (it names bytes of the
// YAML, which the source does not have). Findings in other files are left as they are.
void place_in_source(diagnostics::Diagnostic& d, const std::string& path, const std::string& yaml,
                     const std::vector<YamlLineOrigin>& origins);

}  // namespace schemac::adopt
