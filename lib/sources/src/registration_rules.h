// The rules registration code gets beyond its schemas' own checks (lint.cpp runs them): lint's
// one-schema conventions (out= and in-place annotations, mutable returns) as warnings, as the
// extension profile has them, and the dispatch keys and device types implementations name.
#pragma once

#include <string>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/sources/scan.h"

namespace schemac::sources {

// lint's schema conventions for one found schema, as warnings located in the source file.
void check_conventions(const std::string& path, const FoundSchema& found,
                       std::vector<schema::Diagnostic>& out);

// unknown-dispatch-key for each key or device type of `scan` that PyTorch does not know, with
// the closest known name.
void check_keys(const std::string& path, const ScanResult& scan, std::vector<schema::Diagnostic>& out);

}  // namespace schemac::sources
