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

namespace schemac::cli {

// The YAML text; each schema left out (it does not parse, or its namespace is unknown) gets a
// warning in `skipped`.
std::string registrations_yaml(std::span<const sources::ScannedFile> files,
                               std::vector<schema::Diagnostic>& skipped);

}  // namespace schemac::cli
