// The rules registration code gets beyond its schemas' own checks (lint.cpp runs them): the
// dispatch keys and device types implementations name. (lib/frontend/lint adds its signature rules
// of the extension profile to each found schema: schemac/lint/lint_inputs.h.)
#pragma once

#include <string>
#include <vector>

#include "schemac/diagnostics/diagnostic.h"
#include "schemac/sources/scan.h"

namespace schemac::sources {

// unknown-dispatch-key for each key or device type of `scan` that PyTorch does not know, with
// the closest known name.
void check_keys(const std::string& path, const ScanResult& scan,
                std::vector<diagnostics::Diagnostic>& out);

}  // namespace schemac::sources
