// `schemac parse --source FILE... --format yaml`: the registrations found in C++ and Python code
// as a native-functions-style YAML that `schemac gen --target torch` accepts — one entry per
// defined schema, its func namespaced, and a dispatch section from the implementations whose key
// and C++ kernel are known (`TORCH_LIBRARY_IMPL(ns, CPU, m) { m.impl("op", &kernel); }`).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/sources/lint.h"

namespace schemac::tool {

// Where the YAML's lines came from: for each line (index 0 is line 1), the file and the place of
// the schema string its entry was made from ("" for none).
struct YamlLineOrigin {
  std::string file;
  tokens::SourcePosition position;
};

// The YAML text; each schema left out (it does not parse, or its namespace is unknown) gets a
// warning in `skipped`. `origins`, when given, gets each line's origin.
std::string registrations_yaml(std::span<const sources::ScannedFile> files,
                               std::vector<diagnostics::Diagnostic>& skipped,
                               std::vector<YamlLineOrigin>* origins = nullptr);

}  // namespace schemac::tool
